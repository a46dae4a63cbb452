// Concern: a pixel shader that writes depth (a DEPTH0 member of its output struct), as sprite depth-sorting effects do; its GLSL must also compile as GLSL ES 1.00 (the frag-depth extension before any statement).
sampler TextureSampler : register(s0);

float Brightness = 1.0;
float DepthScale = 1.0;

struct PSOutput
{
    float4 Color : COLOR0;
    float Depth : DEPTH0;
};

PSOutput DepthPS(float4 color : COLOR0, float2 uv : TEXCOORD0)
{
    PSOutput output;
    float4 c = tex2D(TextureSampler, uv);
    output.Color = float4(c.rgb * Brightness, c.a) * color;
    output.Depth = saturate((1 - c.a) * DepthScale);
    return output;
}

technique SpriteDepth
{
    pass P0
    {
        PixelShader = compile ps_2_0 DepthPS();
    }
}
