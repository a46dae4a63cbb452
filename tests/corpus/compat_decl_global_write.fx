// Concern: shader code assigning to its own uniforms (`Intensity = saturate(Intensity)`, `Tint.a *= Fade`), which fxc compiles as writes to per-invocation copies.
sampler s0;

float Intensity = 2.0;
float Fade = 0.5;
float4 Tint = float4(1, 1, 1, 1);

float4 FlashPS(float2 uv : TEXCOORD0) : COLOR0
{
    Intensity = saturate(Intensity * 0.5);
    Tint.a *= Fade;
    Tint.rgb += Intensity * 0.25;
    return tex2D(s0, uv) * Tint;
}

technique Flash
{
    pass P0
    {
        PixelShader = compile ps_2_0 FlashPS();
    }
}
