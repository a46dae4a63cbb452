// Fuzzing (pipeline target, mutations of tests/corpus/compat_decl_array_whole.fx), minimized:
// `Blend(Weights, uv)` mutated into `Blend(Texture2D, uv)`, a type as a function's argument.
// DXC 1.8: SIGSEGV. The guard: FX0001 at `Texture2D`.
float4 Blend(float4 w, float2 uv) { return w * uv.x; }
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Blend(Texture2D, uv); }
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
