// Concern: a D3D10-style `SamplerState` block (Filter = MIN_MAG_MIP_POINT, CLAMP) shared by `Texture2D.Sample` and a D3D9 `tex2D` read of the same state.
Texture2D SpriteTexture;
Texture2D MaskTexture;

SamplerState PointClamp
{
    Filter = MIN_MAG_MIP_POINT;
    AddressU = CLAMP;
    AddressV = CLAMP;
};

float MaskStrength = 1.0;

float4 MaskedPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = SpriteTexture.Sample(PointClamp, uv) * color;
    float mask = MaskTexture.Sample(PointClamp, uv).r;
    return c * lerp(1.0, mask, MaskStrength);
}

technique Masked
{
    pass P0
    {
        PixelShader = compile ps_3_0 MaskedPS();
    }
}
