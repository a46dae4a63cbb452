//! Shader hot reload on wgpu, headless (lavapipe): a `WgpuHotEffect` watching a copy of a shader
//! swaps in an edit that keeps the register layout (its pixels change), refuses one that changes
//! it (naming the parameter) and reports a syntax error with file:line:col — drawing with the
//! old shaders in both cases — and reloads again once the file is fixed, with its textures
//! and device states carried over.
//!
//! Without a wgpu adapter or DXC the test prints a `!!! SKIPPED` line and passes (fails under
//! `SHADOWDUSK_REQUIRE_ALL=1`).

#![deny(warnings)]

use std::path::Path;
use std::time::Duration;

use shadowdusk::hot::{Reload, WgpuHotEffect};
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{Sprite, SpriteBatch, WgpuEffect, WgpuRenderTarget};
use shadowdusk::{include_effect, Effect};
use shadowdusk_tests::hot_edits::{glow_source, save};
use shadowdusk_tests::parity::{begin_pass, wgpu_or_skip};

include_effect!("hot/glow.fx", name = glow, in_process, wgpu);

const SIZE: u32 = 8;
/// A recompile takes ~0.1 s; this only bounds a hang.
const WAIT: Duration = Duration::from_secs(30);

/// The centre pixel of pass `pass` drawn over the whole target.
fn centre<E: Effect>(
    w: &HeadlessWgpu,
    fx: &mut WgpuEffect<E>,
    pass: shadowdusk::Pass<E>,
) -> [u8; 4] {
    let (device, queue) = (w.device(), w.queue());
    let target = WgpuRenderTarget::new(device, SIZE, SIZE, false).unwrap();
    let mut batch = SpriteBatch::new(device);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut rp = begin_pass(&target, &mut encoder, [0; 4], 0);
        let mut applied = fx.apply(pass, &target.target()).expect("apply");
        let quad = Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32);
        batch.draw(&mut rp, &mut applied, &[quad]).expect("draw");
    }
    fx.flush(queue);
    batch.flush(queue);
    queue.submit([encoder.finish()]);
    let pixels = target.read_rgba8(device, queue).unwrap();
    let at = ((SIZE / 2 * SIZE + SIZE / 2) * 4) as usize;
    [pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3]]
}

#[test]
fn edits_reload_on_wgpu_and_layout_changes_and_errors_keep_the_old_shaders() {
    const TEST: &str = "edits_reload_on_wgpu";
    let Some(w) = wgpu_or_skip(TEST) else {
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
    let mut fx = WgpuHotEffect::<glow::Effect>::watching(w.device(), &fx_path).expect("hot effect");
    assert_eq!(fx.poll(), Reload::Unchanged);
    let pass = glow::passes::t::P;
    assert_eq!(
        centre(&w, &mut fx, pass),
        [255, 0, 0, 255],
        "the built effect draws red"
    );
    // Half the tint: a parameter value that must carry over every reload.
    fx.params_mut().set_tint([0.5, 0.5, 0.5, 1.0]);

    // 1. A new constant keeps the layout: swapped in, the next frame is green.
    save(&fx_path, &glow_source("0, 1, 0", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(centre(&w, &mut fx, pass), [0, 128, 0, 255]);

    // 2. A new parameter changes the layout: refused, naming it; still green.
    save(&fx_path, &glow_source("0, 0, Amount", "float Amount = 1;"));
    match fx.wait(WAIT) {
        Reload::Refused(why) => assert!(why.contains("`Amount`"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(centre(&w, &mut fx, pass), [0, 128, 0, 255]);

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
    assert_eq!(centre(&w, &mut fx, pass), [0, 128, 0, 255]);

    // 4. Fixed: reloads, blue.
    save(&fx_path, &glow_source("0, 0, 1", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(centre(&w, &mut fx, pass), [0, 0, 128, 255]);
}
