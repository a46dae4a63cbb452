// Concern: `tex2Dlod` with the level in .w chosen by a uniform (explicit mip selection).
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

float Lod;

float4 LodPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	return tex2Dlod(MipSampler, float4(uv, 0.0, Lod));
}

technique ExplicitLod
{
	pass P0
	{
		PixelShader = compile ps_3_0 LodPS();
	}
}
