// Multiplies the sprite by a colour: output = texture * vertex colour * Tint.
#include "include/sprite.fxh"

float4 Tint = float4(1.0, 1.0, 1.0, 1.0);

float4 TintPS(VertexShaderOutput input) : COLOR0
{
	return tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color * Tint;
}

SPRITE_TECHNIQUE(Tinted, TintPS)
