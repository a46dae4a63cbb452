//! Prints its OUT_DIR and, per effect, what the OpenGL runtime reads from its MGFX and whether
//! its module has a wgpu part.

#![deny(warnings)]

use shadowdusk::Effect;

mod effects {
    use super::describe;
    include!(concat!(env!("OUT_DIR"), "/effects.rs"));
}

fn describe<E: Effect>(rel: &str) -> String {
    let techniques = shadowdusk::mgfx::read(E::MGFX).map_or(0, |m| m.techniques.len());
    format!(
        "{rel}: techniques={techniques} wgpu={}",
        E::WGPU.is_some()
    )
}

fn main() {
    println!("out_dir={}", env!("OUT_DIR"));
    for line in effects::all() {
        println!("{line}");
    }
}
