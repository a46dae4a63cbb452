// Concern: a separable blur whose array sizes come from `static const int` expressions, with trailing commas in the weight list.
sampler s0;

static const int RADIUS = 2;
static const int SAMPLE_COUNT = RADIUS * 2 + 1;

float SampleWeights[SAMPLE_COUNT] = { 0.1, 0.2, 0.4, 0.2, 0.1, };
float2 SampleOffsets[SAMPLE_COUNT];

float4 BlurPS(float2 texCoord : TEXCOORD0) : COLOR0
{
    float4 c = 0;
    for (int i = 0; i < SAMPLE_COUNT; i++)
        c += tex2D(s0, texCoord + SampleOffsets[i]) * SampleWeights[i];
    return c;
}

technique GaussianBlur
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 BlurPS();
    }
}
