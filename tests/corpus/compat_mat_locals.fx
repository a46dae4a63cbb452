// Concern: non-square matrices as locals and temporaries: a float4x3 accumulated from scaled uniforms (`m = 0; m += W * s`), a cast to float3x3, a float2x3 constructor, rows (`m[3]`) and elements (`W._m01`, `k[1][2]`), a transpose of a local, and matrix products of non-square shapes in both orders.
float4x3 W;
float3x4 C;
float4x3 Pal[2];

float4 LocalsPS(float2 uv : TEXCOORD0) : COLOR0
{
    float4x3 m = 0;
    m += W * uv.x;
    m += Pal[1] * uv.y;

    float3x3 r = (float3x3)m;
    float3 a = mul(float3(uv, 1), r);

    float2x3 k = float2x3(uv.x, 0.2, 0.3,
                          0.4, uv.y, 0.6);
    float3 b = mul(uv, k);
    float3 t = mul(transpose(k), float2(0.5, 0.25));

    float3 row = W[2] + m[3];
    float e = W._m01 + m._m30 + k[1][2] + C._m23;

    float4x4 wc = mul(W, C);
    float3x3 cw = mul(C, W);
    float4 p = mul(float4(uv, 0.5, 1), wc);
    float3 q = mul(cw, float3(uv, 1));
    float2x3 kr = mul(k, r);
    float3 s = mul(float2(0.3, 0.6), kr);

    float3 rgb = a * 0.3 + b * 0.2 + t * 0.2 + row * 0.1 + q * 0.05 + s * 0.2 + p.xyz * 0.05;
    return float4(saturate(rgb), saturate(e * 0.2 + p.w * 0.1));
}

technique Locals
{
    pass P0
    {
        PixelShader = compile ps_3_0 LocalsPS();
    }
}
