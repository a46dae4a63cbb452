//! Shared helpers for ShadowDusk's integration tests: headless OpenGL (EGL surfaceless + Mesa
//! llvmpipe), render targets, textures, SpriteBatch-like drawing and image comparison.

pub mod draw;
pub mod effect_builder;
pub mod files;
pub mod fixture;
pub mod gl_harness;
pub mod gl_state;
pub mod glsl_check;
pub mod hot_edits;
pub mod image_util;
pub mod parity;
pub mod textures;

pub use draw::{draw_mesh, draw_mesh_instanced, draw_sprite, Element, Sprite};
pub use gl_harness::{read_framebuffer, Fbo, Headless, MrtFbo, Orientation};
pub use image_util::{max_channel_diff, save_png, solid};
pub use textures::{texture_2d, texture_3d, texture_cube, Filter};
pub mod corpus;

pub use shadowdusk_testkit::skip;
