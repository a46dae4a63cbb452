// Concern: Nez scanlines: `sin` of a uniform-scaled texture coordinate darkens alternating lines.
sampler s0;

float Attenuation;
float LinesFactor;

float4 PixelShaderFunction(float2 coords : TEXCOORD0) : COLOR0
{
    float4 color = tex2D(s0, coords);
    float scanline = sin(coords.y * LinesFactor) * Attenuation;
    color.rgb -= scanline;
    return color;
}

technique Scanlines
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
