//! An effect inside egui (feature `egui`): a headless egui frame with a slider and the effect's
//! paint callback (`EffectCallback`, its typed `Params` built from the slider's value), drawn by
//! egui-wgpu 0.36's renderer on lavapipe. The callback's rectangle must equal the same pass
//! drawn by the runtime alone (`WgpuEffect` + `SpriteBatch` over a target of the rectangle's
//! size) within 2/255, and a click on the slider must change the parameter and so the pixels.
//!
//! Without a wgpu adapter the test prints a `!!! SKIPPED` line and passes (fails under
//! `SHADOWDUSK_REQUIRE_ALL=1`).

use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::egui::{EffectCallback, EguiEffect};
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{
    Sprite, SpriteBatch, Target, WgpuEffect, WgpuRenderTarget, WgpuTexture,
};
use shadowdusk_tests::parity::{begin_pass, wgpu_or_skip};

shadowdusk::include_effect!("corpus/template_tint.fx", in_process, wgpu);

const WIDTH: u32 = 160;
const HEIGHT: u32 = 96;
/// The effect's rectangle, in pixels (one point per pixel).
const RECT: [f32; 4] = [16.0, 48.0, 32.0, 32.0];
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// A 4×4 texture of distinct texels.
fn texture(w: &HeadlessWgpu) -> WgpuTexture {
    let texels: Vec<u8> = (0..16u8)
        .flat_map(|i| [i * 16, 255 - i * 12, 64 + i * 8, 255])
        .collect();
    WgpuTexture::from_rgba8(w.device(), w.queue(), 4, 4, &texels).unwrap()
}

fn params(red: f32) -> template_tint::Params {
    let mut p = template_tint::Params::default();
    p.set_tint([red, 0.75, 1.0, 1.0]);
    p
}

/// One egui frame: a slider over `red`, then the effect's rectangle painted with
/// `params(red)`. Returns the slider's rectangle.
fn ui(ctx: &egui::Context, input: egui::RawInput, red: &mut f32) -> (egui::FullOutput, egui::Rect) {
    let mut slider = egui::Rect::NOTHING;
    let output = ctx.run_ui(input, |ui| {
        slider = ui.add(egui::Slider::new(red, 0.0..=1.0)).rect;
        let [x, y, w, h] = RECT;
        let rect = egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h));
        let pass = template_tint::passes::sprite_drawing::P0;
        ui.painter()
            .add(EffectCallback::new(pass, params(*red)).paint(rect));
    });
    (output, slider)
}

/// Renders `output` with egui-wgpu's renderer; the picture's pixels.
fn render(
    w: &HeadlessWgpu,
    renderer: &mut egui_wgpu::Renderer,
    ctx: &egui::Context,
    mut output: egui::FullOutput,
) -> Vec<u8> {
    let (device, queue) = (w.device(), w.queue());
    for (id, deltas) in &output.textures_delta.set {
        for delta in deltas {
            renderer.update_texture(device, queue, *id, delta);
        }
    }
    let freed = std::mem::take(&mut output.textures_delta.free);
    output.textures_delta.clear();
    let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [WIDTH, HEIGHT],
        pixels_per_point: 1.0,
    };
    let target = WgpuRenderTarget::new(device, WIDTH, HEIGHT, false).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    let prepared = renderer.update_buffers(device, queue, &mut encoder, &primitives, &screen);
    {
        let mut pass = begin_pass(&target, &mut encoder, [0, 0, 0, 255], 0).forget_lifetime();
        renderer.render(&mut pass, &primitives, &screen);
    }
    queue.submit(prepared.into_iter().chain([encoder.finish()]));
    for id in &freed {
        renderer.free_texture(id);
    }
    target.read_rgba8(device, queue).unwrap()
}

/// The rectangle's pixels out of a `WIDTH`-wide picture.
fn rect_pixels(picture: &[u8]) -> Vec<[u8; 4]> {
    let [x, y, w, h] = RECT.map(|v| v as usize);
    (y..y + h)
        .flat_map(|row| (x..x + w).map(move |col| (row * WIDTH as usize + col) * 4))
        .map(|at| {
            [
                picture[at],
                picture[at + 1],
                picture[at + 2],
                picture[at + 3],
            ]
        })
        .collect()
}

/// The same pass drawn by the runtime alone over a target of the rectangle's size.
fn alone(w: &HeadlessWgpu, tex: &WgpuTexture, red: f32) -> Vec<[u8; 4]> {
    let (device, queue) = (w.device(), w.queue());
    let [_, _, width, height] = RECT.map(|v| v as u32);
    let target = WgpuRenderTarget::new(device, width, height, false).unwrap();
    let mut fx = WgpuEffect::<template_tint::Effect>::new(device).unwrap();
    fx.set_texture(template_tint::textures::SPRITE_TEXTURE, Some(tex))
        .unwrap();
    fx.set_params(&params(red));
    let mut batch = SpriteBatch::new(device);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut rp = begin_pass(&target, &mut encoder, [0, 0, 0, 255], 0);
        let mut applied = fx
            .apply(template_tint::passes::sprite_drawing::P0, &target.target())
            .unwrap();
        let sprite = Sprite::new(0.0, 0.0, width as f32, height as f32);
        batch.draw(&mut rp, &mut applied, &[sprite]).unwrap();
    }
    fx.flush(queue);
    batch.flush(queue);
    queue.submit([encoder.finish()]);
    target
        .read_rgba8(device, queue)
        .unwrap()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn assert_close(what: &str, got: &[[u8; 4]], want: &[[u8; 4]]) {
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| g.iter().zip(*w).any(|(a, b)| a.abs_diff(*b) > 2))
        .take(4)
        .map(|(i, (g, w))| format!("pixel {i}: egui {g:?}, alone {w:?}"))
        .collect();
    assert!(bad.is_empty(), "{what}: {}", bad.join("; "));
}

fn input(events: Vec<egui::Event>) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(WIDTH as f32, HEIGHT as f32),
        )),
        events,
        ..Default::default()
    }
}

#[test]
fn an_effect_in_an_egui_panel_draws_as_the_runtime_does_and_follows_its_slider() {
    let Some(w) = wgpu_or_skip("an_effect_in_an_egui_panel") else {
        return;
    };
    let device = w.device();
    let mut renderer = egui_wgpu::Renderer::new(
        device,
        FORMAT,
        egui_wgpu::RendererOptions {
            dithering: false,
            ..Default::default()
        },
    );
    EguiEffect::<template_tint::Effect>::register(&mut renderer, device, Target::new(FORMAT, 1, 1))
        .unwrap();
    let tex = texture(&w);
    renderer
        .callback_resources
        .get_mut::<EguiEffect<template_tint::Effect>>()
        .unwrap()
        .effect_mut()
        .set_texture(template_tint::textures::SPRITE_TEXTURE, Some(&tex))
        .unwrap();
    let ctx = egui::Context::default();
    let mut red = 0.0f32;

    // Frame 1: the slider at 0.
    let (output, slider) = ui(&ctx, input(Vec::new()), &mut red);
    let first = rect_pixels(&render(&w, &mut renderer, &ctx, output));
    assert_close("red 0", &first, &alone(&w, &tex, 0.0));
    assert!(slider.width() > 20.0, "the slider is laid out: {slider:?}");

    // A press and release on the slider's rail, two thirds along: the value follows.
    let at = egui::pos2(slider.left() + slider.width() * 0.3, slider.center().y);
    let button = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    let (output, _) = ui(
        &ctx,
        input(vec![egui::Event::PointerMoved(at), button(true)]),
        &mut red,
    );
    render(&w, &mut renderer, &ctx, output);
    let (output, _) = ui(&ctx, input(vec![button(false)]), &mut red);
    render(&w, &mut renderer, &ctx, output);
    assert!(red > 0.05, "the click moved the slider: {red}");
    let (output, _) = ui(&ctx, input(Vec::new()), &mut red);
    let moved = rect_pixels(&render(&w, &mut renderer, &ctx, output));
    assert_close(&format!("red {red}"), &moved, &alone(&w, &tex, red));
    let redder = moved
        .iter()
        .zip(&first)
        .filter(|(m, f)| m[0] > f[0] + 8)
        .count();
    assert!(
        redder > moved.len() / 2,
        "the parameter reached the pixels: {redder} of {} redder",
        moved.len()
    );
    // Nothing failed on the way.
    let fx = renderer
        .callback_resources
        .get_mut::<EguiEffect<template_tint::Effect>>()
        .unwrap();
    assert!(fx.take_error().is_none());
}
