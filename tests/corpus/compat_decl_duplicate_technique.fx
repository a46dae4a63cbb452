// Concern: two techniques with the same name (a copy-paste habit mgfxc accepts); both are kept in order, and MonoGame's lookup by name finds the first.
sampler s0;
float4 Tint = float4(1, 0.5, 0.5, 1);

float4 TintPS(float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * Tint;
}

float4 InvertPS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(s0, uv);
    return float4(1 - c.rgb, c.a);
}

technique Sprite
{
    pass P0 { PixelShader = compile ps_2_0 TintPS(); }
}

technique Sprite
{
    pass P0 { PixelShader = compile ps_2_0 InvertPS(); }
}
