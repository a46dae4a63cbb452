//! Golden parity: for real mgfxc outputs in `../shared/golden/shadowdusk-opengl/` whose sources
//! are not available, `tests/golden_parity/<name>.fx` is HLSL written to do what the golden's
//! GLSL, records and states show. Each pair is
//! 1. compiled with `shadowdusk_compiler::pipeline::compile_file` and read with
//!    `shadowdusk::mgfx::read`;
//! 2. compared field by field (`layout.rs`: techniques, passes and state blocks, shader order
//!    and stages, sampler and attribute tables, constant-buffer records, parameters);
//! 3. drawn through `shadowdusk::gl::DynEffect` under Mesa with the same values and textures, in
//!    back-buffer and render-target orientation, and compared pixel by pixel (max channel
//!    difference 2/255, no pixel exempt).
//!
//! Every difference of every case is reported at once. Known compiler differences are listed in
//! `cases::KNOWN_DIFFERENCES`, and must keep occurring exactly as listed.
//!
//! Skips loudly without `../shared` (CI has it); without headless GL only the pixel part is
//! skipped. Failure images: `target/test-output/parity-<golden>-{ours,mgfxc}-<orientation>.png`.

#[path = "golden_parity/cases.rs"]
mod cases;
#[path = "golden_parity/layout.rs"]
mod layout;
#[path = "golden_parity/render.rs"]
mod render;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use shadowdusk::gl::GlTexture;
use shadowdusk::mgfx::{self, Effect, ParameterClass};
use shadowdusk_compiler::pipeline::{compile_file, Compiled, Options};
use shadowdusk_tests::{save_png, solid, texture_2d, texture_cube, Headless, Orientation};

use cases::{Case, Texture, KNOWN_DIFFERENCES, SIZE};

const TEST: &str = "golden_parity";
const TOLERANCE: u8 = 2;

fn fx_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden_parity")
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden/shadowdusk-opengl")
}

/// Ours through the writer and the reader (the bytes MonoGame would load), plus the reflection.
fn compile(case: &Case) -> Result<(Effect, Compiled), String> {
    let compiled = compile_file(&fx_dir().join(case.fx), &Options::default())
        .map_err(|e| format!("compile: {}", e.render(false)))?;
    let effect =
        mgfx::read(&compiled.bytes).map_err(|e| format!("reading our own bytes back: {e}"))?;
    Ok((effect, compiled))
}

fn golden(case: &Case) -> Result<Effect, String> {
    let path = golden_dir().join(case.golden);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    mgfx::read(&bytes).map_err(|e| format!("{}: {e}", case.golden))
}

/// Mistakes in the case table or the .fx header, which no known difference can excuse.
fn authoring_errors(case: &Case, theirs: &Effect) -> Vec<String> {
    let mut errors = Vec::new();
    let first_line = std::fs::read_to_string(fx_dir().join(case.fx))
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .unwrap_or_default();
    let header = format!("// Golden: {} — ", case.golden);
    if !first_line.starts_with(&header) {
        errors.push(format!(
            "{}: first line must start with `{header}`",
            case.fx
        ));
    }
    for p in &theirs.parameters {
        let set = if p.class == ParameterClass::Object {
            case.textures.iter().any(|(n, _)| *n == p.name)
        } else {
            case.values.iter().any(|(n, _)| *n == p.name)
        };
        if !set {
            errors.push(format!(
                "the case sets nothing on parameter `{}`, so it would compare defaults",
                p.name
            ));
        }
    }
    errors
}

fn orientation_name(o: Orientation) -> &'static str {
    match o {
        Orientation::Backbuffer => "backbuffer",
        Orientation::RenderTarget => "rendertarget",
    }
}

fn stem(golden: &str) -> &str {
    golden.trim_end_matches(".mgfx")
}

/// Pixel differences between ours and the golden, plus the checks that make the comparison
/// meaningful: the golden draws something, and its picture depends on the values set. `largest`
/// is raised to the largest channel difference seen.
fn pixel_differences(
    h: &Headless,
    case: &Case,
    (ours, theirs): (Effect, Effect),
    textures: &[(&str, GlTexture)],
    largest: &mut u8,
) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut ours = match render::load(h, ours, case, textures) {
        Ok(fx) => fx,
        Err(e) => return vec![format!("pixels: ours {e}")],
    };
    let mut theirs = match render::load(h, theirs, case, textures) {
        Ok(fx) => fx,
        Err(e) => return vec![format!("pixels: mgfxc {e}")],
    };
    for o in [Orientation::Backbuffer, Orientation::RenderTarget] {
        let on = orientation_name(o);
        let pair = render::render(h, &mut ours, case, o)
            .and_then(|a| render::render(h, &mut theirs, case, o).map(|b| (a, b)));
        let (a, b) = match pair {
            Ok(p) => p,
            Err(e) => {
                diffs.push(format!("pixels ({on}): {e}"));
                continue;
            }
        };
        if render::difference(&b, &solid(SIZE, SIZE, case.clear), 0).1 == 0 {
            diffs.push(format!(
                "pixels ({on}): the golden draws nothing; the case cannot tell anything apart"
            ));
        }
        let (max, count, first) = render::difference(&a, &b, TOLERANCE);
        *largest = (*largest).max(max);
        if count > 0 {
            let s = stem(case.golden);
            let files: Vec<String> = [(&a, "ours"), (&b, "mgfxc")]
                .iter()
                .filter_map(|(img, who)| save_png(img, &format!("parity-{s}-{who}-{on}.png")).ok())
                .map(|p| p.display().to_string())
                .collect();
            diffs.push(format!(
                "pixels ({on}): {count} pixels differ by more than {TOLERANCE}/255 (max {max}); ours against mgfxc: {first}; images: {}",
                files.join(", ")
            ));
        }
        // Control: with every value zeroed the golden must look different, or the values this
        // comparison relies on never reached the shaders.
        if !case.values.is_empty() && o == Orientation::Backbuffer {
            let zeroed = render::zero_values(&mut theirs)
                .and_then(|_| render::render(h, &mut theirs, case, o));
            match zeroed {
                Ok(z) if render::difference(&z, &b, TOLERANCE).1 == 0 => diffs.push(format!(
                    "pixels ({on}): zeroing every value leaves the golden's picture unchanged"
                )),
                Ok(_) => {}
                Err(e) => diffs.push(format!("pixels ({on}) zeroed: {e}")),
            }
            for (name, values) in &case.values {
                if let Ok(i) = theirs.parameter(name) {
                    let _ = theirs.set_values(i, values);
                }
            }
        }
    }
    diffs
}

/// Splits a case's differences into unexpected ones and known entries that no longer occur.
fn reconcile(golden: &str, diffs: &[String], rendered: bool) -> Vec<String> {
    let known: &[&str] = KNOWN_DIFFERENCES
        .iter()
        .find(|(g, _)| *g == golden)
        .map_or(&[], |(_, k)| k);
    let mut out = Vec::new();
    for d in diffs {
        if !known.iter().any(|k| d.contains(k)) {
            out.push(format!("{golden}: {d}"));
        }
    }
    for k in known {
        let checkable = rendered || !k.starts_with("pixels");
        if checkable && !diffs.iter().any(|d| d.contains(k)) {
            out.push(format!(
                "{golden}: known difference no longer occurs, remove it from KNOWN_DIFFERENCES: {k}"
            ));
        }
    }
    out
}

fn create_textures(h: &Headless, case: &Case) -> Result<Vec<(&'static str, GlTexture)>, String> {
    case.textures
        .iter()
        .map(|(name, t): &(&'static str, Texture)| {
            if t.cube {
                let faces: Vec<Vec<u8>> = (0..6u8)
                    .map(|f| {
                        Texture {
                            seed: t.seed + f,
                            cube: false,
                            ..*t
                        }
                        .rgba()
                    })
                    .collect();
                let faces: [&[u8]; 6] = std::array::from_fn(|f| faces[f].as_slice());
                return texture_cube(h.ctx(), Texture::SIDE, faces, t.filter)
                    .map(|tex| (*name, tex));
            }
            texture_2d(h.ctx(), Texture::SIDE, Texture::SIDE, &t.rgba(), t.filter)
                .map(|tex| (*name, tex))
        })
        .collect()
}

fn listed_fx_files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".fx"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_pair_matches_its_mgfxc_golden() {
    if !golden_dir().is_dir() {
        let why = format!(
            "{} not found; golden parity was NOT checked",
            golden_dir().display()
        );
        shadowdusk_tests::skip(TEST, &why);
        return;
    }
    let gl = Headless::or_skip(&format!("{TEST} (pixel comparison only)"), SIZE, SIZE);
    let cases = cases::cases();
    let mut failures = Vec::new();

    let in_table: BTreeSet<String> = cases.iter().map(|c| c.fx.to_string()).collect();
    for orphan in listed_fx_files(&fx_dir()).difference(&in_table) {
        failures.push(format!(
            "{orphan}: in tests/golden_parity but not in the case table"
        ));
    }
    for (g, _) in KNOWN_DIFFERENCES {
        if !cases.iter().any(|c| c.golden == *g) {
            failures.push(format!("KNOWN_DIFFERENCES names {g}, which no case uses"));
        }
    }

    let mut clean = 0;
    let mut largest = 0u8;
    for case in &cases {
        let theirs = match golden(case) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: golden unreadable: {e}", case.golden));
                continue;
            }
        };
        failures.extend(
            authoring_errors(case, &theirs)
                .into_iter()
                .map(|e| format!("{}: {e}", case.golden)),
        );
        let mut diffs = Vec::new();
        match compile(case) {
            Err(e) => diffs.push(e),
            Ok((ours, compiled)) => {
                diffs.extend(layout::compare(&ours, &compiled.reflection, &theirs));
                if let Some(h) = &gl {
                    match create_textures(h, case) {
                        Ok(textures) => {
                            diffs.extend(pixel_differences(
                                h,
                                case,
                                (ours, theirs),
                                &textures,
                                &mut largest,
                            ));
                        }
                        Err(e) => diffs.push(format!("pixels: creating textures: {e}")),
                    }
                }
            }
        }
        if diffs.is_empty() {
            clean += 1;
        }
        failures.extend(reconcile(case.golden, &diffs, gl.is_some()));
    }
    eprintln!(
        "{TEST}: {} pairs, {clean} identical in layout{}, {} with known differences",
        cases.len(),
        if gl.is_some() { " and pixels" } else { "" },
        KNOWN_DIFFERENCES.len()
    );
    if gl.is_some() {
        eprintln!("{TEST}: largest channel difference ours vs mgfxc: {largest}/255");
    }
    assert!(
        failures.is_empty(),
        "{} golden-parity failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// MonoGame's own stock effects (`../shared/golden/monogame-stock/<Name>.ogl.mgfxo`, taken from
/// MonoGame's repository) against ours, for every stock effect written here: the whole layout —
/// constant-buffer records with each entry's byte offset, parameter order and shapes, sampler
/// and attribute tables, techniques and passes — must match field by field, known differences
/// aside. (The shadowdusk-opengl copies the test above renders happen to hold the same bytes;
/// this test reads MonoGame's files themselves.)
#[test]
fn stock_effects_match_monogame_layouts_field_by_field() {
    let stock =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden/monogame-stock");
    if !stock.is_dir() {
        shadowdusk_tests::skip(
            "stock_effects_match_monogame_layouts_field_by_field",
            &format!("{} not found", stock.display()),
        );
        return;
    }
    let mut compared = Vec::new();
    let mut failures = Vec::new();
    for case in cases::cases() {
        let path = stock.join(format!("{}.ogl.mgfxo", stem(case.golden)));
        if !path.is_file() {
            continue;
        }
        let theirs = match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| mgfx::read(&b).map_err(|e| format!("{e}")))
        {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: unreadable: {e}", path.display()));
                continue;
            }
        };
        let diffs = match compile(&case) {
            Err(e) => vec![e],
            Ok((ours, compiled)) => layout::compare(&ours, &compiled.reflection, &theirs),
        };
        failures.extend(reconcile(case.golden, &diffs, false));
        compared.push(stem(case.golden).to_string());
    }
    eprintln!("stock parity: {}", compared.join(", "));
    for required in [
        "AlphaTestEffect",
        "DualTextureEffect",
        "SpriteEffect",
        "BasicEffect",
        "SkinnedEffect",
        "EnvironmentMapEffect",
    ] {
        if !compared.iter().any(|c| c == required) {
            failures.push(format!("no parity case for MonoGame's stock {required}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
