// Concern: `tex2Dgrad` with explicit derivatives from a float2 uniform selecting the mip level.
texture MipTexture;
sampler2D MipSampler = sampler_state
{
	Texture = <MipTexture>;
	MinFilter = Point;
	MagFilter = Point;
	MipFilter = Point;
	AddressU = Clamp;
	AddressV = Clamp;
};

float2 Gradient;

float4 GradPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	return tex2Dgrad(MipSampler, uv, float2(Gradient.x, 0.0), float2(0.0, Gradient.y));
}

technique ExplicitGradient
{
	pass P0
	{
		PixelShader = compile ps_3_0 GradPS();
	}
}
