// Half-Lambert lighting helper with its own uniforms; `#pragma once`. Not an effect.
#pragma once

#include "ColorUtils.fxh"

float3 LightDirection;
float3 LightColor;

float3 HalfLambert(float3 normal, float3 albedo)
{
    float ndl = dot(normalize(normal), -normalize(LightDirection)) * 0.5 + 0.5;
    return albedo * LightColor * (ndl * ndl);
}
