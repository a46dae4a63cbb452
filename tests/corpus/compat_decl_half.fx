// Concern: `half`/`half4` and `min16float` uniforms and locals (mobile-minded post-processing), which fxc treats as float.
sampler s0;

half4 Tint = half4(1.0, 0.8, 0.6, 1.0);
half Contrast = 1.5;
min16float Offset = 0.1;

half4 ContrastPS(float2 uv : TEXCOORD0) : COLOR0
{
    half4 c = tex2D(s0, uv);
    half3 adjusted = (c.rgb - 0.5h) * Contrast + 0.5h + Offset;
    return half4(saturate(adjusted), c.a) * Tint;
}

technique Contrast
{
    pass P0
    {
        PixelShader = compile ps_2_0 ContrastPS();
    }
}
