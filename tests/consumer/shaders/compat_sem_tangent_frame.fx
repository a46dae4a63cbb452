// Concern: a normal-mapping vertex shader passes its tangent frame as `float3x3 TangentToWorld : TEXCOORD2` (three registers) and the world normal as a `NORMAL0` varying; the pixel shader reads both.
float4x4 World;
float4x4 ViewProjection;
float3 LightDirection;
float BumpScale;

struct VertexShaderInput
{
    float3 Position : POSITION0;
    float3 Normal : NORMAL0;
    float3 Tangent : TANGENT0;
    float2 TexCoord : TEXCOORD0;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
    float3x3 TangentToWorld : TEXCOORD2;
    float3 Normal : NORMAL0;
};

VertexShaderOutput NormalMapVS(VertexShaderInput input)
{
    VertexShaderOutput output;
    float4 worldPosition = mul(float4(input.Position, 1), World);
    output.Position = mul(worldPosition, ViewProjection);
    output.TexCoord = input.TexCoord;

    float3 binormal = cross(input.Normal, input.Tangent);
    output.TangentToWorld[0] = mul(input.Tangent, (float3x3)World);
    output.TangentToWorld[1] = mul(binormal, (float3x3)World);
    output.TangentToWorld[2] = mul(input.Normal, (float3x3)World);
    output.Normal = mul(input.Normal, (float3x3)World);
    return output;
}

float4 NormalMapPS(VertexShaderOutput input) : COLOR0
{
    // A procedural bump: the tangent-space normal leans with the texture coordinate.
    float3 bump = float3((input.TexCoord - 0.5) * BumpScale, 1);
    float3 normal = mul(bump, input.TangentToWorld);
    float diffuse = saturate(dot(input.Normal, -LightDirection));
    return float4(normal * 0.3 + 0.5, 0.25 + 0.75 * diffuse);
}

technique NormalMap
{
    pass P0
    {
        VertexShader = compile vs_3_0 NormalMapVS();
        PixelShader = compile ps_3_0 NormalMapPS();
    }
}
