// Concern: a UI shader declares `nointerpolation float4 Color : COLOR0` in its vertex output and pixel input (constant per primitive, as the UI library draws it).
sampler s0;
float4x4 ViewProjection;

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    nointerpolation float4 Color : COLOR0;
    float2 TexCoord : TEXCOORD0;
};

VertexShaderOutput UiVS(float4 position : POSITION0, float4 color : COLOR0, float2 texCoord : TEXCOORD0)
{
    VertexShaderOutput output;
    output.Position = mul(position, ViewProjection);
    output.Color = color;
    output.TexCoord = texCoord;
    return output;
}

float4 UiPS(VertexShaderOutput input) : COLOR0
{
    return tex2D(s0, input.TexCoord) * input.Color;
}

technique Ui
{
    pass P0
    {
        VertexShader = compile vs_3_0 UiVS();
        PixelShader = compile ps_3_0 UiPS();
    }
}
