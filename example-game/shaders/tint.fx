// Multiplies the sprite by a colour: output = texture * vertex colour * Tint * Filter.
#include "include/sprite.fxh"

float4 Tint = float4(1.0, 1.0, 1.0, 1.0);

// A fixed colour on top of the animated Tint. Run the game with `--hot` and change it, to
// float4(1.0, 0.3, 0.3, 1.0) say: the tinted sprite turns red as soon as the file is saved.
static const float4 Filter = float4(1.0, 1.0, 1.0, 1.0);

float4 TintPS(VertexShaderOutput input) : COLOR0
{
	return tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color * Tint * Filter;
}

SPRITE_TECHNIQUE(Tinted, TintPS)
