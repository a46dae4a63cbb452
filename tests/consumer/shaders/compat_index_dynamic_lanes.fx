// Concern: vectors and arrays indexed at run time: a float4 of kernel weights read in a loop, a texel channel and a uniform's lane picked by a uniform, and local float / float3 tables read with computed indices.
sampler TextureSampler : register(s0);

float4 Weights;
float Channel;
float3 Palette[3];
float TexelWidth;

float4 IndexPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float offsets[4] = { -1.5, -0.5, 0.5, 1.5 };
    float3 sum = 0;
    for (int i = 0; i < 4; i++)
    {
        float3 c = tex2D(TextureSampler, uv + float2(offsets[i] * TexelWidth, 0)).rgb;
        sum += c * Weights[i];
    }

    int channel = (int)Channel;
    float4 texel = tex2D(TextureSampler, uv);
    float mask = texel[channel];
    float3 tints[3] = { float3(1, 0.5, 0.25), float3(0.25, 1, 0.5), float3(0.5, 0.25, 1) };
    int pick = (int)(mask * 2.99);
    float3 tint = tints[pick] * Palette[pick] * (0.5 + Weights[channel]);
    return float4(sum * tint, texel[3 - channel]) * color;
}

technique Index
{
    pass P0
    {
        PixelShader = compile ps_3_0 IndexPS();
    }
}
