// Rebuild fixture: an effect no step edits (it must stay cached).
sampler s0;

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(s0, uv) * color;
    return float4(1 - c.rgb, c.a);
}

technique Invert { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
