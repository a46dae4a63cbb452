//! Entry-point rewrites for one `compile` statement (fx-pipeline.md §4.1 items 3 and 5, and
//! literal `compile` arguments).
//!
//! Pixel entry: outputs `COLOR[n]` → `SV_Target[n]`, `DEPTH[n]` → `SV_Depth`; inputs `VPOS` and
//! `POSITION[n]` → `SV_Position`, `VFACE` → a `bool : SV_IsFrontFace` parameter converted to
//! the ±1 float the user's code expects. Vertex entry: outputs `POSITION[n]` → `SV_Position`.
//! Outputs are found on the return semantic, `out`/`inout` parameters and the members of the
//! structs returned or written; this is safe because each (entry, stage) is lowered separately.
//!
//! Vertex inputs `SV_Position` read as an attribute become `POSITION0` (MonoGame's Position0).
//! A parameter or struct that is input and output at once, with different semantics on each
//! side (`inout float4 pos : SV_Position` in MonoGame's SpriteEffect, `V VS(V input)`), goes
//! through the wrapper: an input copy (a twin struct with the input semantics), the call, and
//! an `out` copy.
//!
//! `compile ps_2_0 PS(true)`: the literals bind the entry's `uniform` parameters in order, and a
//! wrapper `__sd_entry` with the remaining parameters calls the user's function; it is appended
//! at the end of the text, mapped to the entry name in the `compile` statement.
//!
//! Interface structs GLSL 1.10 varyings cannot carry as written (array or matrix members, a
//! pixel input's `VFACE` member) reach the entry through a flattened copy (`flat_struct`);
//! matrix parameters travel as one vector per register (a column; a row under `row_major`),
//! on consecutive semantic indices, as fxc packs them.
//!
//! A `uniform` parameter left without a literal is a constant the application sets, as under
//! fxc: the wrapper passes a generated global (`__sd_arg_<name>`), reflected as the effect
//! parameter `$<name>` (the name fxc gives it in the constant table, which mgfxc keeps).
//!
//! Which overload is compiled, and the refusals of `compile` arguments no overload takes, are
//! `overloads`'; an overloaded entry always goes through the wrapper, whose call names the
//! overload by its argument types. Refused here: an unbound `uniform` parameter of a type no
//! effect parameter has here (an array, a non-square matrix, a struct: FX0003).

mod flat;
mod semantics;
mod uniforms;
mod wrapper;

use super::emit::Edits;
use super::{RetypedUniform, Stage};
use crate::diag::Diagnostic;
use crate::effect::{Function, Param, ParamSite, ParsedEffect, ShaderRef, StructDecl};
use crate::source::SourceMap;
use semantics::{
    input_semantic, is_matrix, is_vface, output_semantic, pixel_input_semantic, sides_differ,
    vertex_input_semantic, NEUTRAL_VFACE,
};
use wrapper::Wrapper;

/// Prefix of the globals that carry unbound `uniform` entry parameters.
pub const ENTRY_UNIFORM_PREFIX: &str = "__sd_arg_";

/// Name of the generated wrapper entry.
pub const WRAPPER: &str = "__sd_entry";

/// Adds the entry rewrites for `ast.functions[fi]`, the overload the `compile` statement
/// names (`overloads::choose`); returns the name to hand DXC.
pub fn rewrite(
    parsed: &ParsedEffect,
    fi: usize,
    shader: &ShaderRef,
    stage: Stage,
    map: &SourceMap,
    edits: &mut Edits,
    retyped: &mut Vec<RetypedUniform>,
) -> Result<String, Box<Diagnostic>> {
    neutralize_other_vfaces(parsed, fi, edits);
    let entry = Entry::new(parsed, fi, stage);
    entry.member_semantics(edits);
    let f = entry.f;
    let unbound = uniforms::unbound(entry.src, f, entry.sites, shader, map)?;
    let wrapped = entry.wrapped();
    let return_semantic = f
        .return_semantic
        .as_ref()
        .and_then(|(s, _)| output_semantic(stage, s));
    if let (Some(new), Some((_, r))) = (&return_semantic, &f.return_semantic) {
        edits.replace(r.clone(), new.clone());
    }
    let w = Wrapper::parameters(&entry, wrapped, shader, &unbound, edits, retyped);
    if !w.prologue.is_empty() {
        edits.insert(f.body.start + 1, w.prologue.clone());
    }
    if !wrapped {
        return Ok(f.name.clone());
    }
    w.append(&entry, shader, return_semantic, edits);
    Ok(WRAPPER.to_string())
}

/// DXC sees the whole file and, under -WX, rejects `VFACE` wherever it is written, even on a
/// function this stage never calls (the pixel shader while compiling the vertex shader).
/// Outside the entry a semantic means nothing, so any spelling DXC accepts will do.
fn neutralize_other_vfaces(parsed: &ParsedEffect, fi: usize, edits: &mut Edits) {
    let ast = &parsed.ast;
    for (k, (other, other_sites)) in ast.functions.iter().zip(&parsed.sites.params).enumerate() {
        if k == fi {
            continue;
        }
        for (p, site) in other.params.iter().zip(other_sites) {
            if let (Some(sem), Some(r)) = (&p.semantic, &site.semantic_range) {
                if is_vface(sem) {
                    edits.replace(r.clone(), NEUTRAL_VFACE);
                }
            }
        }
    }
}

/// The entry being compiled and the shape of its interface: which structs it reads and
/// writes, and which parameters cannot reach DXC as written and need the wrapper.
struct Entry<'a> {
    parsed: &'a ParsedEffect,
    src: &'a str,
    f: &'a Function,
    sites: &'a [ParamSite],
    stage: Stage,
    /// Structs returned or written through `out`/`inout`: their members are outputs.
    out_structs: Vec<&'a str>,
    /// Structs read through a parameter: their members are inputs.
    in_structs: Vec<&'a str>,
    /// Structs both read and written by the entry (`VSOut VS(VSOut input)`): they cannot carry
    /// input and output semantics at once, so the wrapper reads them through a copy declared
    /// with the input semantics.
    two_way: Vec<&'a StructDecl>,
    /// DXC refuses an overloaded name as its entry ("ambiguous entry point function"), and
    /// resolves a call by its own rules: the wrapper calls the chosen overload with every
    /// literal cast to its parameter's type, which only that overload takes exactly.
    overloaded: bool,
}

impl<'a> Entry<'a> {
    fn new(parsed: &'a ParsedEffect, fi: usize, stage: Stage) -> Self {
        let ast = &parsed.ast;
        let f = &ast.functions[fi];
        let out_structs: Vec<&str> = std::iter::once(f.return_type.as_str())
            .chain(
                f.params
                    .iter()
                    .filter(|p| p.qualifier == "out" || p.qualifier == "inout")
                    .map(|p| p.ty.as_str()),
            )
            .collect();
        let in_structs: Vec<&str> = f
            .params
            .iter()
            .filter(|p| p.qualifier != "out" && p.qualifier != "uniform")
            .map(|p| p.ty.as_str())
            .collect();
        let two_way = ast
            .structs
            .iter()
            .filter(|s| {
                out_structs.contains(&s.name.as_str())
                    && in_structs.contains(&s.name.as_str())
                    && s.members.iter().any(|m| {
                        m.semantic
                            .as_ref()
                            .is_some_and(|(sem, _)| sides_differ(stage, sem))
                    })
            })
            .collect();
        Entry {
            parsed,
            src: parsed.stripped.as_str(),
            f,
            sites: &parsed.sites.params[fi],
            stage,
            out_structs,
            in_structs,
            two_way,
            overloaded: ast.functions.iter().filter(|g| g.name == f.name).count() > 1,
        }
    }

    /// Struct members: outputs of returned / written structs, inputs of read structs.
    fn member_semantics(&self, edits: &mut Edits) {
        let stage = self.stage;
        for s in &self.parsed.ast.structs {
            for m in &s.members {
                let Some((sem, range)) = &m.semantic else {
                    continue;
                };
                if self.out_structs.contains(&s.name.as_str()) {
                    if let Some(new) = output_semantic(stage, sem) {
                        edits.replace(range.clone(), new);
                    }
                } else if stage == Stage::Pixel && self.in_structs.contains(&s.name.as_str()) {
                    self.pixel_member_semantic(sem, &m.ty, range, edits);
                } else if stage == Stage::Vertex && self.in_structs.contains(&s.name.as_str()) {
                    if let Some(new) = vertex_input_semantic(sem) {
                        edits.replace(range.clone(), new);
                    }
                } else if is_vface(sem) {
                    edits.replace(range.clone(), NEUTRAL_VFACE);
                }
            }
        }
    }

    /// A member of a struct the pixel shader reads, of type `ty`, on `sem` at `range`.
    fn pixel_member_semantic(
        &self,
        sem: &str,
        ty: &str,
        range: &std::ops::Range<usize>,
        edits: &mut Edits,
    ) {
        if is_vface(sem) {
            // Every struct a pixel shader reads reaches it through a flattened copy that
            // carries the face as `SV_IsFrontFace`; here the semantic only has to be one DXC
            // accepts.
            edits.replace(range.clone(), NEUTRAL_VFACE);
            return;
        }
        // SV_Position must be a float4; narrower members stay plain varyings. With a `VPOS`
        // parameter beside it, the struct's `POSITION` (the vertex shader's clip position,
        // which ps_3_0 cannot read) stays a plain varying too: only one input can be the
        // pixel position.
        let vpos_param = self.f.params.iter().any(|p| {
            p.semantic
                .as_deref()
                .is_some_and(|x| x.to_ascii_uppercase().starts_with("VPOS"))
        });
        let struct_position = sem.to_ascii_uppercase().starts_with("POSITION");
        if let (Some(new), "float4") = (pixel_input_semantic(sem), ty) {
            if !(vpos_param && struct_position) {
                edits.replace(range.clone(), new);
            }
        }
    }

    /// A struct on an interface that GLSL 1.10 varyings cannot carry as written is passed
    /// through a generated copy with one vector member per register (`flat::flat_struct`):
    /// array members (`float2 Taps[5] : TEXCOORD0`, blur shaders), matrix members
    /// (`float3x3 TangentToWorld : TEXCOORD2`, normal mapping) and, in a pixel shader's input,
    /// a `VFACE` member.
    fn flat_decl(&self, ty: &str, input: bool) -> Option<&'a StructDecl> {
        self.parsed.ast.structs.iter().find(|s| {
            s.name == ty.trim()
                && s.members.iter().any(|m| {
                    m.semantic.as_ref().is_some_and(|(sem, _)| {
                        m.array.is_some()
                            || is_matrix(&m.ty)
                            || (input && self.stage == Stage::Pixel && is_vface(sem))
                    })
                })
        })
    }

    /// A struct read through a plain parameter that needs the flattened copy.
    fn flat_input(&self, p: &Param) -> bool {
        p.qualifier != "out"
            && p.qualifier != "inout"
            && p.qualifier != "uniform"
            && self.flat_decl(&p.ty, true).is_some()
    }

    /// The same struct written through an `out` parameter (`void VS(VSIn i, out VSOut o)`).
    fn flat_output(&self, p: &Param) -> bool {
        p.qualifier == "out" && self.flat_decl(&p.ty, false).is_some()
    }

    /// A matrix vertex input (`float4x4 instanceTransform : TEXCOORD1`, hardware instancing)
    /// spans consecutive usage indices, one vector register each; MonoGame binds every one as
    /// its own attribute, so the wrapper takes the vectors and builds the matrix. A pixel
    /// shader reads a matrix varying (`float3x3 TBN : TEXCOORD2`) the same way: fxc gives it
    /// one register per column too.
    fn matrix_input(&self, p: &Param) -> bool {
        (p.qualifier.is_empty() || p.qualifier == "in") && p.semantic.is_some() && is_matrix(&p.ty)
    }

    /// A matrix varying written through an `out` parameter (`out float3x3 TBN : TEXCOORD2`):
    /// one vector output per register, like a matrix struct member.
    fn matrix_output(&self, p: &Param) -> bool {
        p.qualifier == "out" && p.semantic.is_some() && is_matrix(&p.ty)
    }

    /// `inout float4 pos : POSITION0` is an input and an output with different semantics
    /// (MonoGame's own SpriteEffect does this): the wrapper splits it.
    fn split(&self, p: &Param) -> bool {
        p.qualifier == "inout"
            && p
                .semantic
                .as_deref()
                .is_some_and(|sem| sides_differ(self.stage, sem))
    }

    /// A parameter of one of the `two_way` structs the entry reads.
    fn two_way_param(&self, p: &Param) -> bool {
        p.qualifier != "out" && self.two_way.iter().any(|s| s.name == p.ty.trim())
    }

    /// The semantic a parameter that stays as it is takes, if it must change.
    fn new_semantic(&self, p: &Param) -> Option<String> {
        let sem = p.semantic.as_deref()?;
        if p.qualifier == "out" || p.qualifier == "inout" {
            output_semantic(self.stage, sem)
        } else {
            input_semantic(self.stage, sem)
        }
    }

    /// Whether DXC must be handed a generated wrapper rather than the user's function:
    /// `uniform` parameters to bind, an overloaded name, or an interface DXC or GLSL 1.10
    /// cannot take as written.
    fn wrapped(&self) -> bool {
        let f = self.f;
        let uniforms = f.params.iter().filter(|p| p.qualifier == "uniform").count();
        uniforms > 0
            || self.overloaded
            || self.flat_decl(&f.return_type, false).is_some()
            || f.params.iter().any(|p| {
                self.split(p)
                    || self.two_way_param(p)
                    || self.matrix_input(p)
                    || self.matrix_output(p)
                    || self.flat_input(p)
                    || self.flat_output(p)
            })
    }
}
