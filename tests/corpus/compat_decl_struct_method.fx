// Concern: a struct with member functions using `this.` (HLSL 2016+ style helpers in an otherwise D3D9-style effect).
sampler s0;

float4 Shadow = float4(0.1, 0.1, 0.2, 1);
float4 Highlight = float4(1, 0.9, 0.7, 1);
float Threshold = 0.5;

struct Ramp
{
    float4 low;
    float4 high;
    float split;

    float4 Shade(float level)
    {
        return level < this.split ? this.low : this.high;
    }
};

float4 ToonPS(float2 uv : TEXCOORD0) : COLOR0
{
    Ramp ramp;
    ramp.low = Shadow;
    ramp.high = Highlight;
    ramp.split = Threshold;
    float4 c = tex2D(s0, uv);
    return ramp.Shade(dot(c.rgb, float3(0.3, 0.59, 0.11))) * c.a;
}

technique Toon
{
    pass P0
    {
        PixelShader = compile ps_2_0 ToonPS();
    }
}
