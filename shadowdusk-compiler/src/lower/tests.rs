//! Lowering tests: text-level checks, and real DXC compiles of the lowered text through the dxc
//! stage (skipped loudly, or failing under `SHADOWDUSK_REQUIRE_ALL=1`, when DXC is missing; run
//! `cargo xtask setup`).

use super::*;
use crate::diag::Code;
use crate::effect::{self, expanded_from_plain};
use crate::source::SourceFiles;

struct Case {
    files: SourceFiles,
    expanded: Expanded,
    parsed: ParsedEffect,
}

fn case(src: &str) -> Case {
    let mut files = SourceFiles::new();
    let expanded = expanded_from_plain(&mut files, "t.fx", src);
    let parsed = effect::parse(&expanded).unwrap_or_else(|d| panic!("parse failed: {d:#?}"));
    Case {
        files,
        expanded,
        parsed,
    }
}

impl Case {
    fn shader(&self, entry: &str, stage: Stage) -> ShaderRef {
        self.parsed
            .ast
            .techniques
            .iter()
            .flat_map(|t| &t.passes)
            .filter_map(|p| match stage {
                Stage::Vertex => p.vertex_shader.as_ref(),
                Stage::Pixel => p.pixel_shader.as_ref(),
            })
            .find(|s| s.entry == entry)
            .unwrap_or_else(|| panic!("no compile of {entry}"))
            .clone()
    }

    fn lower(&self, entry: &str, stage: Stage) -> Result<Lowered, Diagnostics> {
        lower(
            &self.expanded,
            &self.parsed,
            &self.shader(entry, stage),
            stage,
        )
    }

    fn ok(&self, entry: &str, stage: Stage) -> Lowered {
        self.lower(entry, stage)
            .unwrap_or_else(|d| panic!("lowering failed: {d:#?}"))
    }

    /// Code and line:col of the first diagnostic.
    fn fail(&self, entry: &str, stage: Stage) -> (Code, u32, u32) {
        let d = match self.lower(entry, stage) {
            Ok(l) => panic!("expected an error, got:\n{}", l.text),
            Err(d) => d.0[0].clone(),
        };
        let span = d.primary.expect("span").span;
        let (l, c) = self.files.get(span.file).line_col(span.start);
        (d.code, l, c)
    }
}

// ---- DXC --------------------------------------------------------------------------------

/// Compiles lowered text with the dxc stage itself (its arguments, profile and library lookup,
/// [`crate::dxc::args`]); any warning fails like the stage's `-WX` first try. `Ok(None)` after
/// a loud skip when DXC is missing.
fn dxc(l: &Lowered, stage: Stage) -> Result<Option<Vec<u8>>, String> {
    if crate::dxc::missing_skips() {
        return Ok(None);
    }
    let lowered = |e: &dyn std::fmt::Display| format!("{e}\n--- lowered text ---\n{}", l.text);
    let spv = crate::dxc::compile(&l.text, &l.entry, stage).map_err(|e| lowered(&e))?;
    if !spv.warnings.is_empty() {
        return Err(lowered(&format!("DXC warned: {:?}", spv.warnings)));
    }
    Ok(Some(
        spv.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
    ))
}

fn compiles(c: &Case, entry: &str, stage: Stage) -> Lowered {
    let l = c.ok(entry, stage);
    if let Err(e) = dxc(&l, stage) {
        panic!("DXC rejected the lowered text for {entry}:\n{e}");
    }
    l
}

const VS: &str = "struct VSOutput { float4 Position : POSITION0; float4 Color : COLOR0; float2 uv : TEXCOORD0; };\n\
VSOutput VS(float4 pos : POSITION0, float4 col : COLOR0, float2 uv : TEXCOORD0) { VSOutput o; o.Position = pos; o.Color = col; o.uv = uv; return o; }\n";

// ---- legacy samplers and intrinsics --------------------------------------------------------

#[test]
fn nez_style_bare_sampler() {
    let c = case(
        "sampler s0;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s0, uv); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(
        l.text
            .starts_with("SamplerState s0; Texture2D __sd_tex_s0;\n"),
        "{}",
        l.text
    );
    assert!(l.text.contains("return __sd_tex_s0.Sample(s0, (uv).xy);"));
    assert!(l.text.contains(": SV_Target0 {"));
    assert_eq!(l.entry, "PS");
    assert_eq!(
        l.samplers,
        vec![SamplerBinding {
            texture: "__sd_tex_s0".into(),
            sampler: "s0".into(),
            parameter: "s0".into(),
            dim: Dim::D2,
            register: None,
            state: None,
            order: 0,
        }]
    );
    // Line structure is kept.
    let src_lines = c.expanded.text.lines().count();
    assert_eq!(l.text.lines().count(), src_lines);
    // A position in the rewritten call maps back to the `tex2D` token.
    let at = l.text.find("__sd_tex_s0.Sample").unwrap();
    assert_eq!(
        l.map.map(at as u32) as usize,
        c.expanded.text.find("tex2D").unwrap()
    );
}

#[test]
fn monogame_template() {
    // The MonoGame template after preprocessing (`SV_POSITION` #defined to `POSITION`).
    let c = case(&format!(
        "matrix WorldViewProjection;\nTexture2D SpriteTexture;\n\
         sampler2D SpriteTextureSampler = sampler_state {{ Texture = <SpriteTexture>; }};\n\
         {VS}float4 MainPS(VSOutput input) : COLOR {{ return tex2D(SpriteTextureSampler, input.uv) * input.Color; }}\n\
         technique SpriteDrawing {{ pass P0 {{ VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 MainPS(); }} }};"
    ));
    let ps = compiles(&c, "MainPS", Stage::Pixel);
    assert!(ps.text.contains("SamplerState SpriteTextureSampler"));
    assert!(ps
        .text
        .contains("__sd_t_SpriteTexture.Sample(SpriteTextureSampler, (input.uv).xy)"));
    assert!(
        ps.text.contains("float4 Position : SV_Position;"),
        "PS input POSITION → SV_Position"
    );
    let b = &ps.samplers[0];
    assert_eq!(
        (b.texture.as_str(), b.parameter.as_str(), b.state),
        ("__sd_t_SpriteTexture", "SpriteTexture", None)
    );
    let vs = compiles(&c, "VS", Stage::Vertex);
    assert!(vs.text.contains("float4 Position : SV_Position;"));
    assert!(
        vs.text.contains("float4 Color : COLOR0;"),
        "colour is a varying in the VS"
    );
    assert!(
        vs.text.contains("float4 pos : POSITION0"),
        "VS inputs keep POSITION"
    );
}

#[test]
fn legacy_texture_keyword_follows_the_sampler_dimension() {
    let c = case(
        "texture EnvMap;\ntexture Tex : register(t0) < string Name = \"x\"; >;\n\
         samplerCUBE EnvSampler = sampler_state { Texture = <EnvMap>; MipFilter = None; };\n\
         sampler TexSampler : register(s1) = sampler_state { Texture = (Tex); };\n\
         float4 PS(float3 n : TEXCOORD0, float2 uv : TEXCOORD1) : COLOR { return texCUBE(EnvSampler, n) + tex2D(TexSampler, uv); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(
        l.text
            .starts_with("TextureCube __sd_t_EnvMap;\nTexture2D __sd_t_Tex : register(t0)"),
        "{}",
        l.text
    );
    assert!(l.text.contains("__sd_t_EnvMap.Sample(EnvSampler, (n).xyz)"));
    assert!(l.text.contains("SamplerState TexSampler : register(s1)"));
    let env = l
        .samplers
        .iter()
        .find(|b| b.sampler == "EnvSampler" && b.texture == "__sd_t_EnvMap")
        .unwrap();
    assert_eq!(env.dim, Dim::Cube);
    assert_eq!(env.state.unwrap().mip_lod_bias, -16.0);
    let tex = l
        .samplers
        .iter()
        .find(|b| b.sampler == "TexSampler" && b.texture == "__sd_t_Tex")
        .unwrap();
    assert_eq!((tex.register, tex.order), (Some(1), 1));
}

#[test]
fn every_intrinsic_family_compiles() {
    let c = case(
        "sampler1D s1; sampler2D s2; sampler3D s3; samplerCUBE sc; sampler plain;\n\
         float4 PS(float4 t : TEXCOORD0) : COLOR0 {\n\
         float4 r = tex1D(s1, t.x) + tex1Dlod(s1, t) + tex1Dbias(s1, t) + tex1Dgrad(s1, t.x, 0.1, 0.1) + tex1Dproj(s1, t);\n\
         r += tex2D(s2, t.xy) + tex2D(s2, t.xy, ddx(t.xy), ddy(t.xy)) + tex2Dlod(s2, t) + tex2Dbias(s2, t) + tex2Dgrad(s2, t.xy, ddx(t.xy), ddy(t.xy)) + tex2Dproj(s2, t);\n\
         r += tex3D(s3, t.xyz) + tex3Dlod(s3, t) + tex3Dbias(s3, t) + tex3Dgrad(s3, t.xyz, t.xyz, t.xyz) + tex3Dproj(s3, t);\n\
         r += texCUBE(sc, t.xyz) + texCUBElod(sc, t) + texCUBEbias(sc, t) + texCUBEgrad(sc, t.xyz, t.xyz, t.xyz) + texCUBEproj(sc, t);\n\
         r += texCUBE(plain, tex2D(s2, t.xy).xyz);\n\
         return r; }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(
        l.text.contains("TextureCube __sd_tex_plain;"),
        "plain sampler takes the dimension of its use"
    );
    assert!(l
        .text
        .contains("__sd_tex_s2.SampleLevel(s2, (t).xy, (t).w)"));
    assert!(l.text.contains("__sd_tex_s2.SampleBias(s2, (t).xy, (t).w)"));
    assert!(l.text.contains("__sd_tex_s2.Sample(s2, (t).xy / (t).w)"));
    assert!(l
        .text
        .contains("__sd_tex_sc.SampleLevel(sc, (t).xyz, (t).w)"));
    assert!(l.text.contains("__sd_tex_s1.Sample(s1, (t.x).xx)"));
    assert!(l
        .text
        .contains("__sd_tex_plain.Sample(plain, (__sd_tex_s2.Sample(s2, (t.xy).xy).xyz).xyz)"));
    let plain = l.samplers.iter().find(|b| b.sampler == "plain").unwrap();
    assert_eq!((plain.dim, plain.parameter.as_str()), (Dim::Cube, "plain"));
}

#[test]
fn intrinsic_errors() {
    let c = case(
        "sampler2D s; float4 PS(float3 t : TEXCOORD0) : COLOR0 { return texCUBE(s, t); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 1, 64));
    let c = case(
        "sampler s; float4 PS(float3 t : TEXCOORD0) : COLOR0 { return tex2D(s, t.xy) + texCUBE(s, t); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 1, 79));
    let c = case(
        "sampler2D s; float4 PS(float2 t : TEXCOORD0) : COLOR0 { return tex2Dlod(s, t, 1); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 1, 64));
    // A sampler parameter takes a sampler, not an expression.
    let c = case(
        "sampler2D s; float4 F(sampler2D p, float2 t) { return tex2D(p, t); }\n\
         float4 PS(float2 t : TEXCOORD0) : COLOR0 { return F(t.x > 0 ? s : s, t); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 2, 53));
}

#[test]
fn unreached_functions_are_left_out_per_entry() {
    // fxc compiles what the entry reaches: `Grain` (noise() exists only for tx_ profiles) is
    // reached by no entry, and the plain `s` is a cube map for `Sky` and 2D for `Flat`.
    let c = case(
        "sampler s;\n\
         float4 Grain(float2 uv)\n{\n    return noise(uv.x) * tex2D(s, uv);\n}\n\
         float4 Flat(float2 uv) { return tex2D(s, uv); }\n\
         float4 Cube(float3 d) { return texCUBE(s, d); }\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Flat(uv); }\n\
         float4 Sky(float2 uv : TEXCOORD0) : COLOR0 { return Cube(float3(uv, 1)); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }\n\
         technique U { pass { PixelShader = compile ps_2_0 Sky(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.contains("float4 Grain(float2 uv)\n;\n\n\n"), "{}", l.text);
    assert!(l.text.contains("float4 Cube(float3 d) ;\n"), "{}", l.text);
    assert!(l.text.contains("__sd_tex_s.Sample(s, (uv).xy)"), "{}", l.text);
    assert_eq!(l.text.lines().count(), c.expanded.text.lines().count());
    assert_eq!(l.samplers[0].dim, Dim::D2);
    let l = compiles(&c, "Sky", Stage::Pixel);
    assert!(l.text.contains("float4 Flat(float2 uv) ;\n"), "{}", l.text);
    assert!(l.text.contains("TextureCube __sd_tex_s;"), "{}", l.text);
    assert_eq!(l.samplers[0].dim, Dim::Cube);
    // A line after the dropped bodies still maps to itself.
    let at = l.text.find("Cube(float3(uv").unwrap();
    let want = c.expanded.text.find("Cube(float3(uv").unwrap();
    assert_eq!(l.map.map(at as u32) as usize, want);
    // A function called by a global initializer counts as reached; a prototype is no call.
    let c = case(
        "float Half(float x);\nfloat Twice(float x) { return x * 2; }\n\
         float Half(float x) { return x * 0.5; }\n\
         static const float K = Twice(0.25);\n\
         float4 PS() : COLOR0 { return K; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.contains("float Twice(float x) { return x * 2; }"), "{}", l.text);
    assert!(l.text.contains("float Half(float x) ;"), "{}", l.text);
}

#[test]
fn sampler_parameters_become_texture_sampler_pairs_down_every_call() {
    // FXAA 3.11's HLSL_3 path: `FxaaTex` is `sampler2D`, passed down three calls; a noise
    // helper takes `uniform sampler3D`; a plain global `sampler` takes the dimension of the
    // parameter it is passed to.
    let c = case(
        "sampler Screen; sampler Noise;\n\
         float4 Top(sampler2D t, float2 p) { return tex2Dlod(t, float4(p, 0, 0)); }\n\
         float4 Mid(sampler2D t, float2 p) { return Top(t, p) + Top(t, p + 1); }\n\
         float4 Fxaa(float2 p, sampler2D tex) { return Mid(tex, p); }\n\
         float noise(float3 p, uniform sampler3D n) { return tex3D(n, p).r; }\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Fxaa(uv, Screen) * noise(uv.xyy, Noise); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "float4 Top(Texture2D __sd_tex_t, SamplerState t, float2 p) { return __sd_tex_t.SampleLevel(t, (float4(p, 0, 0)).xy, (float4(p, 0, 0)).w); }",
        "return Top(__sd_tex_t, t, p) + Top(__sd_tex_t, t, p + 1);",
        "float4 Fxaa(float2 p, Texture2D __sd_tex_tex, SamplerState tex) { return Mid(__sd_tex_tex, tex, p); }",
        "float noise(float3 p, Texture3D __sd_tex_n, SamplerState n) { return __sd_tex_n.Sample(n, (p).xyz).r; }",
        "Fxaa(uv, __sd_tex_Screen, Screen) * noise(uv.xyy, __sd_tex_Noise, Noise)",
        "Texture2D __sd_tex_Screen;",
        "Texture3D __sd_tex_Noise;",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
    let noise = l.samplers.iter().find(|b| b.sampler == "Noise").unwrap();
    assert_eq!((noise.dim, noise.parameter.as_str()), (Dim::D3, "Noise"));
}

#[test]
fn shader_and_state_object_parameters_leave_functions_and_calls() {
    // fxc compiles nothing for them; DXC crashes on the entry's and drops the others from their
    // signatures. Beside sampler pairs, first, last, in runs, a `uniform` one bound by
    // `compile`, and a local whose initializer names a state object the parser took out.
    let c = case(
        "sampler2D S;\n\
         BlendState Additive { BlendEnable[0] = TRUE; };\n\
         float4 Shade(BlendState b, sampler2D s, VertexShader v, float2 uv, PixelShader p) { return tex2D(s, uv); }\n\
         float4 Pick(float2 uv, BlendState a, BlendState b) { return float4(uv, 0, 1); }\n\
         float4 PS(float2 uv : TEXCOORD0, uniform BlendState mode, RasterizerState r) : COLOR0\n\
         {\n\
             BlendState chosen = Additive;\n\
             VertexShader none;\n\
             return Shade(mode, S, none, uv, none) + Pick(uv, chosen, Additive);\n\
         }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(Additive); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "float4 Shade(Texture2D __sd_tex_s, SamplerState s, float2 uv) {",
        "float4 Pick(float2 uv) {",
        "return Shade(__sd_tex_S, S, uv) + Pick(uv);",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
    for gone in ["BlendState", "VertexShader", "RasterizerState", "PixelShader", "chosen"] {
        assert!(!l.text.contains(gone), "`{gone}` left in:\n{}", l.text);
    }
    // The lines keep their numbers.
    assert_eq!(
        l.text.lines().position(|x| x.contains("return Shade")),
        Some(8),
        "{}",
        l.text
    );
}

#[test]
fn local_sampler_variables_stand_for_the_sampler_they_are_given() {
    // FXAA 3.11's HLSL_3 caller: `FxaaTex tex; tex = TextureSampler;` handed down; a local
    // initialized at its declaration and given the same sampler in both branches; a local
    // copy of a sampler parameter.
    let c = case(
        "texture Tex; sampler TextureSampler = sampler_state { Texture = <Tex>; };\n\
         float4 Top(sampler2D t, float2 p) { sampler2D u = t; return tex2Dlod(u, float4(p, 0, 0)); }\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 {\n\
           sampler2D tex;\n\
           tex = TextureSampler;\n\
           sampler2D s = { TextureSampler };\n\
           if (uv.x > 0.5) s = TextureSampler; else s = TextureSampler;\n\
           return Top(tex, uv) + tex2D(s, uv); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "{ ; return __sd_tex_t.SampleLevel(t, (float4(p, 0, 0)).xy, (float4(p, 0, 0)).w); }",
        "if (uv.x > 0.5) ; else ;",
        "return Top(__sd_t_Tex, TextureSampler, uv) + __sd_t_Tex.Sample(TextureSampler, (uv).xy); }",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
    assert!(!l.text.contains("sampler2D"), "{}", l.text);
}

#[test]
fn local_samplers_given_two_samplers_or_none_are_refused() {
    let c = case(
        "sampler A; sampler B;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { sampler2D s = A; if (uv.x > 0) s = B; return tex2D(s, uv); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 2, 80));
    let c = case(
        "sampler A;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { sampler2D s; return tex2D(s, uv); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 2, 71));
    let c = case(
        "sampler A; float k;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { sampler2D s; s = k; return tex2D(s, uv); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 2, 62));
}

#[test]
fn user_names_equal_to_generated_ones_are_neither_captured_nor_capture() {
    // Each kind of name the lowering rewrites, with a user local or parameter of that name:
    // the texture a legacy sampler reads (local and parameter), a modern texture, a uniform
    // written by the code (its copy), an int array (its float carrier), a non-square matrix
    // (its getter), and a sampler parameter shadowing a global sampler (its texture pair).
    let c = case(
        "texture diffuseTexture; sampler diffuseSampler = sampler_state { Texture = <diffuseTexture>; };\n\
         Texture2D Modern; SamplerState Linear;\n\
         sampler Screen;\n\
         float Amount; int Order[2]; float4x3 Bones;\n\
         float4 Top(sampler2D Screen, float2 p) { return tex2D(Screen, p); }\n\
         float4 Mix(float4 diffuseTexture, float Amount, float4 Order, float4 Bones, float4 Modern) { return diffuseTexture * Amount + Order + Bones + Modern; }\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 {\n\
           float4 diffuseTexture = tex2D(diffuseSampler, uv);\n\
           Amount = saturate(Amount);\n\
           float4 m = Modern.Sample(Linear, uv);\n\
           { float4 Modern = m * 2; m = Modern; }\n\
           return Mix(diffuseTexture, Amount, Order[1], mul(float4(uv, 0, 1), Bones).xyzz, m) + Top(Screen, uv) + Modern.Sample(Linear, uv); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "Texture2D __sd_t_diffuseTexture;",
        "float4 diffuseTexture = __sd_t_diffuseTexture.Sample(diffuseSampler, (uv).xy);",
        "float4 Mix(float4 diffuseTexture, float Amount, float4 Order, float4 Bones, float4 Modern) { return diffuseTexture * Amount + Order + Bones + Modern; }",
        "__sd_mut_Amount = saturate(__sd_mut_Amount);",
        "float4 m = __sd_t_Modern.Sample(Linear, uv);",
        "{ float4 Modern = m * 2; m = Modern; }",
        "return Mix(diffuseTexture, __sd_mut_Amount, ((int)__sd_u_Order[1]),",
        "float4 Top(Texture2D __sd_tex_Screen, SamplerState Screen, float2 p) { return __sd_tex_Screen.Sample(Screen, (p).xy); }",
        "Top(__sd_tex_Screen, Screen, uv) + __sd_t_Modern.Sample(Linear, uv);",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
    // Reflection keeps the user's names.
    let d = l.samplers.iter().find(|b| b.sampler == "diffuseSampler").unwrap();
    assert_eq!(
        (d.texture.as_str(), d.parameter.as_str()),
        ("__sd_t_diffuseTexture", "diffuseTexture")
    );
    // The prefix of generated names is refused in user code, so nothing can shadow them.
    for (src, col) in [
        ("float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float4 __sd_t_x = 1; return __sd_t_x; }", 52),
        ("float4 PS(float2 __sd_in_uv : TEXCOORD0) : COLOR0 { return 1; }", 18),
    ] {
        let c = case(&format!(
            "{src}\ntechnique T {{ pass {{ PixelShader = compile ps_3_0 PS(); }} }}"
        ));
        assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0001, 1, col));
    }
}

#[test]
fn sampler_state_with_tex2d_and_1d_textures() {
    // `SamplerState s0;` read with `tex2D` (D3D10 declaration, D3D9 intrinsic); a 1D texture
    // read as MonoGame's GL runtime binds it: a 2D texture sampled at (x, x).
    let c = case(
        "SamplerState s0;\ntexture1D Ramp; sampler1D RampSampler = sampler_state { Texture = <Ramp>; };\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s0, uv) * tex1D(RampSampler, uv.x); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "SamplerState s0; Texture2D __sd_tex_s0;",
        "Texture2D __sd_t_Ramp;",
        "__sd_tex_s0.Sample(s0, (uv).xy) * __sd_t_Ramp.Sample(RampSampler, (uv.x).xx)",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
}

// ---- semantics ---------------------------------------------------------------------------

#[test]
fn mrt_struct_and_depth_output() {
    let c = case(
        "struct PSOut { float4 c0 : COLOR0; float4 c1 : COLOR1; float d : DEPTH; };\n\
         PSOut PS(float2 uv : TEXCOORD0) { PSOut o; o.c0 = uv.x; o.c1 = uv.y; o.d = 0.5; return o; }\n\
         float4 PS2(float2 uv : TEXCOORD0, out float depth : DEPTH0) : COLOR { depth = 0; return 1; }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } pass B { PixelShader = compile ps_3_0 PS2(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l
        .text
        .contains("float4 c0 : SV_Target0; float4 c1 : SV_Target1; float d : SV_Depth;"));
    let l = compiles(&c, "PS2", Stage::Pixel);
    assert!(l.text.contains("out float depth : SV_Depth) : SV_Target {"));
}

#[test]
fn vpos_and_vface() {
    let c = case(
        "float4 PS(float2 p : VPOS, float face : VFACE) : COLOR0 { return float4(p, face, 1); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(
        l.text.contains(
            "float4 __sd_vpos : SV_Position, bool __sd_face : SV_IsFrontFace) : SV_Target0 { \
             float2 p = (float2)__sd_vpos; float face = __sd_face ? 1.0 : -1.0;"
        ),
        "{}",
        l.text
    );
    let c = case(
        "float4 PS(float4 p : VPOS) : COLOR0 { return p; }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.contains("float4 PS(float4 p : SV_Position)"));
}

#[test]
fn vertex_out_parameters() {
    let c = case(
        "void VS(float4 p : POSITION, out float4 op : POSITION0, out float4 oc : COLOR0) { op = p; oc = 1; }\n\
         technique T { pass { VertexShader = compile vs_2_0 VS(); } }",
    );
    let l = compiles(&c, "VS", Stage::Vertex);
    assert!(l
        .text
        .contains("float4 p : POSITION, out float4 op : SV_Position, out float4 oc : COLOR0"));
}

#[test]
fn missing_entry_is_sd0102() {
    let c = case("float4 PS() : COLOR { return 1; }\ntechnique T { pass { PixelShader = compile ps_2_0 Nope(); } }");
    assert_eq!(c.fail("Nope", Stage::Pixel), (Code::SD0102, 2, 51));
}

// ---- compile arguments -----------------------------------------------------------------------

#[test]
fn compile_literals_generate_a_wrapper() {
    let c = case(
        "float4 PS(uniform bool invert, float2 uv : TEXCOORD0, float f : VFACE) : COLOR0 { return invert ? float4(uv, f, 1) : 0; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(true); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert_eq!(l.entry, WRAPPER);
    assert!(l.text.contains(
        "float4 __sd_entry(float2 uv : TEXCOORD0, bool __sd_face : SV_IsFrontFace) : SV_Target0 { return PS(true, uv, (__sd_face ? 1.0 : -1.0)); }"
    ), "{}", l.text);
    assert!(l.text.starts_with(
        "float4 PS(uniform bool invert, float2 uv : TEXCOORD0, float f) : SV_Target0"
    ));
    // The wrapper maps to the entry name in the compile statement.
    let at = l.text.find("__sd_entry(").unwrap();
    let entry_pos = c.expanded.text.rfind("PS(true)").unwrap();
    assert_eq!(l.map.map(at as u32) as usize, entry_pos);
}

#[test]
fn compile_literals_must_not_outnumber_uniform_parameters() {
    // An unbound uniform parameter of a type no effect parameter has is refused at itself.
    let c = case(
        "float4 PS(uniform float a[2], float2 uv : TEXCOORD0) : COLOR0 { return a[0]; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0003, 1, 11));
    let c = case(
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return 1; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(1); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0003, 2, 51));
}

#[test]
fn unbound_uniform_parameters_are_globals_named_like_fxc_constants() {
    let c = case(
        "float4 PS(uniform bool g, float2 uv : TEXCOORD0, uniform float2 k) : COLOR0 \
         { return g ? float4(uv * k, 0, 1) : 0; }\n\
         technique A { pass { PixelShader = compile ps_2_0 PS(); } }\n\
         technique B { pass { PixelShader = compile ps_2_0 PS(true); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.contains("uniform float __sd_arg_g;"), "{}", l.text);
    assert!(l.text.contains("uniform float2 __sd_arg_k;"), "{}", l.text);
    assert!(l.text.contains("PS(((bool)__sd_arg_g), uv, __sd_arg_k)"), "{}", l.text);
    let names: Vec<(&str, &str)> = l
        .retyped
        .iter()
        .map(|r| (r.name.as_str(), r.carrier.as_str()))
        .collect();
    assert_eq!(names, [("$g", "__sd_arg_g"), ("$k", "__sd_arg_k")]);
}

// ---- overloaded entries ---------------------------------------------------------------------

impl Case {
    /// The `compile` of `entry` with exactly these arguments.
    fn shader_with(&self, entry: &str, args: &[&str], stage: Stage) -> ShaderRef {
        self.parsed
            .ast
            .techniques
            .iter()
            .flat_map(|t| &t.passes)
            .filter_map(|p| match stage {
                Stage::Vertex => p.vertex_shader.as_ref(),
                Stage::Pixel => p.pixel_shader.as_ref(),
            })
            .find(|s| s.entry == entry && s.args == args)
            .unwrap_or_else(|| panic!("no compile of {entry}({args:?})"))
            .clone()
    }

    fn lower_with(&self, entry: &str, args: &[&str], stage: Stage) -> Result<Lowered, Diagnostics> {
        lower(
            &self.expanded,
            &self.parsed,
            &self.shader_with(entry, args, stage),
            stage,
        )
    }

    /// Lowers and compiles with DXC the `compile` of `entry` with these arguments.
    fn compiles_with(&self, entry: &str, args: &[&str], stage: Stage) -> Lowered {
        let l = self
            .lower_with(entry, args, stage)
            .unwrap_or_else(|d| panic!("lowering failed: {d:#?}"));
        if let Err(e) = dxc(&l, stage) {
            panic!("DXC rejected the lowered text for {entry}({args:?}):\n{e}");
        }
        l
    }

    /// The first diagnostic of the `compile` of `entry` with these arguments, with line:col.
    fn fail_with(&self, entry: &str, args: &[&str], stage: Stage) -> (Diagnostic, u32, u32) {
        let d = match self.lower_with(entry, args, stage) {
            Ok(l) => panic!("expected an error, got:\n{}", l.text),
            Err(d) => d.0[0].clone(),
        };
        let span = d.primary.clone().expect("span").span;
        let (l, c) = self.files.get(span.file).line_col(span.start);
        (d, l, c)
    }
}

/// The shape: `PS(input)` beside `PS(input, uniform bool gammaCorrection)`.
const GAMMA_PS: &str = "float4 PS(VSOutput input) : COLOR0 { return input.Color; }\n\
float4 PS(VSOutput input, uniform bool gammaCorrection) : COLOR0 { float4 c = input.Color; if (gammaCorrection) c.rgb = sqrt(c.rgb); return c; }\n";

#[test]
fn compile_arguments_choose_the_overload_as_fxc_does() {
    // fxc (fx_2_0): `PS()` is the overload without `uniform` parameters, `PS(true)` the one
    // with, in either order in the file.
    let techniques = "technique A { pass { PixelShader = compile ps_2_0 PS(); } }\n\
                      technique B { pass { PixelShader = compile ps_2_0 PS(true); } }";
    let (first, second) = GAMMA_PS.split_once('\n').unwrap();
    for body in [GAMMA_PS.to_string(), format!("{second}{first}\n")] {
        let c = case(&format!("{VS}{body}{techniques}"));
        let l = c.compiles_with("PS", &[], Stage::Pixel);
        assert!(l.retyped.is_empty(), "{:?}", l.retyped);
        assert!(!l.text.contains("__sd_arg_"), "{}", l.text);
        assert_eq!(l.entry, WRAPPER);
        assert!(l.text.contains("{ return PS(input); }"), "{}", l.text);
        // The overload not taken is not compiled (fxc compiles only what the entry reaches).
        assert!(l.text.contains("uniform bool gammaCorrection) : COLOR0 ;"), "{}", l.text);
        let l = c.compiles_with("PS", &["true"], Stage::Pixel);
        assert!(l.retyped.is_empty(), "{:?}", l.retyped);
        assert!(l.text.contains("{ return PS(input, ((bool)(true))); }"), "{}", l.text);
        assert!(l.text.contains("float4 PS(VSOutput input) : COLOR0 ;"), "{}", l.text);
    }
}

#[test]
fn overloads_of_a_vertex_entry_too() {
    let c = case(
        "float4 VS(float4 p : POSITION0) : POSITION0 { return p; }\n\
         float4 VS(float4 p : POSITION0, uniform float s) : POSITION0 { return p * s; }\n\
         technique A { pass { VertexShader = compile vs_2_0 VS(); } }\n\
         technique B { pass { VertexShader = compile vs_2_0 VS(2); } }",
    );
    let l = c.compiles_with("VS", &[], Stage::Vertex);
    assert!(l.text.contains("return VS(p); }"), "{}", l.text);
    assert!(l.retyped.is_empty());
    let l = c.compiles_with("VS", &["2"], Stage::Vertex);
    assert!(l.text.contains("return VS(p, ((float)(2))); }"), "{}", l.text);
}

#[test]
fn argument_types_rank_overloads_as_fxc_ranks_them() {
    // Each (overload A, overload B, argument, A wins?) as the fxc oracle chose (fx_2_0).
    let cases = [
        ("bool", "float", "true", true),
        ("float", "bool", "1", false),   // an int literal takes bool before float
        ("bool", "float", "1.0", false), // a float literal takes float
        ("float", "int", "1", false),
        ("float", "int", "1.5", true),
        ("float", "float2", "1.0", true), // a scalar before a spread
        ("float2", "bool", "1", false),   // the base counts before the shape
        ("bool2", "float", "1", true),
        ("float3", "float", "float2(1, 2)", false), // cut, never grown
        ("int2", "float2", "int2(1, 2)", true),
        ("half", "float", "1.5h", true),
        ("half", "float", "1.0f", false),
        ("int", "uint", "1u", false),
        ("bool", "float", "1u", true),
    ];
    for (a, b, arg, a_wins) in cases {
        let c = case(&format!(
            "float4 PS(float2 uv : TEXCOORD0, uniform {a} k) : COLOR0 {{ return uv.x; }}\n\
             float4 PS(float2 uv : TEXCOORD0, uniform {b} k) : COLOR0 {{ return uv.y; }}\n\
             technique T {{ pass {{ PixelShader = compile ps_2_0 PS({arg}); }} }}"
        ));
        let l = c.compiles_with("PS", &[arg], Stage::Pixel);
        let (won, lost) = if a_wins { (a, b) } else { (b, a) };
        assert!(
            l.text.contains(&format!("return PS(uv, (({won})({arg})));")),
            "{a} vs {b} with {arg}:\n{}",
            l.text
        );
        // The losing overload's body is gone.
        assert!(
            l.text.contains(&format!("uniform {lost} k) : COLOR0 ;")),
            "{a} vs {b} with {arg}:\n{}",
            l.text
        );
    }
}

#[test]
fn compile_arguments_no_overload_takes_are_fxcs_refusals() {
    let techniques = "technique A { pass { PixelShader = compile ps_2_0 PS(true, false); } }";
    let c = case(&format!("{VS}{GAMMA_PS}{techniques}"));
    let (d, line, col) = c.fail_with("PS", &["true", "false"], Stage::Pixel);
    assert_eq!((d.code, line, col), (Code::FX0003, 5, 51));
    assert!(d.message.contains("no overload of `PS`"), "{}", d.message);
    assert!(
        d.notes.iter().any(|n| n.contains("X3013: 'PS': function does not take 2 parameters")),
        "{:?}",
        d.notes
    );
    assert!(d.help.is_some());

    // Same `uniform` types: fxc's X3067.
    let c = case(
        "float4 PS(float2 uv : TEXCOORD0, uniform float s) : COLOR0 { return uv.x * s; }\n\
         float4 PS(float4 c : COLOR0, uniform float s) : COLOR0 { return c * s; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(1); } }",
    );
    let (d, line, col) = c.fail_with("PS", &["1"], Stage::Pixel);
    assert_eq!((d.code, line, col), (Code::FX0003, 3, 51));
    assert!(d.notes.iter().any(|n| n.contains("X3067: 'PS': ambiguous function call")));
    assert_eq!(d.secondary.len(), 2, "{:?}", d.secondary);
    // Neither better: `true` converts to int and float alike.
    let c = case(
        "float4 PS(float2 uv : TEXCOORD0, uniform float s) : COLOR0 { return uv.x * s; }\n\
         float4 PS(float2 uv : TEXCOORD0, uniform int s) : COLOR0 { return uv.y * s; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(true); } }",
    );
    let (d, ..) = c.fail_with("PS", &["true"], Stage::Pixel);
    assert!(d.notes.iter().any(|n| n.contains("X3067")), "{:?}", d.notes);

    // A vector grown: fxc's X3017, naming fxc's types.
    let c = case(
        "float4 PS(float2 uv : TEXCOORD0, uniform float4 s) : COLOR0 { return s; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(float2(1, 2)); } }",
    );
    let (d, line, col) = c.fail_with("PS", &["float2(1, 2)"], Stage::Pixel);
    assert_eq!((d.code, line, col), (Code::FX0003, 2, 51));
    assert!(
        d.notes.iter().any(|n| n
            .contains("X3017: 'PS': cannot implicitly convert from 'const float2' to 'float4'")),
        "{:?}",
        d.notes
    );
}

#[test]
fn an_entry_defined_twice_is_refused_as_a_redefinition() {
    // fxc: X3003 "redefinition of 'PS'" (the semantics differ, the types do not). Both bodies
    // stay, so DXC refuses it as such.
    let c = case(
        "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return 1; }\n\
         float4 PS(float2 uv : TEXCOORD1) : COLOR0 { return 0; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = c.ok("PS", Stage::Pixel);
    assert!(l.text.contains("{ return 1; }") && l.text.contains("{ return 0; }"), "{}", l.text);
    match dxc(&l, Stage::Pixel) {
        Ok(None) => {}
        Ok(Some(_)) => panic!("DXC compiled a redefinition:\n{}", l.text),
        Err(e) => assert!(e.contains("redefinition"), "{e}"),
    }
}

#[test]
fn unbound_uniforms_of_an_overload_when_none_takes_the_arguments_exactly() {
    // fxc's effect compiler refuses `PS()` here (X3013); mgfxc compiles `PS` by name, the first
    // definition, with its `uniform` parameters as `$name` effect parameters.
    let c = case(
        "float4 PS(float2 uv : TEXCOORD0, uniform bool a) : COLOR0 { return a ? uv.x : 0; }\n\
         float4 PS(float2 uv : TEXCOORD0, uniform bool a, uniform bool b) : COLOR0 { return a && b ? uv.y : 0; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = c.compiles_with("PS", &[], Stage::Pixel);
    assert!(l.text.contains("return PS(uv, ((bool)__sd_arg_a)); }"), "{}", l.text);
    let names: Vec<&str> = l.retyped.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["$a"]);
}

// ---- uniforms and registers -----------------------------------------------------------------

#[test]
fn integer_arrays_are_converted_where_they_are_indexed() {
    let c = case(
        "int Order[3]; bool On[2]; float4 P[4];\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return On[Order[1] - 1] ? P[Order[0]] : P[2]; }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(
        l.text.contains("return (__sd_u_On[((int)__sd_u_Order[1]) - 1] != 0) ? P[((int)__sd_u_Order[0])] : P[2];"),
        "{}",
        l.text
    );
    let c = case(
        "int Order[3];\nfloat F(int o[3]) { return o[0]; }\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return F(Order); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    assert_eq!(c.fail("PS", Stage::Pixel), (Code::FX0012, 3, 54));
}

#[test]
fn integer_and_bool_uniforms_are_carried_as_floats() {
    let c = case(
        "int Count = 3; bool Flag; uint3 Ids;\ncbuffer P { int Mode; float Scale; };\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { float r = 0; for (int i = 0; i < Count; i++) r += Scale; return Flag ? r : float(Ids.x + Mode); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.starts_with(
        "float __sd_u_Count    ; static const int Count = ((int)__sd_u_Count); float __sd_u_Flag; static const bool Flag = (__sd_u_Flag != 0); float3 __sd_u_Ids; static const uint3 Ids = ((uint3)__sd_u_Ids);\n"
    ), "{}", l.text);
    assert!(l.text.contains(
        "cbuffer P { float __sd_u_Mode; float Scale; }; static const int Mode = ((int)__sd_u_Mode);"
    ));
    let names: Vec<(&str, &str)> = l
        .retyped
        .iter()
        .map(|r| (r.name.as_str(), r.carrier.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("Count", "__sd_u_Count"),
            ("Flag", "__sd_u_Flag"),
            ("Ids", "__sd_u_Ids"),
            ("Mode", "__sd_u_Mode")
        ]
    );
}

#[test]
fn stage_qualified_and_constant_registers() {
    let src = "float4 A : register(vs, c0); float4 B : register(ps, c1); float4 C : register(c2);\n\
               sampler2D S : register(ps, s3); Texture2D T2 : register(t4); SamplerState M : register(s5);\n\
               float4 VS(float4 p : POSITION) : POSITION { return p * A; }\n\
               float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv) * B * C + T2.Sample(M, uv); }\n\
               technique T { pass { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }";
    let c = case(src);
    let ps = compiles(&c, "PS", Stage::Pixel);
    assert!(
        ps.text
            .starts_with("float4 A ; float4 B ; float4 C ;\nSamplerState S : register(s3);"),
        "{}",
        ps.text
    );
    assert!(ps
        .text
        .contains("Texture2D __sd_t_T2 : register(t4); SamplerState M : register(s5);"));
    let s = ps.samplers.iter().find(|b| b.sampler == "S").unwrap();
    assert_eq!(s.register, Some(3));
    let m = ps
        .samplers
        .iter()
        .find(|b| b.sampler == "M" && b.texture == "__sd_t_T2")
        .unwrap();
    assert_eq!(
        (m.parameter.as_str(), m.register, m.order),
        ("T2", Some(5), 1)
    );
    let vs = compiles(&c, "VS", Stage::Vertex);
    assert!(vs.text.contains("SamplerState S ;"), "{}", vs.text);
    assert!(vs.text.contains(") : SV_Position {"));
}

#[test]
fn lowering_is_deterministic() {
    let c = case(
        "sampler s; int n; float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s, uv) * n; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let a = c.ok("PS", Stage::Pixel);
    let b = c.ok("PS", Stage::Pixel);
    assert_eq!(a.text, b.text);
    assert_eq!(a.samplers, b.samplers);
}

#[test]
fn no_panic_on_any_prefix_or_mutation() {
    // Every prefix of a representative effect, and every single-byte deletion, must either
    // fail with diagnostics or lower; never panic or hang.
    let full = "texture Tex < string n = \"a\"; >; int Count = 2;\n\
        sampler2D S : register(s0) = sampler_state { Texture = <Tex>; MipFilter = None; };\n\
        struct O { float4 c : COLOR0; float d : DEPTH; };\n\
        O PS(uniform bool b, float2 uv : TEXCOORD0, float f : VFACE) { O o; o.c = tex2Dlod(S, float4(uv, 0, f)) * Count; o.d = 0; return o; }\n\
        technique T < int x = 1; > { pass P { AlphaBlendEnable = true; PixelShader = compile ps_3_0 PS(false); } }";
    let mut inputs: Vec<String> = (0..=full.len()).map(|n| full[..n].to_string()).collect();
    inputs.extend((0..full.len()).map(|i| format!("{}{}", &full[..i], &full[i + 1..])));
    let mut lowered = 0;
    for src in &inputs {
        let mut files = SourceFiles::new();
        let ex = expanded_from_plain(&mut files, "t.fx", src);
        let Ok(parsed) = effect::parse(&ex) else {
            continue;
        };
        assert_eq!(parsed.stripped.len(), src.len());
        for t in &parsed.ast.techniques {
            for p in &t.passes {
                if let Some(s) = &p.pixel_shader {
                    if lower(&ex, &parsed, s, Stage::Pixel).is_ok() {
                        lowered += 1;
                    }
                }
            }
        }
    }
    assert!(
        lowered > 10,
        "the full effect and many mutations lower ({lowered})"
    );
    let c = case(full);
    compiles(&c, "PS", Stage::Pixel);
}

#[test]
fn const_globals_are_uniforms_for_dxc() {
    // DXC (like fxc) places a non-static `const` global in `$Globals`, so the parser records
    // it as a uniform and lowering blanks its initializer (the value is the MGFX default).
    let c = case(
        "const float K = 2;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 { return uv.x * K; }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    assert_eq!(c.parsed.ast.globals[0].initializer, Some(vec![2.0]));
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.starts_with("const float K    ;"));
    if let Ok(Some(spv)) = dxc(&l, Stage::Pixel) {
        assert!(spv.windows(8).any(|w| w == b"$Globals"));
    }
}

#[test]
fn texture_named_texture_and_undeclared_state_texture() {
    let c = case(
        "Texture2D<float4> Texture : register(t0);\nsampler2D S = sampler_state { Texture = <Missing>; };\n\
         SamplerState Lin;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Texture.Sample(Lin, uv) + tex2D(S, uv); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l
        .text
        .starts_with("Texture2D<float4> __sd_t_Texture : register(t0);\n"));
    let s = l
        .samplers
        .iter()
        .find(|b| b.sampler == "S" && b.texture == "__sd_tex_S")
        .unwrap();
    assert_eq!(
        s.parameter, "Missing",
        "the parameter is named by `Texture = <...>`"
    );
    let lin = l
        .samplers
        .iter()
        .find(|b| b.sampler == "Lin" && b.texture == "__sd_t_Texture")
        .unwrap();
    assert_eq!((lin.parameter.as_str(), lin.order), ("Texture", 1));
}

// ---- parameters that are inputs and outputs at once -------------------------------------------

#[test]
fn inout_position_is_split_into_an_attribute_and_sv_position() {
    // MonoGame's SpriteEffect.fx.
    let c = case(
        "float4x4 M;\n\
         void SpriteVS(inout float4 color : COLOR0, inout float2 uv : TEXCOORD0, inout float4 position : SV_Position) { position = mul(position, M); }\n\
         float4 PS(float4 color : COLOR0, float2 uv : TEXCOORD0) : COLOR0 { return color; }\n\
         technique T { pass { VertexShader = compile vs_2_0 SpriteVS(); PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "SpriteVS", Stage::Vertex);
    assert_eq!(l.entry, WRAPPER);
    assert!(
        l.text.contains(
            "void __sd_entry(inout float4 color : COLOR0, inout float2 uv : TEXCOORD0, float4 __sd_in_position : POSITION0, out float4 __sd_out_position : SV_Position) \
             { float4 position = __sd_in_position; SpriteVS(color, uv, position); __sd_out_position = position; }"
        ),
        "{}",
        l.text
    );
}

#[test]
fn a_struct_read_and_returned_is_read_through_a_copy_with_input_semantics() {
    let c = case(
        "struct V { float4 Position : POSITION0; float4 Color : COLOR0; };\n\
         float4x4 M;\n\
         V VS(V input) { V o = input; o.Position = mul(input.Position, M); return o; }\n\
         float4 PS(float4 color : COLOR0) : COLOR0 { return color; }\n\
         technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "VS", Stage::Vertex);
    assert!(
        l.text.contains(
            "struct __sd_in_V { float4 Position : POSITION0; float4 Color : COLOR0; };\n\
             V __sd_entry(__sd_in_V __sd_in_input) { V input; input.Position = __sd_in_input.Position; input.Color = __sd_in_input.Color; return VS(input); }"
        ),
        "{}",
        l.text
    );
    assert!(
        l.text
            .starts_with("struct V { float4 Position : SV_Position;"),
        "{}",
        l.text
    );
}

#[test]
fn a_two_way_struct_with_sv_position_reads_position0() {
    let c = case(
        "struct V { float4 Position : SV_Position; float4 Color : COLOR0; };\n\
         V VS(V input) { return input; }\n\
         float4 PS(float4 color : COLOR0) : COLOR0 { return color; }\n\
         technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "VS", Stage::Vertex);
    assert!(
        l.text
            .contains("struct __sd_in_V { float4 Position : POSITION0; float4 Color : COLOR0; };"),
        "{}",
        l.text
    );
}

#[test]
fn uniforms_written_by_shader_code_work_on_a_per_invocation_copy() {
    // fxc lets shader code assign to a uniform (the write goes to a temporary); DXC does not.
    let c = case(
        "float Amount = 0.5;\nfloat4 Tint;\nstruct L { float Amount; };\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 {\n\
         Amount = saturate(Amount * 2); Tint.a *= 0.5; L l; l.Amount = 1;\n\
         return Tint * Amount * l.Amount + (Tint == 0); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "float Amount      ; static float __sd_mut_Amount = Amount;",
        "float4 Tint; static float4 __sd_mut_Tint = Tint;",
        "__sd_mut_Amount = saturate(__sd_mut_Amount * 2); __sd_mut_Tint.a *= 0.5; L l; l.Amount = 1;",
        "return __sd_mut_Tint * __sd_mut_Amount * l.Amount + (__sd_mut_Tint == 0);",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
}

#[test]
fn written_uniform_arrays_and_ints_get_writable_copies() {
    // An element of a uniform array and an int uniform written by shader code (fxc writes a
    // temporary); the array's copy is built element by element and can still be passed whole.
    let c = case(
        "float2 Offsets[2];\nint Steps;\nfloat2 Sum(float2 o[2]) { return o[0] + o[1]; }\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 {\n\
         Steps += 1; Offsets[1] *= Steps;\n\
         return float4(Sum(Offsets) + Offsets[1], 0, 1); }\n\
         technique T { pass { PixelShader = compile ps_2_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for want in [
        "float2 Offsets[2]; static float2 __sd_mut_Offsets[2] = { Offsets[0], Offsets[1] };",
        "static int Steps = ((int)__sd_u_Steps);",
        "Steps += 1; __sd_mut_Offsets[1] *= Steps;",
        "return float4(Sum(__sd_mut_Offsets) + __sd_mut_Offsets[1], 0, 1);",
    ] {
        assert!(l.text.contains(want), "missing `{want}` in:\n{}", l.text);
    }
}

#[test]
fn non_square_packing_follows_pragma_and_qualifiers() {
    // `#pragma pack_matrix(row_major)` makes later matrices row-major (one register per HLSL
    // row); `column_major` on a declaration overrides it; a later pragma switches back.
    let c = case(
        "#pragma pack_matrix(row_major)\nfloat4x3 R;\ncolumn_major float2x3 C;\n#pragma pack_matrix(column_major)\nfloat4x3 D;\nrow_major float3x2 Q;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return float4(mul(float4(uv, 0, 1), R) + mul(uv, C) + mul(float4(uv, 1, 1), D) + float3(mul(float3(uv, 1), Q), 0), 1); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    for (declaration, getter) in [
        (
            "float3 __sd_m_R[4];",
            "float3 __sd_row_R(int __sd_row) { return __sd_m_R[__sd_row]; }",
        ),
        (
            "float2 __sd_m_C[3];",
            "float2x3(__sd_m_C[0].x, __sd_m_C[1].x, __sd_m_C[2].x,",
        ),
        (
            "float4 __sd_m_D[3];",
            "float4x3(__sd_m_D[0].x, __sd_m_D[1].x, __sd_m_D[2].x,",
        ),
        (
            "float2 __sd_m_Q[3];",
            "float3x2(__sd_m_Q[0].x, __sd_m_Q[0].y, __sd_m_Q[1].x,",
        ),
    ] {
        assert!(l.text.contains(declaration), "{declaration}\n{}", l.text);
        assert!(l.text.contains(getter), "{getter}\n{}", l.text);
    }
    assert!(!l.text.contains("column_major float2") && !l.text.contains("row_major float2"));
}

#[test]
fn rows_of_non_square_uniforms_are_read_from_registers() {
    let c = case(
        "float4x3 W;\nfloat4x3 Pal[3];\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { int i = (int)(uv.x * 4); return float4(W[i] + Pal[(int)uv.y][i] + Pal[1][2], W[i][1]); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(l.text.contains(
        "float3 __sd_row_W(int __sd_row) { return __sd_row == 0 ? float3(__sd_m_W[0].x, __sd_m_W[1].x, __sd_m_W[2].x) : (__sd_row == 1 ?"
    ), "{}", l.text);
    assert!(
        l.text.contains(
            "__sd_row_W(i) + __sd_row_Pal((int)uv.y, i) + __sd_row_Pal(1, 2), __sd_row_W(i)[1]"
        ),
        "{}",
        l.text
    );
}

// ---- interface structs the varyings cannot carry as written ---------------------------------

#[test]
fn matrix_varyings_travel_as_one_vector_per_register() {
    // The normal-mapping tangent frame: fxc gives a float3x3 varying three registers, column k
    // in TEXCOORD(2+k) (row k under `row_major`); the vertex and pixel sides agree.
    let c = case(
        "struct V { float4 Pos : POSITION0; float2 UV : TEXCOORD0; float3x3 TBN : TEXCOORD2; row_major float2x3 R : TEXCOORD5; };\n\
         V VS(float4 p : POSITION0, float3 n : NORMAL0) { V o; o.Pos = p; o.UV = p.xy; o.TBN = float3x3(n, n.yzx, n.zxy); o.R = float2x3(n, n.zxy); return o; }\n\
         float4 PS(V i) : COLOR0 { return float4(mul(float3(1, 2, 3), i.TBN) + i.R[1], i.UV.x); }\n\
         void VS2(float4 p : POSITION0, out float4 o : POSITION0, out float3x3 M : TEXCOORD1) { o = p; M = float3x3(p.xyz, p.yzx, p.zxy); }\n\
         float4 PS2(float3x3 M : TEXCOORD1) : COLOR0 { return float4(M[0] + M._12_22_32, 1); }\n\
         technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); }\n\
         pass { VertexShader = compile vs_3_0 VS2(); PixelShader = compile ps_3_0 PS2(); } }",
    );
    let vs = compiles(&c, "VS", Stage::Vertex);
    assert!(
        vs.text.contains("struct __sd_out_V { float4 Pos : SV_Position; float2 UV : TEXCOORD0; float3 TBN_0 : TEXCOORD2; float3 TBN_1 : TEXCOORD3; float3 TBN_2 : TEXCOORD4; float3 R_0 : TEXCOORD5; float3 R_1 : TEXCOORD6; };"),
        "{}",
        vs.text
    );
    assert!(
        vs.text.contains("__sd_flat.TBN_1 = transpose(__sd_result.TBN)[1];")
            && vs.text.contains("__sd_flat.R_1 = __sd_result.R[1];"),
        "{}",
        vs.text
    );
    let ps = compiles(&c, "PS", Stage::Pixel);
    assert!(
        ps.text.contains("i.TBN = transpose(float3x3(__sd_in_i.TBN_0, __sd_in_i.TBN_1, __sd_in_i.TBN_2));")
            && ps.text.contains("i.R = float2x3(__sd_in_i.R_0, __sd_in_i.R_1);"),
        "{}",
        ps.text
    );
    let vs2 = compiles(&c, "VS2", Stage::Vertex);
    assert!(
        vs2.text.contains("out float3 __sd_out_M_2 : TEXCOORD3")
            && vs2.text.contains("__sd_out_M_2 = transpose(M)[2];"),
        "{}",
        vs2.text
    );
    // A `row_major` parameter (or `#pragma pack_matrix(row_major)`) takes one register per row.
    let c5 = case(
        "#pragma pack_matrix(row_major)\n\
         void VS(float4 p : POSITION0, out float4 o : POSITION0, out float2x3 M : TEXCOORD1) { o = p; M = float2x3(p.xyz, p.yzx); }\n\
         float4 PS(column_major float2x3 M : TEXCOORD1) : COLOR0 { return float4(M[1], 1); }\n\
         technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }",
    );
    let vs5 = compiles(&c5, "VS", Stage::Vertex);
    assert!(
        vs5.text.contains("out float3 __sd_out_M_1 : TEXCOORD2")
            && vs5.text.contains("__sd_out_M_1 = M[1];"),
        "{}",
        vs5.text
    );
    let ps5 = compiles(&c5, "PS", Stage::Pixel);
    assert!(
        ps5.text.contains("float2 __sd_in_M_2 : TEXCOORD3")
            && ps5.text.contains("transpose(float3x2(__sd_in_M_0, __sd_in_M_1, __sd_in_M_2))"),
        "{}",
        ps5.text
    );
    // Arrays of matrices: element after element, each its registers (tp[1] column 0 in
    // TEXCOORD2), as fxc numbers them.
    let c4 = case(
        "struct A { float4x2 tp[2] : TEXCOORD0; };\n\
         float4 PS(in A a) : COLOR0 { return float4(a.tp[0][0].x, a.tp[0][1].x, a.tp[1][0].x, a.tp[1][1].x); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let ps4 = compiles(&c4, "PS", Stage::Pixel);
    assert!(
        ps4.text.contains("struct __sd_in_A { float4 tp_0_0 : TEXCOORD0; float4 tp_0_1 : TEXCOORD1; float4 tp_1_0 : TEXCOORD2; float4 tp_1_1 : TEXCOORD3; };")
            && ps4.text.contains("a.tp[1] = transpose(float2x4(__sd_in_a.tp_1_0, __sd_in_a.tp_1_1));"),
        "{}",
        ps4.text
    );
    // The struct written through an `out` parameter instead of returned.
    let c3 = case(
        "struct V { float4 Pos : POSITION0; float3x3 TBN : TEXCOORD2; };\n\
         void VS(float4 p : POSITION0, out V o) { o.Pos = p; o.TBN = float3x3(p.xyz, p.yzx, p.zxy); }\n\
         technique T { pass { VertexShader = compile vs_3_0 VS(); } }",
    );
    let vs3 = compiles(&c3, "VS", Stage::Vertex);
    assert!(
        vs3.text.contains("out __sd_out_V __sd_out_o")
            && vs3.text.contains("__sd_out_o.TBN_2 = transpose(o.TBN)[2];"),
        "{}",
        vs3.text
    );
    let ps2 = compiles(&c, "PS2", Stage::Pixel);
    assert!(
        ps2.text.contains("float3 __sd_in_M_2 : TEXCOORD3")
            && ps2.text.contains("transpose(float3x3(__sd_in_M_0, __sd_in_M_1, __sd_in_M_2))"),
        "{}",
        ps2.text
    );
}

#[test]
fn vface_struct_member_comes_from_is_front_face() {
    let c = case(
        "struct P { float2 UV : TEXCOORD0; float Face : VFACE; };\n\
         float4 PS(P i) : COLOR0 { return float4(i.UV, i.Face, 1); }\n\
         technique T { pass { PixelShader = compile ps_3_0 PS(); } }",
    );
    let l = compiles(&c, "PS", Stage::Pixel);
    assert!(
        l.text.contains("struct __sd_in_P { float2 UV : TEXCOORD0; };")
            && l.text.contains("bool __sd_face : SV_IsFrontFace")
            && l.text.contains("i.Face = (__sd_face ? 1.0 : -1.0);"),
        "{}",
        l.text
    );
}

#[test]
fn nointerpolation_is_dropped() {
    let c = case(
        "struct V { float4 Pos : POSITION0; nointerpolation float4 Color : COLOR0; };\n\
         V VS(float4 p : POSITION0) { V o; o.Pos = p; o.Color = p; return o; }\n\
         float4 PS(nointerpolation float4 c : COLOR0) : COLOR0 { return c; }\n\
         technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }",
    );
    for (e, s) in [("VS", Stage::Vertex), ("PS", Stage::Pixel)] {
        let l = compiles(&c, e, s);
        assert!(!l.text.contains("nointerpolation"), "{}", l.text);
    }
}

