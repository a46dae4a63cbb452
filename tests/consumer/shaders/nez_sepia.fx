// Concern: Nez sepia: `: COLOR0` return semantic, dot-product luminance, float3 tone uniform with a default.
sampler s0;

float3 SepiaTone = float3(1.2, 1.0, 0.8);

float4 PixelShaderFunction(float2 coords : TEXCOORD0) : COLOR0
{
    float4 color = tex2D(s0, coords);
    float intensity = dot(color.rgb, float3(0.3, 0.59, 0.11));
    color.rgb = intensity * SepiaTone;
    return color;
}

technique Sepia
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
