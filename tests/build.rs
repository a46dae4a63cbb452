//! Compiles `hot/options/` with options that are not the defaults (a define, an include folder,
//! `/WX`, MGFX v11), for `tests/hot_reload.rs`: a reload must compile an effect as its build
//! did; and two corpus effects for wgpu too, for `tests/wgpu_module.rs`. Every other effect of
//! the tests is compiled in the macro (`in_process`) or at run time.

fn main() {
    shadowdusk_build::Builder::new()
        .file("hot/options/glow_built.fx")
        .define("GLOW_RED", "0.5")
        .include_dir("hot/options/include")
        .warnings_as_errors(true)
        .mgfx_version(shadowdusk_build::MgfxVersion::V11)
        .compile();
    // The wgpu part of generated modules. `render_states.fx` has a wireframe pass, a state wgpu
    // cannot express: its SD0312 is the test's business, not a warning for every test build.
    shadowdusk_build::Builder::new()
        .file("corpus/basic_lighting.fx")
        .file("corpus/render_states.fx")
        .wgpu(true)
        .print_warnings(false)
        .compile();
}
