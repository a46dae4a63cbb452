// Rebuild fixture: its uniform and helper come from an include the test edits.
#include "include/common.fxh"
sampler s0;

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return Shade(tex2D(s0, uv) * color);
}

technique Glow { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
