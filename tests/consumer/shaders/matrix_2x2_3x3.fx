// Concern: float2x2 (texture-coordinate rotation) and float3x3 (colour transform) uniforms.
sampler2D TextureSampler : register(s0);

float2x2 UvTransform;
float3x3 ColorTransform;

float4 TransformPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float2 st = mul(uv - 0.5, UvTransform) + 0.5;
    float4 c = tex2D(TextureSampler, st);
    return float4(mul(c.rgb, ColorTransform), c.a);
}

technique Transform
{
    pass P0
    {
        PixelShader = compile ps_2_0 TransformPS();
    }
}
