//! The README's first steps in a game of one's own: the build script compiles `shaders/`, the
//! macro brings in the typed module, the binary prints what its `Params` hold.

shadowdusk::include_effect!("shaders/tint.fx");

fn main() {
    let mut params = tint::Params::default();
    println!("default tint = {:?}", params.tint());
    params.set_tint([1.0, 0.5, 0.25, 1.0]);
    println!("tint = {:?}", params.tint());
    println!("amount = {}", params.amount());
    println!("mgfx = {} bytes", tint::MGFX.len());
}
