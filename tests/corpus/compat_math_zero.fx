// Concern: a tiled point light's falloff in the light's own tile, where the squared distance is exactly zero: `rsqrt(0)` and `Range / 0` (+inf on Direct3D 9, so full light once saturated), `log2(0)` (-inf) in an exposure curve and `sqrt(0)`.
float2 LightTile;
float Range;

float4 TilesPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float2 toLight = floor(uv * 8) - LightTile;
    float distanceSq = dot(toLight, toLight);

    float4 light;
    light.r = saturate(rsqrt(distanceSq) * Range);
    light.g = saturate(Range / distanceSq);
    light.b = saturate(0.5 + 0.1 * log2(distanceSq));
    light.a = saturate(sqrt(distanceSq) * 0.25);
    return light * color;
}

technique Tiles
{
    pass P0
    {
        PixelShader = compile ps_2_0 TilesPS();
    }
}
