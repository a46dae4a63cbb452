// Concern: a vertex shader whose input struct names the position `SV_POSITION` (DirectX 11 habit); it binds to MonoGame's Position0.
float4x4 MatrixTransform;

struct VSInput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
};

struct VSOutput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
};

VSOutput SpriteVS(VSInput input)
{
    VSOutput output;
    output.Position = mul(input.Position, MatrixTransform);
    output.Color = input.Color;
    return output;
}

float4 SpritePS(VSOutput input) : SV_TARGET
{
    return input.Color;
}

technique Sprite
{
    pass P0
    {
        VertexShader = compile vs_3_0 SpriteVS();
        PixelShader = compile ps_3_0 SpritePS();
    }
}
