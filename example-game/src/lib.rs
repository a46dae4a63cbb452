//! A small game drawn entirely with ShadowDusk effects: the shaders in `shaders/` are compiled
//! to MGFX (and, for wgpu, to WGSL) by the build script (`shadowdusk_build::Builder` with
//! `wgpu(true)`), embedded as typed modules by `shadowdusk::include_effect!` ([`effects`]), and
//! drawn by either runtime, each effect typed by its module:
//! * OpenGL ([`game`]): `shadowdusk::gl::GlEffect<effects::tint::Effect>` and friends, loaded
//!   the way MonoGame's OpenGL runtime loads them;
//! * wgpu (`--wgpu`, [`wgpu_game`]): `shadowdusk::wgpu_runtime::WgpuEffect<effects::tint::Effect>`
//!   and friends, with its `SpriteBatch`, the meshes in [`wgpu_mesh`] and `WgpuRenderTarget`s.
//!
//! Scenes (keys `1`–`6`, Tab for the next): a sprite through `tint`, `sepia`, `grayscale` and
//! a time-driven `wave`, each beside the untouched sprite; and a textured, lit cube drawn by a
//! custom vertex and pixel shader in two passes (outline, lit), both to the back buffer and to
//! a render target shown as an inset; and a ribbon bent by two bones, skinned on the GPU by a
//! SkinnedEffect-style `float4x3` bone palette whose bones are glam values. Parameters are set
//! every frame through the generated typed setters ([`frame::Params`], shared by both
//! renderers, as are the scene data in [`scene`], [`cube`], [`skinned`], [`texture`] and the
//! text laid out with the built-in bitmap font, [`font`]). The label of the active scene is
//! drawn with that font.
//!
//! The binary runs in a window (winit with glutin, or with a wgpu surface) or headless
//! (`--headless`: EGL surfaceless, or a wgpu device without a surface); screenshots
//! ([`screenshots`]) are written the same way for both. The modules here are also what the
//! screenshot tests use to know where to look, and the wgpu run is checked against the OpenGL
//! one pixel for pixel. With `--hot` (OpenGL only) every effect follows its source file
//! ([`hot`]): a saved edit is swapped in on the next frame when its register layout still fits
//! the generated code, and the label says what happened.

pub mod app;
pub mod cube;
pub mod effect_list;
pub mod effects;
pub mod font;
pub mod frame;
pub mod game;
pub mod hot;
pub mod mesh;
pub mod options;
pub mod run;
pub mod scene;
pub mod screenshots;
pub mod skinned;
pub mod texture;
pub mod wgpu_game;
pub mod wgpu_mesh;
pub mod wgpu_window;
pub mod window;
