//! A small game drawn entirely with ShadowDusk effects: the shaders in `shaders/` are compiled
//! to MGFX by the build script (`shadowdusk_build::Builder`), embedded as typed modules by
//! `shadowdusk::include_effect!` ([`effects`]), and loaded into OpenGL by
//! `shadowdusk::gl::GlEffect<effects::tint::Effect>` and friends the way MonoGame's OpenGL
//! runtime loads them, each typed by its effect.
//!
//! Scenes (keys `1`–`6`, Tab for the next): a sprite through `tint`, `sepia`, `grayscale` and
//! a time-driven `wave`, each beside the untouched sprite; and a textured, lit cube drawn by a
//! custom vertex and pixel shader in two passes (outline, lit), both to the back buffer and to
//! a render target shown as an inset; and a ribbon bent by two bones, skinned on the GPU by a
//! SkinnedEffect-style `float4x3` bone palette whose bones are glam values. Parameters are set every frame through the generated
//! typed setters. The label of the active scene is drawn with a built-in bitmap font.
//!
//! The binary runs in a window (winit + glutin) or headless (`--headless`, EGL surfaceless);
//! the modules here are also what the screenshot test uses to know where to look. With `--hot`
//! every effect follows its source file ([`hot`]): a saved edit is swapped in on the next frame
//! when its register layout still fits the generated code, and the label says what happened.

pub mod cube;
pub mod effects;
pub mod font;
pub mod game;
pub mod hot;
pub mod mesh;
pub mod options;
pub mod run;
pub mod scene;
pub mod screenshots;
pub mod skinned;
pub mod texture;
pub mod window;
