// Concern: a SpriteBatch blur whose pixel input declares `float2 texCoord[8] : TEXCOORD0` and overwrites entries 1–7 from entry 0 before reading them, so it reads only what SpriteBatch's vertex shader writes.
sampler TextureSampler : register(s0);
float2 TexelSize;

struct PixelInput
{
    float4 Color : COLOR0;
    float2 texCoord[8] : TEXCOORD0;
};

float4 BlurPS(PixelInput input) : COLOR0
{
    input.texCoord[1] = input.texCoord[0] + float2(TexelSize.x, 0);
    input.texCoord[2] = input.texCoord[0] - float2(TexelSize.x, 0);
    input.texCoord[3] = input.texCoord[0] + float2(0, TexelSize.y);
    input.texCoord[4] = input.texCoord[0] - float2(0, TexelSize.y);
    input.texCoord[5] = input.texCoord[0] + TexelSize;
    input.texCoord[6] = input.texCoord[0] - TexelSize;
    input.texCoord[7] = input.texCoord[0] + float2(TexelSize.x, -TexelSize.y);
    float4 sum = 0;
    for (int i = 0; i < 8; i++)
        sum += tex2D(TextureSampler, input.texCoord[i]);
    return sum / 8 * input.Color;
}

technique Blur
{
    pass P0
    {
        PixelShader = compile ps_3_0 BlurPS();
    }
}
