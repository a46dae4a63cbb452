// CI's fuzz smoke (pipeline target): an effect type as a struct member. DXC 1.8: SIGSEGV
// (Sema::CheckFieldDecl -> HLSLExternalSource::CompleteType -> mayBeAbstract). The guard: SD0028.
sampler S;
struct Q { float a; VertexShader b; };
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { Q q; q.a = uv.x; return tex2D(S, uv) * q.a; }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
