//! Compiles `shaders/` ahead of the macros, as a game would; the define proves (in the crate's
//! test) that `include_effect!` took the build script's artifacts instead of compiling alone.

fn main() {
    shadowdusk_build::Builder::new()
        .dir("shaders")
        .define("CONSUMER_BUILD_SCRIPT", "1")
        .compile();
}
