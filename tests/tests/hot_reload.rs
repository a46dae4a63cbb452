//! Shader hot reload, headless: a `HotEffect` watching a copy of a shader swaps in an edit that
//! keeps the register layout, refuses one that changes it (naming the parameter, or the texture
//! moved to another unit) and reports a syntax error with file:line:col — in both cases drawing
//! with the old effect — and reloads again once the file is fixed. Pixels are read back from
//! Mesa after every step. Also: a reload compiles with the build's options (`tests/build.rs`:
//! a define, an include folder, `/WX`, MGFX v11), leaves the program bound before it bound,
//! and starting one compiles nothing on the caller's thread (a FIFO as the source would block
//! it); an `Effect` whose `LAYOUT` is not its MGFX's is refused at load.

#![deny(warnings)]

use std::path::Path;
use std::time::Duration;

use shadowdusk::gl::{GlEffect, GlError};
use shadowdusk::hot::{HotEffect, Reload};
use shadowdusk::{include_effect, Effect};
use shadowdusk_tests::hot_edits::{glow_source, save};
use shadowdusk_tests::{draw_sprite, Headless, Orientation, Sprite};

include_effect!("hot/glow.fx", in_process);
include_effect!("hot/layers.fx", in_process);
// Compiled by the build script with non-default options.
include_effect!("hot/options/glow_built.fx");

const SIZE: u32 = 8;
/// A recompile takes ~0.1 s; this only bounds a hang.
const WAIT: Duration = Duration::from_secs(30);

fn centre<E: Effect>(h: &Headless, fx: &mut GlEffect<E>, pass: shadowdusk::Pass<E>) -> [u8; 4] {
    h.clear([0, 0, 0, 0]);
    let target = h.target(Orientation::Backbuffer);
    let pass = fx.apply(pass, &target).expect("apply");
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
        centre(&h, &mut fx, glow::passes::t::P),
        [255, 0, 0, 255],
        "the built effect draws red"
    );

    // 1. A new constant keeps the layout: swapped in, the next frame is green.
    save(&fx_path, &glow_source("0, 1, 0", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);

    // 2. A new parameter changes the layout: refused, naming it; still green.
    save(&fx_path, &glow_source("0, 0, Amount", "float Amount = 1;"));
    match fx.wait(WAIT) {
        Reload::Refused(why) => assert!(why.contains("`Amount`"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(centre(&h, &mut fx, glow::passes::t::P), [0, 255, 0, 255]);

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
    assert_eq!(centre(&h, &mut fx, glow::passes::t::P), [0, 255, 0, 255]);

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
    assert_eq!(centre(&h, &mut fx, glow::passes::t::P), [0, 255, 0, 255]);

    // 4. Fixed: reloads, blue.
    save(&fx_path, &glow_source("0, 0, 1", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(centre(&h, &mut fx, glow::passes::t::P), [0, 0, 255, 255]);
}

/// Whether headless GL and DXC are there; says why not, loudly, when they are not.
fn setup(test: &str) -> Option<Headless> {
    let h = Headless::or_skip(test, SIZE, SIZE)?;
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(test, "DXC unavailable");
        return None;
    }
    Some(h)
}

/// A copy of the repository's `hot/<name>` in a fresh folder (without anything beside it).
fn copy_of(name: &str) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(Path::new(name).file_name().unwrap());
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("hot").join(name))
            .unwrap();
    std::fs::write(&path, &text).unwrap();
    (dir, path, text)
}

#[test]
fn a_reload_compiles_with_the_builds_options() {
    let Some(h) = setup("a_reload_compiles_with_the_builds_options") else {
        return;
    };
    // The generated code carries what build.rs asked for.
    let built = <glow_built::Effect as Effect>::OPTIONS;
    assert_eq!(built.mgfx_version, 11);
    assert!(built.warnings_as_errors);
    assert_eq!(built.defines, &[("GLOW_RED", "0.5")]);
    assert!(
        built.include_dirs[0].ends_with("hot/options/include"),
        "{:?}",
        built.include_dirs
    );
    assert!(<glow_built::Effect as Effect>::FILES_READ[1].ends_with("glow_green.fxh"));

    // The copy has no include folder beside it: only the build's include folder finds the
    // header, and only the build's define gives GLOW_RED.
    let (_dir, path, original) = copy_of("options/glow_built.fx");
    let mut fx = HotEffect::<glow_built::Effect>::watching(h.ctx(), &path).expect("hot effect");
    let pass = glow_built::passes::t::P;
    assert_eq!(fx.effect().version, 11);
    let [r, g, b, a] = centre(&h, &mut fx, pass);
    assert!(
        (127..=128).contains(&r) && [g, b, a] == [255, 0, 255],
        "{:?}",
        [r, g, b, a]
    );

    // 1. An edit reloads as MGFX v11, with the define and the include folder.
    save(&path, &format!("{original}\n// edited\n"));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(
        fx.effect().version,
        11,
        "the build wrote v11; so must a reload"
    );
    let [r, g, ..] = centre(&h, &mut fx, pass);
    assert!((127..=128).contains(&r) && g == 255);

    // 2. A warning fails the reload, as `/WX` failed the build; the old effect stays.
    save(
        &path,
        &format!("#if NOT_A_FUNCTION_MACRO(1)\n#endif\n{original}"),
    );
    match fx.wait(WAIT) {
        Reload::Failed(text) => assert!(text.contains("/WX"), "{text}"),
        other => panic!("expected /WX to fail the reload, got {other:?}"),
    }
    assert_eq!(centre(&h, &mut fx, pass)[1], 255);
}

#[test]
fn a_texture_moved_to_another_unit_is_refused_and_a_reload_keeps_the_bound_program() {
    const TEST: &str =
        "a_texture_moved_to_another_unit_is_refused_and_a_reload_keeps_the_bound_program";
    let Some(h) = setup(TEST) else {
        return;
    };
    let (_dir, path, original) = copy_of("layers.fx");
    let mut fx = HotEffect::<layers::Effect>::watching(h.ctx(), &path).expect("hot effect");
    assert_eq!(layers::textures::BASE_UNITS, &[0]);
    assert_eq!(layers::textures::DETAIL_UNITS, &[1]);

    // Another effect's program is bound (a renderer mid-frame) when the reload links.
    let mut other = GlEffect::<glow::Effect>::new(h.ctx()).expect("glow");
    let target = h.target(Orientation::Backbuffer);
    other.apply(glow::passes::t::P, &target).expect("apply");
    // SAFETY: the headless context is current on this thread.
    let bound = || unsafe {
        use ::glow::HasContext as _;
        h.gl().get_parameter_i32(::glow::CURRENT_PROGRAM)
    };
    let before = bound();
    assert_ne!(before, 0);
    save(
        &path,
        &original.replace("tex2D(BaseSampler, uv) *", "tex2D(BaseSampler, uv) +"),
    );
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);
    assert_eq!(bound(), before, "the reload left its own program bound");

    // Detail's sampler moves to another register: same parameters, another texture unit.
    save(&path, &original.replace("register(s1)", "register(s2)"));
    match fx.wait(WAIT) {
        Reload::Refused(why) => assert!(
            why.contains("texture `Detail` moved from texture units [1] to [2]"),
            "{why}"
        ),
        other => panic!("expected the unit move to be refused, got {other:?}"),
    }
    // The running effect still samples Detail on unit 1.
    let units: Vec<(u8, u8)> = fx
        .effect()
        .shaders
        .iter()
        .flat_map(|s| &s.samplers)
        .map(|s| (s.parameter, s.texture_slot))
        .collect();
    assert_eq!(units, [(0, 0), (1, 1)]);
}

/// `glow`, but built from a FIFO: any read of its source blocks until someone writes to it.
#[cfg(unix)] // mkfifo
enum FifoGlow {}

#[cfg(unix)] // mkfifo
impl Effect for FifoGlow {
    type Params = glow::Params;
    type Technique = glow::Technique;
    const MGFX: &'static [u8] = glow::MGFX;
    const NAME: &'static str = "glow.fx";
    const LAYOUT: u64 = <glow::Effect as Effect>::LAYOUT;
    const SOURCE: &'static str = concat!(env!("CARGO_TARGET_TMPDIR"), "/hot_fifo/glow.fx");
    const FILES_READ: &'static [&'static str] = &[Self::SOURCE];
}

/// Makes `path` a FIFO holding `text` for whoever reads it after `delay` (unless `done` says
/// first that nobody will): a read before then blocks its thread until then.
#[cfg(unix)] // mkfifo
fn fifo(
    path: &Path,
    text: String,
    delay: Duration,
) -> (std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>) {
    let _ = std::fs::remove_file(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
    let (done, stop) = std::sync::mpsc::channel::<()>();
    let path = path.to_path_buf();
    let writer = std::thread::spawn(move || {
        if stop.recv_timeout(delay).is_ok() {
            return;
        }
        // Read and write: opening never blocks, and a blocked reader is released.
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
    });
    (done, writer)
}

/// How long a FIFO's reader is kept waiting: starting a hot effect must take far less.
#[cfg(unix)] // mkfifo
const BLOCKED: Duration = Duration::from_secs(4);

#[test]
#[cfg(unix)] // mkfifo
fn starting_compiles_nothing_on_the_callers_thread() {
    let Some(h) = setup("starting_compiles_nothing_on_the_callers_thread") else {
        return;
    };
    let original =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("hot/glow.fx")).unwrap();

    // `new`: the build's files are watched as they are; none is read.
    let source = Path::new(FifoGlow::SOURCE);
    let (done, writer) = fifo(source, original.clone(), BLOCKED);
    let start = std::time::Instant::now();
    let mut fx = HotEffect::<FifoGlow>::new(h.ctx()).expect("hot effect");
    let took = start.elapsed();
    let _ = done.send(());
    writer.join().unwrap();
    assert!(
        took < BLOCKED / 2,
        "HotEffect::new read its source: {took:?}"
    );
    // Watching without a first compile still sees the first save.
    save(source, &glow_source("0, 1, 0", ""));
    assert_eq!(fx.wait(WAIT), Reload::Reloaded);

    // `watching`: the includes are learned on the watcher's thread, which waits for the FIFO.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("glow.fx");
    let (_done, writer) = fifo(&copy, original, BLOCKED);
    let start = std::time::Instant::now();
    let fx = HotEffect::<glow::Effect>::watching(h.ctx(), &copy).expect("hot effect");
    let took = start.elapsed();
    assert!(
        took < BLOCKED / 2,
        "HotEffect::watching read its source: {took:?}"
    );
    writer.join().unwrap();
    drop(fx);
}

/// `glow` with a `LAYOUT` that is not its MGFX's: generated code out of step with its bytes.
enum StaleGlow {}

impl Effect for StaleGlow {
    type Params = glow::Params;
    type Technique = glow::Technique;
    const MGFX: &'static [u8] = glow::MGFX;
    const NAME: &'static str = "glow.fx";
    const LAYOUT: u64 = <glow::Effect as Effect>::LAYOUT ^ 1;
}

#[test]
fn an_effect_whose_layout_is_not_its_generated_codes_is_refused_at_load() {
    let Some(h) = Headless::or_skip(
        "an_effect_whose_layout_is_not_its_generated_codes_is_refused_at_load",
        SIZE,
        SIZE,
    ) else {
        return;
    };
    match GlEffect::<StaleGlow>::new(h.ctx()) {
        Err(e @ GlError::ParamsLayout { .. }) => {
            let text = e.to_string();
            assert!(text.contains("Effect::LAYOUT"), "{text}");
            assert!(text.contains("glow.fx"), "{text}");
        }
        other => panic!("expected a layout refusal, got {:?}", other.map(|_| ())),
    }
}
