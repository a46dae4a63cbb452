// The classic sepia tone matrix, blended with the original by Amount.
#include "include/sprite.fxh"

float Amount = 1.0;

static const float3 SepiaRed = float3(0.393, 0.769, 0.189);
static const float3 SepiaGreen = float3(0.349, 0.686, 0.168);
static const float3 SepiaBlue = float3(0.272, 0.534, 0.131);

float4 SepiaPS(VertexShaderOutput input) : COLOR0
{
	float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
	float3 sepia = float3(dot(color.rgb, SepiaRed), dot(color.rgb, SepiaGreen), dot(color.rgb, SepiaBlue));
	color.rgb = lerp(color.rgb, saturate(sepia), Amount);
	return color;
}

SPRITE_TECHNIQUE(Sepia, SepiaPS)
