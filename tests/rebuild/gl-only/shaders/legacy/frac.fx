// Tiles a coordinate with modf: OpenGL takes it; the wgpu target cannot translate it (naga cannot
// take the struct modf returns in SPIR-V, SD0303). If it learns to, the test needs another
// construct it refuses.
sampler s0;
float Tiles = 4;

float4 MainPS(float2 uv : TEXCOORD0) : COLOR0
{
    float whole;
    float part = modf(uv.x * Tiles, whole);
    return tex2D(s0, float2(part, uv.y)) * (whole / Tiles);
}

technique Frac { pass P0 { PixelShader = compile ps_2_0 MainPS(); } }
