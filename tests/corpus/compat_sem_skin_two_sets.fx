// Concern: a skinned material with eight influences in two weight sets (BLENDINDICES0/BLENDWEIGHT0 and BLENDINDICES1/BLENDWEIGHT1), as character and vegetation shaders write them.
#define MAX_BONES 12

float4x4 Bones[MAX_BONES];
float4x4 ViewProj;
float4 Tint;

struct VSInput
{
    float4 Position : POSITION0;
    int4 Indices0 : BLENDINDICES0;
    float4 Weights0 : BLENDWEIGHT0;
    int4 Indices1 : BLENDINDICES1;
    float4 Weights1 : BLENDWEIGHT1;
    float4 Color : COLOR0;
};

struct VSOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

VSOutput SkinVS(VSInput input)
{
    VSOutput output;
    float4x4 skin = 0;
    [unroll]
    for (int i = 0; i < 4; i++)
    {
        skin += Bones[input.Indices0[i]] * input.Weights0[i];
        skin += Bones[input.Indices1[i]] * input.Weights1[i];
    }
    output.Position = mul(mul(input.Position, skin), ViewProj);
    output.Color = input.Color * Tint;
    return output;
}

float4 SkinPS(float4 color : COLOR0) : COLOR0
{
    return color;
}

technique Skinned8
{
    pass P0
    {
        VertexShader = compile vs_3_0 SkinVS();
        PixelShader = compile ps_3_0 SkinPS();
    }
}
