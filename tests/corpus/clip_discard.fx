// Concern: `clip` against a uniform alpha threshold and an explicit `discard` on a colour condition.
sampler2D TextureSampler : register(s0);

float AlphaThreshold;
float RedCutoff;

float4 CutoutPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(TextureSampler, uv);
    clip(c.a - AlphaThreshold);
    if (c.r > RedCutoff)
    {
        discard;
    }
    return c * color;
}

technique Cutout
{
    pass P0
    {
        PixelShader = compile ps_2_0 CutoutPS();
    }
}
