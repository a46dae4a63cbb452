//! Effects drawn by Bevy (headless, lavapipe, through `EffectMaterial` and `EffectPostProcess`)
//! against the same effects drawn by ShadowDusk's own wgpu runtime with the same `Params` and
//! textures, within 2/255: a sprite effect, an alpha-blended sprite effect over a background,
//! a two-pass full-screen technique, and an effect with its own vertex shader on a Bevy mesh
//! (Bevy's cuboid, its vertices fed to the runtime as a MonoGame vertex buffer). And a typed parameter changed by a Bevy system shows
//! in the next frame read back.
//!
//! Without a Vulkan adapter the tests print a `!!! SKIPPED` line and pass (fail under
//! `SHADOWDUSK_REQUIRE_ALL=1`).

mod support;

use bevy::prelude::*;
use shadowdusk::wgpu;
use shadowdusk::wgpu_runtime::headless::HeadlessWgpu;
use shadowdusk::wgpu_runtime::{Sprite, SpriteBatch, Target, WgpuEffect, WgpuTexture};
use shadowdusk::{DeviceStates, Effect, Pass, TextureSlot};
use shadowdusk_bevy::{EffectMaterial, EffectPlugin, EffectPostProcess};
use support::*;

shadowdusk::include_effect!("examples/shaders/tint.fx", in_process, wgpu);
shadowdusk::include_effect!("examples/shaders/ghost.fx", in_process, wgpu);
shadowdusk::include_effect!("examples/shaders/blur.fx", in_process, wgpu);
shadowdusk::include_effect!("examples/shaders/lit.fx", in_process, wgpu);

/// Where a sprite goes, in pixels from the top left (as SpriteBatch places it).
const SPRITE: (f32, f32, f32, f32) = (8.0, 16.0, 32.0, 32.0);

/// Spawns a `SPRITE`-sized rectangle with `material` where `SPRITE` says (Bevy's 2D camera
/// has its origin at the view's centre and y up).
fn spawn_sprite<E: Effect>(app: &mut App, material: EffectMaterial<E>) {
    let (x, y, w, h) = SPRITE;
    let half = SIZE as f32 / 2.0;
    let world = app.world_mut();
    let mesh = world
        .resource_mut::<Assets<Mesh>>()
        .add(Rectangle::new(w, h));
    let material = world
        .resource_mut::<Assets<EffectMaterial<E>>>()
        .add(material);
    world.spawn((
        Mesh2d(mesh),
        MeshMaterial2d(material),
        Transform::from_xyz(x + w / 2.0 - half, half - (y + h / 2.0), 0.0),
    ));
}

/// What the runtime draws: `pass` with `params` and `texture` on `slot` over `SPRITE`, after
/// SpriteBatch.Begin()'s states, into an sRGB target cleared to `clear`; the target.
fn runtime_sprite<E: Effect>(
    h: &HeadlessWgpu,
    pass: Pass<E>,
    params: E::Params,
    (slot, texture): (TextureSlot<E>, &WgpuTexture),
    sprite: Sprite,
    clear: [f32; 4],
) -> wgpu::Texture {
    let mut fx = WgpuEffect::<E>::new(h.device()).expect("runtime loads the effect");
    fx.set_device_states(DeviceStates::sprite_batch())
        .expect("SpriteBatch's states");
    *fx.params_mut() = params;
    fx.set_texture(slot, Some(texture)).expect("texture");
    let target = runtime_target(h);
    let view = target.create_view(&Default::default());
    let mut batch = SpriteBatch::new(h.device());
    let mut encoder = h.device().create_command_encoder(&Default::default());
    {
        let mut render_pass = runtime_pass(&mut encoder, &view, clear);
        let mut applied = fx
            .apply(
                pass,
                &Target::new(wgpu::TextureFormat::Rgba8UnormSrgb, SIZE, SIZE),
            )
            .expect("apply");
        batch
            .draw(&mut render_pass, &mut applied, &[sprite])
            .expect("draw");
    }
    fx.flush(h.queue());
    batch.flush(h.queue());
    h.queue().submit([encoder.finish()]);
    target
}

fn sprite_rect() -> Sprite {
    let (x, y, w, h) = SPRITE;
    Sprite::new(x, y, w, h)
}

/// Bevy's frame after `frames` frames of `app`.
fn bevy_frame(app: &mut App, frames: &Frames) -> Vec<u8> {
    run(app, 8);
    frames.last().expect("Bevy read a frame back")
}

/// One sprite of `pattern(32, 32)` drawn with `pass` and `params` over the background, by
/// Bevy (an `EffectMaterial` on a rectangle) and by the runtime (SpriteBatch's states); both
/// frames, or `None` after a visible skip.
fn sprite_frames<E: Effect>(
    test: &str,
    pass: Pass<E>,
    params: E::Params,
    slot: TextureSlot<E>,
) -> Option<(Vec<u8>, Vec<u8>)> {
    let h = runtime_or_skip(test)?;
    let texels = pattern(32, 32);
    let mut app = app(EffectPlugin::<E>::default());
    let (_, frames) = camera(&mut app, ());
    let image = bevy_image(&mut app, 32, 32, &texels);
    let material = EffectMaterial::new(pass)
        .expect("a pixel-only pass")
        .with_params(params.clone())
        .with_texture(slot, image);
    spawn_sprite(&mut app, material);
    let bevy = bevy_frame(&mut app, &frames);

    let texture = runtime_texture(&h, 32, 32, &texels);
    let target = runtime_sprite(
        &h,
        pass,
        params,
        (slot, &texture),
        sprite_rect(),
        BACKGROUND,
    );
    Some((bevy, read(&h, &target)))
}

/// The sprite's top-left pixel.
const SPRITE_CORNER: usize = ((16 * SIZE + 8) * 4) as usize;

#[test]
fn a_sprite_effect_draws_as_the_runtime_draws_it() {
    let test = "a_sprite_effect_draws_as_the_runtime_draws_it";
    let mut params = tint::Params::default();
    params.set_tint([1.0, 0.5, 0.25, 1.0]);
    let pass = tint::passes::sprite_drawing::P0;
    let Some((bevy, reference)) = sprite_frames(test, pass, params, tint::textures::SPRITE_TEXTURE)
    else {
        return;
    };
    assert_same(test, &bevy, &reference);
    let at = SPRITE_CORNER;
    assert_ne!(&bevy[at..at + 3], &reference[..3], "the sprite was drawn");
}

#[test]
fn an_alpha_blended_sprite_effect_draws_over_the_background_as_the_runtime_draws_it() {
    let test = "an_alpha_blended_sprite_effect_draws_over_the_background_as_the_runtime_draws_it";
    let mut params = ghost::Params::default();
    params.set_opacity(0.6);
    let pass = ghost::passes::ghost::P0;
    let Some((bevy, reference)) =
        sprite_frames(test, pass, params, ghost::textures::SPRITE_TEXTURE)
    else {
        return;
    };
    assert_same(test, &bevy, &reference);
    // Blended: neither the background nor the opaque texel.
    let at = SPRITE_CORNER;
    assert_ne!(&bevy[at..at + 4], &bevy[..4], "the sprite was drawn");
}

#[test]
fn a_two_pass_post_process_runs_as_the_runtime_runs_it() {
    let test = "a_two_pass_post_process_runs_as_the_runtime_runs_it";
    let Some(h) = runtime_or_skip(test) else {
        return;
    };
    let texels = pattern(32, 32);
    let mut tint_params = tint::Params::default();
    tint_params.set_tint([0.9, 1.0, 0.6, 1.0]);
    let mut blur_params = blur::Params::default();
    blur_params.set_radius(2.0);
    blur_params.set_texel_size([1.0 / SIZE as f32; 2]);

    let mut app = app((
        EffectPlugin::<tint::Effect>::default(),
        EffectPlugin::<blur::Effect>::default(),
    ));
    let post = EffectPostProcess::new(blur::Technique::Blur.passes())
        .expect("pixel-only passes")
        .with_params(blur_params);
    let (_, frames) = camera(&mut app, post);
    let image = bevy_image(&mut app, 32, 32, &texels);
    let material = EffectMaterial::new(tint::passes::sprite_drawing::P0)
        .expect("a pixel-only pass")
        .with_params(tint_params)
        .with_texture(tint::textures::SPRITE_TEXTURE, image);
    spawn_sprite(&mut app, material);
    let bevy = bevy_frame(&mut app, &frames);

    // The runtime: the scene into A, A across into B, B down into C (each pass over
    // transparent black, as the post-process draws).
    let texture = runtime_texture(&h, 32, 32, &texels);
    let scene = runtime_sprite(
        &h,
        tint::passes::sprite_drawing::P0,
        tint_params,
        (tint::textures::SPRITE_TEXTURE, &texture),
        sprite_rect(),
        BACKGROUND,
    );
    let mut input = scene;
    for pass in blur::Technique::Blur.passes() {
        let view = input.create_view(&Default::default());
        let source = WgpuTexture::from_view(view, shadowdusk::wgsl::TextureDimension::D2);
        input = runtime_sprite(
            &h,
            *pass,
            blur_params,
            (blur::textures::SPRITE_TEXTURE, &source),
            Sprite::new(0.0, 0.0, SIZE as f32, SIZE as f32),
            [0.0; 4],
        );
    }
    let reference = read(&h, &input);
    assert_same(test, &bevy, &reference);
    // The blur ran: the sprite's sharp left edge is spread over several pixels.
    let row = 30 * SIZE as usize * 4;
    let edge: Vec<u8> = (5..12).map(|x| bevy[row + x * 4]).collect();
    let distinct = edge.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(distinct >= 3, "blurred edge {edge:?}");
}

/// The tint a system gives every `tint` material when the test asks (`Some`), with the
/// camera's clear colour in the same system, as a change Bevy itself draws on the next frame.
#[derive(Resource, Default)]
struct NewTint(Option<[f32; 4]>);

fn set_tint(
    mut wanted: ResMut<NewTint>,
    mut materials: ResMut<Assets<EffectMaterial<tint::Effect>>>,
    sprites: Query<&MeshMaterial2d<EffectMaterial<tint::Effect>>>,
    mut cameras: Query<&mut Camera>,
) {
    let Some(tint) = wanted.0.take() else {
        return;
    };
    for handle in &sprites {
        if let Some(mut material) = materials.get_mut(&handle.0) {
            material.params_mut().set_tint(tint);
        }
    }
    for mut camera in &mut cameras {
        camera.clear_color = ClearColorConfig::Custom(Color::BLACK);
    }
}

#[test]
fn a_parameter_set_by_a_system_changes_the_next_frame() {
    let test = "a_parameter_set_by_a_system_changes_the_next_frame";
    if runtime_or_skip(test).is_none() {
        return;
    }
    let white = vec![255u8; 32 * 32 * 4];
    let mut app = app(EffectPlugin::<tint::Effect>::default());
    app.init_resource::<NewTint>().add_systems(Update, set_tint);
    let (_, frames) = camera(&mut app, ());
    let image = bevy_image(&mut app, 32, 32, &white);
    let material = EffectMaterial::new(tint::passes::sprite_drawing::P0)
        .expect("a pixel-only pass")
        .with_texture(tint::textures::SPRITE_TEXTURE, image);
    spawn_sprite(&mut app, material);
    // (sprite pixel, background pixel) of a frame.
    let pixels = |frame: &[u8]| {
        let at = |x: u32, y: u32| {
            let i = ((y * SIZE + x) * 4) as usize;
            [frame[i], frame[i + 1], frame[i + 2], frame[i + 3]]
        };
        (at(20, 20), at(60, 2))
    };
    let (sprite, background) = pixels(&bevy_frame(&mut app, &frames));
    assert_eq!(sprite, [255, 255, 255, 255], "white sprite");
    assert_ne!(background, [0, 0, 0, 255], "not black yet");

    // The system changes the typed parameter and the clear colour in the same update. Read-backs
    // arrive a few updates after their frame; every frame must show both changes or neither.
    app.world_mut().resource_mut::<NewTint>().0 = Some([1.0, 0.0, 0.0, 1.0]);
    let seen = frames.count();
    run(&mut app, 6);
    let after: Vec<_> = frames.0.lock().unwrap()[seen..]
        .iter()
        .map(|f| pixels(f))
        .collect();
    for &(sprite, background) in &after {
        let cleared_black = background == [0, 0, 0, 255];
        let red = sprite == [255, 0, 0, 255];
        assert_eq!(
            red, cleared_black,
            "the tint and Bevy's own clear colour change on the same frame: {after:?}"
        );
        assert!(red || sprite == [255, 255, 255, 255], "{after:?}");
    }
    assert!(
        after
            .last()
            .is_some_and(|&(sprite, _)| sprite == [255, 0, 0, 255]),
        "the change is drawn: {after:?}"
    );
}

/// `lit.fx`'s matrices for a cube at `at`, turned, seen from above and to the side, in
/// Direct3D's perspective (depth 0–1); HLSL rows are glam's columns (`mul(v, M)`).
fn lit_params(at: Vec3) -> lit::Params {
    let world =
        Mat4::from_translation(at) * Mat4::from_rotation_y(0.6) * Mat4::from_rotation_x(0.3);
    let view = Mat4::look_at_rh(Vec3::new(1.2, 1.4, 2.4), Vec3::ZERO, Vec3::Y);
    let projection = Mat4::perspective_rh(0.9, 1.0, 0.5, 10.0);
    let mut params = lit::Params::default();
    params.set_world(world.to_cols_array_2d());
    params.set_view(view.to_cols_array_2d());
    params.set_projection(projection.to_cols_array_2d());
    params
}

/// Position, normal and UV of each vertex, as a MonoGame vertex declaration lays them out.
const CUBE_LAYOUT: shadowdusk::wgpu_runtime::VertexLayout = {
    use shadowdusk::mgfx::VertexElementUsage as U;
    use shadowdusk::wgpu_runtime::{VertexElement as E, VertexElementFormat as F, VertexLayout};
    VertexLayout {
        stride: 32,
        elements: &[
            E::new(0, F::Vector3, U::Position, 0),
            E::new(12, F::Vector3, U::Normal, 0),
            E::new(24, F::Vector2, U::TextureCoordinate, 0),
        ],
    }
};

/// Bevy's unit cuboid as a vertex buffer in `CUBE_LAYOUT` and 32-bit indices.
fn cube_buffers(mesh: &Mesh) -> (Vec<f32>, Vec<u32>) {
    use bevy::mesh::{Indices, VertexAttributeValues as V};
    let (Some(V::Float32x3(p)), Some(V::Float32x3(n)), Some(V::Float32x2(uv))) = (
        mesh.attribute(Mesh::ATTRIBUTE_POSITION),
        mesh.attribute(Mesh::ATTRIBUTE_NORMAL),
        mesh.attribute(Mesh::ATTRIBUTE_UV_0),
    ) else {
        panic!("a cuboid has positions, normals and UVs");
    };
    let vertices = (0..p.len())
        .flat_map(|i| p[i].into_iter().chain(n[i]).chain(uv[i]))
        .collect();
    let indices = match mesh.indices() {
        Some(Indices::U16(i)) => i.iter().map(|&i| u32::from(i)).collect(),
        Some(Indices::U32(i)) => i.clone(),
        None => (0..p.len() as u32).collect(),
    };
    (vertices, indices)
}

#[test]
fn an_effects_own_vertex_shader_draws_a_bevy_mesh_as_the_runtime_draws_it() {
    let test = "an_effects_own_vertex_shader_draws_a_bevy_mesh_as_the_runtime_draws_it";
    let Some(h) = runtime_or_skip(test) else {
        return;
    };
    let texels = pattern(32, 32);
    // Two cubes, the second nearer the eye and overlapping the first on screen: only a depth
    // test that keeps the nearer surface draws them alike in any order.
    let cubes = [
        lit_params(Vec3::ZERO),
        lit_params(Vec3::new(0.45, 0.1, 0.8)),
    ];
    let cube = Mesh::from(Cuboid::new(1.0, 1.0, 1.0));
    let (vertices, indices) = cube_buffers(&cube);

    let mut app = app(EffectPlugin::<lit::Effect>::default());
    let (_, frames) = camera(&mut app, ());
    let image = bevy_image(&mut app, 32, 32, &texels);
    let world = app.world_mut();
    let mesh = world.resource_mut::<Assets<Mesh>>().add(cube);
    // Nearest first: a depth test that let the later, farther cube through would show it.
    for params in cubes.iter().rev() {
        let material = EffectMaterial::new(lit::passes::lit::P0)
            .expect("a vertex shader Bevy's mesh can feed")
            .with_params(*params)
            .with_texture(lit::textures::DIFFUSE_TEXTURE, image.clone());
        let material = world
            .resource_mut::<Assets<EffectMaterial<lit::Effect>>>()
            .add(material);
        // The effect's matrices place it; Bevy's transform and culling do not apply.
        world.spawn((
            Mesh2d(mesh.clone()),
            MeshMaterial2d(material),
            bevy::camera::visibility::NoFrustumCulling,
        ));
    }
    let bevy = bevy_frame(&mut app, &frames);

    // The runtime: the same vertices, the device's initial states (opaque, depth test,
    // counter-clockwise culling), a depth buffer.
    use shadowdusk::wgpu::util::DeviceExt;
    let device = h.device();
    let vertex_buffer = device.create_buffer_init(&shadowdusk::wgpu::util::BufferInitDescriptor {
        label: Some("cube vertices"),
        contents: bytemuck::cast_slice(&vertices),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let index_buffer = device.create_buffer_init(&shadowdusk::wgpu::util::BufferInitDescriptor {
        label: Some("cube indices"),
        contents: bytemuck::cast_slice(&indices),
        usage: wgpu::BufferUsages::INDEX,
    });
    let texture = runtime_texture(&h, 32, 32, &texels);
    let mut fx = WgpuEffect::<lit::Effect>::new(device).expect("runtime loads lit.fx");
    fx.set_texture(lit::textures::DIFFUSE_TEXTURE, Some(&texture))
        .expect("texture");
    let target = runtime_target(&h);
    let view = target.create_view(&Default::default());
    let depth = device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("depth"),
            size: target.size(),
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Depth32Float,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let [r, g, b, a] = BACKGROUND.map(f64::from);
        let mut render_pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("reference"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let target = Target::new(wgpu::TextureFormat::Rgba8UnormSrgb, SIZE, SIZE)
            .with_depth(wgpu::TextureFormat::Depth32Float);
        for params in cubes {
            *fx.params_mut() = params;
            let mut applied = fx.apply(lit::passes::lit::P0, &target).expect("apply");
            applied
                .draw_indexed(
                    &mut render_pass,
                    &CUBE_LAYOUT,
                    vertex_buffer.slice(..),
                    index_buffer.slice(..),
                    wgpu::IndexFormat::Uint32,
                    0..indices.len() as u32,
                    0,
                )
                .expect("draw");
        }
    }
    fx.flush(h.queue());
    h.queue().submit([encoder.finish()]);
    let reference = read(&h, &target);
    assert_same(test, &bevy, &reference);
    // The cube covers the middle of the view, and is lit unevenly (faces differ).
    let centre = ((32 * SIZE + 32) * 4) as usize;
    assert_ne!(&bevy[centre..centre + 3], &bevy[..3], "the cube was drawn");
}
