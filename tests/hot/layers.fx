// Two textures on explicit sampler registers: the hot-reload test moves Detail's to another
// register, which moves the texture to another unit (a change to `textures::DETAIL_UNITS`).
texture Base;
texture Detail;
sampler BaseSampler : register(s0) = sampler_state { Texture = <Base>; };
sampler DetailSampler : register(s1) = sampler_state { Texture = <Detail>; };

float4 PS(float2 uv : TEXCOORD0) : COLOR0
{
	return tex2D(BaseSampler, uv) * tex2D(DetailSampler, uv);
}
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
