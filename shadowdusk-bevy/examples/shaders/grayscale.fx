// Full-screen grayscale: Rec. 601 luma, mixed with the original by Amount.
#include "sprite.fxh"

float Amount = 1.0;

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates);
	float luma = dot(color.rgb, float3(0.299, 0.587, 0.114));
	return float4(lerp(color.rgb, luma.xxx, Amount), color.a);
}

technique Grayscale
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
