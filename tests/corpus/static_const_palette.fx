// Concern: `static const` arrays (a 3-tap kernel and a 4-colour palette) indexed in loops and by a computed int.
sampler2D TextureSampler : register(s0);

static const float Kernel[3] = { 0.25, 0.5, 0.25 };
static const float3 Palette[4] =
{
    float3(0.1, 0.1, 0.3),
    float3(0.2, 0.6, 0.3),
    float3(0.9, 0.7, 0.2),
    float3(1.0, 1.0, 0.9)
};

float2 TexelSize;
float Brightness;

float4 PalettePS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = 0;
    for (int i = 0; i < 3; i++)
    {
        c += tex2D(TextureSampler, uv + TexelSize * (i - 1)) * Kernel[i];
    }
    int index = (int)(saturate(c.r) * 3.99);
    return float4(Palette[index] * Brightness, 1.0);
}

technique Posterize
{
    pass P0
    {
        PixelShader = compile ps_2_0 PalettePS();
    }
}
