// Concern: hardware instancing as MonoGame's sample writes it: a `float4x4 instanceTransform : TEXCOORD1` vertex input spanning TEXCOORD1..4, transposed back in the shader.
float4x4 ViewProjection;

struct VertexShaderInput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

VertexShaderOutput InstancingVS(VertexShaderInput input, float4x4 instanceTransform : TEXCOORD1)
{
    VertexShaderOutput output;
    float4 worldPosition = mul(input.Position, transpose(instanceTransform));
    output.Position = mul(worldPosition, ViewProjection);
    output.Color = input.Color;
    return output;
}

float4 InstancingPS(VertexShaderOutput input) : COLOR0
{
    return input.Color;
}

technique HardwareInstancing
{
    pass Pass1
    {
        VertexShader = compile vs_3_0 InstancingVS();
        PixelShader = compile ps_3_0 InstancingPS();
    }
}
