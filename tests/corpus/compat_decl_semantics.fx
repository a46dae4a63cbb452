// Concern: semantics on uniforms and textures (`float3 LightDirection : Direction`, `texture NormalMap : Normal`), as FX Composer-era effects write them.
float3 LightDirection : Direction = float3(0.0, 0.0, -1.0);
float4 LightColor : Diffuse = float4(1.0, 0.9, 0.8, 1.0);
float AmbientLevel : Ambient = 0.2;

texture NormalMap : Normal;
sampler NormalSampler = sampler_state
{
    Texture = <NormalMap>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = None;
    AddressU = Clamp;
    AddressV = Clamp;
};

float4 LitPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float3 n = tex2D(NormalSampler, uv).xyz * 2 - 1;
    float light = saturate(dot(n, -LightDirection)) + AmbientLevel;
    return float4(LightColor.rgb * light, 1) * color;
}

technique NormalMapped
{
    pass P0
    {
        PixelShader = compile ps_2_0 LitPS();
    }
}
