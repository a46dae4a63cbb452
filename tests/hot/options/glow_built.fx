// Compiled by tests/build.rs with options that are not the defaults: GLOW_RED is defined there,
// and glow_green.fxh is found only through its include folder (hot/options/include).
#include "glow_green.fxh"

float4 Tint = float4(1, 1, 1, 1);

float4 PS(float2 uv : TEXCOORD0) : COLOR0
{
	return Tint * float4(GLOW_RED, GLOW_GREEN, 0, 1);
}
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
