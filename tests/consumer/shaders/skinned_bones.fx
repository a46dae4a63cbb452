// Concern: SkinnedEffect-like bone palette: `float4x4 Bones[16]` indexed dynamically by int4 BLENDINDICES0, weighted by BLENDWEIGHT0.
#define SKINNED_EFFECT_MAX_BONES   16

float4x4 Bones[SKINNED_EFFECT_MAX_BONES];
float4x4 ViewProj;
float4 BoneTint;

struct VSInputSkinned
{
    float4 Position : POSITION0;
    int4   Indices  : BLENDINDICES0;
    float4 Weights  : BLENDWEIGHT0;
    float4 Color    : COLOR0;
};

struct VSOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

VSOutput VSSkinned(VSInputSkinned vin)
{
    VSOutput vout;
    float4x4 skinning = 0;
    [unroll]
    for (int i = 0; i < 2; i++)
    {
        skinning += Bones[vin.Indices[i]] * vin.Weights[i];
    }
    float4 skinned = mul(vin.Position, skinning);
    vout.Position = mul(skinned, ViewProj);
    vout.Color = vin.Color * BoneTint;
    return vout;
}

float4 PSSkinned(float4 color : COLOR0) : COLOR0
{
    return color;
}

technique SkinnedEffect
{
    pass
    {
        VertexShader = compile vs_2_0 VSSkinned();
        PixelShader = compile ps_2_0 PSSkinned();
    }
}
