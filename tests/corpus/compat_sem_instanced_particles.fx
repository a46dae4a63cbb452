// Concern: hardware-instanced particles: each quad corner's POSITION0 and TEXCOORD0 per vertex, each particle's centre and size in POSITION1, colour in COLOR1 and spin in TEXCOORD1 per instance, drawn additively without depth writes.
float4x4 ViewProjection;
float Time;

struct VertexShaderInput
{
    float2 Corner : POSITION0;
    float2 TexCoord : TEXCOORD0;
};

struct InstanceInput
{
    float4 PositionSize : POSITION1;
    float4 Color : COLOR1;
    float Spin : TEXCOORD1;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float4 Color : COLOR0;
    float2 TexCoord : TEXCOORD0;
};

VertexShaderOutput ParticleVS(VertexShaderInput input, InstanceInput instance)
{
    VertexShaderOutput output;
    float s, c;
    sincos(instance.Spin * Time, s, c);
    float2 corner = float2(input.Corner.x * c - input.Corner.y * s,
                           input.Corner.x * s + input.Corner.y * c);
    float3 position = instance.PositionSize.xyz + float3(corner * instance.PositionSize.w, 0);
    output.Position = mul(float4(position, 1), ViewProjection);
    output.Color = instance.Color;
    output.TexCoord = input.TexCoord;
    return output;
}

float4 ParticlePS(VertexShaderOutput input) : COLOR0
{
    // A soft spark: round, fading out towards the quad's inscribed circle and brighter along
    // +u, the way it spins.
    float2 d = input.TexCoord * 2 - 1;
    float falloff = saturate(1 - dot(d, d)) * (0.25 + 0.75 * input.TexCoord.x);
    return input.Color * falloff;
}

technique Particles
{
    pass P0
    {
        AlphaBlendEnable = true;
        SrcBlend = One;
        DestBlend = One;
        ZWriteEnable = false;
        VertexShader = compile vs_3_0 ParticleVS();
        PixelShader = compile ps_3_0 ParticlePS();
    }
}
