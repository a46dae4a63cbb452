// Concern: what fxc lets through: uniform defaults folded from intrinsic calls (normalize, acos), a uniform array element and an int uniform written by shader code, and a helper whose last path has no return (a warning).
sampler TextureSampler : register(s0);

static const float PI = acos(-1);
const float3 LumCoeff = normalize(float3(0.3, 0.59, 0.11));
float Angle = PI / 4;
float2 Offsets[2];
int Steps;

float Band(float l)
{
    if (l < 0.5)
        return l * 2;
    else if (l >= 0.5)
        return 1;
}

float4 LenientPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    Steps += 1;
    Offsets[1] *= Steps;
    float4 c = tex2D(TextureSampler, uv + Offsets[1]);
    float b = Band(dot(c.rgb, LumCoeff));
    return float4(c.rgb * b * cos(Angle), c.a) * color;
}

technique Lenient
{
    pass P0
    {
        PixelShader = compile ps_2_0 LenientPS();
    }
}
