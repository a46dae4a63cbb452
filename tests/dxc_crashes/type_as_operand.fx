// Fuzzing (pipeline target, mutations of tests/corpus/compat_decl_array_whole.fx), minimized: a
// class template whose arguments have defaults (`Texture2D`) as an operand,
// `t * Texture2D`. DXC 1.8: SIGSEGV. The guard: FX0001 at `Texture2D`.
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float4 t = uv.xyxy; return t * Texture2D; }
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
