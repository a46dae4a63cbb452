// Fuzzing (pipeline target), minimized: a parameter type DXC's typo correction turns into an
// effect type (`Textur2D` -> `Texture`), then a misspelt use of it. DXC 1.8: SIGSEGV in
// clang::CXXRecordDecl::mayBeAbstract. The guard: FX0001 at `Textur2D`.
float4 PS(Textur2D tex) : COLOR0 { return saturate(texx); }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
