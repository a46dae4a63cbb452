// Concern: uniform arrays of vectors and scalars in a pixel shader, read in a loop and with a dynamic index.
sampler2D TextureSampler : register(s0);

float4 Colors[4];
float Weights[4];

float4 ArrayPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(TextureSampler, uv);
    float4 mixed = 0;
    for (int i = 0; i < 4; i++)
    {
        mixed += Colors[i] * Weights[i];
    }
    int pick = (int)(c.g * 3.99);
    return float4(mixed.rgb * 0.5 + Colors[pick].rgb * 0.5 * c.b, c.a);
}

technique Palette
{
    pass P0
    {
        PixelShader = compile ps_3_0 ArrayPS();
    }
}
