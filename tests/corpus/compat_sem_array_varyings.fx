// Concern: a blur whose vertex-shader output carries `float2 Taps[3] : TEXCOORD0` (one varying per element, TEXCOORD0..2), written and read with loops.
sampler s0;
float4x4 ViewProjection;
float UVScale;
float2 TapOffsets[3];

struct VSIn
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

struct VSOut
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    float2 Taps[3] : TEXCOORD0;
};

VSOut BlurVS(VSIn input)
{
    VSOut output;
    output.Position = mul(input.Position, ViewProjection);
    output.Color = input.Color;
    for (int i = 0; i < 3; i++)
        output.Taps[i] = input.Position.xy * UVScale + TapOffsets[i];
    return output;
}

float4 BlurPS(VSOut input) : COLOR0
{
    float4 sum = 0;
    for (int i = 0; i < 3; i++)
        sum += tex2D(s0, input.Taps[i]);
    return sum / 3 * input.Color;
}

technique Blur
{
    pass P0
    {
        VertexShader = compile vs_3_0 BlurVS();
        PixelShader = compile ps_3_0 BlurPS();
    }
}
