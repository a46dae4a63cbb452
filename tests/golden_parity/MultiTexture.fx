// Golden: MultiTexture.mgfx — two samplers: legacy `s0` times a second texture read through a Point/Clamp sampler_state.
sampler s0;

texture _secondTexture;

sampler2D _secondSampler = sampler_state
{
	Texture = <_secondTexture>;
	MinFilter = Point;
	MagFilter = Point;
	AddressU = Clamp;
	AddressV = Clamp;
};

float4 mainPS(float2 texCoord : TEXCOORD0) : COLOR0
{
	float4 first = tex2D(s0, texCoord);
	float4 second = tex2D(_secondSampler, texCoord);
	return first * second;
}

technique Technique1
{
	pass Pass1
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
