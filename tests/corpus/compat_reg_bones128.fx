// Concern: PBR-style skinning: `float4x3 Bones[128]` (over 256 vs_3_0 registers, as mgfxc accepts) indexed by `uint4 : BLENDINDICES0` with int loop arithmetic.
#define MAX_BONES 128

float4x3 Bones[MAX_BONES];
float4x4 ViewProjection;
float4 Tint;

struct VSInput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    uint4 Indices : BLENDINDICES0;
    float4 Weights : BLENDWEIGHT0;
};

struct VSOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

float3 Skin(float4 position, uint4 indices, float4 weights)
{
    float3 skinned = 0;
    [unroll]
    for (int i = 0; i < 4; i++)
    {
        uint bone = indices[i];
        skinned += mul(position, Bones[bone]) * weights[i];
    }
    return skinned;
}

VSOutput SkinVS(VSInput input)
{
    VSOutput output;
    float3 skinned = Skin(input.Position, input.Indices, input.Weights);
    output.Position = mul(float4(skinned, 1), ViewProjection);
    output.Color = input.Color * Tint;
    return output;
}

float4 SkinPS(VSOutput input) : COLOR0
{
    return input.Color;
}

technique Skinned
{
    pass P0
    {
        VertexShader = compile vs_3_0 SkinVS();
        PixelShader = compile ps_3_0 SkinPS();
    }
}
