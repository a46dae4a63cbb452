// Concern: uniform storage qualifiers old effects use (`uniform`, `extern`, `shared`, non-static `const` with an initializer) and a `static const` table read by index.
sampler s0;

uniform float4 Tint = float4(1, 0.9, 0.8, 1);
extern float Amount = 0.5;
shared float Bias;
const float Contrast = 1.25;
static const float3 Weights[3] = { float3(0.5, 0.3, 0.2), float3(0.2, 0.6, 0.2), float3(0.1, 0.2, 0.7) };

float4 PS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(s0, uv);
    float3 mixed = float3(dot(c.rgb, Weights[0]), dot(c.rgb, Weights[1]), dot(c.rgb, Weights[2]));
    float3 graded = (lerp(c.rgb, mixed, Amount) - 0.5) * Contrast + 0.5 + Bias;
    return float4(graded, c.a) * Tint;
}

technique Grade
{
    pass P0
    {
        PixelShader = compile ps_2_0 PS();
    }
}
