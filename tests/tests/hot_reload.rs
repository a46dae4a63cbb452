//! Shader hot reload, headless: a `HotEffect` watching a copy of a shader swaps in an edit that
//! keeps the register layout, refuses one that changes it (naming the parameter) and reports a
//! syntax error with file:line:col — in both cases drawing with the old effect — and reloads
//! again once the file is fixed. Pixels are read back from Mesa after every step.

#![deny(warnings)]

use std::path::Path;
use std::time::Duration;

use shadowdusk::hot::{HotEffect, Reload};
use shadowdusk::include_effect;
use shadowdusk_tests::{draw_sprite, Headless, Orientation, Sprite};

include_effect!("hot/glow.fx", in_process);

const SIZE: u32 = 8;
/// A recompile takes ~0.1 s; this only bounds a hang.
const WAIT: Duration = Duration::from_secs(30);

fn glow_source(colour: &str, extra: &str) -> String {
    format!(
        "// A constant colour scaled by a uniform: the hot-reload test edits this file.\n\
         float4 Tint = float4(1, 1, 1, 1);\n\
         {extra}\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0\n\
         {{\n\
         \treturn Tint * float4({colour}, 1);\n\
         }}\n\
         technique T {{ pass P {{ PixelShader = compile ps_2_0 PS(); }} }}\n"
    )
}

/// Saves the way editors do: a new file renamed over the old one.
fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("fx.saving");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn centre(h: &Headless, fx: &mut HotEffect<glow::Effect>) -> [u8; 4] {
    h.clear([0, 0, 0, 0]);
    let target = h.target(Orientation::Backbuffer);
    let pass = fx.apply(glow::passes::t::P, &target).expect("apply");
    let quad = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
    draw_sprite(h.ctx(), &pass, &quad).expect("draw");
    h.read_rgba(Orientation::Backbuffer)
        .get_pixel(SIZE / 2, SIZE / 2)
        .0
}

#[test]
fn edits_reload_layout_changes_and_errors_keep_the_old_effect() {
    const TEST: &str = "edits_reload_layout_changes_and_errors_keep_the_old_effect";
    let Some(h) = Headless::or_skip(TEST, SIZE, SIZE) else {
        return;
    };
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(TEST, "DXC unavailable");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fx_path = dir.path().join("glow.fx");
    let original =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("hot/glow.fx")).unwrap();
    std::fs::write(&fx_path, &original).unwrap();
    let mut fx = HotEffect::<glow::Effect>::watching(h.ctx(), &fx_path).expect("hot effect");
    assert_eq!(fx.poll(), Reload::Unchanged);
    assert_eq!(
        centre(&h, &mut fx),
        [255, 0, 0, 255],
        "the built effect draws red"
    );

    // 1. A new constant keeps the layout: swapped in, the next frame is green.
    save(&fx_path, &glow_source("0, 1, 0", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(centre(&h, &mut fx), [0, 255, 0, 255]);

    // 2. A new parameter changes the layout: refused, naming it; still green.
    save(&fx_path, &glow_source("0, 0, Amount", "float Amount = 1;"));
    match fx.wait(WAIT) {
        Reload::Refused(why) => assert!(why.contains("`Amount`"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(centre(&h, &mut fx), [0, 255, 0, 255]);

    // A changed type is refused the same way.
    save(
        &fx_path,
        &glow_source("0, 0, 1", "")
            .replace("float4 Tint = float4(1, 1, 1, 1);", "float2 Tint = 1;")
            .replace("Tint *", "Tint.x *"),
    );
    match fx.wait(WAIT) {
        Reload::Refused(why) => assert!(
            why.contains("`Tint` changed from float4 to float2"),
            "{why}"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(centre(&h, &mut fx), [0, 255, 0, 255]);

    // 3. A syntax error: reported at its line and column, nothing swapped.
    save(
        &fx_path,
        &glow_source("0, 0, 1", "").replace("return Tint", "return Tint +* "),
    );
    match fx.wait(WAIT) {
        Reload::Failed(text) => {
            assert!(text.contains("glow.fx:6:"), "{text}");
            assert!(text.contains("error["), "{text}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert_eq!(centre(&h, &mut fx), [0, 255, 0, 255]);

    // 4. Fixed: reloads, blue.
    save(&fx_path, &glow_source("0, 0, 1", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(centre(&h, &mut fx), [0, 0, 255, 255]);
}
