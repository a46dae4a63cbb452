// Concern: multiple render targets: a PS output struct with COLOR0 and COLOR1 members (deferred-sprite style).
Texture2D SpriteTexture;
sampler2D SpriteTextureSampler = sampler_state
{
	Texture = <SpriteTexture>;
};

Texture2D NormalTexture;
sampler2D NormalSampler = sampler_state
{
	Texture = <NormalTexture>;
};

float4 Tint;
float NormalStrength;

struct PixelShaderOutput
{
	float4 Color : COLOR0;
	float4 Normal : COLOR1;
};

PixelShaderOutput DeferredPS(float4 color : COLOR0, float2 uv : TEXCOORD0)
{
	PixelShaderOutput output;
	float4 albedo = tex2D(SpriteTextureSampler, uv) * color * Tint;
	clip(albedo.a - 0.01);
	float3 n = tex2D(NormalSampler, uv).xyz * 2.0 - 1.0;
	n.xy *= NormalStrength;
	output.Color = albedo;
	output.Normal = float4(normalize(n) * 0.5 + 0.5, 1.0);
	return output;
}

technique Deferred
{
	pass P0
	{
		PixelShader = compile ps_3_0 DeferredPS();
	}
}
