// Concern: two named cbuffers read by one pixel shader, merged into a single ps_uniforms_vec4 record.
Texture2D SpriteTexture;
sampler2D SpriteTextureSampler = sampler_state
{
	Texture = <SpriteTexture>;
};

cbuffer Tints
{
	float4 TintA;
	float4 TintB;
};

cbuffer Mixing
{
	float MixAmount;
	float2 Offset;
};

float4 MixPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
	float4 c = tex2D(SpriteTextureSampler, uv + Offset);
	return lerp(c * TintA, c * TintB, MixAmount);
}

technique Mix
{
	pass P0
	{
		PixelShader = compile ps_3_0 MixPS();
	}
}
