// Concern: two legacy `texture` + sampler_state pairs on explicit registers s0/s1, blended by a scalar.
texture BaseTexture;
sampler2D BaseSampler : register(s0) = sampler_state
{
    Texture = <BaseTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = Point;
    AddressU = Clamp;
    AddressV = Clamp;
};

texture DetailTexture;
sampler2D DetailSampler : register(s1) = sampler_state
{
    Texture = <DetailTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = Point;
    AddressU = Wrap;
    AddressV = Wrap;
};

float BlendAmount;

float4 DetailPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 base = tex2D(BaseSampler, uv);
    float4 detail = tex2D(DetailSampler, uv * 2.0);
    float4 result = lerp(base, base * detail * 2.0, BlendAmount);
    return result * color;
}

technique Detail
{
    pass P0
    {
        PixelShader = compile ps_2_0 DetailPS();
    }
}
