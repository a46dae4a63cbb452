// Concern: `VFACE` in a ps_3_0 pixel shader colours front and back faces of a custom-VS mesh differently.
float4x4 WorldViewProj;
float4 FrontColor;
float4 BackColor;

struct VSOut
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
};

VSOut TwoSidedVS(float4 position : POSITION0, float2 texCoord : TEXCOORD0)
{
    VSOut o;
    o.Position = mul(position, WorldViewProj);
    o.TexCoord = texCoord;
    return o;
}

float4 TwoSidedPS(float face : VFACE, float2 texCoord : TEXCOORD0) : COLOR0
{
    float4 c = face > 0 ? FrontColor : BackColor;
    return c * float4(texCoord, 1.0, 1.0);
}

technique TwoSided
{
    pass P0
    {
        CullMode = None;
        VertexShader = compile vs_3_0 TwoSidedVS();
        PixelShader = compile ps_3_0 TwoSidedPS();
    }
}
