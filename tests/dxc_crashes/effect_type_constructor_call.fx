// Probing the struct-member crash's class: an effect type called as a constructor. DXC 1.8:
// SIGSEGV in mayBeAbstract. The guard: SD0028.
sampler S;
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float q = VertexShader(1); return tex2D(S, uv * q); }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
