// Concern: SkinnedEffect-style skinning: `float4x3 skinning = 0; skinning += Bones[indices[i]] * weights[i];` over a bone palette, then `mul(position, skinning)`.
float4x3 Bones[4];
float4x4 ViewProjection;

struct VSIn
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    int4 Indices : BLENDINDICES0;
    float4 Weights : BLENDWEIGHT0;
};

struct VSOut
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

void Skin(inout VSIn vin, uniform int boneCount)
{
    float4x3 skinning = 0;

    [unroll]
    for (int i = 0; i < boneCount; i++)
    {
        skinning += Bones[vin.Indices[i]] * vin.Weights[i];
    }

    vin.Position.xyz = mul(vin.Position, skinning);
}

VSOut SkinnedVS(VSIn vin)
{
    VSOut output;
    Skin(vin, 2);
    output.Position = mul(vin.Position, ViewProjection);
    output.Color = vin.Color;
    return output;
}

float4 SkinnedPS(VSOut input) : COLOR0
{
    return input.Color;
}

technique Skinned
{
    pass P0
    {
        VertexShader = compile vs_2_0 SkinnedVS();
        PixelShader = compile ps_2_0 SkinnedPS();
    }
}
