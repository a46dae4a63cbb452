//! The typed runtime on a real adapter (lavapipe in CI): a generated effect drawn through
//! `WgpuEffect` and `SpriteBatch`, parameters changing between draws of one render pass.

use super::headless::for_test;
use super::{Sprite, SpriteBatch, WgpuEffect, WgpuError, WgpuRenderTarget, WgpuTexture};

crate::include_effect!("doc/tint.fx", in_process, wgpu);
crate::include_effect!("doc/tint.fx", name = gl_only, in_process);
crate::include_effect!("tests/bound_vs/rim.fx", in_process, wgpu);

const W: u32 = 48;

#[test]
fn sprites_drawn_with_other_params_in_one_render_pass_each_get_their_own() {
    let Some(gpu) =
        for_test("sprites_drawn_with_other_params_in_one_render_pass_each_get_their_own")
    else {
        return;
    };
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, W, 16, false).unwrap();
    let white = WgpuTexture::from_rgba8(device, queue, 1, 1, &[255; 4]).unwrap();
    let mut fx = WgpuEffect::<tint::Effect>::new(device).unwrap();
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(&white))
        .unwrap();
    let mut batch = SpriteBatch::new(device);
    let reds = [0.0f32, 0.5, 1.0];
    for _frame in 0..2 {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, Some([0.0, 0.0, 0.0, 1.0]));
            for (i, red) in reds.iter().enumerate() {
                let mut params = tint::Params::default();
                params.set_tint([*red, 1.0, 1.0, 1.0]);
                params.set_amount(1.0);
                fx.set_params(&params);
                let mut applied = fx
                    .apply(tint::passes::sprite_drawing::P0, &target.target())
                    .unwrap();
                let sprite = Sprite::new(i as f32 * 16.0, 0.0, 16.0, 16.0);
                batch.draw(&mut pass, &mut applied, &[sprite]).unwrap();
            }
        }
        fx.flush(queue);
        batch.flush(queue);
        queue.submit([encoder.finish()]);
        let pixels = target.read_rgba8(device, queue).unwrap();
        for (i, red) in reds.iter().enumerate() {
            let at = ((8 * W + i as u32 * 16 + 8) * 4) as usize;
            let expected = (red * 255.0).round() as i32;
            assert!(
                (i32::from(pixels[at]) - expected).abs() <= 1,
                "sprite {i}: red {} instead of {expected}",
                pixels[at]
            );
            assert_eq!(pixels[at + 1..at + 4], [255, 255, 255]);
        }
    }
}

#[test]
fn a_pass_whose_texture_is_not_set_is_an_error_naming_it() {
    let Some(gpu) = for_test("a_pass_whose_texture_is_not_set_is_an_error_naming_it") else {
        return;
    };
    let mut fx = WgpuEffect::<tint::Effect>::new(gpu.device()).unwrap();
    let target = super::Target::new(wgpu::TextureFormat::Rgba8Unorm, 8, 8);
    let err = fx
        .apply(tint::passes::sprite_drawing::P0, &target)
        .unwrap_err();
    assert!(matches!(err, WgpuError::MissingTexture { .. }), "{err}");
    assert!(err.to_string().contains("SpriteTexture"), "{err}");
}

#[test]
fn an_effect_built_without_the_wgpu_target_says_how_to_turn_it_on() {
    let Some(gpu) = for_test("an_effect_built_without_the_wgpu_target_says_how_to_turn_it_on")
    else {
        return;
    };
    let err = WgpuEffect::<gl_only::Effect>::new(gpu.device()).unwrap_err();
    assert!(err.to_string().contains("Builder::wgpu(true)"), "{err}");
}

/// A pass to apply (`None`: `begin_sprites`) and whether to draw with it.
type RimStep = (Option<crate::Pass<rim::Effect>>, bool);

/// Draws a 4×4 gray quad with each `(pass, draw)` applied in turn (applied only when `draw` is
/// false; a `None` pass is `begin_sprites`) on a fresh effect whose `MainVS` projects pixels
/// as SpriteBatch does (`project`) or maps everything to the origin; `Err` is the first draw's
/// error.
fn rim_frames(
    gpu: &super::headless::HeadlessWgpu,
    project: bool,
    frames: &[&[RimStep]],
) -> Result<Vec<Vec<u8>>, WgpuError> {
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, 4, 4, false).unwrap();
    let mut fx = WgpuEffect::<rim::Effect>::new(device).unwrap();
    let m = if project {
        crate::sprite::default_transform(4, 4, false)
    } else {
        [[0.0; 4]; 4]
    };
    fx.params_mut()
        .set_world_view_projection(crate::params::Matrix::from_rows(m));
    let mut batch = SpriteBatch::new(device);
    let quad = [Sprite {
        color: [64, 64, 64, 255],
        ..Sprite::new(0.0, 0.0, 4.0, 4.0)
    }];
    let mut images = Vec::new();
    for steps in frames {
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = target.begin_pass(&mut encoder, Some([0.0; 4]));
            for &(p, draw) in *steps {
                let Some(p) = p else {
                    fx.begin_sprites();
                    continue;
                };
                let mut applied = fx.apply(p, &target.target())?;
                if draw {
                    batch.draw(&mut pass, &mut applied, &quad)?;
                }
            }
        }
        fx.flush(queue);
        batch.flush(queue);
        queue.submit([encoder.finish()]);
        images.push(target.read_rgba8(device, queue).unwrap());
    }
    Ok(images)
}

fn near(got: &[u8], want: [u8; 4]) -> bool {
    got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1)
}

#[test]
fn a_pass_without_a_vertex_shader_draws_with_the_last_applied_passes() {
    let Some(gpu) = for_test("a_pass_without_a_vertex_shader_draws_with_the_last_applied_passes")
    else {
        return;
    };
    let (base, rim_pass) = (rim::passes::rim_lit::BASE, rim::passes::rim_lit::RIM);
    let both: &[_] = &[(Some(base), true), (Some(rim_pass), true)];
    let images = rim_frames(&gpu, true, &[both, both]).unwrap();
    for image in images {
        // Base's colour plus Rim's COLOR1 × rim² (TEXCOORD1 = uv·2−1), as on GL.
        assert!(near(&image[..4], [128, 128, 128, 255]), "{:?}", &image[..4]);
        let inner = &image[(4 + 1) * 4..(4 + 1) * 4 + 4];
        assert!(near(inner, [65, 65, 65, 255]), "{inner:?}");
    }
}

#[test]
fn a_pair_that_cannot_link_is_an_error_at_draw_naming_both_shaders() {
    let Some(gpu) = for_test("a_pair_that_cannot_link_is_an_error_at_draw_naming_both_shaders")
    else {
        return;
    };
    let rim_first: &[_] = &[(Some(rim::passes::rim_lit::RIM), true)];
    let err = rim_frames(&gpu, true, &[rim_first]).unwrap_err();
    assert!(matches!(err, WgpuError::BoundVertexVarying { .. }), "{err}");
    let text = err.to_string();
    for part in ["pass 'Rim'", "SpriteBatch's vertex shader", "COLOR1"] {
        assert!(text.contains(part), "`{part}` missing from: {text}");
    }
}

#[test]
fn a_pixel_only_pass_draws_with_spritebatch_vertex_shader_until_another_is_bound() {
    let Some(gpu) =
        for_test("a_pixel_only_pass_draws_with_spritebatch_vertex_shader_until_another_is_bound")
    else {
        return;
    };
    let plain = rim::passes::plain::P0;
    // MainVS maps everything to the origin: with it bound (by Base), Plain draws nothing.
    let sprite: &[_] = &[(Some(plain), true)];
    let base = rim::passes::rim_lit::BASE;
    let after_base: &[_] = &[(Some(base), false), (Some(plain), true)];
    // `begin_sprites` binds SpriteBatch's again, as MonoGame's SpriteBatch.Begin does.
    let begun: &[_] = &[(Some(base), false), (None, false), (Some(plain), true)];
    let images = rim_frames(&gpu, false, &[sprite, after_base, begun]).unwrap();
    assert!(images[0].chunks_exact(4).all(|p| p == [64, 64, 64, 255]));
    assert!(images[1].chunks_exact(4).all(|p| p == [0; 4]));
    assert!(images[2].chunks_exact(4).all(|p| p == [64, 64, 64, 255]));
}

#[test]
fn device_states_changed_between_draws_are_pipeline_lookups_not_rebuilds() {
    use crate::mgfx::{Blend, BlendState, CullMode, SamplerState, TextureFilter};
    let Some(gpu) =
        for_test("device_states_changed_between_draws_are_pipeline_lookups_not_rebuilds")
    else {
        return;
    };
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, 8, 8, true).unwrap();
    let white = WgpuTexture::from_rgba8(device, queue, 1, 1, &[255; 4]).unwrap();
    let mut fx = WgpuEffect::<tint::Effect>::new(device).unwrap();
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(&white))
        .unwrap();
    let mut batch = SpriteBatch::new(device);
    // Two device states that differ in what a pipeline bakes (blending, culling) and two
    // that differ from them only in the blend factor, the stencil reference and a sampler.
    let additive = BlendState {
        color_source_blend: Blend::BlendFactor,
        color_destination_blend: Blend::One,
        ..BlendState::default()
    };
    let mut states = [super::DeviceStates::default(); 4];
    states[1].blend = additive;
    states[1].rasterizer.cull_mode = CullMode::None;
    states[2].blend.blend_factor = [10, 20, 30, 40];
    states[2].depth_stencil.reference_stencil = 7;
    states[3] = states[1];
    states[3].blend.blend_factor = [1, 2, 3, 4];
    states[3].samplers[0] = SamplerState {
        filter: TextureFilter::Point,
        ..SamplerState::default()
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = target.begin_pass(&mut encoder, Some([0.0; 4]));
        for i in 0..64 {
            fx.set_device_states(states[i % 4]).unwrap();
            assert_eq!(fx.device_states(), &states[i % 4]);
            let mut applied = fx
                .apply(tint::passes::sprite_drawing::P0, &target.target())
                .unwrap();
            batch
                .draw(&mut pass, &mut applied, &[Sprite::new(0.0, 0.0, 8.0, 8.0)])
                .unwrap();
        }
    }
    fx.flush(queue);
    batch.flush(queue);
    queue.submit([encoder.finish()]);
    assert_eq!(fx.pipeline_count(), 2);
}

#[test]
fn draw_ranges_past_the_buffer_or_reversed_are_errors_not_wgpu_panics() {
    use super::{VertexBufferBinding, VertexLayout};
    let Some(gpu) = for_test("draw_ranges_past_the_buffer_or_reversed_are_errors") else {
        return;
    };
    let (device, queue) = (gpu.device(), gpu.queue());
    let target = WgpuRenderTarget::new(device, 4, 4, false).unwrap();
    let white = WgpuTexture::from_rgba8(device, queue, 1, 1, &[255; 4]).unwrap();
    let mut fx = WgpuEffect::<tint::Effect>::new(device).unwrap();
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(&white))
        .unwrap();
    let layout = VertexLayout::POSITION_COLOR_TEXTURE;
    // Six whole vertices.
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: u64::from(6 * layout.stride),
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::INDEX,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = target.begin_pass(&mut encoder, Some([0.0; 4]));
        let mut applied = fx
            .apply(tint::passes::sprite_drawing::P0, &target.target())
            .unwrap();
        let range = |what: &'static str, start, end, available| {
            move |e: WgpuError| match e {
                WgpuError::DrawRange {
                    what: w,
                    start: s,
                    end: n,
                    available: a,
                    ..
                } => (w, s, n, a) == (what, start, end, available),
                _ => false,
            }
        };
        let slice = buffer.slice(..);
        #[allow(clippy::reversed_empty_ranges)]
        let reversed = applied.draw(&mut pass, &layout, slice, 5..2).unwrap_err();
        assert!(range("vertex", 5, 2, 6)(reversed));
        let past = applied.draw(&mut pass, &layout, slice, 0..7).unwrap_err();
        assert!(range("vertex", 0, 7, 6)(past));
        let indices = applied
            .draw_indexed(
                &mut pass,
                &layout,
                slice,
                slice,
                wgpu::IndexFormat::Uint32,
                0..1000,
                0,
            )
            .unwrap_err();
        let index_count = u64::from(6 * layout.stride / 4);
        assert!(range("index", 0, 1000, index_count)(indices));
        let per_instance = [VertexBufferBinding {
            buffer: slice,
            layout,
            instance_frequency: 1,
        }];
        let instances = applied
            .draw_instanced(&mut pass, &per_instance, 0..3, 0..9)
            .unwrap_err();
        assert!(range("instance", 0, 9, 6)(instances));
        // Within the buffer, every draw records.
        applied.draw(&mut pass, &layout, slice, 0..6).unwrap();
    }
    fx.flush(queue);
    queue.submit([encoder.finish()]);
}
