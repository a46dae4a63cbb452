// Concern: one named cbuffer read by both the vertex and the pixel shader (separate vs_/ps_ records).
cbuffer Shared
{
	float4x4 Transform;
	float4 Tint;
	float Fade;
};

struct VSIn
{
	float4 Position : POSITION0;
	float2 TexCoord : TEXCOORD0;
};

struct VSOut
{
	float4 Position : SV_Position;
	float2 TexCoord : TEXCOORD0;
	float Shade : TEXCOORD1;
};

VSOut SharedVS(VSIn input)
{
	VSOut output;
	output.Position = mul(input.Position, Transform);
	output.TexCoord = input.TexCoord;
	output.Shade = 1.0 - Fade * input.TexCoord.x;
	return output;
}

float4 SharedPS(VSOut input) : SV_Target
{
	return float4(Tint.rgb * input.Shade, Tint.a) + float4(input.TexCoord * Fade, 0.0, 0.0);
}

technique Shared
{
	pass P0
	{
		VertexShader = compile vs_4_0 SharedVS();
		PixelShader = compile ps_4_0 SharedPS();
	}
}
