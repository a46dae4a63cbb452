//! Draws one case with one effect under Mesa, the way MonoGame would: MonoGame's default states
//! for everything the pass does not bake, every pass of the case's technique applied before each
//! draw, read back top-down in back-buffer or render-target orientation.

use glow::HasContext;
use image::RgbaImage;
use shadowdusk::gl::{DynEffect, DynPass, GlTexture};
use shadowdusk::mgfx::{Effect, VertexElementUsage};
use shadowdusk_tests::gl_state::reset_states;
pub use shadowdusk_tests::gl_state::zero_values;
use shadowdusk_tests::{draw_mesh, draw_sprite, Fbo, Headless, Orientation};

use super::cases::{Case, Draw};

/// Loads `effect` and sets the case's values and textures by name (the two effects may order
/// their parameters differently).
pub fn load(
    h: &Headless,
    effect: Effect,
    case: &Case,
    textures: &[(&str, GlTexture)],
) -> Result<DynEffect, String> {
    let mut fx =
        DynEffect::from_effect(h.ctx(), effect).map_err(|e| format!("does not load: {e}"))?;
    for (name, values) in &case.values {
        let i = fx
            .parameter(name)
            .map_err(|_| format!("has no parameter `{name}`"))?;
        fx.set_values(i, values)
            .map_err(|e| format!("setting `{name}`: {e}"))?;
    }
    for (name, tex) in textures {
        let i = fx
            .parameter(name)
            .map_err(|_| format!("has no texture parameter `{name}`"))?;
        fx.set_texture(i, Some(tex))
            .map_err(|e| format!("texture `{name}`: {e}"))?;
    }
    Ok(fx)
}

fn draw_all(h: &Headless, fx: &mut DynEffect, case: &Case, o: Orientation) -> Result<(), String> {
    let ctx = h.ctx();
    h.clear_with(case.clear, case.stencil);
    reset_states(ctx);
    let target = h.target(o);
    let passes: Vec<DynPass> = fx.passes(case.technique).collect();
    if passes.is_empty() {
        return Err(format!("technique {} has no passes", case.technique));
    }
    for draw in &case.draws {
        for &pass in &passes {
            let applied = fx
                .apply(pass, &target)
                .map_err(|e| format!("apply pass {}: {e}", pass.pass))?;
            match draw {
                Draw::Sprite(s) => draw_sprite(ctx, &applied, s)?,
                Draw::Mesh(m) => {
                    let mut elements = vec![
                        (VertexElementUsage::Position, 0, 3, m.positions.as_slice()),
                        (VertexElementUsage::Color, 0, 4, m.colors.as_slice()),
                        (
                            VertexElementUsage::TextureCoordinate,
                            0,
                            2,
                            m.uvs.as_slice(),
                        ),
                    ];
                    elements.extend(
                        m.extra
                            .iter()
                            .map(|(u, i, n, d)| (*u, *i, *n, d.as_slice())),
                    );
                    draw_mesh(ctx, &applied, &elements, &m.indices)?
                }
            }
        }
    }
    Ok(())
}

/// Renders the case and returns the top-down image.
pub fn render(
    h: &Headless,
    fx: &mut DynEffect,
    case: &Case,
    o: Orientation,
) -> Result<RgbaImage, String> {
    match o {
        Orientation::Backbuffer => {
            // SAFETY: binds the default framebuffer.
            unsafe { h.gl().bind_framebuffer(glow::FRAMEBUFFER, None) };
            draw_all(h, fx, case, o)?;
            Ok(h.read_rgba(o))
        }
        Orientation::RenderTarget => {
            let fbo = Fbo::new(h.ctx(), h.width, h.height)?;
            fbo.bind();
            let result = draw_all(h, fx, case, o).map(|_| fbo.read_rgba());
            Fbo::unbind(h.ctx(), h.width, h.height);
            result
        }
    }
}

pub use shadowdusk_tests::image_util::difference;
