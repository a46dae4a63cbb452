// Probing the struct-member crash's class: a member whose type is a state-object type in
// another letter case (`Blendstate`), which DXC takes for `BlendState`. DXC 1.8: SIGSEGV in
// mayBeAbstract. The guard: SD0028.
sampler S;
struct Q { float a; Blendstate b; };
float4 PS(float2 uv : TEXCOORD0) : COLOR0 { Q q; q.a = uv.x; return tex2D(S, uv) * q.a; }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
