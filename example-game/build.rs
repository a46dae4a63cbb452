//! Compiles every effect in `shaders/` to MGFX (and WGSL for `--wgpu`) at build time; `include_effect!` in
//! `src/effects.rs` then picks up the artifacts (and the typed modules) from `OUT_DIR`.

fn main() {
    shadowdusk_build::Builder::new()
        .dir("shaders")
        .wgpu(true)
        .compile();
}
