// Concern: rows of non-square uniforms picked at run time, as palette and lookup code does: `W[i]`, `Pal[b][i]` and `A[j]` with indices computed per pixel, and an element of a picked row (`W[i][j]`).
float4x3 W;
float2x3 A;
float4x3 Pal[3];

float4 RowsPS(float2 uv : TEXCOORD0) : COLOR0
{
    int i = (int)(uv.x * 4);
    int j = (int)(uv.y * 2);
    int b = (int)(uv.y * 3);
    float3 r = W[i] * 0.5 + Pal[b][i] * 0.3 + A[j] * 0.2;
    return float4(saturate(r), saturate(W[i][j] + 0.25));
}

technique Rows
{
    pass P0
    {
        PixelShader = compile ps_3_0 RowsPS();
    }
}
