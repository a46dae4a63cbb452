//! The effect-level syntax tree: what the effect parser extracts from the expanded text.
//!
//! Positions are byte ranges in the *expanded* text ([`crate::preprocess::Expanded::text`]);
//! map them with `Expanded::map` to report them.

use std::ops::Range;

use shadowdusk_mgfx::{BlendState, DepthStencilState, RasterizerState, SamplerState};

// Declared beside the type-name recognisers that build them, so that file needs nothing from
// this one; re-exported so every part of the syntax tree is still found here.
pub use super::types::{Dim, HlslType};

/// Everything the later stages need to know about the effect's own syntax.
#[derive(Clone, Debug, Default)]
pub struct EffectAst {
    /// Techniques in source order.
    pub techniques: Vec<Technique>,
    /// Uniform globals (top level and `cbuffer` members), in declaration order.
    pub globals: Vec<GlobalVar>,
    /// Sampler declarations (`sampler s0;`, `sampler2D S = sampler_state {...};`,
    /// `SamplerState S {...};`), in declaration order.
    pub samplers: Vec<SamplerDecl>,
    /// Texture declarations (`texture T;`, `Texture2D T;`, `TextureCube T : register(t1);`).
    pub textures: Vec<TextureDecl>,
    /// Functions with their signatures (entry points are looked up here).
    pub functions: Vec<Function>,
    /// Struct declarations (for entry-point input/output semantics).
    pub structs: Vec<StructDecl>,
    /// Global `BlendState`/`DepthStencilState`/`RasterizerState` objects, baked.
    pub state_objects: Vec<StateObject>,
}

impl EffectAst {
    /// Where the uniform, sampler or texture `name` is declared (its name's range), for errors
    /// about it.
    pub fn declaration(&self, name: &str) -> Option<Range<usize>> {
        self.globals
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.range.clone())
            .or_else(|| {
                let s = self.samplers.iter().find(|x| x.name == name);
                s.map(|x| x.range.clone())
            })
            .or_else(|| {
                let t = self.textures.iter().find(|x| x.name == name);
                t.map(|x| x.range.clone())
            })
            .or_else(|| self.entry_uniform(name).map(|g| g.range))
    }

    /// The effect parameter behind `$name`: a `uniform` entry-point parameter that a `compile`
    /// statement leaves without a literal. fxc compiles such a parameter as a constant and names
    /// it with a `$` in front in the shader's constant table, and mgfxc takes its parameters
    /// from those names, so `$name` is what MonoGame's `Parameters[...]` finds.
    pub fn entry_uniform(&self, name: &str) -> Option<GlobalVar> {
        let param = name.strip_prefix(ENTRY_UNIFORM_SIGIL)?;
        let p = self
            .functions
            .iter()
            .flat_map(|f| &f.params)
            .find(|p| p.qualifier == "uniform" && p.name == param)?;
        Some(GlobalVar {
            name: name.to_string(),
            ty: super::types::numeric(p.ty.trim())?,
            cbuffer: None,
            initializer: None,
            annotations: Vec::new(),
            register: None,
            semantic: p.semantic.clone(),
            range: p.range.clone(),
        })
    }
}

/// What fxc puts before the name of a `uniform` entry-point parameter in the constant table.
pub const ENTRY_UNIFORM_SIGIL: char = '$';

/// A global state object (`BlendState Additive { … };`) and its baked state.
#[derive(Clone, Debug)]
pub struct StateObject {
    /// Name.
    pub name: String,
    /// The baked state.
    pub state: super::state_objects::ObjectState,
    /// Where the name is.
    pub range: Range<usize>,
}

/// `technique Name < annotations > { pass ... }`.
#[derive(Clone, Debug)]
pub struct Technique {
    /// Name, "" when omitted.
    pub name: String,
    /// Where the name (or the keyword) is.
    pub range: Range<usize>,
    /// Parsed annotations (never written to MGFX, kept for reflection).
    pub annotations: Vec<Annotation>,
    /// Passes in source order.
    pub passes: Vec<Pass>,
}

/// `pass Name { VertexShader = compile vs_3_0 VS(); ... }`.
#[derive(Clone, Debug)]
pub struct Pass {
    /// Name, "" when omitted.
    pub name: String,
    /// Where the name (or the keyword) is.
    pub range: Range<usize>,
    /// Parsed annotations.
    pub annotations: Vec<Annotation>,
    /// `VertexShader = compile ...`.
    pub vertex_shader: Option<ShaderRef>,
    /// `PixelShader = compile ...`.
    pub pixel_shader: Option<ShaderRef>,
    /// Baked blend state when any blend key was set (mgfxc's order-dependent semantics).
    pub blend: Option<BlendState>,
    /// Baked depth-stencil state when any Z/stencil key was set.
    pub depth_stencil: Option<DepthStencilState>,
    /// Baked rasterizer state when any rasterizer key was set.
    pub rasterizer: Option<RasterizerState>,
}

/// `compile <profile> <entry>(<args>)`.
#[derive(Clone, Debug)]
pub struct ShaderRef {
    /// The profile, lowercased, after macro expansion (`ps_3_0`, `vs_4_0_level_9_1`).
    pub profile: String,
    /// The entry-point function name.
    pub entry: String,
    /// Literal arguments passed to the entry (uniform parameters), as source text.
    pub args: Vec<String>,
    /// Where the entry name is.
    pub range: Range<usize>,
}

/// `< type name = value; ... >`.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// Declared type (`string`, `int`, `float`, `bool`, ...).
    pub ty: String,
    /// Name.
    pub name: String,
    /// Value as written (string literals without quotes).
    pub value: String,
}

/// A uniform global variable (top level or inside a `cbuffer`).
#[derive(Clone, Debug)]
pub struct GlobalVar {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: HlslType,
    /// `cbuffer` name when declared inside one; `None` for `$Globals`.
    pub cbuffer: Option<String>,
    /// The initializer, flattened to floats in declaration order (matrices row by row as
    /// written in HLSL), when it is a constant expression; `None` when absent.
    pub initializer: Option<Vec<f64>>,
    /// Annotations.
    pub annotations: Vec<Annotation>,
    /// The text inside `register(...)` as written (`c4`, or `vs, c0` for a stage-qualified
    /// binding), if given.
    pub register: Option<String>,
    /// `: SEMANTIC` if given.
    pub semantic: Option<String>,
    /// Range of the declaration's name.
    pub range: Range<usize>,
}

/// A sampler declaration of any form.
#[derive(Clone, Debug)]
pub struct SamplerDecl {
    /// Name.
    pub name: String,
    /// Declared kind: `None` for plain `sampler` / `SamplerState` (dimension decided by use).
    pub dim: Option<Dim>,
    /// True for the D3D9 forms (`sampler`, `sampler2D`, ...); false for `SamplerState`.
    pub legacy: bool,
    /// `Texture = <T>` / `(T)` / `T` from the state block.
    pub texture: Option<String>,
    /// The baked state, when any key other than `Texture` was set (fx-pipeline.md §3.2).
    pub state: Option<SamplerState>,
    /// `register(sN)` → N.
    pub register: Option<u32>,
    /// Range of the name.
    pub range: Range<usize>,
}

/// A texture object declaration.
#[derive(Clone, Debug)]
pub struct TextureDecl {
    /// Name.
    pub name: String,
    /// Dimension (`texture` / `Texture` without a dimension is 2D).
    pub dim: Dim,
    /// `register(tN)` → N.
    pub register: Option<u32>,
    /// Range of the name.
    pub range: Range<usize>,
}

/// One parameter of a function.
#[derive(Clone, Debug)]
pub struct Param {
    /// `in`, `out`, `inout`, `uniform` or "" as written.
    pub qualifier: String,
    /// Type name as written (`float4`, `VSOutput`).
    pub ty: String,
    /// Name.
    pub name: String,
    /// Semantic, if any.
    pub semantic: Option<String>,
    /// Range of the whole parameter text.
    pub range: Range<usize>,
    /// A matrix parameter packed by rows (`row_major`, or `#pragma pack_matrix(row_major)` in
    /// force): on an interface each register holds a row instead of a column.
    pub row_major: bool,
}

/// A function signature and where its body is.
#[derive(Clone, Debug)]
pub struct Function {
    /// Name.
    pub name: String,
    /// Return type as written.
    pub return_type: String,
    /// Return semantic, if any, and its range.
    pub return_semantic: Option<(String, Range<usize>)>,
    /// Parameters.
    pub params: Vec<Param>,
    /// Range of the name.
    pub range: Range<usize>,
    /// Range of the body including braces.
    pub body: Range<usize>,
}

/// A struct declaration.
#[derive(Clone, Debug)]
pub struct StructDecl {
    /// Name.
    pub name: String,
    /// Members: (type, name, semantic, range of the semantic).
    pub members: Vec<StructMember>,
    /// Range of the whole declaration.
    pub range: Range<usize>,
}

/// A struct member.
#[derive(Clone, Debug)]
pub struct StructMember {
    /// Type as written.
    pub ty: String,
    /// Name.
    pub name: String,
    /// Semantic and its range.
    pub semantic: Option<(String, Range<usize>)>,
    /// Array length (`float2 Taps[5] : TEXCOORD0`), when a literal or constant expression.
    pub array: Option<u32>,
    /// A matrix member packed by rows (`row_major`, or `#pragma pack_matrix(row_major)` in
    /// force): on an interface each register holds a row instead of a column.
    pub row_major: bool,
}
