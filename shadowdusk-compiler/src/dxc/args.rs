//! DXC command-line arguments for the OpenGL (SPIR-V) path (fx-pipeline.md §7).
//!
//! Choices, and why:
//! * `-spirv -fspv-target-env=vulkan1.0`: SPIR-V 1.0, the oldest SPIRV-Cross input.
//! * `-fvk-use-dx-layout`: D3D cbuffer packing, so reflected offsets are HLSL's.
//! * No `-Zpr`: matrices keep HLSL's default `column_major` packing. That is the memory layout
//!   MonoGame's `EffectParameter.SetValue(Matrix)` uploads (register k = column k,
//!   glsl-dialect.md §3.3), and SPIRV-Cross's flattened reads follow the SPIR-V matrix
//!   decorations, so the emitted GLSL reads exactly what MonoGame writes.
//! * `-HV 2018`: HLSL 2021 rejects idioms that old MonoGame shaders use everywhere (vector
//!   conditions in `?:`, `&&`/`||` on vectors); 2018 accepts them (see the tests in `mod.rs`).
//! * `-WX` only on the first try: a clean compile then proves there was nothing to warn about;
//!   see [`super::compile`] for why warnings are read that way. The retry adds
//!   `-Wno-error=return-type`: DXC refuses a path that ends a non-void function without
//!   `return` even without `-WX`, where fxc compiled the effect.
//! * `-O3`: lets DXC fold and inline everything; the legacy GLSL targets have no function
//!   pointers or recursion anyway.
//! * pixel stage: `-fvk-use-dx-position-w`, so `SV_Position.w` reads as D3D's `1/w`.

use crate::lower::Stage;

/// HLSL language version passed as `-HV`.
pub const HLSL_VERSION: &str = "2018";

/// The DXC target profile for a stage.
pub fn profile(stage: Stage) -> &'static str {
    match stage {
        Stage::Vertex => "vs_6_0",
        Stage::Pixel => "ps_6_0",
    }
}

/// The arguments (without entry point and profile, which hassle-rs passes separately).
pub fn arguments(stage: Stage, warnings_as_errors: bool) -> Vec<&'static str> {
    let mut a = vec![
        "-spirv",
        "-fspv-target-env=vulkan1.0",
        "-fvk-use-dx-layout",
        "-HV",
        HLSL_VERSION,
        "-O3",
    ];
    if warnings_as_errors {
        a.push("-WX");
    } else {
        // DXC makes a path that can end a non-void function without `return` an error; fxc
        // compiled effects that have one, so the retry keeps it a warning (SD0110, from the
        // first run's message).
        a.push("-Wno-error=return-type");
    }
    if stage == Stage::Pixel {
        a.push("-fvk-use-dx-position-w");
    }
    a
}
