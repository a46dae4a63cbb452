// Concern: includes from a subfolder (`common/Lighting.fxh` with #pragma once, included twice; ColorUtils.fxh via include guard) supplying uniforms and functions.
#include "include/common/Lighting.fxh"
#include "include/common/ColorUtils.fxh"
#include "include/common/Lighting.fxh"

texture NormalMap;
sampler2D NormalSampler : register(s1) = sampler_state
{
    Texture = <NormalMap>;
    Filter = Point;
};

sampler s0 : register(s0);

float Saturation;

float4 LitPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 albedo = tex2D(s0, uv) * color;
    float3 normal = tex2D(NormalSampler, uv).xyz * 2.0 - 1.0;
    float3 lit = HalfLambert(normal, albedo.rgb);
    return float4(Desaturate(lit, 1.0 - Saturation), albedo.a);
}

technique NormalMapped
{
    pass P0
    {
        PixelShader = compile ps_2_0 LitPS();
    }
}
