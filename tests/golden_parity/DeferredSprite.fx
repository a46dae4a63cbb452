// Golden: DeferredSprite.mgfx — two render targets (MRT): alpha-tested sprite colour, and a normal map with self-illumination in alpha.
sampler s0;

float _alphaCutoff;
float _alphaAsSelfIllumination;
float _selfIlluminationPower;

texture _normalMap;

sampler2D _normalMapSampler = sampler_state
{
	Texture = <_normalMap>;
};

struct PixelOutput
{
	float4 Color : COLOR0;
	float4 Normal : COLOR1;
};

PixelOutput mainPS(float4 color : COLOR0, float2 texCoord : TEXCOORD0)
{
	PixelOutput output;
	float4 c = tex2D(s0, texCoord) * color;
	clip(c.a < _alphaCutoff ? -1.0 : 1.0);
	output.Color = c;
	float4 normal = tex2D(_normalMapSampler, texCoord);
	output.Normal = float4(normal.rgb, _alphaAsSelfIllumination * _selfIlluminationPower * normal.a);
	return output;
}

technique DeferredSpriteTechnique
{
	pass Pass1
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
