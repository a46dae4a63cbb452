// Concern: a normal-mapped material whose detail layer has its own tangent set (`TANGENT1` beside `TANGENT0`), blended in the vertex shader and passed with the normal as TEXCOORD varyings.
float4x4 World;
float4x4 ViewProjection;
float3 LightDirection;
float DetailBlend;
float BumpScale;

struct VertexShaderInput
{
    float4 Position : POSITION0;
    float3 Normal : NORMAL0;
    float3 Tangent : TANGENT0;
    float3 DetailTangent : TANGENT1;
    float2 TexCoord : TEXCOORD0;
};

struct VertexShaderOutput
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
    float3 Normal : TEXCOORD1;
    float3 Tangent : TEXCOORD2;
};

VertexShaderOutput MainVS(VertexShaderInput input)
{
    VertexShaderOutput output;
    output.Position = mul(mul(input.Position, World), ViewProjection);
    float3 tangent = lerp(input.Tangent, input.DetailTangent, DetailBlend);
    output.Normal = mul(input.Normal, (float3x3)World);
    output.Tangent = mul(tangent, (float3x3)World);
    output.TexCoord = input.TexCoord;
    return output;
}

float4 MainPS(VertexShaderOutput input) : COLOR0
{
    float3 binormal = cross(input.Normal, input.Tangent);
    float2 bump = (input.TexCoord - 0.5) * BumpScale;
    float3 normal = bump.x * input.Tangent + bump.y * binormal + input.Normal;
    float diffuse = saturate(dot(normal, -LightDirection));
    return float4(normal * 0.3 + 0.5, 0.25 + 0.75 * diffuse);
}

technique DetailNormalMap
{
    pass P0
    {
        VertexShader = compile vs_3_0 MainVS();
        PixelShader = compile ps_3_0 MainPS();
    }
}
