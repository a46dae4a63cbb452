// Concern: pixelate post-process using HLSL `round` (GLSL 1.10 has none) with a float2 cell count.
sampler s0;

float2 CellCount;

float4 PixelShaderFunction(float2 coords : TEXCOORD0) : COLOR0
{
    // Snap to the centre of the cell the coordinate falls in.
    float2 cell = round(coords * CellCount - 0.5) + 0.5;
    return tex2D(s0, cell / CellCount);
}

technique Pixelate
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
