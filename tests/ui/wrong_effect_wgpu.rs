// On wgpu too, `WgpuEffect<tint::Effect>` takes only `tint`'s passes, texture slots and `Params`.
shadowdusk::include_effect!("shaders/tint.fx", in_process);
shadowdusk::include_effect!("shaders/grayscale.fx", in_process);

use shadowdusk::wgpu_runtime::{Target, WgpuEffect, WgpuError, WgpuTexture};

fn draw(device: &shadowdusk::wgpu::Device, texture: &WgpuTexture, target: &Target) -> Result<(), WgpuError> {
    let mut fx = WgpuEffect::<tint::Effect>::new(device)?;
    fx.apply(grayscale::passes::grayscale::P0, target)?;
    fx.set_texture(grayscale::textures::SPRITE_TEXTURE, Some(texture))?;
    fx.set_params(&grayscale::Params::default());
    Ok(())
}

fn main() {
    let _ = draw;
}
