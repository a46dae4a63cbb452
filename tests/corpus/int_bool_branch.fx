// Concern: `int` and `bool` uniforms driving a loop bound and a branch (carried as floats on GL).
sampler2D TextureSampler : register(s0);

int TapCount;
bool InvertColors;
float TapSpacing;

float4 BlurPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float4 sum = 0;
    for (int i = 0; i < TapCount; i++)
    {
        sum += tex2D(TextureSampler, uv + float2(i * TapSpacing, 0.0));
    }
    float4 c = sum / TapCount;
    if (InvertColors)
    {
        c.rgb = 1.0 - c.rgb;
    }
    return c;
}

technique HorizontalBlur
{
    pass P0
    {
        PixelShader = compile ps_3_0 BlurPS();
    }
}
