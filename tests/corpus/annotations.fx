// Concern: annotation blocks on globals, on a technique and on a pass (parsed, dropped, count 0), next to initializers.
sampler s0;

float4 HighlightColor < string UIName = "Highlight"; string UIWidget = "Color"; > = float4(1.0, 0.9, 0.2, 1.0);
float Intensity < float UIMin = 0.0; float UIMax = 2.0; int UIOrder = 1; > = 1.0;
float Threshold < string UIName = "Luma threshold"; bool Hidden = false; >;

float4 HighlightPS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(s0, uv);
    float luma = dot(c.rgb, float3(0.299, 0.587, 0.114));
    float glow = saturate((luma - Threshold) * 4.0) * Intensity;
    return float4(lerp(c.rgb, HighlightColor.rgb, glow * HighlightColor.a), c.a);
}

technique Highlight < string Description = "bright areas glow"; int Priority = -1; >
{
    pass P0 < string Note = "single pass"; >
    {
        PixelShader = compile ps_2_0 HighlightPS();
    }
}
