// Concern: a pixel shader reading the vertex shader's output struct (with its POSITION member) next to a `VPOS` parameter, as 2D light shaders do.
float2 LightSource;
float3 LightColor;
float LightRadius;
float4x4 ViewProjection;

struct VertexShaderInput
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float2 WorldPos : TEXCOORD0;
};

VertexShaderOutput Vert(VertexShaderInput input)
{
    VertexShaderOutput output;
    output.Position = mul(input.Position, ViewProjection);
    output.WorldPos = input.TexCoord;
    return output;
}

float4 Pixel(VertexShaderOutput input, in float2 screenPos : VPOS) : COLOR0
{
    float distance = length(LightSource - screenPos.xy);
    float attenuation = saturate(1.0f - distance / LightRadius);
    return float4(LightColor * attenuation, 1);
}

technique Light
{
    pass Pass1
    {
        VertexShader = compile vs_3_0 Vert();
        PixelShader = compile ps_3_0 Pixel();
    }
}
