//! `--wgpu --hot`, driven frame by frame: the game's own `WgpuGame` (as the headless run makes
//! it, with `--hot-dir` on a copy of `shaders/`) on a headless wgpu device, the tint scene at a
//! fixed time. Editing the copy's `tint.fx` recolours the tinted sprite on the frame the poll
//! swaps it in; a syntax error keeps the picture and the label names the line; a layout change
//! is refused with the parameter named. The real `shaders/` are never touched.

mod common;

use std::time::{Duration, Instant};

use common::{edit, save, shaders_copy};
use example_game::hot::{Event, Watch};
use example_game::scene::{self, Scene};
use example_game::wgpu_game::{Frame, WgpuGame};
use shadowdusk::hot::Reload;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::WgpuRenderTarget;

const TIME: f32 = 1.25;
const WAIT: Duration = Duration::from_secs(30);

struct Harness {
    game: WgpuGame,
    screen: WgpuRenderTarget,
    gpu: HeadlessWgpu,
}

impl Harness {
    /// One frame as the game loop runs it (update, poll, render): the tinted sprite's pixels.
    fn frame(&mut self) -> (Vec<Event>, Vec<[u8; 3]>) {
        self.game.update(TIME);
        let events = self.game.poll_shaders();
        let frame = Frame {
            color: self.screen.color_view(),
            depth: self.screen.depth_view().expect("a depth view"),
            target: self.screen.target(),
        };
        self.game.render(&frame).expect("render");
        let pixels = self
            .screen
            .read_rgba8(self.gpu.device(), self.gpu.queue())
            .unwrap();
        let e = scene::EFFECT;
        let effect = (e.y..e.y + e.height)
            .flat_map(|y| (e.x..e.x + e.width).map(move |x| (x, y)))
            .map(|(x, y)| {
                let at = ((y * scene::WIDTH + x) * 4) as usize;
                [pixels[at], pixels[at + 1], pixels[at + 2]]
            })
            .collect();
        (events, effect)
    }

    fn frames_until_event(&mut self) -> (Event, Vec<[u8; 3]>) {
        let start = Instant::now();
        loop {
            let (events, pixels) = self.frame();
            if let Some(first) = events.first() {
                assert_eq!(events.len(), 1, "one save, one effect: {events:?}");
                return (first.clone(), pixels);
            }
            assert!(start.elapsed() < WAIT, "no recompile within {WAIT:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[test]
fn wgpu_edits_show_on_the_next_frame_and_bad_ones_keep_the_picture() {
    const TEST: &str = "wgpu_edits_show_on_the_next_frame_and_bad_ones_keep_the_picture";
    let gpu = match HeadlessWgpu::new() {
        Ok(g) => g,
        Err(e) => return shadowdusk_testkit::skip(TEST, &format!("no wgpu adapter: {e}")),
    };
    if !shadowdusk_compiler::dxc::available() {
        return shadowdusk_testkit::skip(TEST, "DXC unavailable (hot reload compiles with it)");
    }
    let dir = shaders_copy("wgpu_hot_reload_shaders");
    let fx = dir.join("tint.fx");
    let original = std::fs::read_to_string(&fx).unwrap();
    let watch = Watch::Dir(dir.clone());
    let game = WgpuGame::new(gpu.device(), gpu.queue(), Scene::Tint, &watch).unwrap();
    let screen = WgpuRenderTarget::new(gpu.device(), scene::WIDTH, scene::HEIGHT, true).unwrap();
    let mut h = Harness { game, screen, gpu };

    let (events, before) = h.frame();
    assert_eq!(events, []);
    assert!(h.game.hot_status().is_some(), "the label is on");

    // A new value for the `Filter` constant: green and blue a quarter on the next frame.
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
    for (b, r) in before.iter().zip(&reloaded) {
        let want = [
            b[0],
            (b[1] as f32 * 0.25).round() as u8,
            (b[2] as f32 * 0.25).round() as u8,
        ];
        assert!(
            r.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 2),
            "{b:?} filtered is {r:?}, want {want:?}"
        );
    }

    // A new parameter changes the layout: refused, naming it; the picture stays.
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
    assert_eq!(refused, reloaded, "a refused edit drew");

    // A syntax error: reported at its line, nothing swapped.
    let line = red
        .lines()
        .position(|l| l.contains("return tex2D"))
        .unwrap()
        + 1;
    save(
        &fx,
        &edit(
            &red,
            "input.Color * Tint * Filter;",
            "input.Color * Tint +* Filter;",
        ),
    );
    let (event, failed) = h.frames_until_event();
    match &event.reload {
        Reload::Failed(text) => assert!(text.contains(&format!("tint.fx:{line}:")), "{text}"),
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert_eq!(failed, reloaded, "a broken edit drew");

    // Back as built: the first picture again.
    save(&fx, &original);
    let (event, restored) = h.frames_until_event();
    assert_eq!(event.reload, Reload::Reloaded);
    assert_eq!(restored, before);
}
