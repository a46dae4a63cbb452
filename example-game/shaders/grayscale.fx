// Rec. 601 luma in every channel.
#include "include/sprite.fxh"

float3 LumaWeights = float3(0.299, 0.587, 0.114);

float4 GrayscalePS(VertexShaderOutput input) : COLOR0
{
	float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
	float luma = dot(color.rgb, LumaWeights);
	return float4(luma, luma, luma, color.a);
}

SPRITE_TECHNIQUE(Grayscale, GrayscalePS)
