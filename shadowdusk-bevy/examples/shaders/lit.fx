// A textured mesh lit by one directional light, with its own vertex shader: positions go
// through World, View and Projection from Params, as in a MonoGame 3D effect.
#if OPENGL
	#define SV_POSITION POSITION
	#define VS_SHADERMODEL vs_3_0
	#define PS_SHADERMODEL ps_3_0
#else
	#define VS_SHADERMODEL vs_4_0_level_9_1
	#define PS_SHADERMODEL ps_4_0_level_9_1
#endif

float4x4 World;
float4x4 View;
float4x4 Projection;

// The direction the light travels, in world space.
float3 LightDirection = float3(-0.4, -1.0, -0.6);
float3 AmbientColor = float3(0.3, 0.3, 0.35);

Texture2D DiffuseTexture;
sampler2D DiffuseSampler = sampler_state
{
	Texture = <DiffuseTexture>;
	MinFilter = Point;
	MagFilter = Point;
	MipFilter = Point;
	AddressU = Clamp;
	AddressV = Clamp;
};

struct VertexShaderInput
{
	float4 Position : POSITION0;
	float3 Normal : NORMAL0;
	float2 TexCoord : TEXCOORD0;
};

struct VertexShaderOutput
{
	float4 Position : SV_POSITION;
	float2 TexCoord : TEXCOORD0;
	float3 Normal : TEXCOORD1;
};

VertexShaderOutput MainVS(VertexShaderInput input)
{
	VertexShaderOutput output;
	float4 world = mul(input.Position, World);
	output.Position = mul(mul(world, View), Projection);
	output.Normal = mul(input.Normal, (float3x3)World);
	output.TexCoord = input.TexCoord;
	return output;
}

float4 MainPS(VertexShaderOutput input) : COLOR
{
	float light = saturate(dot(normalize(input.Normal), -normalize(LightDirection)));
	float4 color = tex2D(DiffuseSampler, input.TexCoord);
	return float4(color.rgb * (AmbientColor + light), 1.0);
}

technique Lit
{
	pass P0
	{
		VertexShader = compile VS_SHADERMODEL MainVS();
		PixelShader = compile PS_SHADERMODEL MainPS();
	}
};
