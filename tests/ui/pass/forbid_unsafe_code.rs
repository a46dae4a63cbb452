// Generated code keeps the `unsafe` of the pass and slot constructors to itself: a crate that
// forbids unsafe code can still include an effect and use its passes and slots.
#![forbid(unsafe_code)]

shadowdusk::include_effect!("shaders/tint.fx", in_process);

use shadowdusk::gl::{GlContext, GlEffect, GlError, GlTexture, RenderTarget};

fn draw(ctx: &GlContext, texture: &GlTexture) -> Result<(), GlError> {
    let mut fx = GlEffect::<tint::Effect>::new(ctx)?;
    fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))?;
    fx.apply(tint::passes::sprite_drawing::P0, &RenderTarget::backbuffer(4, 4))?;
    Ok(())
}

fn main() {
    let _ = draw;
}
