// Concern: a helper whose `if`/`else if` chain on a `uniform int` returns on every path only once an entry's constant argument is folded in (`PS(input, SM_PLANAR)`): fxc compiles the entries, DXC warns SD0110.
#if OPENGL
    #define PS_SHADERMODEL ps_3_0
#else
    #define PS_SHADERMODEL ps_4_0_level_9_1
#endif

#define SM_PLANAR 0
#define SM_INVERTED 1

Texture2D SpriteTexture;

sampler2D SpriteTextureSampler = sampler_state
{
    Texture = <SpriteTexture>;
};

float4 Tint;

struct PSInput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
    float2 TextureCoordinates : TEXCOORD0;
};

// fxc refuses this function as an entry (X3507): only the callers' constants settle the chain.
float4 PS(PSInput input, uniform int smType)
{
    float4 c = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
    if (smType == SM_PLANAR)
        return c * Tint;
    else if (smType == SM_INVERTED)
        return float4(1 - c.rgb, c.a) * Tint;
}

float4 PSPlanarDefault(PSInput input) : COLOR0
{
    return PS(input, SM_PLANAR);
}

float4 PSInvertedDefault(PSInput input) : COLOR0
{
    return PS(input, SM_INVERTED);
}

technique Planar
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL PSPlanarDefault();
    }
};

technique Inverted
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL PSInvertedDefault();
    }
};
