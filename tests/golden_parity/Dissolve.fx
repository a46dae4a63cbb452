// Golden: Dissolve.mgfx — dissolve transition: pixels whose noise value is below the progress are discarded, a coloured band fades in above it.
sampler s0;

float _progress;
float _dissolveThreshold;
float4 _dissolveThresholdColor;

texture _dissolveTex;

sampler2D _dissolveSampler = sampler_state
{
	Texture = <_dissolveTex>;
};

float4 mainPS(float2 texCoord : TEXCOORD0) : COLOR0
{
	float remaining = 1.0 - tex2D(_dissolveSampler, texCoord).r;
	clip(remaining - _progress);
	float4 color = tex2D(s0, texCoord);
	if (remaining >= _progress + _dissolveThreshold)
	{
		return color;
	}
	float edge = saturate(abs(_progress - remaining) / _dissolveThreshold);
	return color * lerp(float4(0.0, 0.0, 0.0, 1.0), _dissolveThresholdColor, edge);
}

technique Dissolve
{
	pass P0
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
