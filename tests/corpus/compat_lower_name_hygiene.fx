// Concern: user names equal to the texture we sample (`float4 diffuseTexture` local beside `texture diffuseTexture`) and to the uniforms we rewrite keep their own meaning.
texture diffuseTexture;
sampler diffuseSampler = sampler_state
{
    Texture = <diffuseTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = None;
    AddressU = Clamp;
    AddressV = Clamp;
};

texture overlayTexture;
sampler overlaySampler = sampler_state
{
    Texture = <overlayTexture>;
    MinFilter = Point;
    MagFilter = Point;
    MipFilter = None;
    AddressU = Clamp;
    AddressV = Clamp;
};

float Amount = 0.5;

// A parameter named like a global texture: inside, the name is the parameter.
float4 Tint(float4 overlayTexture, float Amount)
{
    return overlayTexture * Amount;
}

float4 PS(float2 uv : TEXCOORD0) : COLOR0
{
    float4 diffuseTexture = tex2D(diffuseSampler, uv);
    float4 overlay = tex2D(overlaySampler, uv);
    // The global uniform is written here (a per-invocation copy); the local `Amount` of
    // `Tint` above is not that uniform.
    Amount = saturate(Amount * 2.0);
    return lerp(diffuseTexture, Tint(overlay, 0.5), Amount * 0.5);
}

technique Hygiene
{
    pass P0
    {
        PixelShader = compile ps_2_0 PS();
    }
}
