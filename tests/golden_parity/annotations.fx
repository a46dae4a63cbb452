// Golden: annotations.mgfx — an annotated float4 uniform (annotations are not written) drawn by a pass-through vertex shader.
float4 TintColor < string UIName = "Tint colour"; float UIMin = 0.0; float UIMax = 1.0; >;

float4 VSMain(float4 position : POSITION0) : POSITION0
{
	return position;
}

float4 PSMain() : COLOR0
{
	return TintColor;
}

technique Annotated
{
	pass Pass0
	{
		VertexShader = compile vs_3_0 VSMain();
		PixelShader = compile ps_3_0 PSMain();
	}
}
