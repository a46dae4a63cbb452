// Concern: legacy `samplerCUBE` + `texCUBE` with a direction rotated by a float3x3 uniform.
#if OPENGL
	#define PS_SHADERMODEL ps_3_0
#else
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

texture EnvironmentMap;
samplerCUBE EnvironmentSampler = sampler_state
{
	Texture = <EnvironmentMap>;
	MinFilter = Point;
	MagFilter = Point;
	MipFilter = Point;
};

float3x3 Orientation;
float Depth;

float4 ReflectPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	float3 local = float3(uv * 2.0 - 1.0, Depth);
	float3 dir = mul(local, Orientation);
	return texCUBE(EnvironmentSampler, dir) * color;
}

technique Reflect
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL ReflectPS();
	}
}
