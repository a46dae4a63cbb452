// Concern: Nez-style bare `sampler s0;` + tex2D + ps_2_0 post-process: invert RGB, keep alpha.
sampler s0;

float4 PixelShaderFunction(float2 coords : TEXCOORD0) : COLOR0
{
    float4 color = tex2D(s0, coords);
    return float4(1.0 - color.rgb, color.a);
}

technique Invert
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
