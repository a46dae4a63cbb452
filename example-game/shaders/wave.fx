// Shifts each row sideways by a sine of its height and of Time: a flag in the wind.
#include "include/sprite.fxh"

float Time;
float Amplitude = 0.04;
float Frequency = 10.0;
float Speed = 3.0;

float4 WavePS(VertexShaderOutput input) : COLOR0
{
	float2 uv = input.TextureCoordinates;
	uv.x += sin(uv.y * Frequency + Time * Speed) * Amplitude;
	return tex2D(SpriteTextureSampler, uv) * input.Color;
}

SPRITE_TECHNIQUE(Wave, WavePS)
