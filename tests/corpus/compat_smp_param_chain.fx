// Concern: FXAA 3.11-style sampler parameters: `FxaaTex` (sampler2D on HLSL_3) passed down three function levels to tex2Dlod.
#define FxaaTex sampler2D
#define FxaaFloat2 float2
#define FxaaFloat4 float4
#define FxaaTexTop(t, p) tex2Dlod(t, float4(p, 0.0, 0.0))
#define FxaaTexOff(t, p, o, r) tex2Dlod(t, float4(p + (o * r), 0, 0))

texture ScreenTexture;
sampler ScreenSampler = sampler_state
{
    Texture = <ScreenTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = None;
    AddressU = Clamp;
    AddressV = Clamp;
};

float2 InverseViewportSize;
float EdgeSharpness = 0.5;

FxaaFloat4 FxaaCross(FxaaTex tex, FxaaFloat2 pos, FxaaFloat2 rcp)
{
    FxaaFloat4 n = FxaaTexOff(tex, pos, FxaaFloat2(0, -1), rcp);
    FxaaFloat4 s = FxaaTexOff(tex, pos, FxaaFloat2(0, 1), rcp);
    return (n + s) * 0.5;
}

FxaaFloat4 FxaaBlend(FxaaTex tex, FxaaFloat2 pos, FxaaFloat2 rcp)
{
    return lerp(FxaaTexTop(tex, pos), FxaaCross(tex, pos, rcp), EdgeSharpness);
}

FxaaFloat4 FxaaPixelShader(FxaaFloat2 pos, FxaaTex tex, FxaaFloat2 rcp)
{
    return FxaaBlend(tex, pos, rcp);
}

float4 PS(float2 uv : TEXCOORD0) : COLOR0
{
    return FxaaPixelShader(uv, ScreenSampler, InverseViewportSize);
}

technique FXAA
{
    pass P0
    {
        PixelShader = compile ps_3_0 PS();
    }
}
