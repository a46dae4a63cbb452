// Golden: BasicEffect.mgfx — MonoGame's stock BasicEffect: 32 techniques (colour, texture, vertex colour, fog; no lighting, vertex lighting, one light, pixel lighting) from shared macros and includes.
// Declared in the order of fxc's registers, which is the order of every record.
float3 FogColor;
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

struct VSOutputPixelLighting
{
	float4 PositionPS : SV_Position;
	float4 PositionWS : TEXCOORD0;
	float3 NormalWS : TEXCOORD1;
	float4 Diffuse : COLOR0;
};

struct VSOutputPixelLightingTx
{
	float4 PositionPS : SV_Position;
	float2 TexCoord : TEXCOORD0;
	float4 PositionWS : TEXCOORD1;
	float3 NormalWS : TEXCOORD2;
	float4 Diffuse : COLOR0;
};

// Unlit: the material colour (times the vertex colour), fog in Specular.w.
VSOutput Unlit(float4 position, float4 color)
{
	VSOutput vout;
	vout.PositionPS = mul(position, WorldViewProj);
	vout.Diffuse = DiffuseColor * color;
	vout.Specular = float4(0, 0, 0, ComputeFogFactor(position));
	return vout;
}

VSOutput VSBasic(VSInput vin) { return Unlit(vin.Position, 1); }

VSOutputNoFog VSBasicNoFog(VSInput vin)
{
	VSOutputNoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor;
	return vout;
}

VSOutput VSBasicVc(VSInputVc vin) { return Unlit(vin.Position, vin.Color); }

VSOutputNoFog VSBasicVcNoFog(VSInputVc vin)
{
	VSOutputNoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor * vin.Color;
	return vout;
}

VSOutputTx UnlitTx(float4 position, float4 color, float2 texCoord)
{
	VSOutput v = Unlit(position, color);
	VSOutputTx vout;
	vout.PositionPS = v.PositionPS;
	vout.Diffuse = v.Diffuse;
	vout.Specular = v.Specular;
	vout.TexCoord = texCoord;
	return vout;
}

VSOutputTx VSBasicTx(VSInputTx vin) { return UnlitTx(vin.Position, 1, vin.TexCoord); }

VSOutputTxNoFog VSBasicTxNoFog(VSInputTx vin)
{
	VSOutputTxNoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor;
	vout.TexCoord = vin.TexCoord;
	return vout;
}

VSOutputTx VSBasicTxVc(VSInputTxVc vin) { return UnlitTx(vin.Position, vin.Color, vin.TexCoord); }

VSOutputTxNoFog VSBasicTxVcNoFog(VSInputTxVc vin)
{
	VSOutputTxNoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor * vin.Color;
	vout.TexCoord = vin.TexCoord;
	return vout;
}

// Vertex lighting with `lights` lights; the vertex colour scales diffuse and alpha.
VSOutputTx Lit(float4 position, float3 normal, float4 color, float2 texCoord, int lights)
{
	VertexLit lit = LightVertex(position, normal, lights);
	VSOutputTx vout;
	vout.PositionPS = mul(position, WorldViewProj);
	vout.Diffuse = lit.Diffuse * color;
	vout.Specular = lit.Specular;
	vout.TexCoord = texCoord;
	return vout;
}

VSOutput Untextured(VSOutputTx v)
{
	VSOutput vout;
	vout.PositionPS = v.PositionPS;
	vout.Diffuse = v.Diffuse;
	vout.Specular = v.Specular;
	return vout;
}

VSOutput VSBasicVertexLighting(VSInputNm vin) { return Untextured(Lit(vin.Position, vin.Normal, 1, 0, 3)); }
VSOutput VSBasicVertexLightingVc(VSInputNmVc vin) { return Untextured(Lit(vin.Position, vin.Normal, vin.Color, 0, 3)); }
VSOutputTx VSBasicVertexLightingTx(VSInputNmTx vin) { return Lit(vin.Position, vin.Normal, 1, vin.TexCoord, 3); }
VSOutputTx VSBasicVertexLightingTxVc(VSInputNmTxVc vin) { return Lit(vin.Position, vin.Normal, vin.Color, vin.TexCoord, 3); }

VSOutput VSBasicOneLight(VSInputNm vin) { return Untextured(Lit(vin.Position, vin.Normal, 1, 0, 1)); }
VSOutput VSBasicOneLightVc(VSInputNmVc vin) { return Untextured(Lit(vin.Position, vin.Normal, vin.Color, 0, 1)); }
VSOutputTx VSBasicOneLightTx(VSInputNmTx vin) { return Lit(vin.Position, vin.Normal, 1, vin.TexCoord, 1); }
VSOutputTx VSBasicOneLightTxVc(VSInputNmTxVc vin) { return Lit(vin.Position, vin.Normal, vin.Color, vin.TexCoord, 1); }

// Pixel lighting: world position (fog in w) and normal go to the pixel shader; Diffuse holds
// only the vertex colour and the material alpha.
VSOutputPixelLightingTx PixelLit(float4 position, float3 normal, float4 color, float2 texCoord)
{
	VSOutputPixelLightingTx vout;
	vout.PositionPS = mul(position, WorldViewProj);
	vout.TexCoord = texCoord;
	vout.PositionWS = float4(mul(position, World).xyz, ComputeFogFactor(position));
	vout.NormalWS = normalize(mul(normal, WorldInverseTranspose));
	vout.Diffuse = float4(color.rgb, color.a * DiffuseColor.a);
	return vout;
}

VSOutputPixelLighting Untextured(VSOutputPixelLightingTx v)
{
	VSOutputPixelLighting vout;
	vout.PositionPS = v.PositionPS;
	vout.PositionWS = v.PositionWS;
	vout.NormalWS = v.NormalWS;
	vout.Diffuse = v.Diffuse;
	return vout;
}

VSOutputPixelLighting VSBasicPixelLighting(VSInputNm vin) { return Untextured(PixelLit(vin.Position, vin.Normal, 1, 0)); }
VSOutputPixelLighting VSBasicPixelLightingVc(VSInputNmVc vin) { return Untextured(PixelLit(vin.Position, vin.Normal, vin.Color, 0)); }
VSOutputPixelLightingTx VSBasicPixelLightingTx(VSInputNmTx vin) { return PixelLit(vin.Position, vin.Normal, 1, vin.TexCoord); }
VSOutputPixelLightingTx VSBasicPixelLightingTxVc(VSInputNmTxVc vin) { return PixelLit(vin.Position, vin.Normal, vin.Color, vin.TexCoord); }

float4 PSBasic(VSOutput pin) : COLOR0
{
	float4 color = pin.Diffuse;
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSBasicNoFog(VSOutputNoFog pin) : COLOR0 { return pin.Diffuse; }

float4 PSBasicTx(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSBasicTxNoFog(VSOutputTxNoFog pin) : COLOR0 { return SAMPLE(Texture, pin.TexCoord) * pin.Diffuse; }

float4 PSBasicVertexLighting(VSOutput pin) : COLOR0
{
	float4 color = pin.Diffuse;
	AddSpecular(color, pin.Specular.rgb);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSBasicVertexLightingNoFog(VSOutput pin) : COLOR0
{
	float4 color = pin.Diffuse;
	AddSpecular(color, pin.Specular.rgb);
	return color;
}

float4 PSBasicVertexLightingTx(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	AddSpecular(color, pin.Specular.rgb);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSBasicVertexLightingNoFogTx(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	AddSpecular(color, pin.Specular.rgb);
	return color;
}

float4 PSBasicPixelLighting(VSOutputPixelLighting pin) : COLOR0
{
	float4 color = LightPixel(pin.Diffuse, pin.PositionWS.xyz, pin.NormalWS);
	ApplyFog(color, pin.PositionWS.w);
	return color;
}

float4 PSBasicPixelLightingTx(VSOutputPixelLightingTx pin) : COLOR0
{
	float4 color = LightPixel(SAMPLE(Texture, pin.TexCoord) * pin.Diffuse, pin.PositionWS.xyz, pin.NormalWS);
	ApplyFog(color, pin.PositionWS.w);
	return color;
}

// The four colour/texture variants of one lighting mode; `##` builds the shader names.
#define VARIANTS(name, vs, ps, psNoFog) \
	TECHNIQUE(name, vs, ps); \
	TECHNIQUE(name##_NoFog, vs, psNoFog); \
	TECHNIQUE(name##_VertexColor, vs##Vc, ps); \
	TECHNIQUE(name##_VertexColor_NoFog, vs##Vc, psNoFog); \
	TECHNIQUE(name##_Texture, vs##Tx, ps##Tx); \
	TECHNIQUE(name##_Texture_NoFog, vs##Tx, psNoFog##Tx); \
	TECHNIQUE(name##_Texture_VertexColor, vs##TxVc, ps##Tx); \
	TECHNIQUE(name##_Texture_VertexColor_NoFog, vs##TxVc, psNoFog##Tx);

TECHNIQUE(BasicEffect, VSBasic, PSBasic);
TECHNIQUE(BasicEffect_NoFog, VSBasicNoFog, PSBasicNoFog);
TECHNIQUE(BasicEffect_VertexColor, VSBasicVc, PSBasic);
TECHNIQUE(BasicEffect_VertexColor_NoFog, VSBasicVcNoFog, PSBasicNoFog);
TECHNIQUE(BasicEffect_Texture, VSBasicTx, PSBasicTx);
TECHNIQUE(BasicEffect_Texture_NoFog, VSBasicTxNoFog, PSBasicTxNoFog);
TECHNIQUE(BasicEffect_Texture_VertexColor, VSBasicTxVc, PSBasicTx);
TECHNIQUE(BasicEffect_Texture_VertexColor_NoFog, VSBasicTxVcNoFog, PSBasicTxNoFog);
VARIANTS(BasicEffect_VertexLighting, VSBasicVertexLighting, PSBasicVertexLighting, PSBasicVertexLightingNoFog)
VARIANTS(BasicEffect_OneLight, VSBasicOneLight, PSBasicVertexLighting, PSBasicVertexLightingNoFog)
VARIANTS(BasicEffect_PixelLighting, VSBasicPixelLighting, PSBasicPixelLighting, PSBasicPixelLighting)
