// Golden: VertexAndPixel.mgfx — World, View, Projection applied one after another to a float3 position; PS outputs a uniform colour.
float4x4 World;
float4x4 View;
float4x4 Projection;
float4 Color;

float4 VSMain(float3 position : POSITION0) : POSITION0
{
	float4 world = mul(float4(position, 1.0), World);
	float4 view = mul(world, View);
	return mul(view, Projection);
}

float4 PSMain() : COLOR0
{
	return Color;
}

technique ColorEffect
{
	pass Pass0
	{
		VertexShader = compile vs_3_0 VSMain();
		PixelShader = compile ps_3_0 PSMain();
	}
}
