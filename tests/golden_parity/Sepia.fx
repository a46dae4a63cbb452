// Golden: Sepia.mgfx — legacy `sampler s0`: luminance (0.3, 0.59, 0.11) times a float3 tone, alpha kept.
sampler s0;

// mgfxc's OpenGL output writes zeros here; ShadowDusk bakes the initializer (accepted difference).
float3 _sepiaTone = float3(1.1, 0.9, 0.65);

float4 mainPS(float2 texCoord : TEXCOORD0) : COLOR0
{
	float4 color = tex2D(s0, texCoord);
	float luminance = dot(color.rgb, float3(0.3, 0.59, 0.11));
	return float4(luminance * _sepiaTone, color.a);
}

technique Technique1
{
	pass Pass1
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
