// A see-through sprite with classic (non-premultiplied) alpha blending set by the pass.
#include "sprite.fxh"

float Opacity = 0.5;

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float4 color = tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color;
	return float4(color.rgb, color.a * Opacity);
}

technique Ghost
{
	pass P0
	{
		AlphaBlendEnable = true;
		SrcBlend = SrcAlpha;
		DestBlend = InvSrcAlpha;
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
