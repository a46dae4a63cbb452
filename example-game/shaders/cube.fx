// A textured cube lit by one directional light, drawn in two passes: an outline (the back
// faces of a slightly larger cube, in a flat colour) and then the lit, textured cube.
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
float3 AmbientColor = float3(0.25, 0.25, 0.3);
float3 DiffuseColor = float3(0.85, 0.85, 0.8);
float OutlineWidth = 0.06;
float4 OutlineColor = float4(1.0, 0.85, 0.2, 1.0);

texture CubeTexture;
sampler2D CubeSampler = sampler_state
{
	Texture = <CubeTexture>;
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

struct LitVertex
{
	float4 Position : SV_POSITION;
	float2 TexCoord : TEXCOORD0;
	float3 Normal : TEXCOORD1;
};

struct OutlineVertex
{
	float4 Position : SV_POSITION;
};

LitVertex LitVS(VertexShaderInput input)
{
	LitVertex output;
	float4 world = mul(input.Position, World);
	output.Position = mul(mul(world, View), Projection);
	output.Normal = mul(input.Normal, (float3x3)World);
	output.TexCoord = input.TexCoord;
	return output;
}

float4 LitPS(LitVertex input) : COLOR0
{
	float3 normal = normalize(input.Normal);
	float diffuse = saturate(dot(normal, -normalize(LightDirection)));
	float4 texel = tex2D(CubeSampler, input.TexCoord);
	return float4(texel.rgb * (AmbientColor + DiffuseColor * diffuse), texel.a);
}

OutlineVertex OutlineVS(VertexShaderInput input)
{
	OutlineVertex output;
	float4 grown = float4(input.Position.xyz * (1.0 + OutlineWidth), 1.0);
	output.Position = mul(mul(mul(grown, World), View), Projection);
	return output;
}

float4 OutlinePS(OutlineVertex input) : COLOR0
{
	return OutlineColor;
}

technique LitCube
{
	// Back faces only: what shows around the cube's silhouette is the outline.
	pass Outline
	{
		CullMode = CW;
		ZEnable = true;
		ZWriteEnable = true;
		VertexShader = compile VS_SHADERMODEL OutlineVS();
		PixelShader = compile PS_SHADERMODEL OutlinePS();
	}
	pass Lit
	{
		CullMode = CCW;
		ZEnable = true;
		ZWriteEnable = true;
		VertexShader = compile VS_SHADERMODEL LitVS();
		PixelShader = compile PS_SHADERMODEL LitPS();
	}
}
