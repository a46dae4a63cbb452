// The effect `cargo xtask bench draws` draws 10,000 times a frame: a sprite pixel shader with a
// colour matrix and a tint, so each draw uploads five registers and a SpriteBatch transform.
float4x4 ColorMatrix;
float4 Tint = float4(1, 1, 1, 1);

float4 MainPS(float4 color : COLOR0) : COLOR0
{
    return mul(color, ColorMatrix) * Tint;
}

technique Draw
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
