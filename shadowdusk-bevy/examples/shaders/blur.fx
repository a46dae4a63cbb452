// A separable box blur in two passes: across, then down. TexelSize is 1 / the target's size.
#include "sprite.fxh"

float2 TexelSize = float2(1.0 / 64.0, 1.0 / 64.0);
float Radius = 2.0;

float4 Blur(float2 uv, float2 step)
{
	float4 sum = 0;
	for (int i = -2; i <= 2; i++)
	{
		sum += tex2D(SpriteTextureSampler, uv + step * (i * Radius / 2.0));
	}
	return sum / 5.0;
}

float4 AcrossPS(VertexShaderOutput input) : COLOR
{
	return Blur(input.TextureCoordinates, float2(TexelSize.x, 0));
}

float4 DownPS(VertexShaderOutput input) : COLOR
{
	return Blur(input.TextureCoordinates, float2(0, TexelSize.y));
}

technique Blur
{
	pass Across
	{
		PixelShader = compile PS_SHADERMODEL AcrossPS();
	}
	pass Down
	{
		PixelShader = compile PS_SHADERMODEL DownPS();
	}
};
