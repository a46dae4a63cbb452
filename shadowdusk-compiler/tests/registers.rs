//! Register parity with mgfxc: explicit `register(cN)` placements decide the order of a stage's
//! constant-buffer record (and so of the parameters), as fxc places them and mgfxc packs them.

use shadowdusk_compiler::pipeline::{compile_source, Options};

/// Each record's (parameter name, byte offset) entries.
type Records = Vec<Vec<(String, i32)>>;

/// The parameter names and the records of `src`; `None` (after [`shadowdusk_testkit::skip`]) without DXC.
fn layout(test: &str, src: &str) -> Option<(Vec<String>, Records)> {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(test, "DXC is not available (run `cargo xtask setup`)");
        return None;
    }
    let path = std::env::temp_dir().join("registers.fx");
    let c = compile_source(&path, src, &Options::default())
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let e = &c.effect;
    let names: Vec<String> = e.parameters.iter().map(|p| p.name.clone()).collect();
    let records = e
        .constant_buffers
        .iter()
        .map(|b| {
            b.entries
                .iter()
                .map(|x| {
                    (
                        e.parameters[x.parameter as usize].name.clone(),
                        x.offset as i32,
                    )
                })
                .collect()
        })
        .collect();
    Some((names, records))
}

#[test]
fn explicit_registers_order_the_record_and_free_ones_fill_the_gaps() {
    // Declared Tint, Amount(c0), Offset(c3), Scale: fxc puts Amount at c0, Tint on the first
    // free register (c1), Offset at c3, Scale on the next free one (c2).
    let Some((names, records)) = layout(
        "explicit_registers_order_the_record_and_free_ones_fill_the_gaps",
        "sampler s0;\nfloat4 Tint;\nfloat Amount : register(c0);\nfloat4 Offset : register(c3);\nfloat Scale;\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(s0, uv) * Tint * Amount * Scale + Offset; }\n\
         technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n",
    ) else {
        return;
    };
    let rec = |v: &[(&str, i32)]| {
        v.iter()
            .map(|(n, o)| (n.to_string(), *o))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        records,
        [rec(&[
            ("Amount", 0),
            ("Tint", 16),
            ("Scale", 32),
            ("Offset", 48)
        ])]
    );
    assert_eq!(names, ["Amount", "Tint", "Scale", "Offset", "s0"]);
}

#[test]
fn stage_qualified_registers_apply_to_their_stage_only() {
    // MonoGame's Macros.fxh style: `register(vs, c4)` / `register(ps, c0)`.
    let Some((_, records)) = layout(
        "stage_qualified_registers_apply_to_their_stage_only",
        "float4x4 WorldViewProj : register(vs, c4);\nfloat4 Ambient : register(vs, c0);\n\
         float4 DiffuseColor : register(ps, c1);\nfloat4 Fog : register(ps, c0);\n\
         struct V { float4 P : POSITION0; float4 C : COLOR0; };\n\
         V VS(V v) { V o; o.P = mul(v.P, WorldViewProj); o.C = v.C * Ambient; return o; }\n\
         float4 PS(V v) : COLOR0 { return v.C * DiffuseColor + Fog; }\n\
         technique T { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n",
    ) else {
        return;
    };
    let rec = |v: &[(&str, i32)]| {
        v.iter()
            .map(|(n, o)| (n.to_string(), *o))
            .collect::<Vec<_>>()
    };
    // mgfxc's order: pixel shader first.
    assert_eq!(
        records,
        [
            rec(&[("Fog", 0), ("DiffuseColor", 16)]),
            rec(&[("Ambient", 0), ("WorldViewProj", 16)]),
        ]
    );
}
