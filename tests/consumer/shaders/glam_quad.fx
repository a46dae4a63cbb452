// Concern: a transform and colours set from glam values (Mat4, Vec4, Vec3) through the typed API, with MonoGame's `mul(v, M)`.
float4x4 WorldViewProj;
float4 Tint;
float3 Glow;

struct VSInput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

struct VSOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
};

VSOutput MainVS(VSInput vin)
{
    VSOutput vout;
    vout.Position = mul(vin.Position, WorldViewProj);
    vout.Color = vin.Color;
    return vout;
}

float4 MainPS(float4 color : COLOR0) : COLOR0
{
    return color * Tint + float4(Glow, 0);
}

technique Draw
{
    pass P0
    {
        VertexShader = compile vs_2_0 MainVS();
        PixelShader = compile ps_2_0 MainPS();
    }
}
