// Golden: DualTextureEffect.mgfx — MonoGame's stock DualTextureEffect: two textures modulated 2×, diffuse or vertex colour, optional fog; four techniques from one macro.
float3 FogColor;
float4 DiffuseColor;
float4x4 WorldViewProj;
float4 FogVector;

#include "include/Stock.fxh"

DECLARE_TEXTURE(Texture);
DECLARE_TEXTURE(Texture2);

struct VSInputTx2
{
	float4 Position : POSITION0;
	float2 TexCoord : TEXCOORD0;
	float2 TexCoord2 : TEXCOORD1;
};

struct VSInputTx2Vc
{
	float4 Position : POSITION0;
	float2 TexCoord : TEXCOORD0;
	float2 TexCoord2 : TEXCOORD1;
	float4 Color : COLOR0;
};

struct VSOutputTx2
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
	float4 Specular : COLOR1;
	float2 TexCoord : TEXCOORD0;
	float2 TexCoord2 : TEXCOORD1;
};

struct VSOutputTx2NoFog
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
	float2 TexCoord : TEXCOORD0;
	float2 TexCoord2 : TEXCOORD1;
};

VSOutputTx2 VSDualTexture(VSInputTx2 vin)
{
	VSOutputTx2 vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor;
	vout.Specular = float4(0, 0, 0, ComputeFogFactor(vin.Position));
	vout.TexCoord = vin.TexCoord;
	vout.TexCoord2 = vin.TexCoord2;
	return vout;
}

VSOutputTx2NoFog VSDualTextureNoFog(VSInputTx2 vin)
{
	VSOutputTx2NoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor;
	vout.TexCoord = vin.TexCoord;
	vout.TexCoord2 = vin.TexCoord2;
	return vout;
}

VSOutputTx2 VSDualTextureVc(VSInputTx2Vc vin)
{
	VSOutputTx2 vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor * vin.Color;
	vout.Specular = float4(0, 0, 0, ComputeFogFactor(vin.Position));
	vout.TexCoord = vin.TexCoord;
	vout.TexCoord2 = vin.TexCoord2;
	return vout;
}

VSOutputTx2NoFog VSDualTextureVcNoFog(VSInputTx2Vc vin)
{
	VSOutputTx2NoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor * vin.Color;
	vout.TexCoord = vin.TexCoord;
	vout.TexCoord2 = vin.TexCoord2;
	return vout;
}

// The second texture is a 2× modulation: mid grey leaves the first unchanged (alpha is not doubled).
float4 Modulate(float4 base, float4 overlay, float4 diffuse)
{
	base.rgb *= 2;
	return base * overlay * diffuse;
}

float4 PSDualTexture(VSOutputTx2 pin) : COLOR0
{
	float4 color = Modulate(SAMPLE(Texture, pin.TexCoord), SAMPLE(Texture2, pin.TexCoord2), pin.Diffuse);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSDualTextureNoFog(VSOutputTx2NoFog pin) : COLOR0
{
	return Modulate(SAMPLE(Texture, pin.TexCoord), SAMPLE(Texture2, pin.TexCoord2), pin.Diffuse);
}

TECHNIQUE(DualTextureEffect, VSDualTexture, PSDualTexture);
TECHNIQUE(DualTextureEffect_NoFog, VSDualTextureNoFog, PSDualTextureNoFog);
TECHNIQUE(DualTextureEffect_VertexColor, VSDualTextureVc, PSDualTexture);
TECHNIQUE(DualTextureEffect_VertexColor_NoFog, VSDualTextureVcNoFog, PSDualTextureNoFog);
