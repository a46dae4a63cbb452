// Concern: `#include "include/compat/tinthelpers.fxh"` naming `include/Compat/TintHelpers.fxh` in other letter case (found as on Windows, with a warning); `#if SKINNING(4)` on an undefined macro is false.
#include "include/compat/tinthelpers.fxh"

sampler s0;
float4 Tint = float4(0.5, 1, 0.75, 1);

#if SKINNING(4)
#error the skinning branch is never taken
#else
float4 MainPS(float2 uv : TEXCOORD0) : COLOR0
{
    return ApplyTint(tex2D(s0, uv), Tint);
}
#endif

technique Tinted
{
    pass P0
    {
        PixelShader = compile ps_2_0 MainPS();
    }
}
