// Concern: `VPOS` pixel-position input (ps_3_0) drawing a screen-space checkerboard.
float CellSize;
float4 ColorA;
float4 ColorB;

float4 CheckerPS(float2 screen : VPOS, float4 color : COLOR0) : COLOR0
{
    float2 cell = floor(screen / CellSize);
    float parity = fmod(cell.x + cell.y, 2.0);
    return lerp(ColorA, ColorB, parity) * color;
}

technique Checker
{
    pass P0
    {
        PixelShader = compile ps_3_0 CheckerPS();
    }
}
