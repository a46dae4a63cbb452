// Concern: `texCUBEgrad` with screen-space derivatives on a legacy `samplerCUBE` (sky boxes that avoid seams at mip boundaries), spelled textureCubeGrad through GL_ARB_shader_texture_lod as MojoShader does.
float3 LookOffset;
float Exposure;

textureCUBE SkyTexture;
samplerCUBE SkySampler = sampler_state
{
    Texture = <SkyTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = None;
};

float4 SkyPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0
{
    float3 dir = normalize(float3(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 1.0) + LookOffset);
    float4 sky = texCUBEgrad(SkySampler, dir, ddx(dir), ddy(dir));
    return float4(sky.rgb * Exposure, sky.a);
}

technique Sky
{
    pass P0
    {
        PixelShader = compile ps_3_0 SkyPS();
    }
}
