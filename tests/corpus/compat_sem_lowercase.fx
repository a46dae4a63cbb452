// Concern: lower-case and unindexed semantics (`texcoord`, `color`, `: color0` returns) in a SpriteBatch pixel shader.
sampler2D TextureSampler : register(s0);
float Gamma = 2.2;

float4 GammaPS(float4 tint : color, float2 uv : texcoord) : color0
{
    float4 c = tex2D(TextureSampler, uv);
    return float4(pow(c.rgb, 1.0 / Gamma), c.a) * tint;
}

technique Gamma
{
    pass P0
    {
        PixelShader = compile ps_2_0 GammaPS();
    }
}
