// Concern: nested loops: the outer one moves a row coordinate taken from the input, the inner one starts every tap from the colour the outer one sampled and leaves by `break` at the first zero weight.
sampler TextureSampler : register(s0);

float2 TexelSize;
float Weights[4];

float4 RowBlurPS(float4 color : COLOR0, float2 texCoord : TEXCOORD0) : COLOR0
{
    float4 sum = 0;
    for (int y = 0; y < 3; y++)
    {
        float2 row = texCoord;
        row.y += (y - 1) * TexelSize.y;
        float4 rowColor = tex2D(TextureSampler, row);
        for (int x = 0; x < 4; x++)
        {
            if (Weights[x] == 0)
                break;
            float4 tap = rowColor;
            tap.r *= Weights[x];
            sum += tap * Weights[y] * 0.25;
        }
    }
    return sum * color;
}

technique RowBlur
{
    pass P0
    {
        PixelShader = compile ps_3_0 RowBlurPS();
    }
}
