// Concern: a deferred renderer's G-buffer pass writing albedo, normal, depth and material to COLOR0–COLOR3 from a PS output struct (four render targets).
float4x4 World;
float4x4 WorldViewProjection;
float4 Material;

struct VertexShaderInput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    float3 Normal : NORMAL0;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    float3 Normal : TEXCOORD0;
    float2 Depth : TEXCOORD1;
};

struct PixelShaderOutput
{
    float4 Albedo : COLOR0;
    float4 Normal : COLOR1;
    float4 Depth : COLOR2;
    float4 Material : COLOR3;
};

VertexShaderOutput GBufferVS(VertexShaderInput input)
{
    VertexShaderOutput output;
    output.Position = mul(input.Position, WorldViewProjection);
    output.Color = input.Color;
    output.Normal = mul(input.Normal, (float3x3)World);
    output.Depth = output.Position.zw;
    return output;
}

PixelShaderOutput GBufferPS(VertexShaderOutput input)
{
    PixelShaderOutput output;
    output.Albedo = input.Color;
    output.Normal = float4(normalize(input.Normal) * 0.5 + 0.5, 1.0);
    float depth = input.Depth.x / input.Depth.y;
    output.Depth = float4(depth, depth * depth, 0.0, 1.0);
    output.Material = Material;
    return output;
}

technique GBuffer
{
    pass P0
    {
        VertexShader = compile vs_3_0 GBufferVS();
        PixelShader = compile ps_3_0 GBufferPS();
    }
}
