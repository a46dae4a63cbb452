// Concern: one helper taking a `sampler2D` called with two different samplers (base layer and overlay), as lighting libraries write their sampling helpers.
sampler s0;
texture OverlayTexture;
sampler OverlaySampler = sampler_state { Texture = <OverlayTexture>; };

float OverlayAmount = 0.5;

float4 SampleShifted(sampler2D s, float2 uv, float2 shift)
{
    return tex2D(s, uv + shift);
}

float4 OverlayPS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 baseColor = SampleShifted(s0, uv, float2(0, 0));
    float4 overlay = SampleShifted(OverlaySampler, uv, float2(0, 0));
    return lerp(baseColor, baseColor * overlay, OverlayAmount);
}

technique Overlay
{
    pass P0
    {
        PixelShader = compile ps_2_0 OverlayPS();
    }
}
