// Concern: `tex2Dproj` divides .xy by .w before sampling; the projection comes from a float3 uniform.
sampler2D ProjectedSampler : register(s0);

float3 ProjParams;

float4 ProjPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	float4 coord = float4(uv * ProjParams.xy, 0.0, ProjParams.z);
	return tex2Dproj(ProjectedSampler, coord) * color;
}

technique Projected
{
	pass P0
	{
		PixelShader = compile ps_2_0 ProjPS();
	}
}
