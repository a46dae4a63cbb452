// Golden: Scanlines.mgfx — legacy `sampler s0`: RGB darkened by attenuation × sin(v × linesFactor), alpha kept.
sampler s0;

float _attenuation = 0.04;
float _linesFactor = 800.0;

float4 mainPS(float2 texCoord : TEXCOORD0) : COLOR0
{
	float4 color = tex2D(s0, texCoord);
	float scanline = sin(texCoord.y * _linesFactor);
	color.rgb -= scanline * _attenuation;
	return color;
}

technique Scanlines
{
	pass P0
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
