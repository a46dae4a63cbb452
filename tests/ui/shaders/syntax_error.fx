// Concern: an effect-syntax error (a pass assignment without `=`), found by ShadowDusk's parser.
float4 Tint;

float4 MainPS(float4 color : COLOR0) : COLOR0
{
    return color * Tint;
}

technique Draw
{
    pass P0
    {
        PixelShader compile ps_3_0 MainPS();
    }
}
