// Shared by the sprite effects: MonoGame's shader-model macros, the sprite texture and what
// SpriteBatch's vertex shader hands the pixel shader.
#if OPENGL
	#define SV_POSITION POSITION
	#define VS_SHADERMODEL vs_3_0
	#define PS_SHADERMODEL ps_3_0
#else
	#define VS_SHADERMODEL vs_4_0_level_9_1
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

Texture2D SpriteTexture;

// Point sampling keeps the procedural texture's flat regions flat, which the screenshot test
// relies on; the game draws the texture at whole-number scales.
sampler2D SpriteTextureSampler = sampler_state
{
	Texture = <SpriteTexture>;
	MinFilter = Point;
	MagFilter = Point;
	MipFilter = Point;
	AddressU = Clamp;
	AddressV = Clamp;
};

struct VertexShaderOutput
{
	float4 Position : SV_POSITION;
	float4 Color : COLOR0;
	float2 TextureCoordinates : TEXCOORD0;
};

// One pixel-only pass, as SpriteBatch effects are: MonoGame keeps its own vertex shader.
#define SPRITE_TECHNIQUE(name, ps) \
	technique name \
	{ \
		pass P0 \
		{ \
			PixelShader = compile PS_SHADERMODEL ps(); \
		} \
	}
