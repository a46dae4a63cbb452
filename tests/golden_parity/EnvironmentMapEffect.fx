// Golden: EnvironmentMapEffect.mgfx — MonoGame's stock EnvironmentMapEffect: 16 techniques (three lights or one, Fresnel or not, environment-map specular or not, fog or not) with a cube map, constants placed with `register(vs, cN)` / `register(ps, cN)` as the stock source places them.
float3 EnvironmentMapSpecular : register(ps, c0);
float FresnelFactor : register(vs, c0);
float EnvironmentMapAmount : register(vs, c1);
float4 DiffuseColor : register(vs, c2);
float3 EmissiveColor : register(vs, c3);
float3 DirLight0Direction : register(vs, c4);
float3 DirLight0DiffuseColor : register(vs, c5);
float3 DirLight1Direction : register(vs, c6);
float3 DirLight1DiffuseColor : register(vs, c7);
float3 DirLight2Direction : register(vs, c8);
float3 DirLight2DiffuseColor : register(vs, c9);
float3 EyePosition : register(vs, c10);
float3 FogColor : register(ps, c1);
float4 FogVector : register(vs, c11);
float4x4 WorldViewProj : register(vs, c12);
float4x3 World : register(vs, c16);
float3x3 WorldInverseTranspose : register(vs, c19);

#include "include/Stock.fxh"

DECLARE_TEXTURE(Texture);
texture EnvironmentMap;
samplerCUBE EnvironmentMapSampler = sampler_state { Texture = <EnvironmentMap>; };

struct VSOutputTxEnvMap
{
	float4 PositionPS : SV_Position;
	float4 Diffuse : COLOR0;
	float4 Specular : COLOR1;
	float2 TexCoord : TEXCOORD0;
	float3 EnvCoord : TEXCOORD1;
};

// Lambert diffuse from `lights` directional lights (1 or 3, always a literal).
float3 ComputeDiffuse(float3 normal, int lights)
{
	float3 sum = saturate(dot(-DirLight0Direction, normal)) * DirLight0DiffuseColor;
	if (lights > 1)
	{
		sum += saturate(dot(-DirLight1Direction, normal)) * DirLight1DiffuseColor;
		sum += saturate(dot(-DirLight2Direction, normal)) * DirLight2DiffuseColor;
	}
	return sum * DiffuseColor.rgb + EmissiveColor;
}

float ComputeFresnelFactor(float3 eyeVector, float3 worldNormal)
{
	float viewAngle = dot(eyeVector, worldNormal);
	return pow(max(1 - abs(viewAngle), 0), FresnelFactor);
}

VSOutputTxEnvMap EnvMap(VSInputNmTx vin, bool fresnel, int lights)
{
	VSOutputTxEnvMap vout;
	float3 positionWS = mul(vin.Position, World);
	float3 eyeVector = normalize(EyePosition - positionWS);
	float3 normalWS = normalize(mul(vin.Normal, WorldInverseTranspose));
	vout.PositionPS = mul(vin.Position, WorldViewProj);
	vout.Diffuse = float4(ComputeDiffuse(normalWS, lights), DiffuseColor.a);
	vout.Specular.rgb = fresnel ? ComputeFresnelFactor(eyeVector, normalWS) * EnvironmentMapAmount : EnvironmentMapAmount;
	vout.Specular.a = ComputeFogFactor(vin.Position);
	vout.TexCoord = vin.TexCoord;
	vout.EnvCoord = reflect(-eyeVector, normalWS);
	return vout;
}

VSOutputTxEnvMap VSEnvMap(VSInputNmTx vin) { return EnvMap(vin, false, 3); }
VSOutputTxEnvMap VSEnvMapFresnel(VSInputNmTx vin) { return EnvMap(vin, true, 3); }
VSOutputTxEnvMap VSEnvMapOneLight(VSInputNmTx vin) { return EnvMap(vin, false, 1); }
VSOutputTxEnvMap VSEnvMapOneLightFresnel(VSInputNmTx vin) { return EnvMap(vin, true, 1); }

float4 EnvMapColor(VSOutputTxEnvMap pin, out float4 envmap)
{
	float4 color = SAMPLE(Texture, pin.TexCoord) * pin.Diffuse;
	envmap = texCUBE(EnvironmentMapSampler, pin.EnvCoord) * color.a;
	color.rgb = lerp(color.rgb, envmap.rgb, pin.Specular.rgb);
	return color;
}

float4 PSEnvMap(VSOutputTxEnvMap pin) : COLOR0
{
	float4 envmap;
	float4 color = EnvMapColor(pin, envmap);
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSEnvMapNoFog(VSOutputTxEnvMap pin) : COLOR0
{
	float4 envmap;
	return EnvMapColor(pin, envmap);
}

float4 PSEnvMapSpecular(VSOutputTxEnvMap pin) : COLOR0
{
	float4 envmap;
	float4 color = EnvMapColor(pin, envmap);
	color.rgb += EnvironmentMapSpecular * envmap.a;
	ApplyFog(color, pin.Specular.w);
	return color;
}

float4 PSEnvMapSpecularNoFog(VSOutputTxEnvMap pin) : COLOR0
{
	float4 envmap;
	float4 color = EnvMapColor(pin, envmap);
	color.rgb += EnvironmentMapSpecular * envmap.a;
	return color;
}

#define ENV_VARIANTS(name, vs, vsFresnel) \
	TECHNIQUE(name, vs, PSEnvMap); \
	TECHNIQUE(name##_NoFog, vs, PSEnvMapNoFog); \
	TECHNIQUE(name##_Fresnel, vsFresnel, PSEnvMap); \
	TECHNIQUE(name##_Fresnel_NoFog, vsFresnel, PSEnvMapNoFog); \
	TECHNIQUE(name##_Specular, vs, PSEnvMapSpecular); \
	TECHNIQUE(name##_Specular_NoFog, vs, PSEnvMapSpecularNoFog); \
	TECHNIQUE(name##_Fresnel_Specular, vsFresnel, PSEnvMapSpecular); \
	TECHNIQUE(name##_Fresnel_Specular_NoFog, vsFresnel, PSEnvMapSpecularNoFog);

ENV_VARIANTS(EnvironmentMapEffect, VSEnvMap, VSEnvMapFresnel)
ENV_VARIANTS(EnvironmentMapEffect_OneLight, VSEnvMapOneLight, VSEnvMapOneLightFresnel)
