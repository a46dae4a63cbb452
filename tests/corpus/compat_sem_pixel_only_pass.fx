// Concern: a technique's second pass sets only a PixelShader (the XNA habit: it draws with the vertex shader the first pass bound) and reads TEXCOORD1 and COLOR1, which SpriteBatch's vertex shader does not write.
float4x4 WorldViewProjection;
float4 RimColor = float4(1, 1, 1, 1);

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    float2 Local : TEXCOORD1;
    float4 Glow : COLOR1;
};

VertexShaderOutput MainVS(float4 position : POSITION0, float4 color : COLOR0, float2 texCoord : TEXCOORD0)
{
    VertexShaderOutput output;
    output.Position = mul(position, WorldViewProjection);
    output.Color = color;
    output.Local = texCoord * 2 - 1;
    output.Glow = color.bgra * RimColor;
    return output;
}

float4 BasePS(VertexShaderOutput input) : COLOR0
{
    return input.Color;
}

// Pass 1 has no vertex shader of its own: MainVS, bound by pass 0, feeds it.
float4 RimPS(float2 local : TEXCOORD1, float4 glow : COLOR1) : COLOR0
{
    float rim = saturate(dot(local, local));
    return glow * rim * rim;
}

technique RimLit
{
    pass Base
    {
        VertexShader = compile vs_2_0 MainVS();
        PixelShader = compile ps_2_0 BasePS();
    }
    pass Rim
    {
        AlphaBlendEnable = true;
        SrcBlend = One;
        DestBlend = One;
        PixelShader = compile ps_2_0 RimPS();
    }
}
