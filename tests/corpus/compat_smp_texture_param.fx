// Concern: effect-style `texture` types where D3D9 code sometimes writes them besides globals: a helper taking the texture next to its sampler, and a material struct with a texture member (both never sampled through; the sampler does the work).
texture2D BaseTexture;
sampler BaseSampler = sampler_state { Texture = <BaseTexture>; };

float4 Tint = float4(1, 1, 1, 1);

struct Material
{
    float4 Color;
    texture Normals;
};

float4 SampleLayer(texture2D layer, sampler2D s, float2 uv)
{
    return tex2D(s, uv);
}

float4 TintPS(float2 uv : TEXCOORD0) : COLOR0
{
    Material m;
    m.Color = Tint;
    return SampleLayer(BaseTexture, BaseSampler, uv) * m.Color;
}

technique Tinted
{
    pass P0
    {
        PixelShader = compile ps_2_0 TintPS();
    }
}
