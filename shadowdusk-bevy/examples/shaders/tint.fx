// Multiplies the sprite by a colour: texture * vertex colour * Tint.
#include "sprite.fxh"

float4 Tint = float4(1.0, 1.0, 1.0, 1.0);

float4 MainPS(VertexShaderOutput input) : COLOR
{
	return tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color * Tint;
}

technique SpriteDrawing
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
