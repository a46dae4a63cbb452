// A pass of another effect, named directly or through its technique, is not a pass of `tint`.
shadowdusk::include_effect!("shaders/tint.fx", in_process);
shadowdusk::include_effect!("shaders/grayscale.fx", in_process);

use shadowdusk::gl::{GlContext, GlEffect, GlError, RenderTarget};

fn draw(ctx: &GlContext) -> Result<(), GlError> {
    let target = RenderTarget::backbuffer(8, 8);
    let mut fx = GlEffect::<tint::Effect>::new(ctx)?;
    fx.apply(grayscale::passes::grayscale::P0, &target)?;
    fx.apply(grayscale::Technique::Grayscale.passes()[0], &target)?;
    Ok(())
}

fn main() {
    let _ = draw;
}
