// Concern: global initializers (scalar, float4 constructor, float4x4 brace list) baked as parameter defaults.
#if OPENGL
	#define SV_POSITION POSITION
	#define VS_SHADERMODEL vs_3_0
	#define PS_SHADERMODEL ps_3_0
#else
	#define VS_SHADERMODEL vs_4_0_level_9_1
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

Texture2D SpriteTexture;
sampler2D SpriteTextureSampler = sampler_state
{
	Texture = <SpriteTexture>;
};

float Amount = 0.35;
float4 Tint = float4(1, 0.5, 0.25, 1);
float4x4 ColorMatrix =
{
	0.9, 0.1, 0.0, 0.0,
	0.2, 0.7, 0.1, 0.0,
	0.0, 0.3, 0.6, 0.1,
	0.05, 0.0, 0.1, 1.0
};

struct VertexShaderOutput
{
	float4 Position : SV_POSITION;
	float4 Color : COLOR0;
	float2 TextureCoordinates : TEXCOORD0;
};

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float4 c = tex2D(SpriteTextureSampler, input.TextureCoordinates);
	float4 graded = mul(c, ColorMatrix) * Tint;
	return lerp(c, graded, Amount);
}

technique ColorGrade
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
