//! MonoGame effects in Bevy: two sprites drawn with `tint.fx` and `wave.fx` as
//! `EffectMaterial`s, animated through their typed setters, under a `grayscale.fx`
//! post-process whose `Amount` fades in and out.
//!
//! ```text
//! cargo run -p shadowdusk-bevy --example effects                  # in a window
//! cargo run -p shadowdusk-bevy --example effects -- --hot         # edit the shaders as it runs
//! cargo run -p shadowdusk-bevy --example effects -- --headless    # screenshots, no window
//! ```
//!
//! With `--hot`, saving `examples/shaders/tint.fx`, `wave.fx` or `grayscale.fx` recompiles it and
//! the window shows the change (a layout change or a compile error is logged, and the old shaders
//! keep drawing).
//!
//! Headless, it draws 90 frames into an image and writes frames 10, 45 and 90 as PNGs to
//! `target/bevy-effects/` (or the folder after `--out`), and fails if a frame is blank.
//!
//! A game compiles its effects in a build script (`shadowdusk_build::Builder::new()
//! .dir("shaders").wgpu(true).compile()`) and writes `include_effect!("shaders/tint.fx")`;
//! an example has no build script, so these compile inside the macro (`in_process`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::asset::RenderAssetUsages;
use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::gpu_readback::{Readback, ReadbackComplete};
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use shadowdusk_bevy::hot::HotReloadPlugin;
use shadowdusk_bevy::{EffectMaterial, EffectPlugin, EffectPostProcess};

shadowdusk::include_effect!("examples/shaders/tint.fx", in_process, wgpu);
shadowdusk::include_effect!("examples/shaders/wave.fx", in_process, wgpu);
shadowdusk::include_effect!("examples/shaders/grayscale.fx", in_process, wgpu);

const WIDTH: u32 = 320;
const HEIGHT: u32 = 192;
const HEADLESS_FRAMES: u32 = 90;
const SAVED: [u32; 3] = [10, 45, 90];

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let headless = args.iter().any(|a| a == "--headless");
    let out = args
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bevy-effects")
        });

    let mut app = App::new();
    let plugins = (
        EffectPlugin::<tint::Effect>::default(),
        EffectPlugin::<wave::Effect>::default(),
        EffectPlugin::<grayscale::Effect>::default(),
    );
    app.init_resource::<Frame>()
        .add_systems(Startup, setup)
        .add_systems(Update, animate);
    if args.iter().any(|a| a == "--hot") {
        app.add_plugins((
            HotReloadPlugin::<tint::Effect>::new(),
            HotReloadPlugin::<wave::Effect>::new(),
            HotReloadPlugin::<grayscale::Effect>::new(),
        ));
    }
    if !headless {
        app.add_plugins((DefaultPlugins, plugins)).run();
        return Ok(());
    }

    app.add_plugins((
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            })
            .disable::<WinitPlugin>(),
        plugins,
    ))
    .insert_resource(Headless::default());
    app.finish();
    app.cleanup();
    for _ in 0..HEADLESS_FRAMES + 4 {
        app.update();
    }
    let frames = app
        .world()
        .resource::<Headless>()
        .frames
        .lock()
        .unwrap()
        .clone();
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for n in SAVED {
        // Frame n is the n-th read back; read-backs arrive in order.
        let frame = frames
            .get(n as usize - 1)
            .ok_or(format!("only {} frames were read back", frames.len()))?;
        if frame.chunks(4).all(|p| p == &frame[..4]) {
            return Err(format!("frame {n} is one colour: nothing was drawn"));
        }
        let path = out.join(format!("effects-{n:03}.png"));
        image::save_buffer(&path, frame, WIDTH, HEIGHT, image::ColorType::Rgba8)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Frames drawn so far: the animation clock (one frame is 1/60 s), so headless runs draw the
/// same pictures every time.
#[derive(Resource, Default)]
struct Frame(u32);

/// Headless runs draw into an image and read every frame back.
#[derive(Resource, Default)]
struct Headless {
    frames: Arc<Mutex<Vec<Vec<u8>>>>,
}

#[derive(Component)]
struct Tinted;

#[derive(Component)]
struct Waving;

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut tints: ResMut<Assets<EffectMaterial<tint::Effect>>>,
    mut waves: ResMut<Assets<EffectMaterial<wave::Effect>>>,
    headless: Option<Res<Headless>>,
) {
    let texture = images.add(checker_image());
    let quad = meshes.add(Rectangle::new(112.0, 112.0));
    let tint = EffectMaterial::new(tint::passes::sprite_drawing::P0)
        .expect("tint.fx's pass is pixel-only")
        .with_texture(tint::textures::SPRITE_TEXTURE, texture.clone());
    let wave = EffectMaterial::new(wave::passes::wave::P0)
        .expect("wave.fx's pass is pixel-only")
        .with_texture(wave::textures::SPRITE_TEXTURE, texture)
        .with_color(Color::srgb(1.0, 0.9, 0.6));
    commands.spawn((
        Mesh2d(quad.clone()),
        MeshMaterial2d(tints.add(tint)),
        Transform::from_xyz(-72.0, 0.0, 0.0),
        Tinted,
    ));
    commands.spawn((
        Mesh2d(quad),
        MeshMaterial2d(waves.add(wave)),
        Transform::from_xyz(72.0, 0.0, 0.0),
        Waving,
    ));

    let grayscale = EffectPostProcess::new(grayscale::Technique::Grayscale.passes())
        .expect("grayscale.fx's pass is pixel-only");
    let mut camera = commands.spawn((
        Camera2d,
        Camera {
            clear_color: ClearColorConfig::Custom(Color::srgb(0.15, 0.2, 0.35)),
            ..default()
        },
        grayscale,
    ));
    if let Some(headless) = headless {
        let mut image =
            Image::new_target_texture(WIDTH, HEIGHT, TextureFormat::Rgba8UnormSrgb, None);
        image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
        let target = images.add(image);
        camera.insert(RenderTarget::Image(target.clone().into()));
        let frames = headless.frames.clone();
        commands
            .spawn(Readback::texture(target))
            .observe(move |event: On<ReadbackComplete>| {
                frames.lock().unwrap().push(event.data.clone());
            });
    }
}

/// The typed setters, every frame: the tint cycles through hues, the wave moves, and the
/// grayscale fades in and out.
fn animate(
    mut frame: ResMut<Frame>,
    mut tints: ResMut<Assets<EffectMaterial<tint::Effect>>>,
    mut waves: ResMut<Assets<EffectMaterial<wave::Effect>>>,
    tinted: Query<&MeshMaterial2d<EffectMaterial<tint::Effect>>, With<Tinted>>,
    waving: Query<&MeshMaterial2d<EffectMaterial<wave::Effect>>, With<Waving>>,
    mut post: Query<&mut EffectPostProcess<grayscale::Effect>>,
) {
    frame.0 += 1;
    let t = frame.0 as f32 / 60.0;
    for handle in &tinted {
        if let Some(mut material) = tints.get_mut(&handle.0) {
            let (s, c) = (t * 2.0).sin_cos();
            material
                .params_mut()
                .set_tint([0.6 + 0.4 * s, 0.6 + 0.4 * c, 0.6 - 0.4 * s, 1.0]);
        }
    }
    for handle in &waving {
        if let Some(mut material) = waves.get_mut(&handle.0) {
            material.params_mut().set_time(t);
        }
    }
    for mut grayscale in &mut post {
        grayscale
            .params_mut()
            .set_amount(0.5 - 0.5 * (t * 1.5).cos());
    }
}

/// A 64 × 64 checkerboard with a coloured border, made here (no image files to load).
fn checker_image() -> Image {
    let mut texels = Vec::with_capacity(64 * 64 * 4);
    for y in 0..64u32 {
        for x in 0..64u32 {
            let border = x < 4 || y < 4 || x >= 60 || y >= 60;
            let light = (x / 8 + y / 8) % 2 == 0;
            texels.extend_from_slice(match (border, light) {
                (true, _) => &[230, 120, 40, 255],
                (false, true) => &[240, 240, 240, 255],
                (false, false) => &[40, 90, 200, 255],
            });
        }
    }
    Image::new(
        Extent3d {
            width: 64,
            height: 64,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        texels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}
