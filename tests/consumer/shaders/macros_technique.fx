// Concern: macro-built effect (local Macros.fxh): TECHNIQUE(), DECLARE_TEXTURE with ## and register(s##index), _vs(c0)/_ps(c0) stage registers.
#include "include/Macros.fxh"

DECLARE_TEXTURE(Texture, 0);
DECLARE_TEXTURE(Overlay, 1);

BEGIN_CONSTANTS

    float4 DiffuseColor     _ps(c0)  _cb(c0);
    float  OverlayAmount    _ps(c1)  _cb(c1);

MATRIX_CONSTANTS

    float4x4 WorldViewProj  _vs(c0)  _cb(c2);

END_CONSTANTS

struct VSInput
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float4 PositionPS : POSITION0;
    float2 TexCoord : TEXCOORD0;
};

VSOutput VSBasic(VSInput vin)
{
    VSOutput vout;
    vout.PositionPS = mul(vin.Position, WorldViewProj);
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 PSBasic(VSOutput pin) : COLOR0
{
    return SAMPLE_TEXTURE(Texture, pin.TexCoord) * DiffuseColor;
}

float4 PSOverlay(VSOutput pin) : COLOR0
{
    float4 base = SAMPLE_TEXTURE(Texture, pin.TexCoord);
    float4 overlay = SAMPLE_TEXTURE(Overlay, pin.TexCoord);
    return lerp(base, overlay, OverlayAmount) * DiffuseColor;
}

TECHNIQUE(Basic, VSBasic, PSBasic);
TECHNIQUE(Overlayed, VSBasic, PSOverlay);
