// Golden: Saturate.mgfx — bloom-style pixel shader: saturated over-threshold part added back, then scaled by 1 + saturation².
sampler TextureSampler : register(s0);

float4 BloomThreshold;
float BloomIntensity;
float BloomSaturation;

float4 PixelShaderFunction(float2 texCoord : TEXCOORD0) : COLOR0
{
	float4 c = tex2D(TextureSampler, texCoord);
	float4 bright = saturate(c - BloomThreshold);
	c = saturate(c + bright * BloomIntensity);
	return c + c * (BloomSaturation * BloomSaturation);
}

technique Bloom
{
	pass Pass1
	{
		PixelShader = compile ps_3_0 PixelShaderFunction();
	}
}
