// Concern: bool-vector logic as pixel-art upscalers (xBR, ScaleFX) write it: `&&`, `||` and `!` between `bool4` values, `?:` with a `bool4` condition, `any`/`all` of comparisons, one lane per neighbour.
#if OPENGL
    #define PS_SHADERMODEL ps_3_0
#else
    #define PS_SHADERMODEL ps_4_0_level_9_1
#endif

Texture2D SpriteTexture;
float2 TextureSize;
float Threshold = 0.05;
float4 EdgeTint;

sampler2D SpriteTextureSampler = sampler_state
{
    Texture = <SpriteTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = Point;
    AddressU = Clamp;
    AddressV = Clamp;
};

struct VertexShaderOutput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
    float2 TextureCoordinates : TEXCOORD0;
};

static const float3 Y = float3(0.299, 0.587, 0.114);

float4 df(float4 A, float4 B)
{
    return abs(A - B);
}

bool4 eq(float4 A, float4 B)
{
    return df(A, B) < Threshold;
}

float4 MainPS(VertexShaderOutput input) : COLOR
{
    float2 dx = float2(1.0 / TextureSize.x, 0.0);
    float2 dy = float2(0.0, 1.0 / TextureSize.y);
    float2 uv = input.TextureCoordinates;

    float3 E = tex2D(SpriteTextureSampler, uv).rgb;
    float3 B = tex2D(SpriteTextureSampler, uv - dy).rgb;
    float3 F = tex2D(SpriteTextureSampler, uv + dx).rgb;
    float3 H = tex2D(SpriteTextureSampler, uv + dy).rgb;
    float3 D = tex2D(SpriteTextureSampler, uv - dx).rgb;

    // Luma of the centre and of the four neighbours (up, right, down, left), and of the next
    // neighbour clockwise: one corner per lane.
    float e = dot(E, Y);
    float4 n = float4(dot(B, Y), dot(F, Y), dot(H, Y), dot(D, Y));
    float4 m = n.yzwx;

    bool4 corner = eq(n, m) && !eq(n, e.xxxx);
    bool4 brighter = (n > e) || (m > e);
    bool4 edr = corner && brighter;
    bool4 flat = !(corner || brighter);

    float4 w = edr ? float4(0.25, 0.25, 0.25, 0.25) : float4(0.0, 0.0, 0.0, 0.0);
    float3 color = E * (1.0 - dot(w, float4(1.0, 1.0, 1.0, 1.0)))
        + B * w.x + F * w.y + H * w.z + D * w.w;

    if (any(edr))
        color *= EdgeTint.rgb;
    float alpha = all(flat) ? 0.5 : 1.0;
    return float4(color, alpha) * input.Color;
}

technique Upscale
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL MainPS();
    }
};
