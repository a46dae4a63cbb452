// Fuzzing (pipeline target): the same crash with a struct name one letter off
// (`VertexShaderOutpt` -> `VertexShader`). The guard: FX0001 at `VertexShaderOutpt`.
float4 PS(VertexShaderOutpt input) : COLOR0 { return saturate(inpt); }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
