// Concern: an #include that names no file.
#include "common/lighting.fxh"

float4 MainPS(float4 color : COLOR0) : COLOR0
{
    return color;
}

technique Draw
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
