// Rebuild fixture: a pixel effect with a baked default the test edits.
sampler s0;
float Amount = 0.25;

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return tex2D(s0, uv) * color * Amount;
}

technique Tint { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
