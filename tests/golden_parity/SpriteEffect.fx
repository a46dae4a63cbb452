// Golden: SpriteEffect.mgfx — SpriteBatch's own effect: position × MatrixTransform, texture × vertex colour, anonymous pass, vs_2_0/ps_2_0.
float4x4 MatrixTransform;

texture2D Texture;
sampler TextureSampler : register(s0) = sampler_state
{
	Texture = (Texture);
};

void SpriteVertexShader(inout float4 color : COLOR0,
                        inout float2 texCoord : TEXCOORD0,
                        inout float4 position : POSITION0)
{
	position = mul(position, MatrixTransform);
}

float4 SpritePixelShader(float4 color : COLOR0, float2 texCoord : TEXCOORD0) : COLOR0
{
	return tex2D(TextureSampler, texCoord) * color;
}

technique SpriteBatch
{
	pass
	{
		VertexShader = compile vs_2_0 SpriteVertexShader();
		PixelShader = compile ps_2_0 SpritePixelShader();
	}
}
