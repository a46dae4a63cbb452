//! Hot reload in Bevy (`HotReloadPlugin`, headless on lavapipe): a copy of `tint.fx` is edited
//! while the app runs. An edit of its code is swapped into Bevy's shaders and the next frames
//! draw it; an edit that changes its layout (a new parameter) or a pass's render state is
//! refused naming what changed, and a syntax error is reported with file:line, while the
//! previous shaders keep drawing; fixing the file reloads again.
//!
//! Without a Vulkan adapter or DXC the test prints a `!!! SKIPPED` line and passes (fails under
//! `SHADOWDUSK_REQUIRE_ALL=1`).

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use shadowdusk::hot::Reload;
use shadowdusk_bevy::hot::{HotReload, HotReloadPlugin};
use shadowdusk_bevy::{EffectMaterial, EffectPlugin};
use support::*;

shadowdusk::include_effect!("examples/shaders/tint.fx", in_process, wgpu);

/// A recompile takes well under a second; this only bounds a hang.
const WAIT: Duration = Duration::from_secs(60);

/// `tint.fx` with `extra` multiplied into its result and `state` in its pass.
fn tint_source(original: &str, extra: &str, state: &str) -> String {
    original
        .replace(
            "* input.Color * Tint;",
            &format!("* input.Color * Tint{extra};"),
        )
        .replace(
            "\t\tPixelShader =",
            &format!("\t\t{state}\n\t\tPixelShader ="),
        )
}

/// Writes `text` to `path` in one rename, as editors save.
fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("fx.saving");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Runs frames until the next recompile finishes, then a few more (so the frames read back
/// were drawn after it); what it came to.
fn next_outcome(app: &mut App) -> Reload {
    let seen = app.world().resource::<HotReload<tint::Effect>>().finished();
    let start = Instant::now();
    while app.world().resource::<HotReload<tint::Effect>>().finished() == seen {
        assert!(start.elapsed() < WAIT, "no recompile finished in {WAIT:?}");
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    run(app, 6);
    let hot = app.world().resource::<HotReload<tint::Effect>>();
    hot.last().cloned().expect("an outcome")
}

fn centre(frames: &Frames) -> [u8; 4] {
    let frame = frames.last().expect("a frame read back");
    let at = ((24 * SIZE + 24) * 4) as usize;
    [frame[at], frame[at + 1], frame[at + 2], frame[at + 3]]
}

#[test]
fn code_edits_reload_and_other_changes_keep_the_old_shaders() {
    let test = "code_edits_reload_and_other_changes_keep_the_old_shaders";
    if runtime_or_skip(test).is_none() {
        return;
    }
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(test, "DXC unavailable (run `cargo xtask setup`)");
        return;
    }
    let shaders = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/shaders");
    let dir = tempfile::tempdir().unwrap();
    let fx = dir.path().join("tint.fx");
    std::fs::copy(shaders.join("sprite.fxh"), dir.path().join("sprite.fxh")).unwrap();
    let original = std::fs::read_to_string(shaders.join("tint.fx")).unwrap();
    std::fs::write(&fx, &original).unwrap();

    let mut app = app((
        EffectPlugin::<tint::Effect>::default(),
        HotReloadPlugin::<tint::Effect>::watching(&fx),
    ));
    let (_, frames) = camera(&mut app, ());
    let white = vec![255u8; 32 * 32 * 4];
    let image = bevy_image(&mut app, 32, 32, &white);
    let material = EffectMaterial::new(tint::passes::sprite_drawing::P0)
        .expect("a pixel-only pass")
        .with_texture(tint::textures::SPRITE_TEXTURE, image);
    let world = app.world_mut();
    let mesh = world
        .resource_mut::<Assets<Mesh>>()
        .add(Rectangle::new(32.0, 32.0));
    let material = world
        .resource_mut::<Assets<EffectMaterial<tint::Effect>>>()
        .add(material);
    world.spawn((Mesh2d(mesh), MeshMaterial2d(material)));
    run(&mut app, 8);
    assert_eq!(centre(&frames), [255, 255, 255, 255], "the built effect");

    // 1. A code edit: swapped in, drawn red.
    save(&fx, &tint_source(&original, " * float4(1, 0, 0, 1)", ""));
    assert_eq!(next_outcome(&mut app), Reload::Reloaded);
    assert_eq!(centre(&frames), [255, 0, 0, 255], "the edit is drawn");

    // 2. A new parameter changes the layout: refused, naming it; still red.
    save(
        &fx,
        &tint_source(&original, " * float4(0, 1, 0, 1) * Extra", "").replace(
            "float4 Tint",
            "float4 Extra = float4(1, 1, 1, 1);\nfloat4 Tint",
        ),
    );
    match next_outcome(&mut app) {
        Reload::Refused(why) => assert!(why.contains("Extra"), "{why}"),
        other => panic!("a layout change must be refused: {other:?}"),
    }
    assert_eq!(centre(&frames), [255, 0, 0, 255], "the old shaders draw");

    // 3. A render state the pipelines were made without: refused, naming the pass.
    save(
        &fx,
        &tint_source(
            &original,
            " * float4(0, 1, 0, 1)",
            "AlphaBlendEnable = false;",
        ),
    );
    match next_outcome(&mut app) {
        Reload::Refused(why) => assert!(why.contains("P0") && why.contains("state"), "{why}"),
        other => panic!("a state change must be refused: {other:?}"),
    }
    assert_eq!(centre(&frames), [255, 0, 0, 255], "the old shaders draw");

    // 4. A syntax error: reported with the file and line; still red.
    save(&fx, &tint_source(&original, " * ", ""));
    match next_outcome(&mut app) {
        Reload::Failed(why) => assert!(why.contains("tint.fx:"), "{why}"),
        other => panic!("a syntax error must fail: {other:?}"),
    }
    assert_eq!(centre(&frames), [255, 0, 0, 255], "the old shaders draw");

    // 5. Fixed: reloads, drawn blue.
    save(&fx, &tint_source(&original, " * float4(0, 0, 1, 1)", ""));
    assert_eq!(next_outcome(&mut app), Reload::Reloaded);
    assert_eq!(centre(&frames), [0, 0, 255, 255], "the fix is drawn");
}
