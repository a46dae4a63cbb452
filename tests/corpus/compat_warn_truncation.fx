// Concern: XNA-era post-process full of implicit truncation (float3 = tex2D(...), a float4 returned where a float3 is declared), which fxc only warns about.
sampler TextureSampler : register(s0);

float Desaturation = 0.5;
float Brightness = 1.0;

float3 Desaturate(float3 color)
{
    float grey = dot(color, float3(0.3, 0.59, 0.11));
    return lerp(color, grey, Desaturation).rgbr;
}

float4 PixelShaderFunction(float4 tint : COLOR0, float2 texCoord : TEXCOORD0) : COLOR0
{
    float3 color = tex2D(TextureSampler, texCoord);
    float alpha = tex2D(TextureSampler, texCoord).a;
    color = Desaturate(color) * Brightness;
    return float4(color, alpha) * tint;
}

technique Desaturate
{
    pass Pass1
    {
        PixelShader = compile ps_2_0 PixelShaderFunction();
    }
}
