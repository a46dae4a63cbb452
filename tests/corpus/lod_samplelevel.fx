// Concern: modern `Texture2D.SampleLevel` with an explicit level from a uniform.
Texture2D MipTexture : register(t0);
SamplerState MipSampler : register(s0);

float Level;
float4 Tint;

float4 LevelPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target0
{
	return MipTexture.SampleLevel(MipSampler, uv, Level) * Tint;
}

technique SampleLevel
{
	pass P0
	{
		PixelShader = compile ps_3_0 LevelPS();
	}
}
