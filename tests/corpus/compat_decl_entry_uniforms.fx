// Concern: `uniform` entry parameters a `compile` statement leaves unbound (`PS()`, `PS(false)`): fxc makes them constants, so they are effect parameters `$gammaCorrection` and `$exposure`.
#if OPENGL
    #define PS_SHADERMODEL ps_3_0
#else
    #define PS_SHADERMODEL ps_4_0_level_9_1
#endif

Texture2D SpriteTexture;

sampler2D SpriteTextureSampler = sampler_state
{
    Texture = <SpriteTexture>;
};

struct VertexShaderOutput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
    float2 TextureCoordinates : TEXCOORD0;
};

float3 Expose(float3 rgb, float exposure)
{
    return rgb * exposure;
}

float4 MainPS(VertexShaderOutput input, uniform const bool gammaCorrection, uniform float exposure) : COLOR
{
    float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
    color.rgb = Expose(color.rgb, exposure);
    if (gammaCorrection)
        color.rgb = sqrt(saturate(color.rgb));
    return color;
}

technique Graded
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL MainPS();
    }
};

technique Linear
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL MainPS(false);
    }
};
