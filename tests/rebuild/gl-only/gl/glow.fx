// Built by the second Builder, OpenGL only, into the same OUT_DIR.
sampler s0;
float4 Glow = float4(1, 0.5, 0.25, 1);

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * color * Glow;
}

technique Glow { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
