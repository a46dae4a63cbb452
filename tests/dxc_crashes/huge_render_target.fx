// Fuzzing (pipeline target, a local 15-minute run): a pixel output semantic with a 46-digit
// index. Lowered to `SV_Target222...`, DXC 1.8 reads it into 32 bits and crashes in
// DeclResultIdMapper::finalizeStageIOLocations (SIGSEGV). The guard: SD0029.
sampler S;
float4 PS(float2 uv : TEXCOORD0) : COLOR2222222222222222222222222222222222222222220 { return tex2D(S, uv); }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
