// Concern: a noise helper taking `uniform sampler3D`, called with a plain `sampler` whose dimension comes from the parameter.
sampler s0;
texture NoiseVolume;
sampler NoiseSampler = sampler_state { Texture = <NoiseVolume>; };

float NoiseDepth = 0.5;
float NoiseAmount = 0.5;

float noise(float3 p, uniform sampler3D n)
{
    return tex3D(n, p).r;
}

float4 NoisePS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 c = tex2D(s0, uv);
    float grain = noise(float3(uv, NoiseDepth), NoiseSampler);
    return float4(lerp(c.rgb, c.rgb * grain, NoiseAmount), c.a);
}

technique Grain
{
    pass P0
    {
        PixelShader = compile ps_2_0 NoisePS();
    }
}
