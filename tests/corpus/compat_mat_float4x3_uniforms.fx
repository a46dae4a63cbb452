// Concern: non-square matrix uniforms as BasicEffect and skinning libraries write them: `float4x3 World` (three registers) and a `float4x3 Bones[2]` palette in a cbuffer, multiplied with positions.
float4x3 World;
cbuffer Skinning
{
    float4x3 Bones[2];
};
float4x4 ViewProjection;
float BoneBlend;

struct VSIn
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

struct VSOut
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

VSOut VS(VSIn input)
{
    VSOut output;
    float3 world = mul(input.Position, World);
    float3 bone0 = mul(input.Position, Bones[0]);
    float3 bone1 = mul(input.Position, Bones[1]);
    float3 p = world + lerp(bone0, bone1, BoneBlend);
    output.Position = mul(float4(p, 1), ViewProjection);
    output.Color = input.Color;
    return output;
}

float4 PS(VSOut input) : COLOR0
{
    return input.Color;
}

technique Skinned
{
    pass P0
    {
        VertexShader = compile vs_2_0 VS();
        PixelShader = compile ps_2_0 PS();
    }
}
