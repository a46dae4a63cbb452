// Concern: a Gaussian blur that re-reads its texture coordinate from the input at the top of every loop iteration and moves one component (`float2 uv = input.TexCoord; uv.x += …`).
#define SAMPLE_COUNT 5

sampler TextureSampler : register(s0);

float SampleOffsets[SAMPLE_COUNT];
float SampleWeights[SAMPLE_COUNT] = { 0.1, 0.2, 0.4, 0.2, 0.1 };

struct PixelShaderInput
{
    float4 Color : COLOR0;
    float2 TexCoord : TEXCOORD0;
};

float4 HorizontalBlurPS(PixelShaderInput input) : COLOR0
{
    float4 sum = 0;
    for (int i = 0; i < SAMPLE_COUNT; i++)
    {
        float2 uv = input.TexCoord;
        uv.x += SampleOffsets[i];
        sum += tex2D(TextureSampler, uv) * SampleWeights[i];
    }
    return sum * input.Color;
}

technique GaussianBlur
{
    pass Horizontal
    {
        PixelShader = compile ps_2_0 HorizontalBlurPS();
    }
}
