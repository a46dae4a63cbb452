// Concern: fxc compiles only what an entry reaches: a leftover helper calling noise() (tx_ profiles only) and one plain `sampler` read as 2D by one technique and as a cube map by another.
sampler TextureSampler : register(s0);

float Strength = 1.0;

// Left over from an effect that once ran as a texture shader: only tx_ profiles have noise().
float4 Grain(float2 uv)
{
    float n = noise(uv * 64.0);
    return tex2D(TextureSampler, uv) * n;
}

float4 SampleFlat(float2 uv)
{
    return tex2D(TextureSampler, uv);
}

float4 SampleSky(float3 direction)
{
    return texCUBE(TextureSampler, direction);
}

float4 FlatPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = SampleFlat(uv);
    return float4(c.rgb * Strength, c.a) * color;
}

float4 SkyPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    return SampleSky(float3(uv * 2.0 - 1.0, 1.0)) * color;
}

technique Flat
{
    pass P0
    {
        PixelShader = compile ps_2_0 FlatPS();
    }
}

technique Sky
{
    pass P0
    {
        PixelShader = compile ps_2_0 SkyPS();
    }
}
