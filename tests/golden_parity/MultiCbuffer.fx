// Golden: MultiCbuffer.mgfx — uniforms in two named cbuffers, flattened into one register array: tint = lerp(TintA, TintB, MixAmount).
#if OPENGL
	#define SV_POSITION POSITION
	#define PS_SHADERMODEL ps_3_0
#else
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

cbuffer FirstTint
{
	float4 TintA;
};

cbuffer SecondTint
{
	float4 TintB;
	float MixAmount;
};

Texture2D SpriteTexture;

sampler2D SpriteTextureSampler = sampler_state
{
	Texture = <SpriteTexture>;
};

struct VertexShaderOutput
{
	float4 Position : SV_POSITION;
	float4 Color : COLOR0;
	float2 TextureCoordinates : TEXCOORD0;
};

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float4 tint = lerp(TintA, TintB, MixAmount);
	return tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color * tint;
}

technique SpriteDrawing
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
