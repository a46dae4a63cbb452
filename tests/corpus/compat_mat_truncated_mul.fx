// Concern: `mul(float3, float4x4)` and `mul(float4x4, float3)` (implicitly truncated matrices, as XNA lighting code transforms normals) in a vertex shader.
float4x4 World;
float4x4 ViewProjection;

struct VertexShaderInput
{
    float4 Position : POSITION0;
    float3 Normal : NORMAL0;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float3 Normal : TEXCOORD0;
    float4 Other : TEXCOORD1;
};

VertexShaderOutput VS(VertexShaderInput input)
{
    VertexShaderOutput output;
    output.Position = mul(input.Position, ViewProjection);
    output.Normal = mul(input.Normal, World);
    output.Other = mul(World, input.Normal);
    return output;
}

float4 PS(VertexShaderOutput input) : COLOR0
{
    float3 a = saturate(input.Normal * 0.5 + 0.5);
    float3 b = saturate(input.Other.xyz * 0.25 + 0.5);
    return float4(a * 0.5 + b * 0.5, saturate(input.Other.w * 0.1 + 0.5));
}

technique Main
{
    pass P0
    {
        VertexShader = compile vs_2_0 VS();
        PixelShader = compile ps_2_0 PS();
    }
}
