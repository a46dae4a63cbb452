//! Runs the game binary headless twice, on OpenGL (EGL, llvmpipe) and on wgpu (`--wgpu`: a
//! device without a surface, lavapipe or llvmpipe through wgpu's GL back end), and checks that
//! every scene's screenshot is the same picture: the same effects, parameters, sprites, text,
//! depth-tested cube and render-target inset, and skinned ribbon, drawn by the two runtimes.

use std::path::{Path, PathBuf};
use std::process::Command;

use example_game::run::EXIT_NO_GL;
use example_game::scene::{self, Scene};
use image::RgbaImage;

const FRAMES: &str = "30";

/// Channels may differ by this much (the 2/255): the two drivers round colour
/// arithmetic differently.
const TOLERANCE: u8 = 2;

/// Pixels allowed past [`TOLERANCE`] inside the cube scene's render-target inset; everywhere
/// else none. OpenGL draws into a render target upside down (MonoGame's `posFixup` flips y,
/// and the texture is sampled flipped back), so the rasterizer's tie rule for a pixel centre
/// exactly on the edge between two faces sees the edge mirrored and can give the pixel to the
/// other face (seen: one pixel, lit as the neighbouring face).
const ALLOWED_IN_INSET: usize = 2;

fn in_inset(x: u32, y: u32) -> bool {
    let r = scene::INSET;
    (r.x..r.x + r.width).contains(&x) && (r.y..r.y + r.height).contains(&y)
}

/// Runs the game with `extra` arguments into a folder of its own; `None` after a skip line
/// when the graphics API is unavailable.
fn run_game(name: &str, extra: &[&str]) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_example-game"))
        .args(extra)
        .args(["--headless", "--frames", FRAMES, "--screenshot"])
        .arg(&dir)
        .output()
        .expect("the game binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(i32::from(EXIT_NO_GL)) {
        let why = format!("{name}: graphics unavailable: {stderr}");
        shadowdusk_testkit::skip("wgpu_screenshots", &why);
        return None;
    }
    assert!(output.status.success(), "{name} failed: {stderr}");
    Some(dir)
}

fn load(dir: &Path, what: &str) -> RgbaImage {
    let path = dir.join(format!("{what}.png"));
    let img = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    assert_eq!((img.width(), img.height()), (scene::WIDTH, scene::HEIGHT));
    img
}

/// The largest channel difference, and the pixels differing by more than [`TOLERANCE`] (with
/// both colours) outside and inside the inset.
fn compare(gl: &RgbaImage, wgpu: &RgbaImage) -> (u8, Vec<String>, Vec<String>) {
    let mut max = 0;
    let (mut off, mut off_in_inset) = (Vec::new(), Vec::new());
    for ((x, y, a), b) in gl.enumerate_pixels().zip(wgpu.pixels()) {
        let d = (0..4).map(|c| a.0[c].abs_diff(b.0[c])).max().unwrap_or(0);
        max = max.max(d);
        if d > TOLERANCE {
            let what = format!("({x},{y}) gl {:?} wgpu {:?}", a.0, b.0);
            if in_inset(x, y) {
                off_in_inset.push(what);
            } else {
                off.push(what);
            }
        }
    }
    (max, off, off_in_inset)
}

#[test]
fn wgpu_screenshots_match_opengl() {
    let Some(gl) = run_game("wgpu_screenshots_gl", &[]) else {
        return;
    };
    let Some(wgpu) = run_game("wgpu_screenshots_wgpu", &["--wgpu"]) else {
        return;
    };
    let mut failures = Vec::new();
    let shots = Scene::ALL
        .iter()
        .map(|s| s.name().to_string())
        .chain(["wave-frame1".into(), "skinned-frame1".into()]);
    for what in shots {
        let (a, b) = (load(&gl, &what), load(&wgpu, &what));
        let (max, off, off_in_inset) = compare(&a, &b);
        eprintln!(
            "{what}: largest channel difference {max}/255; past {TOLERANCE}: {} pixels, {} in \
             the inset {off_in_inset:?}",
            off.len(),
            off_in_inset.len()
        );
        let e_g = |v: &[String]| v.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
        if !off.is_empty() {
            failures.push(format!(
                "{what}: {} pixels differ by more than {TOLERANCE}/255, e.g. {}",
                off.len(),
                e_g(&off)
            ));
        }
        if off_in_inset.len() > ALLOWED_IN_INSET {
            failures.push(format!(
                "{what}: {} pixels of the inset differ by more than {TOLERANCE}/255 (at most \
                 {ALLOWED_IN_INSET} may), e.g. {}",
                off_in_inset.len(),
                e_g(&off_in_inset)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
