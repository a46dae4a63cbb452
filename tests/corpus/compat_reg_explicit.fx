// Concern: explicit `register(cN)` placements out of declaration order, with unplaced uniforms filling the gaps (fxc's allocation, which mgfxc's record order follows).
sampler TextureSampler : register(s0);

float4 Tint;
float Amount : register(c0);
float4 Offset : register(c3);
float Scale;

float4 PS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(TextureSampler, uv) * Tint * Amount * Scale * color + Offset;
}

technique Registers
{
    pass P0
    {
        PixelShader = compile ps_2_0 PS();
    }
}
