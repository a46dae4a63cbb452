// Concern: three samplers whose declaration order differs from their registers (s2 declared first); a mask picks between two layers.
Texture2D MaskTexture;
sampler2D MaskSampler : register(s2) = sampler_state
{
    Texture = <MaskTexture>;
};

Texture2D LayerA;
sampler2D LayerASampler : register(s0) = sampler_state
{
    Texture = <LayerA>;
};

Texture2D LayerB;
sampler2D LayerBSampler : register(s1) = sampler_state
{
    Texture = <LayerB>;
};

float4 MaskWeights;

float4 MaskPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 a = tex2D(LayerASampler, uv);
    float4 b = tex2D(LayerBSampler, uv);
    float m = saturate(dot(tex2D(MaskSampler, uv), MaskWeights));
    return lerp(a, b, m);
}

technique Masked
{
    pass P0
    {
        PixelShader = compile ps_2_0 MaskPS();
    }
}
