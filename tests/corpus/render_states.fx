// Concern: several techniques and passes carrying blend, depth/stencil and rasterizer render states.
float4 Color;

float4 FlatPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return Color * color;
}

float4 GlowPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return float4(Color.rgb * (1.0 - uv.y), Color.a);
}

technique AlphaBlended
{
    pass Blend
    {
        AlphaBlendEnable = true;
        SrcBlend = SrcAlpha;
        DestBlend = InvSrcAlpha;
        BlendOp = Add;
        PixelShader = compile ps_2_0 FlatPS();
    }
}

technique Additive
{
    pass Base
    {
        ZEnable = false;
        ZWriteEnable = false;
        PixelShader = compile ps_2_0 FlatPS();
    }
    pass Glow
    {
        AlphaBlendEnable = true;
        SrcBlend = One;
        DestBlend = One;
        BlendOp = Max;
        PixelShader = compile ps_2_0 GlowPS();
    }
}

technique Stenciled
{
    pass Mark
    {
        StencilEnable = true;
        StencilFunc = Equal;
        StencilPass = Replace;
        StencilFail = Zero;
        StencilZFail = Invert;
        StencilRef = 3;
        StencilMask = 255;
        StencilWriteMask = 15;
        ZFunc = Greater;
        PixelShader = compile ps_2_0 FlatPS();
    }
}

technique Rasterized
{
    pass Wire
    {
        CullMode = CW;
        FillMode = WireFrame;
        DepthBias = -0.0005;
        SlopeScaleDepthBias = 1.5;
        PixelShader = compile ps_2_0 FlatPS();
    }
}
