// Golden: SamplerStatesFull.mgfx — every sampler_state key: a Point/Clamp/Mirror sampler and an anisotropic bordered one, mixed 3:1.
#if OPENGL
	#define SV_POSITION POSITION
	#define PS_SHADERMODEL ps_3_0
#else
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

Texture2D SpriteTexture;
Texture2D DetailTexture;

sampler2D PointSampler = sampler_state
{
	Texture = <SpriteTexture>;
	MinFilter = POINT;
	MagFilter = POINT;
	MipFilter = NONE;
	AddressU = CLAMP;
	AddressV = MIRROR;
};

sampler2D AnisoSampler = sampler_state
{
	Texture = <DetailTexture>;
	MinFilter = ANISOTROPIC;
	MaxAnisotropy = 2;
	AddressU = BORDER;
	AddressV = BORDER;
	BorderColor = 0xff0000ff;
	MaxMipLevel = 1;
	MipLodBias = 0.5;
};

struct VertexShaderOutput
{
	float4 Position : SV_POSITION;
	float4 Color : COLOR0;
	float2 TextureCoordinates : TEXCOORD0;
};

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float4 base = tex2D(PointSampler, input.TextureCoordinates);
	float4 detail = tex2D(AnisoSampler, input.TextureCoordinates);
	return (base * 0.75 + detail * 0.25) * input.Color;
}

technique SamplerStates
{
	pass P0
	{
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
