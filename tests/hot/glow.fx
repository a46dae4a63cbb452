// A constant colour scaled by a uniform: the hot-reload test edits this file.
float4 Tint = float4(1, 1, 1, 1);

float4 PS(float2 uv : TEXCOORD0) : COLOR0
{
	return Tint * float4(1, 0, 0, 1);
}
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
