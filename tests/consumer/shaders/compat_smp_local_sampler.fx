// Concern: FXAA 3.11 HLSL_3 local sampler variables (`FxaaTex tex; tex = TextureSampler;`) resolve to the global sampler they are assigned.
#define FXAA_HLSL_3 1

#if (FXAA_HLSL_3 == 1)
#define FxaaFloat2 float2
#define FxaaFloat4 float4
#define FxaaTex sampler2D
#define FxaaTexTop(t, p) tex2Dlod(t, float4(p, 0.0, 0.0))
#define FxaaTexOff(t, p, o, r) tex2Dlod(t, float4(p + (o * r), 0, 0))
#endif

texture Texture;
sampler TextureSampler = sampler_state
{
    Texture = <Texture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = None;
    AddressU = Clamp;
    AddressV = Clamp;
};

float2 InverseViewportSize;
float EdgeSharpness = 0.5;

FxaaFloat4 FxaaPixelShader(FxaaFloat2 pos, FxaaTex tex, FxaaFloat2 rcp)
{
    FxaaFloat4 m = FxaaTexTop(tex, pos);
    FxaaFloat4 n = FxaaTexOff(tex, pos, FxaaFloat2(0, -1), rcp);
    return lerp(m, n, EdgeSharpness);
}

float4 FxaaPass(float2 uv0 : TEXCOORD0) : COLOR0
{
    FxaaTex tex;
    tex = TextureSampler;
    return FxaaPixelShader(uv0, tex, InverseViewportSize);
}

// The same local assigned on both sides of a branch, and read directly by tex2D.
float4 DirectPass(float2 uv0 : TEXCOORD0) : COLOR0
{
    sampler2D s = TextureSampler;
    if (uv0.x > 0.5)
        s = TextureSampler;
    else
        s = TextureSampler;
    return tex2D(s, uv0) * EdgeSharpness;
}

technique FXAA
{
    pass P0
    {
        PixelShader = compile ps_3_0 FxaaPass();
    }
}

technique Direct
{
    pass P0
    {
        PixelShader = compile ps_3_0 DirectPass();
    }
}
