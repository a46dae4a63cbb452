// Concern: integer arithmetic in a ps_3_0 pixel shader: int/uint locals, a helper taking and returning int, casts, `/` and `%` on negative and unsigned operands, abs/sign/min/max/clamp on ints and an int loop counter, emulated with floats as fxc does.
float2 GridSize;
int Stride;

int CellIndex(float2 uv, int columns, int rows)
{
    int cx = (int)(uv.x * columns);
    int cy = (int)(uv.y * rows);
    return cy * columns + cx;
}

float4 CellsPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    int columns = (int)GridSize.x;
    int rows = (int)GridSize.y;
    int index = CellIndex(uv, columns, rows);

    uint cell = (uint)index;
    uint group = cell / 3u;
    int centred = index - 14;
    int quotient = centred / Stride;
    int remainder = centred % Stride;

    int odd = 0;
    for (int i = 0; i < 3; i++)
    {
        odd += (index + i) % 2;
    }

    float red = (float)(group % 4u) / 3.0;
    float green = (float)(quotient + 4) / 8.0;
    float blue = (float)(remainder + 3) / 6.0;
    int edge = clamp(abs(quotient) - 1, 0, 1);
    int side = max(sign(centred), 0);
    float alpha = (float)(odd + edge + side + 1) / 5.0;
    return float4(red, green, blue, alpha) * color;
}

technique Cells
{
    pass P0
    {
        PixelShader = compile ps_3_0 CellsPS();
    }
}
