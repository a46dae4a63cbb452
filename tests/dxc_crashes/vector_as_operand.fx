// Probing the type-as-operand crash's class: `vector` (HLSL's `vector<float, 4>`) as an
// operand of `+`. DXC 1.8: SIGSEGV. The guard: FX0001 at `vector`.
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return uv.xyxy + vector; }
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
