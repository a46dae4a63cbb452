// Probing the valueless-return crash's class: `return;` in a function returning a struct.
// DXC 1.8: SIGSEGV. The guard: SD0111.
struct S { float4 c; };
S Make(float2 uv) { return; }
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Make(uv).c; }
technique T { pass P { PixelShader = compile ps_3_0 PS(); } }
