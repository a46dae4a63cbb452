// Concern: float2x3, float3x2, float3x4 and float4x2 uniforms multiplied in both orders, and a transposed one (GLSL 1.10 has no non-square matrices).
float2x3 A;
float3x2 B;
float3x4 C;
float4x2 D;

float4 ShapesPS(float2 uv : TEXCOORD0) : COLOR0
{
    float3 r1 = mul(uv, A);
    float3 r2 = mul(B, uv);
    float3 r3 = mul(C, float4(uv, 0.5, 1));
    float2 r4 = mul(float4(uv, 0.25, 1), D);
    float3 r5 = mul(transpose(A), uv);
    float3 rgb = saturate(r1 * 0.3 + r2 * 0.3 + r3 * 0.2 + r5 * 0.2);
    return float4(rgb, saturate(r4.x * 0.5 + r4.y * 0.5));
}

technique Shapes
{
    pass P0
    {
        PixelShader = compile ps_2_0 ShapesPS();
    }
}
