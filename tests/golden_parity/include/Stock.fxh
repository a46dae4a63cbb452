// Shared by the stock-effect pairs (BasicEffect, DualTextureEffect, AlphaTestEffect, SkinnedEffect,
// EnvironmentMapEffect): the technique macro, vertex layouts, interpolants and the fog helpers.
// Include it after the effect declares FogColor and FogVector: the helpers read them.

// One technique of one unnamed pass, the way the stock effects spell all of theirs. Shaders with
// the same entry and profile are shared between techniques, so the macro fixes the profiles.
#define TECHNIQUE(name, vsname, psname) \
	technique name \
	{ \
		pass \
		{ \
			VertexShader = compile vs_2_0 vsname(); \
			PixelShader = compile ps_2_0 psname(); \
		} \
	}

// Declares a texture parameter and the sampler that reads it (no baked state).
#define DECLARE_TEXTURE(Name) \
	texture Name; \
	sampler Name##Sampler = sampler_state { Texture = <Name>; }

#define SAMPLE(Name, uv) tex2D(Name##Sampler, uv)

// Vertex layouts, members in the order the goldens number their attributes.
struct VSInput
{
	float4 Position : POSITION0;
};

struct VSInputVc
{
	float4 Position : POSITION0;
	float4 Color : COLOR0;
};

struct VSInputTx
{
	float4 Position : POSITION0;
	float2 TexCoord : TEXCOORD0;
};

struct VSInputTxVc
{
	float4 Position : POSITION0;
	float4 Color : COLOR0;
	float2 TexCoord : TEXCOORD0;
};

struct VSInputNm
{
	float4 Position : POSITION0;
	float3 Normal : NORMAL0;
};

struct VSInputNmVc
{
	float4 Position : POSITION0;
	float3 Normal : NORMAL0;
	float4 Color : COLOR0;
};

struct VSInputNmTx
{
	float4 Position : POSITION0;
	float3 Normal : NORMAL0;
	float2 TexCoord : TEXCOORD0;
};

struct VSInputNmTxVc
{
	float4 Position : POSITION0;
	float3 Normal : NORMAL0;
	float2 TexCoord : TEXCOORD0;
	float4 Color : COLOR0;
};

// Interpolants: Specular.w carries the fog factor.
struct VSOutput
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
	float4 Specular : COLOR1;
};

struct VSOutputNoFog
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
};

struct VSOutputTx
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
	float4 Specular : COLOR1;
	float2 TexCoord : TEXCOORD0;
};

struct VSOutputTxNoFog
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
	float2 TexCoord : TEXCOORD0;
};

// 0 in front of the fog start, 1 past its end: FogVector holds the view-depth ramp.
float ComputeFogFactor(float4 position)
{
	return saturate(dot(position, FogVector));
}

void ApplyFog(inout float4 color, float fogFactor)
{
	color.rgb = lerp(color.rgb, FogColor * color.a, fogFactor);
}

// Premultiplied alpha: specular is scaled by coverage.
void AddSpecular(inout float4 color, float3 specular)
{
	color.rgb += specular * color.a;
}
