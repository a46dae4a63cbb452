// Concern: values a loop re-initialises every iteration from something built before it: a struct copied and one member moved in a `do` loop beside a coordinate the loop carries on purpose, a row of a matrix product moved after a `continue` in a `while` loop.
sampler TextureSampler : register(s0);

float2 Step;
float4 Tint;
float2x2 Warp;

struct Tap
{
    float2 uv;
    float weight;
};

float4 ShapesPS(float4 color : COLOR0, float2 texCoord : TEXCOORD0) : COLOR0
{
    Tap start;
    start.uv = texCoord;
    start.weight = 0.25;

    float4 sum = 0;
    float2 drift = texCoord;
    int i = 0;
    do
    {
        Tap t = start;
        t.uv.x += i * Step.x;
        t.weight *= Tint.a;
        sum += tex2D(TextureSampler, t.uv) * t.weight;
        drift.y += Step.y;
        sum += tex2D(TextureSampler, drift) * 0.1;
        i++;
    } while (i < 3);

    float2x2 base = mul(float2x2(color.rg, color.ba), Warp);
    int k = 0;
    while (k < 3)
    {
        float2x2 m = base;
        k++;
        if (k == 2)
            continue;
        m[1] += Step * k;
        sum.rg += mul(m, Warp)[0] * 0.125;
        sum.ba += mul(m, Warp)[1] * 0.125;
    }
    return sum * Tint * color;
}

technique Shapes
{
    pass P0
    {
        PixelShader = compile ps_3_0 ShapesPS();
    }
}
