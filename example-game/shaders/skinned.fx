// A skinned mesh drawn the way MonoGame's SkinnedEffect draws it with one light and two bones
// per vertex: a float4x3 bone palette blended per vertex into a float4x3 skinning matrix that
// moves positions and (cast to float3x3) normals.

#define SKINNED_EFFECT_MAX_BONES 72

float4 DiffuseColor = float4(1, 1, 1, 1);
float3 EmissiveColor = float3(0.25, 0.25, 0.25);
float3 DirLight0Direction = float3(0, 0, -1);
float3 DirLight0DiffuseColor = float3(0.75, 0.75, 0.75);

float4x4 WorldViewProj;
float3x3 WorldInverseTranspose;
float4x3 Bones[SKINNED_EFFECT_MAX_BONES];

struct VSInputNmColorWeights
{
    float4 Position : POSITION0;
    float3 Normal : NORMAL0;
    float4 Color : COLOR0;
    int4 Indices : BLENDINDICES0;
    float4 Weights : BLENDWEIGHT0;
};

struct VSOutput
{
    float4 PositionPS : POSITION0;
    float4 Diffuse : COLOR0;
};

void Skin(inout VSInputNmColorWeights vin, uniform int boneCount)
{
    float4x3 skinning = 0;

    [unroll]
    for (int i = 0; i < boneCount; i++)
    {
        skinning += Bones[vin.Indices[i]] * vin.Weights[i];
    }

    vin.Position.xyz = mul(vin.Position, skinning);
    vin.Normal = mul(vin.Normal, (float3x3)skinning);
}

VSOutput VSSkinnedOneLightTwoBones(VSInputNmColorWeights vin)
{
    Skin(vin, 2);

    VSOutput output;
    output.PositionPS = mul(vin.Position, WorldViewProj);
    float3 normal = normalize(mul(vin.Normal, WorldInverseTranspose));
    float light = saturate(dot(normal, -DirLight0Direction));
    float3 lit = EmissiveColor + light * DirLight0DiffuseColor;
    output.Diffuse = float4(vin.Color.rgb * DiffuseColor.rgb * lit, DiffuseColor.a);
    return output;
}

float4 PSSkinned(VSOutput pin) : COLOR0
{
    return pin.Diffuse;
}

technique SkinnedEffect_OneLight_TwoBones
{
    pass P0
    {
        CullMode = None;
        VertexShader = compile vs_2_0 VSSkinnedOneLightTwoBones();
        PixelShader = compile ps_2_0 PSSkinned();
    }
}
