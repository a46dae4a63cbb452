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

use super::emit::Edits;
use super::{object_params, RetypedUniform, Stage};
use crate::diag::{Code, Diagnostic};
use crate::effect::{ParsedEffect, ShaderRef, ENTRY_UNIFORM_SIGIL};
use crate::source::SourceMap;

/// Prefix of the globals that carry unbound `uniform` entry parameters.
pub const ENTRY_UNIFORM_PREFIX: &str = "__sd_arg_";

/// Name of the generated wrapper entry.
pub const WRAPPER: &str = "__sd_entry";

/// The new semantic for an output of `stage`, if it must change.
fn output_semantic(stage: Stage, sem: &str) -> Option<String> {
    let up = sem.to_ascii_uppercase();
    let index = |prefix: &str| -> Option<String> {
        let rest = up.strip_prefix(prefix)?;
        rest.chars()
            .all(|c| c.is_ascii_digit())
            .then(|| rest.to_string())
    };
    match stage {
        Stage::Pixel => {
            if let Some(n) = index("COLOR") {
                return Some(format!("SV_Target{n}"));
            }
            index("DEPTH").map(|_| "SV_Depth".to_string())
        }
        Stage::Vertex => index("POSITION").map(|_| "SV_Position".to_string()),
    }
}

/// The new semantic for a pixel-shader input, if it must change (`VFACE` is handled apart).
fn pixel_input_semantic(sem: &str) -> Option<String> {
    let up = sem.to_ascii_uppercase();
    let rest = up
        .strip_prefix("VPOS")
        .or_else(|| up.strip_prefix("POSITION"))?;
    rest.chars()
        .all(|c| c.is_ascii_digit())
        .then(|| "SV_Position".to_string())
}

/// The new semantic for a vertex-shader input: `SV_Position` read as a vertex attribute is
/// MonoGame's `Position0` (SpriteBatch's vertex declaration feeds it).
fn vertex_input_semantic(sem: &str) -> Option<String> {
    let up = sem.to_ascii_uppercase();
    matches!(up.as_str(), "SV_POSITION" | "SV_POSITION0").then(|| "POSITION0".to_string())
}

/// The new semantic for an input of `stage`, if it must change.
fn input_semantic(stage: Stage, sem: &str) -> Option<String> {
    match stage {
        Stage::Pixel => pixel_input_semantic(sem),
        Stage::Vertex => vertex_input_semantic(sem),
    }
}

/// What `VFACE` becomes outside the entry point being compiled.
const NEUTRAL_VFACE: &str = "SD_VFACE";

fn is_vface(sem: &str) -> bool {
    sem.eq_ignore_ascii_case("VFACE")
}

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
    let ast = &parsed.ast;
    let src = parsed.stripped.as_str();
    let f = &ast.functions[fi];
    let sites = &parsed.sites.params[fi];

    // DXC sees the whole file and, under -WX, rejects `VFACE` wherever it is written, even on a
    // function this stage never calls (the pixel shader while compiling the vertex shader).
    // Outside the entry a semantic means nothing, so any spelling DXC accepts will do.
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

    // Struct members: outputs of returned / written structs, inputs of read structs.
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
    // A struct both read and written by the entry (`VSOut VS(VSOut input)`) cannot carry
    // input and output semantics at once: the wrapper reads it through a copy declared with
    // the input semantics.
    let two_way: Vec<&crate::effect::StructDecl> = ast
        .structs
        .iter()
        .filter(|s| {
            out_structs.contains(&s.name.as_str())
                && in_structs.contains(&s.name.as_str())
                && s.members.iter().any(|m| {
                    m.semantic.as_ref().is_some_and(|(sem, _)| {
                        let out = output_semantic(stage, sem).unwrap_or_else(|| sem.clone());
                        let input = input_semantic(stage, sem).unwrap_or_else(|| sem.clone());
                        !out.eq_ignore_ascii_case(&input)
                    })
                })
        })
        .collect();
    // A struct on an interface that GLSL 1.10 varyings cannot carry as written is passed
    // through a generated copy with one vector member per register (`flat_struct`): array
    // members (`float2 Taps[5] : TEXCOORD0`, blur shaders), matrix members
    // (`float3x3 TangentToWorld : TEXCOORD2`, normal mapping) and, in a pixel shader's input,
    // a `VFACE` member.
    let flat_decl = |ty: &str, input: bool| {
        ast.structs.iter().find(|s| {
            s.name == ty.trim()
                && s.members.iter().any(|m| {
                    m.semantic.as_ref().is_some_and(|(sem, _)| {
                        m.array.is_some()
                            || is_matrix(&m.ty)
                            || (input && stage == Stage::Pixel && is_vface(sem))
                    })
                })
        })
    };
    let flat_input = |p: &crate::effect::Param| {
        p.qualifier != "out"
            && p.qualifier != "inout"
            && p.qualifier != "uniform"
            && flat_decl(&p.ty, true).is_some()
    };
    for s in &ast.structs {
        for m in &s.members {
            let Some((sem, range)) = &m.semantic else {
                continue;
            };
            if out_structs.contains(&s.name.as_str()) {
                if let Some(new) = output_semantic(stage, sem) {
                    edits.replace(range.clone(), new);
                }
            } else if stage == Stage::Pixel && in_structs.contains(&s.name.as_str()) {
                if is_vface(sem) {
                    // Every struct a pixel shader reads reaches it through a flattened copy
                    // that carries the face as `SV_IsFrontFace`; here the semantic only has
                    // to be one DXC accepts.
                    edits.replace(range.clone(), NEUTRAL_VFACE);
                    continue;
                }
                // SV_Position must be a float4; narrower members stay plain varyings. With a
                // `VPOS` parameter beside it, the struct's `POSITION` (the vertex shader's clip
                // position, which ps_3_0 cannot read) stays a plain varying too: only one input
                // can be the pixel position.
                let vpos_param = f.params.iter().any(|p| {
                    p.semantic
                        .as_deref()
                        .is_some_and(|x| x.to_ascii_uppercase().starts_with("VPOS"))
                });
                let struct_position = sem.to_ascii_uppercase().starts_with("POSITION");
                if let (Some(new), "float4") = (pixel_input_semantic(sem), m.ty.as_str()) {
                    if !(vpos_param && struct_position) {
                        edits.replace(range.clone(), new);
                    }
                }
            } else if stage == Stage::Vertex && in_structs.contains(&s.name.as_str()) {
                if let Some(new) = vertex_input_semantic(sem) {
                    edits.replace(range.clone(), new);
                }
            } else if is_vface(sem) {
                edits.replace(range.clone(), NEUTRAL_VFACE);
            }
        }
    }

    let uniforms = f.params.iter().filter(|p| p.qualifier == "uniform").count();
    // DXC refuses an overloaded name as its entry ("ambiguous entry point function"), and
    // resolves a call by its own rules: the wrapper calls the chosen overload with every
    // literal cast to its parameter's type, which only that overload takes exactly.
    let overloaded = ast.functions.iter().filter(|g| g.name == f.name).count() > 1;
    // `uniform` parameters the `compile` statement leaves without a literal are constants the
    // application sets, as under fxc: each becomes an effect parameter `$name`.
    let unbound: Vec<EntryUniform> = f
        .params
        .iter()
        .zip(sites)
        .filter(|(p, _)| p.qualifier == "uniform")
        .skip(shader.args.len())
        .filter(|(p, _)| !object_params::removed(p))
        .map(|(p, site)| entry_uniform(src, p, site, f, shader, map))
        .collect::<Result<_, _>>()?;

    let new_semantic = |p: &crate::effect::Param| -> Option<String> {
        let sem = p.semantic.as_deref()?;
        if p.qualifier == "out" || p.qualifier == "inout" {
            output_semantic(stage, sem)
        } else {
            input_semantic(stage, sem)
        }
    };
    // `inout float4 pos : POSITION0` is an input and an output with different semantics
    // (MonoGame's own SpriteEffect does this): the wrapper splits it.
    let split = |p: &crate::effect::Param| {
        p.qualifier == "inout"
            && p.semantic.as_deref().is_some_and(|sem| {
                let out = output_semantic(stage, sem).unwrap_or_else(|| sem.to_string());
                let input = input_semantic(stage, sem).unwrap_or_else(|| sem.to_string());
                !out.eq_ignore_ascii_case(&input)
            })
    };
    let two_way_param = |p: &crate::effect::Param| {
        p.qualifier != "out" && two_way.iter().any(|s| s.name == p.ty.trim())
    };
    let return_semantic = f
        .return_semantic
        .as_ref()
        .and_then(|(s, _)| output_semantic(stage, s));

    // The user's function: its semantics are rewritten in both modes, because DXC checks
    // (and under -WX rejects) legacy semantics even on a function it only calls.
    // A matrix vertex input (`float4x4 instanceTransform : TEXCOORD1`, hardware instancing)
    // spans consecutive usage indices, one vector register each; MonoGame binds every one as
    // its own attribute, so the wrapper takes the vectors and builds the matrix.
    // A pixel shader reads a matrix varying (`float3x3 TBN : TEXCOORD2`) the same way: fxc
    // gives it one register per column too.
    let matrix_input = |p: &crate::effect::Param| {
        (p.qualifier.is_empty() || p.qualifier == "in") && p.semantic.is_some() && is_matrix(&p.ty)
    };
    // A matrix varying written through an `out` parameter (`out float3x3 TBN : TEXCOORD2`):
    // one vector output per register, like a matrix struct member.
    let matrix_output = |p: &crate::effect::Param| {
        p.qualifier == "out" && p.semantic.is_some() && is_matrix(&p.ty)
    };
    // The same struct written through an `out` parameter (`void VS(VSIn i, out VSOut o)`).
    let flat_output = |p: &crate::effect::Param| {
        p.qualifier == "out" && flat_decl(&p.ty, false).is_some()
    };
    let flat_return = flat_decl(&f.return_type, false);
    let wrapped = uniforms > 0
        || overloaded
        || flat_return.is_some()
        || f.params.iter().any(|p| {
            split(p)
                || two_way_param(p)
                || matrix_input(p)
                || matrix_output(p)
                || flat_input(p)
                || flat_output(p)
        });
    if let (Some(new), Some((_, r))) = (&return_semantic, &f.return_semantic) {
        edits.replace(r.clone(), new.clone());
    }
    let mut params = Vec::new();
    let mut call_args = Vec::new();
    let mut literals = shader.args.iter();
    let mut prologue = String::new();
    let mut pre = String::new();
    let mut post = String::new();
    let mut copies = String::new();
    for (p, site) in f.params.iter().zip(sites) {
        // Gone from the user's function (`object_params`); a `uniform` one takes its literal.
        if object_params::removed(p) {
            if p.qualifier == "uniform" {
                literals.next();
            }
            continue;
        }
        if p.qualifier == "uniform" {
            match literals.next() {
                Some(literal) => call_args.push(
                    match crate::effect::types::numeric(p.ty.trim()).filter(|_| overloaded) {
                        Some(_) => format!("(({})({literal}))", p.ty.trim()),
                        None => literal.clone(),
                    },
                ),
                None => {
                    let Some(u) = unbound.iter().find(|u| u.param == p.name) else {
                        continue;
                    };
                    if !copies.contains(&u.declaration) {
                        copies.push_str(&u.declaration);
                    }
                    call_args.push(u.argument.clone());
                    retyped.push(RetypedUniform {
                        name: format!("{ENTRY_UNIFORM_SIGIL}{}", p.name),
                        carrier: u.carrier.clone(),
                    });
                }
            }
            continue;
        }
        let ty = p.ty.trim();
        if let (true, Some(decl)) = (flat_input(p), flat_decl(ty, true)) {
            let flat = flat_struct(
                decl,
                &|sem| input_semantic(stage, sem).unwrap_or_else(|| sem.to_string()),
                Direction::In,
            );
            if !copies.contains(&flat.declaration) {
                copies.push_str(&flat.declaration);
            }
            params.push(format!("{} __sd_in_{}", flat.name, p.name));
            if flat.face && !params.iter().any(|x| x == FACE_PARAM) {
                params.push(FACE_PARAM.to_string());
            }
            pre.push_str(&format!(" {ty} {};", p.name));
            for copy in &flat.copies {
                pre.push(' ');
                pre.push_str(&copy.replace("{U}", &p.name).replace("{F}", &format!("__sd_in_{}", p.name)));
            }
            call_args.push(p.name.clone());
            continue;
        }
        if let (true, Some(decl)) = (flat_output(p), flat_decl(ty, false)) {
            let flat = flat_struct(
                decl,
                &|sem| output_semantic(stage, sem).unwrap_or_else(|| sem.to_string()),
                Direction::Out,
            );
            if !copies.contains(&flat.declaration) {
                copies.push_str(&flat.declaration);
            }
            params.push(format!("out {} __sd_out_{}", flat.name, p.name));
            pre.push_str(&format!(" {ty} {};", p.name));
            for copy in &flat.copies {
                post.push(' ');
                post.push_str(
                    &copy
                        .replace("{U}", &p.name)
                        .replace("{F}", &format!("__sd_out_{}", p.name)),
                );
            }
            call_args.push(p.name.clone());
            continue;
        }
        if matrix_output(p) {
            let Some(t) = crate::effect::types::numeric(ty) else {
                continue;
            };
            let (base, first) = split_index(p.semantic.as_deref().unwrap_or(""));
            let (registers, width) = matrix_registers(&t, p.row_major);
            for k in 0..registers {
                params.push(format!(
                    "out {}{width} __sd_out_{}_{k} : {base}{}",
                    t.base,
                    p.name,
                    first + k
                ));
                let read = if p.row_major {
                    format!("{}[{k}]", p.name)
                } else {
                    format!("transpose({})[{k}]", p.name)
                };
                post.push_str(&format!(" __sd_out_{}_{k} = {read};", p.name));
            }
            pre.push_str(&format!(" {ty} {};", p.name));
            call_args.push(p.name.clone());
            continue;
        }
        if two_way_param(p) {
            let Some(decl) = two_way.iter().find(|s| s.name == ty) else {
                continue;
            };
            let copy = format!("__sd_in_{ty}");
            if !copies.contains(&format!("struct {copy} ")) {
                let members: String = decl
                    .members
                    .iter()
                    .map(|m| {
                        let sem = m.semantic.as_ref().map(|(sem, _)| {
                            input_semantic(stage, sem).unwrap_or_else(|| sem.clone())
                        });
                        match sem {
                            Some(sem) => format!(" {} {} : {sem};", m.ty, m.name),
                            None => format!(" {} {};", m.ty, m.name),
                        }
                    })
                    .collect();
                copies.push_str(&format!("struct {copy} {{{members} }};\n"));
            }
            params.push(format!("{copy} __sd_in_{}", p.name));
            pre.push_str(&format!(" {ty} {};", p.name));
            for m in &decl.members {
                pre.push_str(&format!(" {0}.{1} = __sd_in_{0}.{1};", p.name, m.name));
            }
            if p.qualifier == "inout" {
                params.push(format!("out {ty} __sd_out_{}", p.name));
                post.push_str(&format!(" __sd_out_{0} = {0};", p.name));
            }
            call_args.push(p.name.clone());
            continue;
        }
        if matrix_input(p) {
            let Some(t) = crate::effect::types::numeric(ty) else {
                continue;
            };
            let (base, first) = split_index(p.semantic.as_deref().unwrap_or(""));
            let (registers, width) = matrix_registers(&t, p.row_major);
            let regs: Vec<String> = (0..registers)
                .map(|k| {
                    params.push(format!(
                        "{}{width} __sd_in_{}_{k} : {base}{}",
                        t.base,
                        p.name,
                        first + k
                    ));
                    format!("__sd_in_{}_{k}", p.name)
                })
                .collect();
            let built = format!("{}{registers}x{width}({})", t.base, regs.join(", "));
            let built = if p.row_major {
                built
            } else {
                format!("transpose({built})")
            };
            pre.push_str(&format!(" {ty} {} = {built};", p.name));
            call_args.push(p.name.clone());
            continue;
        }
        if split(p) {
            let sem = p.semantic.as_deref().unwrap_or("");
            let out_sem = output_semantic(stage, sem).unwrap_or_else(|| sem.to_string());
            let in_sem = input_semantic(stage, sem).unwrap_or_else(|| sem.to_string());
            if let Some(r) = &site.semantic_range {
                edits.replace(r.clone(), out_sem.clone());
            }
            params.push(format!("{ty} __sd_in_{} : {in_sem}", p.name));
            params.push(format!("out {ty} __sd_out_{} : {out_sem}", p.name));
            pre.push_str(&format!(" {ty} {0} = __sd_in_{0};", p.name));
            post.push_str(&format!(" __sd_out_{0} = {0};", p.name));
            call_args.push(p.name.clone());
            continue;
        }
        let sem = p.semantic.as_deref().unwrap_or("");
        let input = p.qualifier != "out" && p.qualifier != "inout";
        let vface = stage == Stage::Pixel && input && is_vface(sem);
        let vpos = stage == Stage::Pixel
            && input
            && pixel_input_semantic(sem).is_some()
            && p.ty.trim() != "float4";
        if vface || vpos {
            // The system value has another type than the user's parameter: take it under a
            // generated name and convert at the top of the body.
            let (decl, conv) = if vface {
                (
                    "bool __sd_face : SV_IsFrontFace",
                    "__sd_face ? 1.0 : -1.0".to_string(),
                )
            } else {
                (
                    "float4 __sd_vpos : SV_Position",
                    format!("({})__sd_vpos", p.ty),
                )
            };
            if wrapped {
                edits.replace(p.range.clone(), format!("{} {}", p.ty, p.name));
                params.push(decl.to_string());
                call_args.push(format!("({conv})"));
            } else {
                edits.replace(p.range.clone(), decl);
                prologue.push_str(&format!(" {} {} = {conv};", p.ty, p.name));
            }
            continue;
        }
        let new = new_semantic(p);
        if let (Some(new), Some(r)) = (&new, &site.semantic_range) {
            edits.replace(r.clone(), new.clone());
        }
        params.push(param_text(src, p, site, new));
        call_args.push(p.name.clone());
    }
    if !prologue.is_empty() {
        edits.insert(f.body.start + 1, prologue);
    }
    if !wrapped {
        return Ok(f.name.clone());
    }
    let sem = match (&return_semantic, &f.return_semantic) {
        (Some(new), _) => format!(" : {new}"),
        (None, Some((old, _))) => format!(" : {old}"),
        _ => String::new(),
    };
    let call = format!("{}({})", f.name, call_args.join(", "));
    if let Some(decl) = flat_return {
        let flat = flat_struct(
            decl,
            &|sem| output_semantic(stage, sem).unwrap_or_else(|| sem.to_string()),
            Direction::Out,
        );
        if !copies.contains(&flat.declaration) {
            copies.push_str(&flat.declaration);
        }
        let mut body = format!(
            "{{{pre} {} __sd_result = {call};{post} {} __sd_flat;",
            f.return_type, flat.name
        );
        for copy in &flat.copies {
            body.push(' ');
            body.push_str(&copy.replace("{U}", "__sd_result").replace("{F}", "__sd_flat"));
        }
        body.push_str(" return __sd_flat; }");
        edits.replace_mapped(
            src.len()..src.len(),
            format!(
                "\n{copies}{} {WRAPPER}({}) {body}\n",
                flat.name,
                params.join(", ")
            ),
            shader.range.start,
        );
        return Ok(WRAPPER.to_string());
    }
    let body = if f.return_type.trim() == "void" {
        format!("{{{pre} {call};{post} }}")
    } else if post.is_empty() {
        format!("{{{pre} return {call}; }}")
    } else {
        format!(
            "{{{pre} {} __sd_result = {call};{post} return __sd_result; }}",
            f.return_type
        )
    };
    edits.replace_mapped(
        src.len()..src.len(),
        format!(
            "\n{copies}{} {WRAPPER}({}){sem} {body}\n",
            f.return_type,
            params.join(", ")
        ),
        shader.range.start,
    );
    Ok(WRAPPER.to_string())
}

/// An unbound `uniform` entry parameter, passed to the user's function from a global.
struct EntryUniform {
    /// The parameter's name.
    param: String,
    /// The global that carries it in the lowered text.
    carrier: String,
    /// `uniform float __sd_arg_x;` (MonoGame uploads every register as floats, so integer and
    /// bool parameters travel as floats and are converted at the call).
    declaration: String,
    /// What the wrapper passes: the carrier, converted to the parameter's type.
    argument: String,
}

fn entry_uniform(
    src: &str,
    p: &crate::effect::Param,
    site: &crate::effect::ParamSite,
    f: &crate::effect::Function,
    shader: &ShaderRef,
    map: &SourceMap,
) -> Result<EntryUniform, Box<Diagnostic>> {
    let ty = crate::effect::types::numeric(p.ty.trim());
    let array = src[site.name_range.end..].trim_start().starts_with('[');
    let non_square = |t: &crate::effect::HlslType| t.is_matrix && t.rows != t.columns;
    let Some(t) = ty.filter(|t| !array && !non_square(t)) else {
        return Err(Box::new(
            Diagnostic::error(
                Code::FX0003,
                format!(
                    "`uniform` parameter `{}` of `{}` gets no value from the `compile` statement, and its type `{}` cannot be an effect parameter here",
                    p.name, f.name, p.ty
                ),
            )
            .at_opt(map.span(p.range.clone()))
            .with_note(format!(
                "`{}` is compiled from a `compile` statement that passes {} argument(s)",
                f.name,
                shader.args.len()
            ))
            .with_help("pass a literal for it, e.g. `compile ps_3_0 PS(true)`, or make it a global variable"),
        ));
    };
    let shape = if t.is_matrix {
        format!("{}x{}", t.rows, t.columns)
    } else if t.is_vector {
        t.columns.to_string()
    } else {
        String::new()
    };
    let carrier = format!("{ENTRY_UNIFORM_PREFIX}{}", p.name);
    let argument = if t.base == "float" {
        carrier.clone()
    } else {
        format!("(({}){carrier})", p.ty.trim())
    };
    Ok(EntryUniform {
        param: p.name.clone(),
        declaration: format!("uniform float{shape} {carrier};\n"),
        carrier,
        argument,
    })
}

/// The wrapper parameter a flattened pixel input takes the face from.
const FACE_PARAM: &str = "bool __sd_face : SV_IsFrontFace";

fn is_matrix(ty: &str) -> bool {
    crate::effect::types::numeric(ty.trim()).is_some_and(|t| t.is_matrix)
}

/// (registers, components of each) of a matrix on an interface: fxc gives it one register per
/// column, the column's rows in x, y, z, w (HLSL's default packing); one per row under
/// `row_major`. A vertex input is fed the same way (hardware instancing's
/// `float4x4 World : TEXCOORD1`), and a vertex output and pixel input must agree.
fn matrix_registers(t: &crate::effect::HlslType, row_major: bool) -> (u32, u32) {
    if row_major {
        (t.rows, t.columns)
    } else {
        (t.columns, t.rows)
    }
}

/// Splits `TEXCOORD2` into (`TEXCOORD`, 2); no digits → index 0.
fn split_index(sem: &str) -> (&str, u32) {
    let digits = sem.len() - sem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, first) = sem.split_at(sem.len() - digits);
    (base, first.parse().unwrap_or(0))
}

/// Which side of the entry a flattened struct is on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    In,
    Out,
}

/// A copy of an interface struct with every member a GLSL 1.10 varying can carry: arrays split
/// into one member per element and matrices into one vector per register, on consecutive
/// semantic indices; a pixel input's `VFACE` member left out (it comes from `SV_IsFrontFace`).
struct FlatStruct {
    name: String,
    declaration: String,
    /// Statements copying between the user's struct (`{U}`) and the copy (`{F}`) in the
    /// direction of the data: `{U}.Taps[2] = {F}.Taps_2;` for an input.
    copies: Vec<String>,
    /// The copy needs the wrapper's `SV_IsFrontFace` parameter.
    face: bool,
}

fn flat_struct(
    decl: &crate::effect::StructDecl,
    semantic: &dyn Fn(&str) -> String,
    direction: Direction,
) -> FlatStruct {
    let prefix = match direction {
        Direction::In => "in",
        Direction::Out => "out",
    };
    let name = format!("__sd_{prefix}_{}", decl.name);
    let mut fields = String::new();
    let mut copies = Vec::new();
    let mut face = false;
    // `user` is a member access in the user's struct, `flat` an expression of the copy's
    // members; the statement goes in the direction of the data.
    let copy = |copies: &mut Vec<String>, user: String, flat: String| {
        copies.push(match direction {
            Direction::In => format!("{{U}}.{user} = {flat};"),
            Direction::Out => format!("{flat} = {{U}}.{user};"),
        });
    };
    for m in &decl.members {
        let Some((sem, _)) = &m.semantic else {
            continue;
        };
        if direction == Direction::In && is_vface(sem) {
            face = true;
            copy(&mut copies, m.name.clone(), "(__sd_face ? 1.0 : -1.0)".to_string());
            continue;
        }
        let sem = semantic(sem);
        let (base, first) = split_index(&sem);
        let matrix = crate::effect::types::numeric(m.ty.trim()).filter(|t| t.is_matrix);
        // Array elements (matrices too) take consecutive registers.
        let (registers, width) = match &matrix {
            Some(t) => matrix_registers(t, m.row_major),
            None => (1, 0),
        };
        // (access in the user's struct, member name in the copy, first semantic index)
        let elements: Vec<(String, String, u32)> = match m.array {
            Some(n) => (0..n)
                .map(|k| {
                    (
                        format!("{}[{k}]", m.name),
                        format!("{}_{k}", m.name),
                        first + k * registers,
                    )
                })
                .collect(),
            None => vec![(m.name.clone(), m.name.clone(), first)],
        };
        for (user, field, index) in elements {
            let Some(t) = &matrix else {
                let sem = if m.array.is_some() {
                    format!("{base}{index}")
                } else {
                    sem.clone()
                };
                fields.push_str(&format!(" {} {field} : {sem};", m.ty));
                copy(&mut copies, user, format!("{{F}}.{field}"));
                continue;
            };
            let vectors: Vec<String> = (0..registers)
                .map(|k| format!("{{F}}.{field}_{k}"))
                .collect();
            for k in 0..registers {
                fields.push_str(&format!(
                    " {}{width} {field}_{k} : {base}{};",
                    t.base,
                    index + k
                ));
            }
            match direction {
                Direction::In => {
                    // `floatRxC(v0, v1, ...)` takes rows.
                    let built = format!("{}{registers}x{width}({})", t.base, vectors.join(", "));
                    let built = if m.row_major {
                        built
                    } else {
                        format!("transpose({built})")
                    };
                    copy(&mut copies, user, built);
                }
                Direction::Out => {
                    for (k, v) in vectors.iter().enumerate() {
                        let read = if m.row_major {
                            format!("{{U}}.{user}[{k}]")
                        } else {
                            format!("transpose({{U}}.{user})[{k}]")
                        };
                        copies.push(format!("{v} = {read};"));
                    }
                }
            }
        }
    }
    FlatStruct {
        declaration: format!("struct {name} {{{fields} }};\n"),
        name,
        copies,
        face,
    }
}

/// A parameter's text for the wrapper: as written, with the semantic replaced and any default
/// value dropped.
fn param_text(
    src: &str,
    p: &crate::effect::Param,
    site: &crate::effect::ParamSite,
    new_sem: Option<String>,
) -> String {
    let end = match &site.semantic_range {
        Some(r) => r.end,
        None => site.name_range.end,
    };
    // Array suffixes sit between the name and the semantic; keep them.
    let mut text = src[p.range.start..end.max(p.range.start)].to_string();
    if let (Some(new), Some(r)) = (new_sem, &site.semantic_range) {
        text.replace_range(r.start - p.range.start..r.end - p.range.start, &new);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantic_tables() {
        assert_eq!(
            output_semantic(Stage::Pixel, "COLOR").as_deref(),
            Some("SV_Target")
        );
        assert_eq!(
            output_semantic(Stage::Pixel, "color1").as_deref(),
            Some("SV_Target1")
        );
        assert_eq!(
            output_semantic(Stage::Pixel, "DEPTH0").as_deref(),
            Some("SV_Depth")
        );
        assert_eq!(output_semantic(Stage::Pixel, "COLORFUL"), None);
        assert_eq!(output_semantic(Stage::Pixel, "SV_Target"), None);
        assert_eq!(
            output_semantic(Stage::Vertex, "POSITION0").as_deref(),
            Some("SV_Position")
        );
        assert_eq!(output_semantic(Stage::Vertex, "COLOR0"), None);
        assert_eq!(pixel_input_semantic("VPOS").as_deref(), Some("SV_Position"));
        assert_eq!(
            pixel_input_semantic("POSITION").as_deref(),
            Some("SV_Position")
        );
        assert_eq!(pixel_input_semantic("TEXCOORD0"), None);
    }
}
