// Concern: uniforms of both stages: a vertex-shader matrix placing the quad (MonoGame's
// SetValue(Matrix) meaning, row-vector mul), a VS-only vector passed through a varying, a
// PS-only vector, and one vector read by both stages (two records, one setter).
float4x4 WorldViewProj;
float4 VsValue;
float4 PsValue;
float4 Shared;

struct VSOut
{
    float4 Position : POSITION0;
    float4 FromVs : COLOR0;
    float4 SharedVs : COLOR1;
    float2 Uv : TEXCOORD0;
};

VSOut MainVS(float4 position : POSITION0, float2 uv : TEXCOORD0)
{
    VSOut o;
    o.Position = mul(position, WorldViewProj);
    o.FromVs = VsValue;
    o.SharedVs = Shared;
    o.Uv = uv;
    return o;
}

float4 MainPS(VSOut i) : COLOR0
{
    int cell = (int)(i.Uv.x * 4.0);
    if (cell == 0) return i.FromVs;
    if (cell == 1) return PsValue;
    if (cell == 2) return i.SharedVs;
    return Shared;
}

technique Probe
{
    pass P0
    {
        VertexShader = compile vs_3_0 MainVS();
        PixelShader = compile ps_3_0 MainPS();
    }
}
