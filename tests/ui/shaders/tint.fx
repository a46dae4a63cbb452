// Concern: a valid sprite effect with a value and a texture parameter, for the typed-API cases.
Texture2D SpriteTexture;
sampler2D SpriteTextureSampler = sampler_state { Texture = <SpriteTexture>; };
float4 Tint;

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(SpriteTextureSampler, uv) * color * Tint;
}

technique SpriteDrawing
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
