// Concern: a default that depends on a define only the build script passes, so the consumer can
// tell whether include_effect! used the build script's artifact or compiled on its own.
#ifdef CONSUMER_BUILD_SCRIPT
float Flavour = 2;
#else
float Flavour = 1;
#endif

float4 MainPS(float4 color : COLOR0) : COLOR0
{
    return color * Flavour;
}

technique Flavoured
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
