use shadowdusk_bevy::EffectMaterial;

shadowdusk::include_effect!("shaders/tint.fx", in_process, wgpu);
shadowdusk::include_effect!("shaders/grayscale.fx", in_process, wgpu);

fn main() {
    // grayscale's pass, parameters and texture slot for a tint material.
    let material = EffectMaterial::<tint::Effect>::new(grayscale::passes::grayscale::P0);
    let mut material = EffectMaterial::<tint::Effect>::new(tint::passes::sprite_drawing::P0)
        .unwrap()
        .with_params(grayscale::Params::default());
    material.set_texture(grayscale::textures::SPRITE_TEXTURE, Default::default());
    let _ = material;
}
