// Concern: two overloads of one pixel shader, `PS(input, uniform bool gammaCorrection)` and `PS(input)`: `compile PS()` takes the second and `compile PS(true)` the first, as fxc chooses by the arguments, so the effect has no `$gammaCorrection` parameter.
#if OPENGL
    #define PS_SHADERMODEL ps_3_0
#else
    #define PS_SHADERMODEL ps_4_0_level_9_1
#endif

Texture2D SpriteTexture;
float Brightness = 1.0;

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

float4 PS(VertexShaderOutput input, uniform bool gammaCorrection) : COLOR
{
    float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
    color.rgb *= Brightness;
    if (gammaCorrection)
        color.rgb = pow(saturate(color.rgb), 1.0 / 2.2);
    return color;
}

float4 PS(VertexShaderOutput input) : COLOR
{
    float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
    color.rgb *= Brightness;
    return color;
}

technique SpriteDrawing
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL PS();
    }
};

technique GammaCorrected
{
    pass P0
    {
        PixelShader = compile PS_SHADERMODEL PS(true);
    }
};
