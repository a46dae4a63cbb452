//! `--hot`, driven frame by frame: the game's own `Game` (as `run::headless` makes it, with
//! `--hot-dir` on a copy of `shaders/`) on a headless context, the tint scene at a fixed time.
//! Editing the copy's `tint.fx` (saved as editors do, a new file renamed over the old one)
//! recolours the tinted sprite on the frame the poll swaps it in; a layout change and a syntax
//! error keep the picture as it was and the label names the parameter or the line; fixing the
//! file reloads again. The real `shaders/` are never touched.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{edit, save, shaders_copy};
use example_game::game::Game;
use example_game::hot::{Event, Watch};
use example_game::run::VertexArray;
use example_game::scene::{self, tint_at, Rect, Scene};
use example_game::screenshots::read_backbuffer;
use example_game::texture;
use image::RgbaImage;
use shadowdusk::gl::headless::HeadlessGl;
use shadowdusk::hot::Reload;

/// The game time every frame is drawn at, so only an edit can change the picture.
const TIME: f32 = 1.25;
/// A recompile takes well under a second; this only bounds a hang.
const WAIT: Duration = Duration::from_secs(30);

struct Harness {
    // Field order is drop order: the game and the vertex array before the context.
    game: Game,
    _vao: VertexArray,
    gl: HeadlessGl,
}

impl Harness {
    /// One frame as the game loop runs it (update, poll, render), read back.
    fn frame(&mut self) -> (Vec<Event>, RgbaImage) {
        self.game.update(TIME);
        let events = self.game.poll_shaders();
        self.game
            .render(scene::WIDTH, scene::HEIGHT)
            .expect("render");
        let image = read_backbuffer(self.gl.context(), scene::WIDTH, scene::HEIGHT).unwrap();
        (events, image)
    }

    /// Frames until a poll finds something (a save's recompile finishing).
    fn frames_until_event(&mut self) -> (Event, RgbaImage) {
        let start = Instant::now();
        loop {
            let (events, image) = self.frame();
            if let Some(first) = events.first() {
                assert_eq!(events.len(), 1, "one save, one effect: {events:?}");
                return (first.clone(), image);
            }
            assert!(start.elapsed() < WAIT, "no recompile within {WAIT:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The label: its headline, and its detail lines joined by spaces (they are word-wrapped).
    fn label(&self) -> (String, String) {
        let status = self.game.hot_status().expect("hot reload is on");
        let lines: Vec<String> = status
            .lines(scene::WIDTH)
            .into_iter()
            .map(|l| l.text)
            .collect();
        (lines[0].clone(), lines[1..].join(" "))
    }
}

fn rgb(img: &RgbaImage, x: u32, y: u32) -> [i32; 3] {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]].map(i32::from)
}

/// The screen pixel at the centre of texel (`tx`, `ty`) of a sprite drawn in `r`.
fn texel_centre(r: Rect, tx: u32, ty: u32) -> (u32, u32) {
    let scale = r.width / texture::SIZE;
    (r.x + tx * scale + scale / 2, r.y + ty * scale + scale / 2)
}

/// Texels of the marker band and the four quadrants.
const TEXELS: [(u32, u32); 5] = [(20, 3), (4, 12), (40, 12), (4, 44), (44, 44)];

/// Checks the tinted sprite is the texture × `tint_at(TIME)` × `filter` and the untouched
/// sprite is the texture.
fn check_tint(img: &RgbaImage, filter: [f32; 3], what: &str) {
    let tint = tint_at(TIME);
    for (tx, ty) in TEXELS {
        let t = texture::sprite_texel(tx, ty);
        let texel = [t[0], t[1], t[2]].map(i32::from);
        let want: [i32; 3] = std::array::from_fn(|i| {
            (texel[i] as f32 / 255.0 * tint[i] * filter[i] * 255.0).round() as i32
        });
        let (x, y) = texel_centre(scene::EFFECT, tx, ty);
        let got = rgb(img, x, y);
        assert!(
            got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 2),
            "{what}: tinted texel ({tx},{ty}) at ({x},{y}) is {got:?}, want {texel:?} x {tint:?} \
             x {filter:?} = {want:?}"
        );
        let (x, y) = texel_centre(scene::ORIGINAL, tx, ty);
        assert_eq!(rgb(img, x, y), texel, "{what}: the original sprite changed");
    }
}

/// The tinted sprite's pixels.
fn effect_pixels(img: &RgbaImage) -> Vec<[i32; 3]> {
    let e = scene::EFFECT;
    (e.y..e.y + e.height)
        .flat_map(|y| (e.x..e.x + e.width).map(move |x| (x, y)))
        .map(|(x, y)| rgb(img, x, y))
        .collect()
}

#[test]
fn edits_show_on_the_next_frame_and_bad_ones_keep_the_picture() {
    const TEST: &str = "edits_show_on_the_next_frame_and_bad_ones_keep_the_picture";
    let gl = match HeadlessGl::new(scene::WIDTH, scene::HEIGHT) {
        Ok(gl) => gl,
        Err(e) => {
            return shadowdusk_testkit::skip(TEST, &format!("headless OpenGL unavailable: {e}"))
        }
    };
    if !shadowdusk_compiler::dxc::available() {
        return shadowdusk_testkit::skip(TEST, "DXC unavailable (hot reload compiles with it)");
    }
    let dir = shaders_copy("hot_reload_shaders");
    let fx = dir.join("tint.fx");
    let original = std::fs::read_to_string(&fx).unwrap();
    let vao = VertexArray::bind(gl.context()).unwrap();
    let game = Game::load(gl.context(), Scene::Tint, &Watch::Dir(dir.clone())).unwrap();
    let mut h = Harness {
        game,
        _vao: vao,
        gl,
    };

    let (events, before) = h.frame();
    assert_eq!(events, []);
    check_tint(&before, [1.0; 3], "as built");
    assert_eq!(h.label().0, "HOT RELOAD ON");

    // (a) A new value for the `Filter` constant keeps the layout: the frame whose poll swaps
    // it in is drawn with it.
    let red = edit(
        &original,
        "static const float4 Filter = float4(1.0, 1.0, 1.0, 1.0);",
        "static const float4 Filter = float4(1.0, 0.25, 0.25, 1.0);",
    );
    save(&fx, &red);
    let (event, reloaded) = h.frames_until_event();
    assert_eq!(
        (event.effect, &event.reload),
        ("tint.fx", &Reload::Reloaded)
    );
    check_tint(&reloaded, [1.0, 0.25, 0.25], "Filter edited");
    assert_eq!(h.label().0, "TINT.FX RELOADED");
    let (_, next) = h.frame();
    assert_eq!(effect_pixels(&next), effect_pixels(&reloaded));
    let red_pixels = effect_pixels(&reloaded);

    // (b) `Tint` becomes a float2: it no longer fits `tint::Params`, so it is refused, naming
    // the parameter, and the picture stays.
    let narrower = edit(
        &edit(
            &red,
            "float4 Tint = float4(1.0, 1.0, 1.0, 1.0);",
            "float2 Tint = float2(1.0, 1.0);",
        ),
        "input.Color * Tint * Filter;",
        "input.Color * Tint.xyyy * Filter;",
    );
    save(&fx, &narrower);
    let (event, refused) = h.frames_until_event();
    match &event.reload {
        Reload::Refused(why) => assert!(
            why.contains("`Tint` changed from float4 to float2"),
            "{why}"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(effect_pixels(&refused), red_pixels, "a refused edit drew");
    let (headline, detail) = h.label();
    assert_eq!(headline, "TINT.FX REFUSED");
    assert!(
        detail.contains("`Tint` changed from float4 to float2"),
        "{detail}"
    );

    // So is a new parameter.
    let added = edit(
        &edit(&red, "static const", "float Amount = 1.0;\nstatic const"),
        "input.Color * Tint * Filter;",
        "input.Color * Tint * Filter * Amount;",
    );
    save(&fx, &added);
    let (event, refused) = h.frames_until_event();
    match &event.reload {
        Reload::Refused(why) => assert!(why.contains("adds parameter `Amount`"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(effect_pixels(&refused), red_pixels, "a refused edit drew");
    let (headline, detail) = h.label();
    assert_eq!(headline, "TINT.FX REFUSED");
    assert!(detail.contains("parameter `"), "{detail}");

    // (c) A syntax error: reported at its line and column (on screen too), nothing swapped.
    let line = red
        .lines()
        .position(|l| l.contains("return tex2D"))
        .unwrap()
        + 1;
    let broken = edit(
        &red,
        "input.Color * Tint * Filter;",
        "input.Color * Tint +* Filter;",
    );
    save(&fx, &broken);
    let (event, failed) = h.frames_until_event();
    match &event.reload {
        Reload::Failed(text) => {
            assert!(text.contains(&format!("tint.fx:{line}:")), "{text}");
            assert!(text.contains("error["), "{text}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert_eq!(effect_pixels(&failed), red_pixels, "a broken edit drew");
    let (headline, detail) = h.label();
    assert_eq!(headline, "TINT.FX FAILED");
    assert!(detail.contains(&format!(": tint.fx:{line}:")), "{detail}");
    assert!(detail.contains("error["), "{detail}");
    for l in h.game.hot_status().unwrap().lines(scene::WIDTH) {
        let right = l.x + example_game::font::text_width(&l.text, l.scale);
        assert!(right <= scene::WIDTH as f32, "{l:?} runs off the screen");
    }

    // (d) Fixed (and another colour): reloaded.
    let blue = edit(
        &original,
        "static const float4 Filter = float4(1.0, 1.0, 1.0, 1.0);",
        "static const float4 Filter = float4(0.25, 0.5, 1.0, 1.0);",
    );
    save(&fx, &blue);
    let (event, fixed) = h.frames_until_event();
    assert_eq!(event.reload, Reload::Reloaded);
    check_tint(&fixed, [0.25, 0.5, 1.0], "fixed");
    assert_eq!(h.label().0, "TINT.FX RELOADED");

    // The real shaders were only read.
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/tint.fx");
    assert_eq!(std::fs::read_to_string(real).unwrap(), original);
}
