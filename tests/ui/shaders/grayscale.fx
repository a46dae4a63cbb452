// Concern: a second valid sprite effect, whose items must not fit `GlEffect<tint::Effect>`.
Texture2D SpriteTexture;
sampler2D SpriteTextureSampler = sampler_state { Texture = <SpriteTexture>; };
float Amount;

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(SpriteTextureSampler, uv) * color;
    float g = dot(c.rgb, float3(0.3, 0.59, 0.11));
    return float4(lerp(c.rgb, float3(g, g, g), Amount), c.a);
}

technique Grayscale
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
