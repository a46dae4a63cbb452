// Concern: global BlendState/DepthStencilState/RasterizerState objects (D3D10 key and value names) set by passes with SetBlendState/SetDepthStencilState/SetRasterizerState; a two-pass glow drawn opaque then additively.
sampler s0;
float4 GlowColor = float4(0.3, 0.2, 0.1, 0.5);

BlendState Opaque
{
    BlendEnable[0] = FALSE;
};

BlendState AdditiveGlow
{
    BlendEnable[0] = TRUE;
    SrcBlend = SRC_ALPHA;
    DestBlend = ONE;
    BlendOp = ADD;
    SrcBlendAlpha = ZERO;
    DestBlendAlpha = ONE;
};

DepthStencilState NoDepth
{
    DepthEnable = FALSE;
    DepthWriteMask = ZERO;
};

RasterizerState NoCull
{
    CullMode = NONE;
    FillMode = SOLID;
};

float4 BasePS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * color;
}

float4 GlowPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return GlowColor;
}

technique Glow
{
    pass Base
    {
        SetBlendState(Opaque, float4(0, 0, 0, 0), 0xFFFFFFFF);
        SetDepthStencilState(NoDepth, 0);
        SetRasterizerState(NoCull);
        PixelShader = compile ps_2_0 BasePS();
    }
    pass Add
    {
        SetBlendState(AdditiveGlow, float4(0, 0, 0, 0), 0xFFFFFFFF);
        SetDepthStencilState(NoDepth, 0);
        SetGeometryShader(NULL);
        SetPixelShader(CompileShader(ps_4_0_level_9_1, GlowPS()));
    }
}
