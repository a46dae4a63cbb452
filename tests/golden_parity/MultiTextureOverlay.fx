// Golden: MultiTextureOverlay.mgfx — two samplers combined with the "overlay" blend formula, opaque output.
sampler s0;

texture _secondTexture;

sampler2D _secondSampler = sampler_state
{
	Texture = <_secondTexture>;
	MinFilter = Point;
	MagFilter = Point;
};

float4 mainPS(float2 texCoord : TEXCOORD0) : COLOR0
{
	float3 base = tex2D(s0, texCoord).rgb;
	float3 blend = tex2D(_secondSampler, texCoord).rgb;
	float3 multiply = 2.0 * base * blend;
	float3 screen = 1.0 - 2.0 * (1.0 - base) * (1.0 - blend);
	float3 result = base < 0.5 ? multiply : screen;
	return float4(result, 1.0);
}

technique Technique1
{
	pass Pass1
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
