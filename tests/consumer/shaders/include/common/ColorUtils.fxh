// Colour helpers shared by several includes; classic include guard. Not an effect.
#ifndef CORPUS_COLOR_UTILS_FXH
#define CORPUS_COLOR_UTILS_FXH

float Luminance(float3 rgb)
{
    return dot(rgb, float3(0.2126, 0.7152, 0.0722));
}

float3 Desaturate(float3 rgb, float amount)
{
    return lerp(rgb, Luminance(rgb).xxx, amount);
}

#endif
