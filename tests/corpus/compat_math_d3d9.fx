// Concern: maths Direct3D 9 defines where GLSL and WGSL do not: a water surface's specular `pow(dot(reflect(L, N), V), SpecularPower)` where the dot goes negative, a rain streak's `pow(x, 6.0)`, odd whole-number exponents (fxc expands `pow(x, 3.0)` and a float2 `pow(v, 7.0)` into products that keep the sign, and makes a scalar `pow(x, 7.0)` a pow of |x|), and `log2`, `sqrt` and `rsqrt` of negatives, which D3D9 takes of |x|.
float3 LightDirection;
float SpecularPower;
float RainDensity;

float4 WaterPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    // The wave's normal tilts across the surface, so the reflection turns away from the eye.
    float angle = (uv.x - 0.5) * 3.0;
    float3 normal = float3(sin(angle), 0, cos(angle));
    float3 eye = float3(0, 0, 1);
    float3 reflected = reflect(LightDirection, normal);
    float specular = pow(dot(reflected, eye), SpecularPower);

    // Rain streaks fall along v; the streak coordinate runs from -1 to 1.
    float streak = uv.y * 2 - 1;
    float rain = pow(streak, 6.0) * RainDensity;
    float ripple = pow(streak, 3.0);
    float swell = pow(streak, 7.0);
    float2 gusts = pow(float2(streak, streak * 0.9), 7.0);

    // Distance fog from a signed depth (negative behind the water plane).
    float depth = (uv.x - 0.5) * 4;
    float fog = log2(depth) * 0.08 + sqrt(depth) * 0.1;
    float haze = rsqrt(streak - 2);

    float4 result;
    result.r = 0.1 + 0.8 * specular;
    result.g = 0.5 + 0.3 * ripple + 0.2 * rain;
    result.b = 0.3 + 0.3 * swell + 0.3 * haze;
    result.a = saturate(0.6 + fog + 0.1 * (gusts.x + gusts.y) * 0.5);
    return result * color;
}

technique Water
{
    pass P0
    {
        PixelShader = compile ps_2_0 WaterPS();
    }
}
