// Concern: `int` and `bool` uniform arrays (each element carried as one float register on GL) indexing another array.
sampler2D TextureSampler : register(s0);

float4 Palette[4];
int Order[3];
bool Enabled[3];

float4 ArrayPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(TextureSampler, uv);
    float3 sum = 0;
    for (int i = 0; i < 3; i++)
    {
        if (Enabled[i])
        {
            sum += Palette[Order[i]].rgb * (i + 1) / 6.0;
        }
    }
    return float4(sum * c.rgb, c.a);
}

technique OrderedPalette
{
    pass P0
    {
        PixelShader = compile ps_3_0 ArrayPS();
    }
}
