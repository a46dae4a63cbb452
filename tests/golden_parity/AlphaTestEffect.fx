// Golden: AlphaTestEffect.mgfx — MonoGame's stock AlphaTestEffect: clip() on alpha against AlphaTest (less/greater or equal/not-equal), diffuse or vertex colour, optional fog.
// AlphaTest: x = reference, y = equality tolerance, z = clip value when the test holds, w = when it fails.
float4 AlphaTest;
float3 FogColor;
float4 DiffuseColor;
float4x4 WorldViewProj;
float4 FogVector;

#include "include/Stock.fxh"

DECLARE_TEXTURE(Texture);

VSOutputTx VSAlphaTest(VSInputTx vin)
{
	VSOutputTx vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor;
	vout.Specular = float4(0, 0, 0, ComputeFogFactor(vin.Position));
	vout.TexCoord = vin.TexCoord;
	return vout;
}

VSOutputTxNoFog VSAlphaTestNoFog(VSInputTx vin)
{
	VSOutputTxNoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor;
	vout.TexCoord = vin.TexCoord;
	return vout;
}

VSOutputTx VSAlphaTestVc(VSInputTxVc vin)
{
	VSOutputTx vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor * vin.Color;
	vout.Specular = float4(0, 0, 0, ComputeFogFactor(vin.Position));
	vout.TexCoord = vin.TexCoord;
	return vout;
}

VSOutputTxNoFog VSAlphaTestVcNoFog(VSInputTxVc vin)
{
	VSOutputTxNoFog vout;
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = DiffuseColor * vin.Color;
	vout.TexCoord = vin.TexCoord;
	return vout;
}

// CompareFunction Less/Greater/LessEqual/GreaterEqual: the sign of z and w picks which side survives.
void ClipLtGt(float alpha)
{
	clip((alpha < AlphaTest.x) ? AlphaTest.z : AlphaTest.w);
}

// CompareFunction Equal/NotEqual: "equal" means within AlphaTest.y of the reference.
void ClipEqNe(float alpha)
{
	clip((abs(alpha - AlphaTest.x) < AlphaTest.y) ? AlphaTest.z : AlphaTest.w);
}

float4 PSAlphaTestLtGt(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	ClipLtGt(color.a);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSAlphaTestLtGtNoFog(VSOutputTxNoFog pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	ClipLtGt(color.a);
	return color;
}

float4 PSAlphaTestEqNe(VSOutputTx pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	ClipEqNe(color.a);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSAlphaTestEqNeNoFog(VSOutputTxNoFog pin) : COLOR0
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	ClipEqNe(color.a);
	return color;
}

TECHNIQUE(AlphaTestEffect_LTGT, VSAlphaTest, PSAlphaTestLtGt);
TECHNIQUE(AlphaTestEffect_LTGT_NoFog, VSAlphaTestNoFog, PSAlphaTestLtGtNoFog);
TECHNIQUE(AlphaTestEffect_LTGT_VertexColor, VSAlphaTestVc, PSAlphaTestLtGt);
TECHNIQUE(AlphaTestEffect_LTGT_VertexColor_NoFog, VSAlphaTestVcNoFog, PSAlphaTestLtGtNoFog);
TECHNIQUE(AlphaTestEffect_EQNE, VSAlphaTest, PSAlphaTestEqNe);
TECHNIQUE(AlphaTestEffect_EQNE_NoFog, VSAlphaTestNoFog, PSAlphaTestEqNeNoFog);
TECHNIQUE(AlphaTestEffect_EQNE_VertexColor, VSAlphaTestVc, PSAlphaTestEqNe);
TECHNIQUE(AlphaTestEffect_EQNE_VertexColor_NoFog, VSAlphaTestVcNoFog, PSAlphaTestEqNeNoFog);
