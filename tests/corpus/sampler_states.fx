// Concern: sampler_state members: Border + BorderColor, Mirror/Clamp, MipFilter = None, Anisotropic with MaxAnisotropy/MaxMipLevel/MipLodBias.
texture BorderTexture;
sampler2D BorderSampler = sampler_state
{
    Texture = <BorderTexture>;
    Filter = Point;
    AddressU = Border;
    AddressV = Border;
    BorderColor = 0xFF8040C0;
};

texture MirrorTexture;
sampler2D MirrorSampler = sampler_state
{
    Texture = <MirrorTexture>;
    MinFilter = Linear;
    MagFilter = Point;
    MipFilter = None;
    AddressU = Mirror;
    AddressV = Clamp;
    MaxAnisotropy = 8;
};

texture AnisoTexture;
sampler2D AnisoSampler = sampler_state
{
    Texture = <AnisoTexture>;
    MinFilter = Anisotropic;
    MagFilter = Linear;
    MipFilter = Linear;
    MaxAnisotropy = 16;
    MaxMipLevel = 2;
    MipLodBias = 0.5;
    AddressW = Clamp;
};

float3 Weights;

float4 StatesPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 border = tex2D(BorderSampler, uv * 1.5 - 0.25);
    float4 mirror = tex2D(MirrorSampler, uv * 2.0);
    float4 aniso = tex2D(AnisoSampler, uv);
    return border * Weights.x + mirror * Weights.y + aniso * Weights.z;
}

technique SamplerStates
{
    pass P0
    {
        PixelShader = compile ps_2_0 StatesPS();
    }
}
