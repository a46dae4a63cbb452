// Concern: uniform arrays passed whole to helper functions, as kernel and palette code does: a float4 weight list and a float4x4 array handed to functions that loop over them.
float4 Weights[3];
float4x4 Transforms[2];

float4 Blend(float4 w[3], float2 uv)
{
    return w[0] * uv.x + w[1] * uv.y + w[2] * (1 - uv.x);
}

float4 Transform(float4x4 m[2], float4 v)
{
    return mul(v, m[0]) * 0.5 + mul(v, m[1]) * 0.5;
}

float4 WholePS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = Blend(Weights, uv);
    float4 t = Transform(Transforms, float4(uv, 0.5, 1));
    return saturate(c * 0.5 + t * 0.5);
}

technique Whole
{
    pass P0
    {
        PixelShader = compile ps_3_0 WholePS();
    }
}
