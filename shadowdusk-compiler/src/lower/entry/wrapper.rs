//! The generated wrapper entry: its parameters, the statements around the call to the user's
//! function, and the declarations it needs, built one entry parameter at a time; and the
//! in-place rewrites of the user's parameters that need no wrapper.

use super::flat::{flat_struct, matrix_registers, split_index, Direction, FACE_PARAM};
use super::semantics::{input_or_same, is_vface, output_or_same, pixel_input_semantic};
use super::uniforms::EntryUniform;
use super::{Entry, WRAPPER};
use crate::effect::{Param, ParamSite, ShaderRef, StructDecl, ENTRY_UNIFORM_SIGIL};
use crate::lower::emit::Edits;
use crate::lower::{object_params, RetypedUniform, Stage};

/// The wrapper as it is built.
#[derive(Default)]
pub(super) struct Wrapper {
    /// Whether there is a wrapper at all (else a system value is converted in the user's body).
    wrapped: bool,
    /// The wrapper's parameter declarations.
    params: Vec<String>,
    /// The arguments of its call to the user's function.
    call_args: Vec<String>,
    /// Statements inserted at the top of the user's body.
    pub(super) prologue: String,
    /// Statements before the call.
    pre: String,
    /// Statements after the call.
    post: String,
    /// Declarations the wrapper needs (flattened structs, input copies, uniform carriers),
    /// each once, placed before it.
    copies: String,
}

impl Wrapper {
    /// Goes through the entry's parameters in order, each to the rewrite its kind needs.
    pub(super) fn parameters(
        e: &Entry,
        wrapped: bool,
        shader: &ShaderRef,
        unbound: &[EntryUniform],
        edits: &mut Edits,
        retyped: &mut Vec<RetypedUniform>,
    ) -> Self {
        let mut w = Wrapper {
            wrapped,
            ..Wrapper::default()
        };
        let mut literals = shader.args.iter();
        for (p, site) in e.f.params.iter().zip(e.sites) {
            // Gone from the user's function (`object_params`); a `uniform` one takes its literal.
            if object_params::removed(p) {
                if p.qualifier == "uniform" {
                    literals.next();
                }
                continue;
            }
            if p.qualifier == "uniform" {
                w.uniform(e, p, literals.next(), unbound, retyped);
                continue;
            }
            w.parameter(e, p, site, edits);
        }
        w
    }

    /// Adds `declaration` to the wrapper's declarations unless an earlier parameter did.
    fn declare(&mut self, declaration: &str) {
        if !self.copies.contains(declaration) {
            self.copies.push_str(declaration);
        }
    }

    /// A `uniform` parameter: bound to its literal, else to its carrier global.
    fn uniform(
        &mut self,
        e: &Entry,
        p: &Param,
        literal: Option<&String>,
        unbound: &[EntryUniform],
        retyped: &mut Vec<RetypedUniform>,
    ) {
        if let Some(literal) = literal {
            self.call_args.push(
                match crate::effect::types::numeric(p.ty.trim()).filter(|_| e.overloaded) {
                    Some(_) => format!("(({})({literal}))", p.ty.trim()),
                    None => literal.clone(),
                },
            );
            return;
        }
        let Some(u) = unbound.iter().find(|u| u.param == p.name) else {
            return;
        };
        self.declare(&u.declaration);
        self.call_args.push(u.argument.clone());
        retyped.push(RetypedUniform {
            name: format!("{ENTRY_UNIFORM_SIGIL}{}", p.name),
            carrier: u.carrier.clone(),
        });
    }

    /// Any other parameter, by the first kind it is of.
    fn parameter(&mut self, e: &Entry, p: &Param, site: &ParamSite, edits: &mut Edits) {
        let ty = p.ty.trim();
        if let (true, Some(decl)) = (e.flat_input(p), e.flat_decl(ty, true)) {
            self.flat_input(e.stage, p, decl);
        } else if let (true, Some(decl)) = (e.flat_output(p), e.flat_decl(ty, false)) {
            self.flat_output(e.stage, p, decl);
        } else if e.matrix_output(p) {
            self.matrix_output(p);
        } else if e.two_way_param(p) {
            if let Some(decl) = e.two_way.iter().find(|s| s.name == ty) {
                self.two_way(e.stage, p, decl);
            }
        } else if e.matrix_input(p) {
            self.matrix_input(p);
        } else if e.split(p) {
            self.split(e.stage, p, site, edits);
        } else if !self.system_value(e.stage, p, edits) {
            let new = e.new_semantic(p);
            if let (Some(new), Some(r)) = (&new, &site.semantic_range) {
                edits.replace(r.clone(), new.clone());
            }
            self.params.push(param_text(e.src, p, site, new));
            self.call_args.push(p.name.clone());
        }
    }

    /// A struct read through a flattened copy, rebuilt before the call.
    fn flat_input(&mut self, stage: Stage, p: &Param, decl: &StructDecl) {
        let ty = p.ty.trim();
        let flat = flat_struct(decl, &|sem| input_or_same(stage, sem), Direction::In);
        self.declare(&flat.declaration);
        self.params.push(format!("{} __sd_in_{}", flat.name, p.name));
        if flat.face && !self.params.iter().any(|x| x == FACE_PARAM) {
            self.params.push(FACE_PARAM.to_string());
        }
        self.pre.push_str(&format!(" {ty} {};", p.name));
        for copy in &flat.copies {
            self.pre.push(' ');
            self.pre.push_str(
                &copy
                    .replace("{U}", &p.name)
                    .replace("{F}", &format!("__sd_in_{}", p.name)),
            );
        }
        self.call_args.push(p.name.clone());
    }

    /// A struct written through a flattened `out` copy, filled after the call.
    fn flat_output(&mut self, stage: Stage, p: &Param, decl: &StructDecl) {
        let ty = p.ty.trim();
        let flat = flat_struct(decl, &|sem| output_or_same(stage, sem), Direction::Out);
        self.declare(&flat.declaration);
        self.params
            .push(format!("out {} __sd_out_{}", flat.name, p.name));
        self.pre.push_str(&format!(" {ty} {};", p.name));
        for copy in &flat.copies {
            self.post.push(' ');
            self.post.push_str(
                &copy
                    .replace("{U}", &p.name)
                    .replace("{F}", &format!("__sd_out_{}", p.name)),
            );
        }
        self.call_args.push(p.name.clone());
    }

    /// An `out` matrix, written as one vector output per register after the call.
    fn matrix_output(&mut self, p: &Param) {
        let ty = p.ty.trim();
        let Some(t) = crate::effect::types::numeric(ty) else {
            return;
        };
        let (base, first) = split_index(p.semantic.as_deref().unwrap_or(""));
        let (registers, width) = matrix_registers(&t, p.row_major);
        for k in 0..registers {
            self.params.push(format!(
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
            self.post
                .push_str(&format!(" __sd_out_{}_{k} = {read};", p.name));
        }
        self.pre.push_str(&format!(" {ty} {};", p.name));
        self.call_args.push(p.name.clone());
    }

    /// A struct both read and written: read through a twin declared with the input semantics,
    /// and for `inout`, copied out after the call.
    fn two_way(&mut self, stage: Stage, p: &Param, decl: &StructDecl) {
        let ty = p.ty.trim();
        let copy = format!("__sd_in_{ty}");
        if !self.copies.contains(&format!("struct {copy} ")) {
            let members: String = decl
                .members
                .iter()
                .map(|m| {
                    let sem = m.semantic.as_ref().map(|(sem, _)| input_or_same(stage, sem));
                    match sem {
                        Some(sem) => format!(" {} {} : {sem};", m.ty, m.name),
                        None => format!(" {} {};", m.ty, m.name),
                    }
                })
                .collect();
            self.copies
                .push_str(&format!("struct {copy} {{{members} }};\n"));
        }
        self.params.push(format!("{copy} __sd_in_{}", p.name));
        self.pre.push_str(&format!(" {ty} {};", p.name));
        for m in &decl.members {
            self.pre
                .push_str(&format!(" {0}.{1} = __sd_in_{0}.{1};", p.name, m.name));
        }
        if p.qualifier == "inout" {
            self.params.push(format!("out {ty} __sd_out_{}", p.name));
            self.post.push_str(&format!(" __sd_out_{0} = {0};", p.name));
        }
        self.call_args.push(p.name.clone());
    }

    /// A matrix input, taken as one vector per register and built before the call.
    fn matrix_input(&mut self, p: &Param) {
        let ty = p.ty.trim();
        let Some(t) = crate::effect::types::numeric(ty) else {
            return;
        };
        let (base, first) = split_index(p.semantic.as_deref().unwrap_or(""));
        let (registers, width) = matrix_registers(&t, p.row_major);
        let regs: Vec<String> = (0..registers)
            .map(|k| {
                self.params.push(format!(
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
        self.pre
            .push_str(&format!(" {ty} {} = {built};", p.name));
        self.call_args.push(p.name.clone());
    }

    /// An `inout` parameter whose semantic differs by side: the user's keeps the output one,
    /// the wrapper takes an input and an output and copies between them.
    fn split(&mut self, stage: Stage, p: &Param, site: &ParamSite, edits: &mut Edits) {
        let ty = p.ty.trim();
        let sem = p.semantic.as_deref().unwrap_or("");
        let out_sem = output_or_same(stage, sem);
        let in_sem = input_or_same(stage, sem);
        if let Some(r) = &site.semantic_range {
            edits.replace(r.clone(), out_sem.clone());
        }
        self.params.push(format!("{ty} __sd_in_{} : {in_sem}", p.name));
        self.params
            .push(format!("out {ty} __sd_out_{} : {out_sem}", p.name));
        self.pre
            .push_str(&format!(" {ty} {0} = __sd_in_{0};", p.name));
        self.post.push_str(&format!(" __sd_out_{0} = {0};", p.name));
        self.call_args.push(p.name.clone());
    }

    /// A pixel input on `VFACE`, or on `VPOS`/`POSITION` narrower than a float4: the system
    /// value has another type than the user's parameter, so it is taken under a generated name
    /// and converted (in the wrapper's call, else at the top of the user's body). Whether `p`
    /// was one.
    fn system_value(&mut self, stage: Stage, p: &Param, edits: &mut Edits) -> bool {
        let sem = p.semantic.as_deref().unwrap_or("");
        let input = p.qualifier != "out" && p.qualifier != "inout";
        let vface = stage == Stage::Pixel && input && is_vface(sem);
        let vpos = stage == Stage::Pixel
            && input
            && pixel_input_semantic(sem).is_some()
            && p.ty.trim() != "float4";
        if !(vface || vpos) {
            return false;
        }
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
        if self.wrapped {
            edits.replace(p.range.clone(), format!("{} {}", p.ty, p.name));
            self.params.push(decl.to_string());
            self.call_args.push(format!("({conv})"));
        } else {
            edits.replace(p.range.clone(), decl);
            self.prologue
                .push_str(&format!(" {} {} = {conv};", p.ty, p.name));
        }
        true
    }

    /// Appends the wrapper `WRAPPER` at the end of the text, mapped to the `compile`
    /// statement.
    pub(super) fn append(
        self,
        e: &Entry,
        shader: &ShaderRef,
        return_semantic: Option<String>,
        edits: &mut Edits,
    ) {
        let f = e.f;
        let src_len = e.src.len();
        let call = format!("{}({})", f.name, self.call_args.join(", "));
        if let Some(decl) = e.flat_decl(&f.return_type, false) {
            return self.append_flat_return(e, decl, &call, shader, edits);
        }
        let sem = match (&return_semantic, &f.return_semantic) {
            (Some(new), _) => format!(" : {new}"),
            (None, Some((old, _))) => format!(" : {old}"),
            _ => String::new(),
        };
        let (pre, post) = (&self.pre, &self.post);
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
            src_len..src_len,
            format!(
                "\n{}{} {WRAPPER}({}){sem} {body}\n",
                self.copies,
                f.return_type,
                self.params.join(", ")
            ),
            shader.range.start,
        );
    }

    /// The wrapper of an entry returning a struct that needs a flattened copy: it returns the
    /// copy, filled from the user's result.
    fn append_flat_return(
        mut self,
        e: &Entry,
        decl: &StructDecl,
        call: &str,
        shader: &ShaderRef,
        edits: &mut Edits,
    ) {
        let f = e.f;
        let stage = e.stage;
        let flat = flat_struct(decl, &|sem| output_or_same(stage, sem), Direction::Out);
        self.declare(&flat.declaration);
        let mut body = format!(
            "{{{} {} __sd_result = {call};{} {} __sd_flat;",
            self.pre, f.return_type, self.post, flat.name
        );
        for copy in &flat.copies {
            body.push(' ');
            body.push_str(&copy.replace("{U}", "__sd_result").replace("{F}", "__sd_flat"));
        }
        body.push_str(" return __sd_flat; }");
        edits.replace_mapped(
            e.src.len()..e.src.len(),
            format!(
                "\n{}{} {WRAPPER}({}) {body}\n",
                self.copies,
                flat.name,
                self.params.join(", ")
            ),
            shader.range.start,
        );
    }
}

/// A parameter's text for the wrapper: as written, with the semantic replaced and any default
/// value dropped.
fn param_text(src: &str, p: &Param, site: &ParamSite, new_sem: Option<String>) -> String {
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
