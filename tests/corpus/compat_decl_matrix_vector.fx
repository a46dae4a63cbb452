// Concern: `matrix`, `vector`, `matrix<float,4,4>` and `vector<float,3>` uniform types (XNA-era and D3D10-style spellings), with a trailing comma in an initializer list.
matrix World;
matrix<float, 4, 4> ViewProjection;
vector Tint = { 1, 0.75, 0.5, 1, };
vector<float, 3> Ambient = { 0.1, 0.2, 0.3, };

struct VSIn { float4 Position : POSITION0; float4 Color : COLOR0; };
struct VSOut { float4 Position : POSITION0; float4 Color : COLOR0; };

VSOut VS(VSIn input)
{
    VSOut output;
    output.Position = mul(mul(input.Position, World), ViewProjection);
    output.Color = input.Color;
    return output;
}

float4 PS(VSOut input) : COLOR0
{
    return float4(input.Color.rgb * Tint.rgb + Ambient, Tint.a);
}

technique Main
{
    pass P0
    {
        VertexShader = compile vs_2_0 VS();
        PixelShader = compile ps_2_0 PS();
    }
}
