// Fuzzing (pipeline target, mutations of tests/corpus/compat_decl_array_whole.fx), minimized:
// `return;` without a value in a helper that returns float4 (the fuzzer cut `return w[0] * ...`
// into `return ;w[0] * ...`). DXC 1.8: SIGSEGV instead of fxc's X3080. The guard: SD0111.
float4 Blend(float2 uv) { return; }
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Blend(uv); }
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
