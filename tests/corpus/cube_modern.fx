// Concern: modern `TextureCube` + `SamplerState` + `.Sample` in a pixel shader (samplerCube in GLSL).
TextureCube SkyTexture;
SamplerState SkySampler;

float3 LookOffset;
float Exposure;

float4 SkyPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target
{
	float3 dir = normalize(float3(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 1.0) + LookOffset);
	float4 sky = SkyTexture.Sample(SkySampler, dir);
	return float4(sky.rgb * Exposure, sky.a);
}

technique Sky
{
	pass P0
	{
		PixelShader = compile ps_3_0 SkyPS();
	}
}
