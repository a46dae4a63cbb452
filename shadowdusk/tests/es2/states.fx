// A sprite effect with a baked sampler state and every state block, for the OpenGL ES 2.0 test.
Texture2D SpriteTexture;
sampler2D SpriteSampler = sampler_state
{
    Texture = <SpriteTexture>;
    MinFilter = Point; MagFilter = Point; MipFilter = Point;
    AddressU = Clamp; AddressV = Clamp;
};

float4 Tint = float4(1, 1, 1, 1);

float4 MainPS(float4 position : SV_POSITION, float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR
{
    return tex2D(SpriteSampler, uv) * color * Tint;
}

technique SpriteDrawing
{
    pass P0
    {
        AlphaBlendEnable = true;
        SrcBlend = One;
        DestBlend = Zero;
        ZEnable = false;
        StencilEnable = false;
        CullMode = None;
        FillMode = Solid;
        PixelShader = compile ps_2_0 MainPS();
    }
};

technique Wireframe
{
    pass P0
    {
        FillMode = WireFrame;
        PixelShader = compile ps_2_0 MainPS();
    }
};
