// Golden: SkinnedEffect.mgfx — MonoGame's stock SkinnedEffect: 18 techniques (vertex lighting, one light, pixel lighting; one, two or four bones; with and without fog) over a float4x3 bone palette, from the shared stock includes.
// Declared in the order of fxc's registers, which is the order of every record: the relatively
// addressed Bones palette first in the vertex shaders.
float3 FogColor;
float4x3 Bones[72];
float4 DiffuseColor;
float3 EmissiveColor;
float3 SpecularColor;
float SpecularPower;
float3 DirLight0Direction;
float3 DirLight0DiffuseColor;
float3 DirLight0SpecularColor;
float3 DirLight1Direction;
float3 DirLight1DiffuseColor;
float3 DirLight1SpecularColor;
float3 DirLight2Direction;
float3 DirLight2DiffuseColor;
float3 DirLight2SpecularColor;
float3 EyePosition;
float4 FogVector;
float4x4 WorldViewProj;
float4x3 World;
float3x3 WorldInverseTranspose;

#include "include/Stock.fxh"
#include "include/Lighting.fxh"

DECLARE_TEXTURE(Texture);

struct VSInputNmTxWeights
{
	float4 Position : POSITION0;
	float3 Normal : NORMAL0;
	float2 TexCoord : TEXCOORD0;
	int4 Indices : BLENDINDICES0;
	float4 Weights : BLENDWEIGHT0;
};

struct VSOutputPixelLightingTx
{
	float4 PositionPS : SV_Position;
	float2 TexCoord : TEXCOORD0;
	float4 PositionWS : TEXCOORD1;
	float3 NormalWS : TEXCOORD2;
	float4 Diffuse : COLOR0;
};

// Blends the palette matrices the vertex names by its weights, then moves the vertex.
void Skin(inout VSInputNmTxWeights vin, uniform int boneCount)
{
	float4x3 skinning = 0;

	[unroll]
	for (int i = 0; i < boneCount; i++)
	{
		skinning += Bones[vin.Indices[i]] * vin.Weights[i];
	}

	vin.Position.xyz = mul(vin.Position, skinning);
	vin.Normal = normalize(mul(vin.Normal, (float3x3)skinning));
}

VSOutputTx Lit(VSInputNmTxWeights vin, int lights)
{
	VertexLit lit = LightVertex(vin.Position, vin.Normal, lights);
	VSOutputTx vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = lit.Diffuse;
	vout.Specular = lit.Specular;
	vout.TexCoord = vin.TexCoord;
	return vout;
}

VSOutputTx VSSkinnedVertexLightingOneBone(VSInputNmTxWeights vin) { Skin(vin, 1); return Lit(vin, 3); }
VSOutputTx VSSkinnedVertexLightingTwoBones(VSInputNmTxWeights vin) { Skin(vin, 2); return Lit(vin, 3); }
VSOutputTx VSSkinnedVertexLightingFourBones(VSInputNmTxWeights vin) { Skin(vin, 4); return Lit(vin, 3); }
VSOutputTx VSSkinnedOneLightOneBone(VSInputNmTxWeights vin) { Skin(vin, 1); return Lit(vin, 1); }
VSOutputTx VSSkinnedOneLightTwoBones(VSInputNmTxWeights vin) { Skin(vin, 2); return Lit(vin, 1); }
VSOutputTx VSSkinnedOneLightFourBones(VSInputNmTxWeights vin) { Skin(vin, 4); return Lit(vin, 1); }

// Pixel lighting: world position (fog in w) and normal go to the pixel shader; Diffuse holds
// only the material alpha.
VSOutputPixelLightingTx PixelLit(VSInputNmTxWeights vin)
{
	VSOutputPixelLightingTx vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.TexCoord = vin.TexCoord;
	vout.PositionWS = float4(mul(vin.Position, World).xyz, ComputeFogFactor(vin.Position));
	vout.NormalWS = normalize(mul(vin.Normal, WorldInverseTranspose));
	vout.Diffuse = float4(1, 1, 1, DiffuseColor.a);
	return vout;
}

VSOutputPixelLightingTx VSSkinnedPixelLightingOneBone(VSInputNmTxWeights vin) { Skin(vin, 1); return PixelLit(vin); }
VSOutputPixelLightingTx VSSkinnedPixelLightingTwoBones(VSInputNmTxWeights vin) { Skin(vin, 2); return PixelLit(vin); }
VSOutputPixelLightingTx VSSkinnedPixelLightingFourBones(VSInputNmTxWeights vin) { Skin(vin, 4); return PixelLit(vin); }

float4 PSSkinnedVertexLighting(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	AddSpecular(color, pin.Specular.rgb);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSSkinnedVertexLightingNoFog(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	AddSpecular(color, pin.Specular.rgb);
	return color;
}

float4 PSSkinnedPixelLighting(VSOutputPixelLightingTx pin) : COLOR0
{
	float4 color = LightPixel(SAMPLE(Texture, pin.TexCoord) * pin.Diffuse, pin.PositionWS.xyz, pin.NormalWS);
	ApplyFog(color, pin.PositionWS.w);
	return color;
}

#define BONE_VARIANTS(name, vs, ps, psNoFog) \
	TECHNIQUE(name##_OneBone, vs##OneBone, ps); \
	TECHNIQUE(name##_OneBone_NoFog, vs##OneBone, psNoFog); \
	TECHNIQUE(name##_TwoBone, vs##TwoBones, ps); \
	TECHNIQUE(name##_TwoBone_NoFog, vs##TwoBones, psNoFog); \
	TECHNIQUE(name##_FourBone, vs##FourBones, ps); \
	TECHNIQUE(name##_FourBone_NoFog, vs##FourBones, psNoFog);

BONE_VARIANTS(SkinnedEffect_VertexLighting, VSSkinnedVertexLighting, PSSkinnedVertexLighting, PSSkinnedVertexLightingNoFog)
BONE_VARIANTS(SkinnedEffect_OneLight, VSSkinnedOneLight, PSSkinnedVertexLighting, PSSkinnedVertexLightingNoFog)
BONE_VARIANTS(SkinnedEffect_PixelLighting, VSSkinnedPixelLighting, PSSkinnedPixelLighting, PSSkinnedPixelLighting)
