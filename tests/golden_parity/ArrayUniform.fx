// Golden: ArrayUniform.mgfx — float4[4] and float[4] uniform arrays indexed by the horizontal texture coordinate.
#if OPENGL
	#define SV_POSITION POSITION
	#define PS_SHADERMODEL ps_3_0
#else
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

float4 Colors[4];
float Weights[4];

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
	int band = min((int)(input.TextureCoordinates.x * 4.0), 3);
	float4 scale = Colors[band] * Weights[band];
	return tex2D(SpriteTextureSampler, input.TextureCoordinates) * input.Color * scale;
}

technique SpriteDrawing
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
