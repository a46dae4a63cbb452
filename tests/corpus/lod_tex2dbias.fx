// Concern: `tex2Dbias` adds the .w bias to the implicit level of detail.
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

float Bias;

float4 BiasPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	return tex2Dbias(MipSampler, float4(uv, 0.0, Bias));
}

technique BiasedLod
{
	pass P0
	{
		PixelShader = compile ps_3_0 BiasPS();
	}
}
