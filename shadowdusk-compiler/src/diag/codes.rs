//! The stable error-code registry.
//!
//! Codes are never renumbered. Where the meaning is the same as in the C# ShadowDusk compiler the
//! number is reused (FX00xx: effect syntax, SD0xxx: compiler), so users' searches keep working.
//! `docs/error-codes.md` (this crate's; [`super::ERROR_INDEX`]) explains each code; a test checks that every code is listed there.

/// A stable diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[non_exhaustive]
pub enum Code {
    // ---- preprocessing -------------------------------------------------------------------
    /// `#include` target not found in any searched directory.
    SD0001,
    /// `#include` cycle (a file includes itself through its own include chain).
    SD0002,
    /// `#error` directive reached.
    SD0003,
    /// Malformed preprocessor directive, unterminated `#if`, bad macro invocation, bad `#if`
    /// expression.
    SD0004,
    /// The input file could not be read.
    SD0005,
    /// Unterminated block comment or string literal.
    SD0006,
    /// Warning: `#if name(...)` where `name` is no function-like macro; the call counts as 0 (mgfxc).
    SD0007,
    /// Warning: an `#include` found only by ignoring letter case (as Windows and mgfxc find it).
    SD0008,
    /// An `#include` that matches several files when letter case is ignored.
    SD0009,

    // ---- effect syntax -------------------------------------------------------------------
    /// Unexpected token.
    FX0001,
    /// End of file inside a technique or pass.
    FX0002,
    /// `compile` not followed by `profile Entry(...)`, or arguments that no overload of the entry
    /// takes, or two take alike (fxc's X3013, X3017, X3067).
    FX0003,
    /// Duplicate technique name (a warning: mgfxc keeps both).
    FX0005,
    /// Duplicate pass name in one technique (a warning: mgfxc keeps both).
    FX0006,
    /// Unclosed annotation block.
    FX0007,
    /// Missing `;`.
    FX0008,
    /// End of file inside a sampler state block.
    FX0009,
    /// A character the lexer cannot classify.
    FX0011,
    /// A legacy intrinsic that cannot be lowered.
    FX0012,
    /// No technique with at least one pass.
    SD0010,
    /// Unknown render-state key or value.
    SD0011,
    /// Unknown shader profile, or one that does not fit the stage (`VertexShader = compile ps_3_0`).
    SD0013,
    /// Unknown sampler-state key or value, or malformed `BorderColor`.
    SD0024,
    /// Unsupported global initializer (not a constant expression ShadowDusk can evaluate).
    SD0025,
    /// Unknown key or value in a global `BlendState`/`DepthStencilState`/`RasterizerState` object.
    SD0026,
    /// A pass statement naming a state object that is not declared (or of another kind), or setting a shader stage MonoGame lacks.
    SD0027,
    /// An effect-framework type (`VertexShader`, `BlendState`, `texture`, ...) used in HLSL code:
    /// a shader or state type on a parameter or member, any effect type in a cast, a call, a
    /// local or a global array.
    SD0028,
    /// A pixel-shader output above render target 7 (`COLOR8`, `SV_Target9`; the index read into
    /// 32 bits, as fxc reads it).
    SD0029,
    /// A bad command line (unknown option, unsupported `/Profile:`, missing file argument).
    SD0030,
    /// The output file or its folder could not be written.
    SD0031,

    // ---- container limits ----------------------------------------------------------------
    /// Constant buffer larger than 32767 bytes.
    SD0020,
    /// Too many shaders (index above 32767).
    SD0021,
    /// More than 255 samplers, cbuffers or attributes in a shader, or a parameter index above 255.
    SD0022,
    /// Sampler slot above 15 or two samplers on one slot.
    SD0023,

    // ---- internal consistency -------------------------------------------------------------
    /// A GLSL uniform or sampler that has no effect parameter.
    SD0012,
    /// The same parameter name with different types in two stages, or a texture and a value
    /// parameter sharing a name.
    SD0014,

    // ---- external tools ------------------------------------------------------------------
    /// DXC reported an error (its text is passed through, remapped to the original file).
    SD0100,
    /// SPIRV-Cross failed, or the SPIR-V blob was malformed.
    SD0101,
    /// The entry point named by a `compile` statement does not exist.
    SD0102,
    /// `libdxcompiler.so` could not be found or loaded.
    SD0103,
    /// DXC crashed or did not finish on a shader (it runs in a worker process; only that effect
    /// fails).
    SD0104,
    /// A DXC warning (fxc warned about the same thing; the effect still compiles).
    SD0110,
    /// A function a shader reaches has no path that returns a value (fxc's X3507), or a
    /// `return;` without a value in a function that returns one (fxc's X3080).
    SD0111,

    // ---- dialect rewrite (things MonoGame's GL runtime cannot bind) -----------------------
    /// A uniform whose type the MonoGame GL runtime cannot bind (struct, non-square matrix, ...).
    SD0210,
    /// A sampler used in a vertex shader (MonoGame GL never binds vertex textures).
    SD0211,
    /// A sampler kind the GL dialect cannot express (arrays, shadow samplers, 1D on GLES).
    SD0212,
    /// A vertex input semantic with no `VertexElementUsage`.
    SD0213,
    /// A projected lookup on a cube sampler (a guard: the lowering never produces one).
    SD0214,
    /// A user identifier collides with a generated one (`posFixup`, `ps_oC0`, ...).
    SD0215,
    /// A pixel-shader input semantic that no MonoGame vertex shader writes.
    SD0216,
    /// A vertex shader that writes no position (`POSITION` / `SV_Position` output).
    SD0217,
    /// Uniforms a shader reads need more constant registers than its profile has.
    SD0218,
    /// Any other construct the GL dialect rewrite cannot translate.
    SD0219,
    /// Warning: a shader reads more constant registers than OpenGL ES 2.0 guarantees.
    SD0220,
    /// An integer bit operation (`&`, `|`, `^`, `~`, `<<`, `>>`), which Shader Model 2/3 lacks.
    SD0221,

    // ---- wgpu target (WGSL) ----------------------------------------------------------------
    /// A construct the wgpu target cannot express (a uniform used other than by reading it,
    /// clip distances).
    SD0300,
    /// A texture read without a sampler slot, which the fixed binding rule cannot place.
    SD0301,
    /// A vertex input or varying semantic with no location in the wgpu tables.
    SD0302,
    /// naga refused the translated module (a ShadowDusk bug).
    SD0303,
    /// The wgpu target was asked of a compiler built without its feature `wgsl`.
    SD0304,

    // ---- wgpu target (states wgpu cannot give as MonoGame does; warnings) -----------------
    /// Warning: border addressing (a native-only wgpu feature; three border colours).
    SD0310,
    /// Warning: a nonzero mip LOD bias (wgpu samplers have none).
    SD0311,
    /// Warning: `FillMode = WireFrame` (a native-only wgpu feature).
    SD0312,
    /// Warning: `ScissorTestEnable = true` (wgpu always clips to the pass's scissor rectangle).
    SD0313,
    /// Warning: a depth bias (wgpu refuses it for lines and points).
    SD0314,
}

impl Code {
    /// Whether the code means a ShadowDusk bug rather than something in the user's effect: a
    /// consistency check between stages (SD0012) or SPIRV-Cross refusing what DXC produced
    /// (SD0101). Valid HLSL must never reach one (`tests/tests/no_internal_errors.rs`).
    pub fn is_internal(self) -> bool {
        matches!(self, Code::SD0012 | Code::SD0101 | Code::SD0303)
    }

    /// The printed form, e.g. `"SD0001"`.
    pub fn as_str(self) -> &'static str {
        use Code::*;
        match self {
            SD0001 => "SD0001",
            SD0002 => "SD0002",
            SD0003 => "SD0003",
            SD0004 => "SD0004",
            SD0005 => "SD0005",
            SD0006 => "SD0006",
            SD0007 => "SD0007",
            SD0008 => "SD0008",
            SD0009 => "SD0009",
            FX0001 => "FX0001",
            FX0002 => "FX0002",
            FX0003 => "FX0003",
            FX0005 => "FX0005",
            FX0006 => "FX0006",
            FX0007 => "FX0007",
            FX0008 => "FX0008",
            FX0009 => "FX0009",
            FX0011 => "FX0011",
            FX0012 => "FX0012",
            SD0010 => "SD0010",
            SD0011 => "SD0011",
            SD0013 => "SD0013",
            SD0024 => "SD0024",
            SD0025 => "SD0025",
            SD0026 => "SD0026",
            SD0027 => "SD0027",
            SD0028 => "SD0028",
            SD0029 => "SD0029",
            SD0030 => "SD0030",
            SD0031 => "SD0031",
            SD0020 => "SD0020",
            SD0021 => "SD0021",
            SD0022 => "SD0022",
            SD0023 => "SD0023",
            SD0012 => "SD0012",
            SD0014 => "SD0014",
            SD0100 => "SD0100",
            SD0101 => "SD0101",
            SD0102 => "SD0102",
            SD0103 => "SD0103",
            SD0104 => "SD0104",
            SD0110 => "SD0110",
            SD0111 => "SD0111",
            SD0210 => "SD0210",
            SD0211 => "SD0211",
            SD0212 => "SD0212",
            SD0213 => "SD0213",
            SD0214 => "SD0214",
            SD0215 => "SD0215",
            SD0216 => "SD0216",
            SD0217 => "SD0217",
            SD0218 => "SD0218",
            SD0219 => "SD0219",
            SD0220 => "SD0220",
            SD0221 => "SD0221",
            SD0300 => "SD0300",
            SD0301 => "SD0301",
            SD0302 => "SD0302",
            SD0303 => "SD0303",
            SD0304 => "SD0304",
            SD0310 => "SD0310",
            SD0311 => "SD0311",
            SD0312 => "SD0312",
            SD0313 => "SD0313",
            SD0314 => "SD0314",
        }
    }

    /// Every code, in registry order (for the documentation test).
    pub const ALL: &'static [Code] = &[
        Code::SD0001,
        Code::SD0002,
        Code::SD0003,
        Code::SD0004,
        Code::SD0005,
        Code::SD0006,
        Code::SD0007,
        Code::SD0008,
        Code::SD0009,
        Code::FX0001,
        Code::FX0002,
        Code::FX0003,
        Code::FX0005,
        Code::FX0006,
        Code::FX0007,
        Code::FX0008,
        Code::FX0009,
        Code::FX0011,
        Code::FX0012,
        Code::SD0010,
        Code::SD0011,
        Code::SD0013,
        Code::SD0024,
        Code::SD0025,
        Code::SD0026,
        Code::SD0027,
        Code::SD0028,
        Code::SD0029,
        Code::SD0030,
        Code::SD0031,
        Code::SD0020,
        Code::SD0021,
        Code::SD0022,
        Code::SD0023,
        Code::SD0012,
        Code::SD0014,
        Code::SD0100,
        Code::SD0101,
        Code::SD0102,
        Code::SD0103,
        Code::SD0104,
        Code::SD0110,
        Code::SD0111,
        Code::SD0210,
        Code::SD0211,
        Code::SD0212,
        Code::SD0213,
        Code::SD0214,
        Code::SD0215,
        Code::SD0216,
        Code::SD0217,
        Code::SD0218,
        Code::SD0219,
        Code::SD0220,
        Code::SD0221,
        Code::SD0300,
        Code::SD0301,
        Code::SD0302,
        Code::SD0303,
        Code::SD0304,
        Code::SD0310,
        Code::SD0311,
        Code::SD0312,
        Code::SD0313,
        Code::SD0314,
    ];
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
