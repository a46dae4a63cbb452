// Golden: ClipShader.mgfx — a mask texture: where any of its channels is zero the output is (0, 1, 1, 0), elsewhere the draw texture.
texture ClipTexture;
texture DrawTexture;

sampler ClipSampler = sampler_state
{
	Texture = <ClipTexture>;
};

sampler DrawSampler = sampler_state
{
	Texture = <DrawTexture>;
};

float4 MainPS(float2 texCoord : TEXCOORD0) : COLOR0
{
	float4 mask = tex2D(ClipSampler, texCoord);
	if (any(mask == 0.0))
	{
		return float4(0.0, 1.0, 1.0, 0.0);
	}
	return tex2D(DrawSampler, texCoord);
}

technique Technique1
{
	pass P0
	{
		PixelShader = compile ps_3_0 MainPS();
	}
}
