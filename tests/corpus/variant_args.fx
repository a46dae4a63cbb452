// Concern: `compile ps_2_0 PS(true)` literal arguments to `uniform` entry parameters select a variant per technique.
sampler s0;

float4 Tint;

float4 VariantPS(float2 uv : TEXCOORD0, uniform bool grayscale, uniform float boost) : COLOR0
{
    float4 c = tex2D(s0, uv);
    if (grayscale)
    {
        float g = dot(c.rgb, float3(0.3, 0.59, 0.11));
        c.rgb = float3(g, g, g);
    }
    return float4(c.rgb * boost, c.a) * Tint;
}

technique Gray
{
    pass P0
    {
        PixelShader = compile ps_2_0 VariantPS(true, 0.75);
    }
}

technique Colored
{
    pass P0
    {
        PixelShader = compile ps_2_0 VariantPS(false, 1.0);
    }
}
