// Concern: a D3D10-style `SamplerState` named like SpriteBatch's texture, read with the D3D9 `tex2D` intrinsic (Nez's glitch effects do this).
SamplerState Texture;

float RowHeight = 8.0;
float ShiftPixels = 4.0;
float2 ScreenSize;

float hash(float p)
{
    return frac(sin(p * 12.9898) * 43758.5453);
}

float4 GlitchPS(float2 coords : TEXCOORD0) : COLOR
{
    float row = floor(coords.y * ScreenSize.y / RowHeight);
    float shift = (hash(row) > 0.5 ? 1 : -1) * ShiftPixels / ScreenSize.x;
    return tex2D(Texture, float2(coords.x + shift, coords.y));
}

technique SpriteDrawing
{
    pass P0
    {
        PixelShader = compile ps_3_0 GlitchPS();
    }
};
