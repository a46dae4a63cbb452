// Another effect's `Params` cannot be uploaded to `tint`, whatever its register layout.
shadowdusk::include_effect!("shaders/tint.fx", in_process);
shadowdusk::include_effect!("shaders/grayscale.fx", in_process);

use shadowdusk::gl::{GlContext, GlEffect, GlError};

fn upload(ctx: &GlContext) -> Result<(), GlError> {
    let mut fx = GlEffect::<tint::Effect>::new(ctx)?;
    fx.set_params(&grayscale::Params::default());
    Ok(())
}

fn main() {
    let _ = upload;
}
