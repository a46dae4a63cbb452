// Concern: vignette: pow/saturate falloff from the centre driven by two scalar uniforms.
sampler s0;

float Power;
float Radius;

float4 PixelShaderFunction(float2 coords : TEXCOORD0) : COLOR0
{
    float4 color = tex2D(s0, coords);
    float2 d = coords - float2(0.5, 0.5);
    float falloff = 1.0 - pow(saturate(dot(d, d) * Radius), Power);
    color.rgb *= falloff;
    return color;
}

technique Vignette
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
