// Concern: state and shader objects as function parameters (a `BlendState` handed from helper to helper, an entry's `uniform BlendState` and plain `VertexShader` parameters, a `BlendState` local), which fxc compiles no code for; a two-pass glow drawn opaque then additively.
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

// The state a layer is meant to be drawn with travels beside its colour.
float4 Layer(float4 color, BlendState blend)
{
    return color;
}

float4 Tinted(BlendState blend, float2 uv, float4 color)
{
    return Layer(tex2D(s0, uv) * color, blend);
}

float4 BasePS(float4 color : COLOR0, float2 uv : TEXCOORD0, uniform BlendState blend) : COLOR0
{
    return Tinted(blend, uv, color);
}

float4 GlowPS(float4 color : COLOR0, VertexShader unused) : COLOR0
{
    BlendState chosen;
    return Layer(GlowColor, AdditiveGlow);
}

technique Glow
{
    pass Base
    {
        SetBlendState(Opaque, float4(0, 0, 0, 0), 0xFFFFFFFF);
        PixelShader = compile ps_2_0 BasePS(Opaque);
    }
    pass Add
    {
        SetBlendState(AdditiveGlow, float4(0, 0, 0, 0), 0xFFFFFFFF);
        PixelShader = compile ps_2_0 GlowPS();
    }
}
