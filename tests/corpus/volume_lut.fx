// Concern: volume sampler: `sampler3D` + `tex3D` colour lookup table (4x4x4) blended by a scalar.
#if OPENGL
	#define PS_SHADERMODEL ps_3_0
#else
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

sampler s0;

texture3D LutTexture;
sampler3D LutSampler = sampler_state
{
	Texture = <LutTexture>;
	MinFilter = Point;
	MagFilter = Point;
	MipFilter = None;
	AddressU = Clamp;
	AddressV = Clamp;
	AddressW = Clamp;
};

float LutAmount;

float4 GradePS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	float4 c = tex2D(s0, uv);
	float3 graded = tex3D(LutSampler, c.rgb).rgb;
	return float4(lerp(c.rgb, graded, LutAmount), c.a);
}

technique ColorGrade
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL GradePS();
	}
}
