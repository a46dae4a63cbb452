// Three directional lights with Blinn-Phong specular, shared by the lit stock effects. Include it
// after the effect declares the material (DiffuseColor, EmissiveColor, SpecularColor,
// SpecularPower), the lights (DirLight0..2 Direction/DiffuseColor/SpecularColor) and EyePosition.

struct ColorPair
{
	float3 Diffuse;
	float3 Specular;
};

// One light's share: Lambert diffuse, and specular only on the lit side (zeroL).
void AddLight(inout ColorPair sum, float3 direction, float3 diffuse, float3 specular, float3 eyeVector, float3 normal)
{
	float dotL = dot(-direction, normal);
	float zeroL = step(0, dotL);
	float dotH = dot(normalize(eyeVector - direction), normal);
	sum.Diffuse += zeroL * dotL * diffuse;
	sum.Specular += pow(max(dotH, 0) * zeroL, SpecularPower) * specular;
}

// `lights` is 1 or 3 and always a literal, so the unused lights fold away.
ColorPair ComputeLights(float3 eyeVector, float3 normal, int lights)
{
	ColorPair sum;
	sum.Diffuse = 0;
	sum.Specular = 0;
	AddLight(sum, DirLight0Direction, DirLight0DiffuseColor, DirLight0SpecularColor, eyeVector, normal);
	if (lights > 1)
	{
		AddLight(sum, DirLight1Direction, DirLight1DiffuseColor, DirLight1SpecularColor, eyeVector, normal);
		AddLight(sum, DirLight2Direction, DirLight2DiffuseColor, DirLight2SpecularColor, eyeVector, normal);
	}
	sum.Diffuse = sum.Diffuse * DiffuseColor.rgb + EmissiveColor;
	sum.Specular *= SpecularColor;
	return sum;
}

// Per-vertex lighting: Diffuse carries the material alpha, Specular.w the fog factor.
struct VertexLit
{
	float4 Diffuse;
	float4 Specular;
};

VertexLit LightVertex(float4 position, float3 normal, int lights)
{
	float3 positionWS = mul(position, World).xyz;
	float3 eyeVector = normalize(EyePosition - positionWS);
	float3 normalWS = normalize(mul(normal, WorldInverseTranspose));
	ColorPair c = ComputeLights(eyeVector, normalWS, lights);
	VertexLit v;
	v.Diffuse = float4(c.Diffuse, DiffuseColor.a);
	v.Specular = float4(c.Specular, ComputeFogFactor(position));
	return v;
}

// Per-pixel lighting of an already coloured fragment.
float4 LightPixel(float4 color, float3 positionWS, float3 normalWS)
{
	float3 eyeVector = normalize(EyePosition - positionWS);
	ColorPair c = ComputeLights(eyeVector, normalize(normalWS), 3);
	color.rgb *= c.Diffuse;
	AddSpecular(color, c.Specular);
	return color;
}
