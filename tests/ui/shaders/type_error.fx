// Concern: an HLSL type error, found by DXC and mapped back to this file.
float4 Tint;

float4 MainPS(float4 color : COLOR0) : COLOR0
{
    float4x4 m = Tint;
    return color * m[0];
}

technique Draw
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
