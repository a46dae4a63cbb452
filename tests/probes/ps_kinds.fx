// Concern: one pixel-shader uniform of every kind, each written to its own 4-pixel column of
// the output so a typed setter that fills the wrong register shows in the read-back colour.
float Scalar = 0.5;
float2 Vec2;
float3 Vec3;
float4 Vec4;
float4x4 Mat4;
float3x3 Mat3;
float4 Colors[3];
float2 Pairs[2];
int Count;
bool Flag;

cbuffer Material
{
    float4 Diffuse;
    float Gloss;
};

#define CELLS 20.0

float4 MainPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    int cell = (int)(uv.x * CELLS);
    if (cell == 0) return float4(Scalar, Count / 10.0, Flag ? 0.75 : 0.25, 1);
    if (cell == 1) return float4(Vec2, 0, 1);
    if (cell == 2) return float4(Vec3, 1);
    if (cell == 3) return Vec4;
    if (cell == 4) return Mat4[0];
    if (cell == 5) return Mat4[1];
    if (cell == 6) return Mat4[2];
    if (cell == 7) return Mat4[3];
    if (cell == 8) return float4(Mat3[0], 1);
    if (cell == 9) return float4(Mat3[1], 1);
    if (cell == 10) return float4(Mat3[2], 1);
    if (cell == 11) return Colors[0];
    if (cell == 12) return Colors[1];
    if (cell == 13) return Colors[2];
    if (cell == 14) return float4(Pairs[0], 0, 1);
    if (cell == 15) return float4(Pairs[1], 0, 1);
    if (cell == 16) return Diffuse;
    if (cell == 17) return float4(Gloss, 0, 0, 1);
    return float4(0, 0, 0, 0);
}

technique Probe
{
    pass P0
    {
        PixelShader = compile ps_3_0 MainPS();
    }
}
