// A texture slot of another effect is not a texture slot of `tint`, even with the same name.
shadowdusk::include_effect!("shaders/tint.fx", in_process);
shadowdusk::include_effect!("shaders/grayscale.fx", in_process);

use shadowdusk::gl::{GlContext, GlEffect, GlError, GlTexture};

fn bind(ctx: &GlContext, texture: &GlTexture) -> Result<(), GlError> {
    let mut fx = GlEffect::<tint::Effect>::new(ctx)?;
    fx.set_texture(grayscale::textures::SPRITE_TEXTURE, Some(texture))?;
    Ok(())
}

fn main() {
    let _ = bind;
}
