// Golden: SpriteAlphaTest.mgfx — alpha test driven by a float3 (reference, value below, value at/above): clip() on the chosen value.
sampler s0;

float3 _alphaTest;

float4 mainPS(float4 color : COLOR0, float2 texCoord : TEXCOORD0) : COLOR0
{
	float4 c = tex2D(s0, texCoord) * color;
	clip(c.a - _alphaTest.x >= 0.0 ? _alphaTest.z : _alphaTest.y);
	return c;
}

technique SpriteDrawing
{
	pass P0
	{
		PixelShader = compile ps_3_0 mainPS();
	}
}
