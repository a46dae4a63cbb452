// Concern: a point-sprite particle effect ported from XNA 3 that takes each particle's size as `float Size : PSIZE0` and expands a quad from a corner offset, as MonoGame (without point sprites) draws them.
float4x4 ViewProjection;
float SizeScale;
float4 Tint;

struct ParticleInput
{
    float4 Position : POSITION0;
    float2 Corner : TEXCOORD0;
    float Size : PSIZE0;
    float4 Color : COLOR0;
};

struct ParticleOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    float2 Corner : TEXCOORD0;
};

ParticleOutput ParticleVS(ParticleInput input)
{
    ParticleOutput output;
    float4 position = input.Position;
    position.xy += input.Corner * input.Size * SizeScale;
    output.Position = mul(position, ViewProjection);
    output.Color = input.Color * Tint;
    output.Corner = input.Corner;
    return output;
}

float4 ParticlePS(ParticleOutput input) : COLOR0
{
    float falloff = 1 - 0.5 * dot(input.Corner, input.Corner);
    return input.Color * falloff;
}

technique Particles
{
    pass P0
    {
        VertexShader = compile vs_2_0 ParticleVS();
        PixelShader = compile ps_2_0 ParticlePS();
    }
}
