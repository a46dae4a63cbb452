// Concern: a shape renderer whose vertices carry shape data in TEXCOORD8–TEXCOORD11 and pass the local coordinate to the pixel shader as TEXCOORD11 (vs_3_0/ps_3_0); its outline technique reads only part of what the vertex shader writes.
float4x4 ViewProjection;
float EdgeSoftness;

struct VertexInput
{
    float4 Position : POSITION0;
    float4 Shape : TEXCOORD8;      // radius, border thickness
    float4 FillColor : TEXCOORD9;
    float4 BorderColor : TEXCOORD10;
    float2 Local : TEXCOORD11;     // position relative to the shape's centre, in pixels
};

struct PixelInput
{
    float4 Position : POSITION0;
    float4 FillColor : COLOR0;
    float4 BorderColor : COLOR1;
    float4 Shape : TEXCOORD0;
    float2 Local : TEXCOORD11;
};

PixelInput ShapeVS(VertexInput input)
{
    PixelInput output;
    output.Position = mul(input.Position, ViewProjection);
    output.FillColor = input.FillColor;
    output.BorderColor = input.BorderColor;
    output.Shape = input.Shape;
    output.Local = input.Local;
    return output;
}

float4 ShapePS(PixelInput input) : COLOR0
{
    float d = length(input.Local) - input.Shape.x;
    float border = saturate((d + input.Shape.y) / EdgeSoftness);
    float outside = saturate(d / EdgeSoftness);
    float4 color = lerp(input.FillColor, input.BorderColor, border);
    return color * (1 - outside);
}

float4 OutlinePS(PixelInput input) : COLOR0
{
    float d = length(input.Local) - input.Shape.x;
    float ring = saturate((input.Shape.y - abs(d)) / EdgeSoftness);
    return input.BorderColor * ring;
}

technique Shapes
{
    pass P0
    {
        VertexShader = compile vs_3_0 ShapeVS();
        PixelShader = compile ps_3_0 ShapePS();
    }
}

technique Outlines
{
    pass P0
    {
        VertexShader = compile vs_3_0 ShapeVS();
        PixelShader = compile ps_3_0 OutlinePS();
    }
}
