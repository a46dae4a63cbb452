// Golden: render-states.mgfx — a WorldViewProj vertex shader and a constant half-transparent white, with blend, depth and cull pass states.
float4x4 WorldViewProj;

float4 VSMain(float4 position : POSITION0) : POSITION0
{
	return mul(position, WorldViewProj);
}

float4 PSMain() : COLOR0
{
	return float4(1.0, 1.0, 1.0, 0.5);
}

technique RenderStates
{
	pass Pass0
	{
		CullMode = None;
		AlphaBlendEnable = True;
		ZEnable = False;
		VertexShader = compile vs_3_0 VSMain();
		PixelShader = compile ps_3_0 PSMain();
	}
}
