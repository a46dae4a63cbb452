//! Runs the game binary headless, as the README's first command does, and checks what each
//! effect did to the pixels Mesa rendered: tint multiplies, sepia applies its matrix,
//! grayscale has R = G = B, the wave moves between frame 1 and frame N, and the cube's faces
//! are lit and oriented where the CPU projection of the same matrices puts them, both in the
//! back buffer and in the render-target inset.

use std::path::{Path, PathBuf};
use std::process::Command;

use example_game::cube::{self, FACES, TOP};
use example_game::effects::cube as cube_fx;
use example_game::run::EXIT_NO_GL;
use example_game::scene::{self, frame_time, tint_at, Rect};
use example_game::skinned;
use example_game::texture;
use glam::Vec3;
use image::RgbaImage;

const FRAMES: u64 = 30;

/// Colour channels may differ by this much from the CPU computation (the 2/255).
const TOLERANCE: i32 = 2;

/// Runs the game and returns the screenshot folder; `None` after [`shadowdusk_testkit::skip`] without GL.
fn run_game() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("game_screenshots");
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_example-game"))
        .args([
            "--headless",
            "--frames",
            &FRAMES.to_string(),
            "--screenshot",
        ])
        .arg(dir.join("shot.png"))
        .output()
        .expect("the game binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(i32::from(EXIT_NO_GL)) {
        let why = format!("headless OpenGL unavailable: {stderr}");
        shadowdusk_testkit::skip("game_screenshots", &why);
        return None;
    }
    assert!(output.status.success(), "game failed: {stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let written: Vec<&str> = stdout.lines().filter(|l| l.starts_with("wrote ")).collect();
    let expected = [
        "wave-frame1",
        "skinned-frame1",
        "tint",
        "sepia",
        "grayscale",
        "wave",
        "cube",
        "skinned",
        &format!("wave-frame{FRAMES}"),
        &format!("skinned-frame{FRAMES}"),
    ];
    assert_eq!(written.len(), expected.len(), "files written:\n{stdout}");
    for (line, what) in written.iter().zip(expected) {
        let path = dir.join(format!("shot-{what}.png"));
        assert_eq!(*line, format!("wrote {}", path.display()));
        assert!(path.is_file(), "{} missing", path.display());
    }
    Some(dir)
}

fn load(dir: &Path, what: &str) -> RgbaImage {
    let path = dir.join(format!("shot-{what}.png"));
    let img = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    assert_eq!((img.width(), img.height()), (scene::WIDTH, scene::HEIGHT));
    img
}

fn rgb(img: &RgbaImage, x: u32, y: u32) -> [i32; 3] {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]].map(i32::from)
}

fn unorm(v: f32) -> i32 {
    (v.clamp(0.0, 1.0) * 255.0).round() as i32
}

fn close(got: [i32; 3], want: [i32; 3], tolerance: i32) -> bool {
    got.iter()
        .zip(want)
        .all(|(g, w)| (g - w).abs() <= tolerance)
}

/// Every (original, effect) pixel pair of the sprite scenes.
fn pairs(img: &RgbaImage) -> impl Iterator<Item = ((u32, u32), [i32; 3], [i32; 3])> + '_ {
    let (o, e) = (scene::ORIGINAL, scene::EFFECT);
    (0..o.height).flat_map(move |dy| {
        (0..o.width).map(move |dx| {
            let at = (e.x + dx, e.y + dy);
            (at, rgb(img, o.x + dx, o.y + dy), rgb(img, at.0, at.1))
        })
    })
}

/// The screen pixel at the centre of texel (`tx`, `ty`) of a sprite drawn in `r`.
fn texel_centre(r: Rect, tx: u32, ty: u32) -> (u32, u32) {
    let scale = r.width / texture::SIZE;
    (r.x + tx * scale + scale / 2, r.y + ty * scale + scale / 2)
}

fn texel_rgb(tx: u32, ty: u32) -> [i32; 3] {
    let t = texture::sprite_texel(tx, ty);
    [t[0], t[1], t[2]].map(i32::from)
}

fn check_original_is_the_texture(img: &RgbaImage, what: &str) {
    // The marker band on top and the four quadrants: drawn upright and unchanged.
    for (tx, ty) in [(20, 3), (4, 12), (40, 12), (4, 44), (44, 44)] {
        let (x, y) = texel_centre(scene::ORIGINAL, tx, ty);
        assert!(
            close(rgb(img, x, y), texel_rgb(tx, ty), 1),
            "{what}: original at ({x},{y}) is {:?}, texel ({tx},{ty}) is {:?}",
            rgb(img, x, y),
            texel_rgb(tx, ty)
        );
    }
}

fn tint(dir: &Path) {
    let img = load(dir, "tint");
    check_original_is_the_texture(&img, "tint");
    let t = tint_at(frame_time(FRAMES));
    let mul = |c: [i32; 3]| [0, 1, 2].map(|i| unorm(c[i] as f32 / 255.0 * t[i]));
    // A known spot: the top-right quadrant's blue, times the tint.
    let (x, y) = texel_centre(scene::EFFECT, 40, 12);
    let want = mul(texel_rgb(40, 12));
    assert!(
        close(rgb(&img, x, y), want, TOLERANCE),
        "tint at ({x},{y}): {:?}, want texture {:?} x tint {t:?} = {want:?}",
        rgb(&img, x, y),
        texel_rgb(40, 12)
    );
    for (at, original, got) in pairs(&img) {
        assert!(
            close(got, mul(original), TOLERANCE),
            "tint at {at:?}: {got:?}, want {original:?} x {t:?} = {:?}",
            mul(original)
        );
    }
}

fn sepia(dir: &Path) {
    let img = load(dir, "sepia");
    check_original_is_the_texture(&img, "sepia");
    let weights = [
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
    ];
    let sepia = |c: [i32; 3]| {
        weights.map(|w: [f32; 3]| unorm((0..3).map(|i| w[i] * c[i] as f32 / 255.0).sum()))
    };
    // The orange quadrant (224, 144, 64) becomes (211, 188, 146): R > G > B, warm brown.
    let (x, y) = texel_centre(scene::EFFECT, 4, 12);
    let got = rgb(&img, x, y);
    assert_eq!(texel_rgb(4, 12), [224, 144, 64]);
    assert!(
        close(got, [211, 188, 146], TOLERANCE),
        "sepia orange: {got:?}"
    );
    let (r, g, b) = (got[0] as f32, got[1] as f32, got[2] as f32);
    assert!(
        (r / g - 1.12).abs() < 0.02 && (g / b - 1.29).abs() < 0.03,
        "{got:?}"
    );
    for (at, original, got) in pairs(&img) {
        assert!(
            close(got, sepia(original), TOLERANCE),
            "sepia at {at:?}: {got:?}, want sepia({original:?}) = {:?}",
            sepia(original)
        );
        assert!(
            got[0] >= got[1] && got[1] >= got[2],
            "sepia at {at:?}: {got:?}"
        );
    }
}

fn grayscale(dir: &Path) {
    let img = load(dir, "grayscale");
    check_original_is_the_texture(&img, "grayscale");
    let luma = |c: [i32; 3]| {
        let l = unorm((0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32) / 255.0);
        [l, l, l]
    };
    for (at, original, got) in pairs(&img) {
        assert!(
            got[0] == got[1] && got[1] == got[2],
            "gray at {at:?}: {got:?}"
        );
        assert!(
            close(got, luma(original), TOLERANCE),
            "gray at {at:?}: {got:?}, want luma({original:?}) = {:?}",
            luma(original)
        );
    }
}

fn wave(dir: &Path) {
    let first = load(dir, "wave-frame1");
    let last = load(dir, &format!("wave-frame{FRAMES}"));
    assert_eq!(
        last.as_raw(),
        load(dir, "wave").as_raw(),
        "the last frame is the wave scene"
    );
    check_original_is_the_texture(&first, "wave frame 1");
    let e = scene::EFFECT;
    let mut moved = 0;
    for y in e.y..e.y + e.height {
        for x in e.x..e.x + e.width {
            if rgb(&first, x, y) != rgb(&last, x, y) {
                moved += 1;
            }
        }
    }
    let total = e.width * e.height;
    assert!(
        moved > total / 20,
        "only {moved} of {total} wave pixels changed between frame 1 and {FRAMES}"
    );
    let o = scene::ORIGINAL;
    for y in o.y..o.y + o.height {
        for x in o.x..o.x + o.width {
            assert_eq!(
                rgb(&first, x, y),
                rgb(&last, x, y),
                "original moved at ({x},{y})"
            );
        }
    }
}

/// What the lit pass computes for `texel` on a face with world normal `n`.
fn lit(texel: [i32; 3], n: Vec3) -> [i32; 3] {
    let defaults = cube_fx::Params::DEFAULT;
    let (ambient, diffuse) = (defaults.ambient_color(), defaults.diffuse_color());
    let d = (-n.dot(cube::LIGHT_DIRECTION.normalize())).clamp(0.0, 1.0);
    [0, 1, 2].map(|i| unorm(texel[i] as f32 / 255.0 * (ambient[i] + diffuse[i] * d)))
}

fn luminance(c: [i32; 3]) -> i32 {
    (299 * c[0] + 587 * c[1] + 114 * c[2]) / 1000
}

/// Checks the cube drawn into `area` of `img` with a projection for `area`'s size. `marker`
/// also checks the thin marker band, which needs the full-size view.
fn cube_in(img: &RgbaImage, area: Rect, marker: bool, what: &str) {
    let time = frame_time(FRAMES);
    let world = cube::world(time);
    let wvp = cube::world_view_projection(time, area.width, area.height);
    let at = |face: usize, u: f32, v: f32| {
        let (x, y) = cube::project(
            cube::face_point(&FACES[face], u, v),
            wvp,
            area.width,
            area.height,
        )
        .expect("in front of the camera");
        (area.x + x as u32, area.y + y as u32)
    };
    // A texel in the centre of a flat checker cell of the white quadrant.
    let (tu, tv) = (4.5 / 64.0, 44.5 / 64.0);
    let white = texel_rgb(4, 44);
    let mut sides_seen = 0;
    let top = at(TOP, tu, tv);
    let top_rgb = rgb(img, top.0, top.1);
    let top_want = lit(white, world.transform_vector3(FACES[TOP].normal));
    assert!(
        close(top_rgb, top_want, 3),
        "{what}: top face at {top:?} is {top_rgb:?}, want lit white {top_want:?}"
    );
    for (i, face) in FACES.iter().enumerate() {
        if i == TOP || face.normal.y != 0.0 {
            continue;
        }
        let n = world.transform_vector3(face.normal);
        // The unit cube's face centre is its normal.
        let to_eye = (cube::EYE - world.transform_point3(face.normal)).normalize();
        if n.dot(to_eye) < 0.3 {
            continue; // hidden or seen too edge-on to sample safely
        }
        sides_seen += 1;
        let p = at(i, tu, tv);
        let got = rgb(img, p.0, p.1);
        let want = lit(white, n);
        assert!(
            close(got, want, 3),
            "{what}: {} at {p:?} is {got:?}, want lit white {want:?}",
            face.name
        );
        assert!(
            luminance(top_rgb) > luminance(got) + 20,
            "{what}: the top face ({top_rgb:?}) must be brighter than the {} ({got:?})",
            face.name
        );
        // A side face's top row is the red marker band; its bottom is not red. Upside down,
        // these swap.
        if marker {
            let band = at(i, 0.3, 2.0 / 64.0);
            let bottom = at(i, 0.3, 60.0 / 64.0);
            let (b, l) = (rgb(img, band.0, band.1), rgb(img, bottom.0, bottom.1));
            assert!(
                b[0] > 2 * b[1] && b[0] > 2 * b[2],
                "{what}: {} marker band at {band:?} is {b:?}, not red",
                face.name
            );
            assert!(
                !(l[0] > 2 * l[1] && l[0] > 2 * l[2]),
                "{what}: {} bottom at {bottom:?} is red {l:?}: upside down?",
                face.name
            );
        }
    }
    assert!(sides_seen >= 1, "{what}: no side face faces the camera");
}

fn cube(dir: &Path) {
    let img = load(dir, "cube");
    cube_in(
        &img,
        Rect {
            x: 0,
            y: 0,
            width: scene::WIDTH,
            height: scene::HEIGHT,
        },
        true,
        "back buffer",
    );
    cube_in(&img, scene::INSET, false, "render target");
    // The outline pass: its flat colour surrounds the cube.
    let c = cube_fx::Params::DEFAULT.outline_color();
    let outline = [unorm(c[0]), unorm(c[1]), unorm(c[2])];
    let count = img
        .enumerate_pixels()
        .filter(|(x, y, _)| close(rgb(&img, *x, *y), outline, 2))
        .count();
    assert!(count > 1000, "only {count} outline pixels {outline:?}");
}

#[test]
fn game_screenshots() {
    let Some(dir) = run_game() else {
        return;
    };
    tint(&dir);
    sepia(&dir);
    grayscale(&dir);
    wave(&dir);
    cube(&dir);
    skinned_mesh(&dir);
}

/// The ribbon's centre on vertex row `row` after skinning at `time`, as a pixel, and the row's
/// colour (the lighting is 1 for a normal facing the light, which skinning about +z keeps).
fn ribbon_row(row: usize, time: f32) -> ((u32, u32), [i32; 3]) {
    let (vertices, _) = skinned::mesh();
    let (a, b) = (&vertices[row * 2], &vertices[row * 2 + 1]);
    let centre = (skinned::skin(a, time) + skinned::skin(b, time)) * 0.5;
    let (x, y) = skinned::project(centre, scene::WIDTH, scene::HEIGHT);
    let c = a.color;
    (
        (x as u32, y as u32),
        [unorm(c[0]), unorm(c[1]), unorm(c[2])],
    )
}

fn skinned_mesh(dir: &Path) {
    let first = load(dir, "skinned-frame1");
    let last = load(dir, &format!("skinned-frame{FRAMES}"));
    assert_eq!(last.as_raw(), load(dir, "skinned").as_raw());
    let rows = skinned::mesh().0.len() / 2;
    // Every inner row lies where the CPU skinning of the same bones puts it, in its colour.
    for (img, frame) in [(&first, 1), (&last, FRAMES)] {
        for row in 1..rows - 1 {
            let ((x, y), want) = ribbon_row(row, frame_time(frame));
            assert!(
                close(rgb(img, x, y), want, 3),
                "frame {frame}: ribbon row {row} at ({x},{y}) is {:?}, want {want:?}",
                rgb(img, x, y)
            );
        }
    }
    // The lower bone holds still and the upper one bends the mesh between the two frames.
    let (bottom_first, _) = ribbon_row(1, frame_time(1));
    let (bottom_last, _) = ribbon_row(1, frame_time(FRAMES));
    assert_eq!(bottom_first, bottom_last);
    let (tip_first, _) = ribbon_row(rows - 2, frame_time(1));
    let (tip_last, _) = ribbon_row(rows - 2, frame_time(FRAMES));
    let moved = tip_first.0.abs_diff(tip_last.0) + tip_first.1.abs_diff(tip_last.1);
    assert!(moved > 60, "the tip moved only {moved} pixels");
    let background = scene::BACKGROUND;
    let background = [background[0], background[1], background[2]].map(i32::from);
    assert!(
        close(rgb(&last, tip_first.0, tip_first.1), background, 2),
        "where the tip was at frame 1, frame {FRAMES} shows background"
    );
    assert!(
        close(rgb(&first, tip_last.0, tip_last.1), background, 2),
        "where the tip is at frame {FRAMES}, frame 1 shows background"
    );
}
