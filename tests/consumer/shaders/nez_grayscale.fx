// Concern: Nez-style grayscale with a scalar uniform blending between colour and luminance.
sampler s0;

float Amount;

float4 PixelShaderFunction(float2 coords : TEXCOORD0) : COLOR0
{
    float4 color = tex2D(s0, coords);
    float gray = dot(color.rgb, float3(0.3, 0.59, 0.11));
    return float4(lerp(color.rgb, float3(gray, gray, gray), Amount), color.a);
}

technique Grayscale
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
