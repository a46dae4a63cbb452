// Concern: a vertex shader that truncates its float4 position into a float2 texture coordinate and a float4 colour into a float3 varying (fxc warnings).
float4x4 WorldViewProjection;
float UVScale = 1.0;

struct VSIn
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

struct VSOut
{
    float4 Position : POSITION0;
    float2 UV : TEXCOORD0;
    float3 Tint : TEXCOORD1;
};

VSOut VS(VSIn input)
{
    VSOut output;
    output.Position = mul(input.Position, WorldViewProjection);
    float2 uv = input.Position;
    output.UV = uv * UVScale;
    output.Tint = input.Color;
    return output;
}

float4 PS(VSOut input) : COLOR0
{
    return float4(input.Tint * frac(input.UV.x + input.UV.y), 1);
}

technique Main
{
    pass P0
    {
        VertexShader = compile vs_2_0 VS();
        PixelShader = compile ps_2_0 PS();
    }
}
