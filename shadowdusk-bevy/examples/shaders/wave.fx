// Shifts each row sideways by a sine of its height and of Time: a flag in the wind.
#include "sprite.fxh"

float Time;
float Amplitude = 0.04;
float Frequency = 10.0;

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float2 uv = input.TextureCoordinates;
	uv.x += sin(uv.y * Frequency + Time * 3.0) * Amplitude;
	return tex2D(SpriteTextureSampler, uv) * input.Color;
}

technique Wave
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
