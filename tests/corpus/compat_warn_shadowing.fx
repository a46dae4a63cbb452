// Concern: old HLSL habits DXC warns about: a loop variable redeclared in a second loop, and a comparison whose result is unused; fxc compiled both.
sampler s0;

float2 TexelSize;
float Spread = 1.0;

float4 BlurPS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 sum = 0;
    for (int i = -1; i <= 1; i++)
        sum += tex2D(s0, uv + float2(i * TexelSize.x * Spread, 0));
    for (int i = -1; i <= 1; i++)
        sum += tex2D(s0, uv + float2(0, i * TexelSize.y * Spread));
    sum.a == 1;
    return sum / 6;
}

technique Blur
{
    pass P0
    {
        PixelShader = compile ps_2_0 BlurPS();
    }
}
