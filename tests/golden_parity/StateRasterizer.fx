// Golden: StateRasterizer.mgfx — every rasterizer pass state on a texture × colour sprite.
#if OPENGL
	#define SV_POSITION POSITION
	#define PS_SHADERMODEL ps_3_0
#else
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

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
	float4 c = tex2D(SpriteTextureSampler, input.TextureCoordinates);
	return c * input.Color;
}

technique Rasterizer
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
		CullMode = CW;
		FillMode = SOLID;
		MultiSampleAntiAlias = FALSE;
		ScissorTestEnable = FALSE;
		DepthBias = -0.25;
		SlopeScaleDepthBias = -1.5;
	}
};
