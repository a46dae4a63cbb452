// Concern: BasicEffect-like vertex lighting: World + WorldViewProj float4x4, float3x3 WorldInverseTranspose, float3[3] light arrays, eye position, specular power; three techniques share one VS.
float4x4 World;
float4x4 WorldViewProj;
float3x3 WorldInverseTranspose;

float3 DirLightDirection[3];
float3 DirLightDiffuseColor[3];

float3 EyePosition;
float SpecularPower;
float3 SpecularColor;
float4 DiffuseColor;
float3 AmbientColor;

texture Texture;
sampler TextureSampler = sampler_state
{
    Texture = <Texture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = Point;
    AddressU = Clamp;
    AddressV = Clamp;
};

struct VSInput
{
    float4 Position : POSITION0;
    float3 Normal : NORMAL0;
    float2 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float4 PositionPS : POSITION0;
    float4 Diffuse : COLOR0;
    float4 Specular : COLOR1;
    float2 TexCoord : TEXCOORD0;
};

VSOutput VSLit(VSInput vin)
{
    VSOutput vout;
    float3 worldPos = mul(vin.Position, World).xyz;
    float3 normal = normalize(mul(vin.Normal, WorldInverseTranspose));
    float3 eyeVector = normalize(EyePosition - worldPos);

    float3 diffuse = AmbientColor;
    float3 specular = 0;
    for (int i = 0; i < 3; i++)
    {
        float3 lightVector = -DirLightDirection[i];
        float ndl = saturate(dot(normal, lightVector));
        float3 halfVector = normalize(eyeVector + lightVector);
        float ndh = saturate(dot(normal, halfVector));
        diffuse += DirLightDiffuseColor[i] * ndl;
        specular += DirLightDiffuseColor[i] * pow(max(ndh, 0.0001), SpecularPower) * ndl;
    }

    vout.PositionPS = mul(vin.Position, WorldViewProj);
    vout.Diffuse = float4(diffuse * DiffuseColor.rgb, DiffuseColor.a);
    vout.Specular = float4(specular * SpecularColor, 1.0);
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 PSTextured(VSOutput pin) : COLOR0
{
    float4 color = tex2D(TextureSampler, pin.TexCoord) * pin.Diffuse;
    color.rgb += pin.Specular.rgb * color.a;
    return color;
}

float4 PSUntextured(VSOutput pin) : COLOR0
{
    float4 color = pin.Diffuse;
    color.rgb += pin.Specular.rgb * color.a;
    return color;
}

float4 PSDiffuseOnly(VSOutput pin) : COLOR0
{
    return tex2D(TextureSampler, pin.TexCoord) * pin.Diffuse;
}

technique BasicEffect_Texture
{
    pass P0
    {
        VertexShader = compile vs_2_0 VSLit();
        PixelShader = compile ps_2_0 PSTextured();
    }
}

technique BasicEffect_NoTexture
{
    pass P0
    {
        VertexShader = compile vs_2_0 VSLit();
        PixelShader = compile ps_2_0 PSUntextured();
    }
}

technique BasicEffect_NoSpecular
{
    pass P0
    {
        VertexShader = compile vs_2_0 VSLit();
        PixelShader = compile ps_2_0 PSDiffuseOnly();
    }
}
