// Concern: a two-sided pixel shader reads `float Face : VFACE` as a member of its input struct (beside the interpolated colour), not as a parameter.
float4x4 ViewProjection;
float4 BackTint;

struct VSOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

struct PSInput
{
    float4 Color : COLOR0;
    float Face : VFACE;
};

VSOutput TwoSidedVS(float4 position : POSITION0, float4 color : COLOR0)
{
    VSOutput output;
    output.Position = mul(position, ViewProjection);
    output.Color = color;
    return output;
}

float4 TwoSidedPS(PSInput input) : COLOR0
{
    return input.Face > 0 ? input.Color : input.Color.bgra * BackTint;
}

technique TwoSided
{
    pass P0
    {
        VertexShader = compile vs_3_0 TwoSidedVS();
        PixelShader = compile ps_3_0 TwoSidedPS();
    }
}
