// Concern: non-square matrix uniforms read row by row: a float4x3 (three registers, one per
// column, as MonoGame uploads it) and a float4x3 palette, each row written to its own column.
float4x3 Transform;
float4x3 Palette[2];

#define CELLS 12.0

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    int cell = (int)(uv.x * CELLS);
    if (cell == 0) return float4(Transform[0], 1);
    if (cell == 1) return float4(Transform[1], 1);
    if (cell == 2) return float4(Transform[2], 1);
    if (cell == 3) return float4(Transform[3], 1);
    if (cell == 4) return float4(Palette[0][0], 1);
    if (cell == 5) return float4(Palette[0][1], 1);
    if (cell == 6) return float4(Palette[0][2], 1);
    if (cell == 7) return float4(Palette[0][3], 1);
    if (cell == 8) return float4(Palette[1][0], 1);
    if (cell == 9) return float4(Palette[1][1], 1);
    if (cell == 10) return float4(Palette[1][2], 1);
    if (cell == 11) return float4(Palette[1][3], 1);
    return float4(0, 0, 0, 0);
}

technique Probe
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
