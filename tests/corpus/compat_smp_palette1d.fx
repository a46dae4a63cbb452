// Concern: a palette lookup through `texture1D` + `sampler1D` + `tex1D` (bound as a 2D texture and sampled at (x, x) on MonoGame's GL runtime).
sampler s0 : register(s0);
texture1D Palette;
sampler1D PaletteSampler : register(s1) = sampler_state
{
    Texture = <Palette>;
};

float PaletteShift = 0.0;

float4 PalettePS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float index = tex2D(s0, uv).r;
    return tex1D(PaletteSampler, frac(index + PaletteShift)) * color;
}

technique PaletteSwap
{
    pass P0
    {
        PixelShader = compile ps_2_0 PalettePS();
    }
}
