//! The declaration-level parser: walks the tokens at brace depth 0 and extracts techniques,
//! samplers, textures, uniforms, cbuffers, structs and function signatures
//! (fx-pipeline.md §3). Function bodies are skipped as balanced braces, so a `<` inside a body
//! is never taken for an annotation.
//!
//! Output: the [`EffectAst`], the [`DeclSites`] (token positions the lowering stage edits) and
//! the byte ranges to blank (technique blocks, sampler state blocks, annotation blocks).
//!
//! Refused (each with a span): unexpected tokens (FX0001), end of text inside a technique or
//! pass (FX0002), malformed `compile` (FX0003), unclosed annotation (FX0007), missing `;`
//! (FX0008), end of text in a sampler block (FX0009), unknown render-state key/value (SD0011),
//! wrong-stage profile (SD0013), unknown sampler-state key/value (SD0024), initializers that are
//! not constant expressions (SD0025).
//!
//! This file holds the token helpers, the top-level loop, structs, cbuffers and functions;
//! [`declarations`] (uniforms and other declaration statements), [`techniques`] and
//! [`objects`] (samplers, textures) add their own methods.
//! A non-static `const` global counts as a uniform: fxc and DXC both put it in `$Globals`.

mod declarations;
mod objects;
mod techniques;

use std::ops::Range;

use super::annotations;
use super::ast::*;
use super::initializer;
use super::lexer::{Token, TokenKind};
use super::types;
use super::{DeclSites, ParamSite};
use crate::diag::{Code, Diagnostic};
use crate::source::SourceMap;

/// Parser state over one token list.
pub struct Parser<'a> {
    src: &'a str,
    toks: &'a [Token],
    map: &'a SourceMap,
    i: usize,
    /// What was extracted.
    pub ast: EffectAst,
    /// Positions for the lowering stage.
    pub sites: DeclSites,
    /// Byte ranges to replace by spaces.
    pub blank: Vec<Range<usize>>,
    /// `static const` scalars seen so far, for array sizes and initializers.
    consts: std::collections::BTreeMap<String, f64>,
    /// Where `#pragma pack_matrix(...)` switches the default packing: (offset, row-major).
    pub pack_matrix: Vec<(usize, bool)>,
}

type R<T> = Result<T, Box<Diagnostic>>;

/// Parameter and struct-member modifiers.
const PARAM_MODIFIERS: &[&str] = &[
    "in",
    "out",
    "inout",
    "uniform",
    "const",
    "row_major",
    "column_major",
    "linear",
    "centroid",
    "nointerpolation",
    "noperspective",
    "sample",
    "precise",
    "point",
    "line",
    "triangle",
    "lineadj",
    "triangleadj",
    "snorm",
    "unorm",
    "vertices",
    "indices",
    "primitives",
    "payload",
];

impl<'a> Parser<'a> {
    /// A parser over `toks` (directive tokens already removed) of `src`.
    pub fn new(src: &'a str, toks: &'a [Token], map: &'a SourceMap) -> Self {
        Parser {
            src,
            toks,
            map,
            i: 0,
            ast: EffectAst::default(),
            sites: DeclSites::default(),
            blank: Vec::new(),
            consts: Default::default(),
            pack_matrix: Vec::new(),
        }
    }

    // ---- token helpers -----------------------------------------------------------------

    fn text(&self, i: usize) -> &'a str {
        self.toks.get(i).map(|t| t.text(self.src)).unwrap_or("")
    }

    fn is(&self, i: usize, s: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.text(self.src) == s)
    }

    fn is_ident(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == TokenKind::Ident)
    }

    fn range(&self, i: usize) -> Range<usize> {
        match self.toks.get(i) {
            Some(t) => t.range.clone(),
            None => self.src.len()..self.src.len(),
        }
    }

    /// Range from token `a` through token `b` inclusive.
    fn span(&self, a: usize, b: usize) -> Range<usize> {
        self.range(a).start..self.range(b).end.max(self.range(a).start)
    }

    fn err(
        &self,
        code: Code,
        at: Range<usize>,
        msg: impl Into<String>,
        help: &str,
    ) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::error(code, msg)
                .at_opt(self.map.span(at))
                .with_help(help),
        )
    }

    fn unexpected(&self, i: usize, expected: &str) -> Box<Diagnostic> {
        if i >= self.toks.len() {
            return self.err(
                Code::FX0001,
                self.range(i),
                format!("unexpected end of file, expected {expected}"),
                "complete the declaration",
            );
        }
        self.err(
            Code::FX0001,
            self.range(i),
            format!("unexpected `{}`, expected {expected}", self.text(i)),
            "check the effect syntax near this token",
        )
    }

    /// A state value `a..b` that runs into the next `Key =` statement (`AlphaBlendEnable = true
    /// PixelShader = …`) lacks the `;` between them: FX0008 right after the value's last token,
    /// rather than an "invalid value" naming both statements.
    fn value_runs_on(&self, a: usize, b: usize) -> R<()> {
        let Some(eq) =
            (a + 2..b).find(|&q| self.is(q, "=") && self.is_ident(q - 1) && !self.is(q + 1, "="))
        else {
            return Ok(());
        };
        let end = self.range(eq - 2).end;
        Err(self.err(
            Code::FX0008,
            end..end,
            "missing `;`",
            "end each state assignment with `;`",
        ))
    }

    fn expect_semicolon(&mut self) -> R<()> {
        if self.is(self.i, ";") {
            self.i += 1;
            return Ok(());
        }
        let at = if self.i > 0 {
            let e = self.range(self.i - 1).end;
            e..e
        } else {
            self.range(self.i)
        };
        Err(self.err(
            Code::FX0008,
            at,
            "missing `;`",
            "add `;` at the end of the statement",
        ))
    }

    /// Index just past the token that closes the bracket at `open` (`(`, `[`, `{`).
    fn skip_balanced(&self, open: usize, eof_code: Code, what: &str) -> R<usize> {
        let mut depth = 0i32;
        let mut i = open;
        while i < self.toks.len() {
            match self.text(i) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i + 1);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(self.err(
            eof_code,
            self.range(open),
            format!("end of file inside {what}"),
            "close the bracket opened here",
        ))
    }

    // ---- top level ---------------------------------------------------------------------

    /// Parses everything.
    pub fn run(&mut self) -> R<()> {
        while self.i < self.toks.len() {
            let t = self.text(self.i);
            let lower = t.to_ascii_lowercase();
            if t == ";" {
                self.i += 1;
            } else if t == "[" {
                self.i = self.skip_balanced(self.i, Code::FX0001, "an attribute")?;
            } else if (lower == "technique" || lower == "technique11") && !self.is(self.i + 1, "(")
            {
                self.technique()?;
            } else if lower == "pass"
                && (self.is(self.i + 1, "{")
                    || (self.is_ident(self.i + 1) && self.is(self.i + 2, "{")))
            {
                // A `pass` block at file level reads as a declaration of type `pass` otherwise,
                // and then "missing `;`" points nowhere useful.
                return Err(self.err(
                    Code::FX0001,
                    self.range(self.i),
                    "a `pass` outside a technique".to_string(),
                    "put the pass inside a technique: `technique Name { pass P0 { … } }`",
                ));
            } else if t == "struct" {
                self.struct_decl()?;
            } else if t == "cbuffer" || t == "tbuffer" {
                self.cbuffer()?;
            } else if t == "typedef" {
                while self.i < self.toks.len() && !self.is(self.i, ";") {
                    self.i += 1;
                }
                self.expect_semicolon()?;
            } else if self.is_ident(self.i) {
                self.declaration(None)?;
            } else {
                return Err(self.unexpected(self.i, "a declaration"));
            }
        }
        Ok(())
    }

    // ---- annotations -------------------------------------------------------------------

    fn maybe_annotations(&mut self) -> R<Vec<Annotation>> {
        if !self.is(self.i, "<") {
            return Ok(Vec::new());
        }
        match annotations::parse(self.src, self.toks, self.i) {
            Ok((list, next)) => {
                self.blank.push(self.span(self.i, next - 1));
                self.i = next;
                Ok(list)
            }
            Err(e) => {
                let code = if e.unclosed {
                    Code::FX0007
                } else {
                    Code::FX0001
                };
                let help = if e.unclosed {
                    "close the annotation block with `>`"
                } else {
                    "write annotations as `< type name = value; >`"
                };
                Err(self.err(code, self.range(e.at), e.message, help))
            }
        }
    }

    // ---- structs and cbuffers ----------------------------------------------------------

    fn struct_decl(&mut self) -> R<()> {
        let start = self.i;
        self.i += 1;
        if !self.is_ident(self.i) {
            return Err(self.unexpected(self.i, "a struct name"));
        }
        let name = self.text(self.i).to_string();
        self.i += 1;
        if !self.is(self.i, "{") {
            return Err(self.unexpected(self.i, "`{`"));
        }
        let body_end = self.skip_balanced(self.i, Code::FX0001, "a struct")?;
        self.i += 1;
        let mut members = Vec::new();
        while self.i < body_end - 1 {
            let mut row_major = self.row_major_default(self.i);
            while self.is_ident(self.i) && PARAM_MODIFIERS.contains(&self.text(self.i)) {
                match self.text(self.i) {
                    "row_major" => row_major = true,
                    "column_major" => row_major = false,
                    _ => {}
                }
                self.i += 1;
            }
            if !self.is_ident(self.i) {
                return Err(self.unexpected(self.i, "a member type"));
            }
            let ty = self.text(self.i).to_string();
            self.i += 1;
            if self.is(self.i, "<") {
                self.i = self.skip_template(self.i)?;
            }
            // A member function (`float4 Shade(float l) { return this.low; }`): HLSL 2016
            // syntax DXC compiles; it declares no member, so skip its signature and body.
            if self.is_ident(self.i) && self.is(self.i + 1, "(") {
                let close = self.skip_balanced(self.i + 1, Code::FX0001, "a parameter list")?;
                self.i = close;
                while self.i < body_end - 1 && !self.is(self.i, "{") && !self.is(self.i, ";") {
                    self.i += 1;
                }
                if self.is(self.i, "{") {
                    self.i = self.skip_balanced(self.i, Code::FX0001, "a member function")?;
                } else {
                    self.i += 1;
                }
                continue;
            }
            loop {
                if !self.is_ident(self.i) {
                    return Err(self.unexpected(self.i, "a member name"));
                }
                let mname = self.text(self.i).to_string();
                self.i += 1;
                let mut array = None;
                while self.is(self.i, "[") {
                    let close = self.skip_balanced(self.i, Code::FX0001, "an array size")?;
                    array = self.const_value(self.i + 1..close - 1).map(|n| n as u32);
                    self.i = close;
                }
                let mut semantic = None;
                while self.is(self.i, ":") {
                    if self.is(self.i + 1, "packoffset") || self.is(self.i + 1, "register") {
                        self.i = self.skip_balanced(self.i + 2, Code::FX0001, "a register")?;
                    } else if self.is_ident(self.i + 1) {
                        semantic =
                            Some((self.text(self.i + 1).to_string(), self.range(self.i + 1)));
                        self.i += 2;
                    } else {
                        return Err(self.unexpected(self.i + 1, "a semantic"));
                    }
                }
                members.push(StructMember {
                    ty: ty.clone(),
                    name: mname,
                    semantic,
                    array,
                    row_major,
                });
                if self.is(self.i, ",") {
                    self.i += 1;
                    continue;
                }
                break;
            }
            self.expect_semicolon()?;
        }
        self.i = body_end;
        // `struct S { ... } s;` declares a variable too; not supported as a uniform.
        if !self.is(self.i, ";") {
            return Err(self.err(
                Code::FX0008,
                self.range(self.i - 1),
                "missing `;` after the struct",
                "end the struct declaration with `};`",
            ));
        }
        self.i += 1;
        self.ast.structs.push(StructDecl {
            name,
            members,
            range: self.span(start, self.i - 1),
        });
        Ok(())
    }

    fn cbuffer(&mut self) -> R<()> {
        self.i += 1;
        if !self.is_ident(self.i) {
            return Err(self.unexpected(self.i, "a cbuffer name"));
        }
        let name = self.text(self.i).to_string();
        self.i += 1;
        while self.is(self.i, ":") {
            if self.is(self.i + 1, "register") && self.is(self.i + 2, "(") {
                self.i = self.skip_balanced(self.i + 2, Code::FX0001, "a register")?;
            } else {
                return Err(self.unexpected(self.i + 1, "`register(bN)`"));
            }
        }
        if !self.is(self.i, "{") {
            return Err(self.unexpected(self.i, "`{`"));
        }
        let end = self.skip_balanced(self.i, Code::FX0001, "a cbuffer")?;
        self.i += 1;
        let first_global = self.ast.globals.len();
        while self.i < end - 1 {
            if self.is(self.i, ";") {
                self.i += 1;
                continue;
            }
            self.declaration(Some(&name))?;
        }
        self.i = end;
        let mut stmt_end = self.range(end - 1).end;
        if self.is(self.i, ";") {
            stmt_end = self.range(self.i).end;
            self.i += 1;
        }
        for g in &mut self.sites.globals[first_global..] {
            g.stmt_end = stmt_end;
        }
        Ok(())
    }

    /// The value of the constant expression in tokens `range` (literals, `static const`
    /// scalars, `+ - * /`, parentheses).
    fn const_value(&self, range: Range<usize>) -> Option<f64> {
        let toks = self.toks.get(range)?;
        if toks.is_empty() {
            return None;
        }
        let scalar = types::numeric("float")?;
        initializer::evaluate(self.src, toks, &scalar, &|n| self.consts.get(n).copied())
            .ok()
            .and_then(|v| v.first().copied())
    }

    /// `matrix`, `vector` and their template forms `matrix<float, 4, 3>`, `vector<half, 3>`
    /// (template arguments in tokens `template`): the numeric type they name.
    fn generic_type(&self, name: &str, template: Option<Range<usize>>) -> Option<HlslType> {
        let is_matrix = match name {
            "matrix" => true,
            "vector" => false,
            _ => return None,
        };
        let Some(t) = template else {
            return types::numeric(if is_matrix { "float4x4" } else { "float4" });
        };
        let args: Vec<&str> = t.map(|i| self.text(i)).filter(|s| *s != ",").collect();
        let dim = |s: &str| s.parse::<u32>().ok().filter(|n| (1..=4).contains(n));
        let spelled = match (is_matrix, args.as_slice()) {
            (true, [base, r, c]) => format!("{base}{}x{}", dim(r)?, dim(c)?),
            (false, [base, n]) => format!("{base}{}", dim(n)?),
            _ => return None,
        };
        types::numeric(&spelled)
    }

    /// Index past the `>` closing a template argument list starting at `open`.
    fn skip_template(&self, open: usize) -> R<usize> {
        let mut depth = 0;
        let mut i = open;
        while i < self.toks.len() {
            match self.text(i) {
                "<" => depth += 1,
                ">" => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i + 1);
                    }
                }
                ";" | "{" | "}" => break,
                _ => {}
            }
            i += 1;
        }
        Err(self.unexpected(i, "`>` closing the template arguments"))
    }

    /// Whether `#pragma pack_matrix` makes a matrix declared at token `i` row-major.
    fn row_major_default(&self, i: usize) -> bool {
        let at = self.toks.get(i).map_or(0, |t| t.range.start);
        self.pack_matrix
            .iter()
            .rev()
            .find(|(offset, _)| *offset < at)
            .is_some_and(|(_, row)| *row)
    }

    // ---- functions ---------------------------------------------------------------------

    /// Parses `: register(...)` clauses; returns the number of the last `letter`N register.
    pub(super) fn function(&mut self, return_type: String) -> R<()> {
        let name_i = self.i;
        let open = self.i + 1;
        let close = self.skip_balanced(open, Code::FX0001, "a parameter list")?;
        let mut params = Vec::new();
        let mut sites = Vec::new();
        let void_only = close == open + 3 && self.is(open + 1, "void");
        let mut i = open + 1;
        while i < close - 1 && !void_only {
            let pstart = i;
            let mut qualifier = String::new();
            let mut row_major = self.row_major_default(i);
            while self.is_ident(i) && PARAM_MODIFIERS.contains(&self.text(i)) {
                match self.text(i) {
                    "in" | "out" | "inout" | "uniform" => qualifier = self.text(i).to_string(),
                    "row_major" => row_major = true,
                    "column_major" => row_major = false,
                    _ => {}
                }
                i += 1;
            }
            if !self.is_ident(i) {
                return Err(self.unexpected(i, "a parameter type"));
            }
            let ty_i = i;
            i += 1;
            if self.is(i, "<") {
                i = self.skip_template(i)?;
            }
            let ty = self.src[self.span(ty_i, i - 1)].to_string();
            if !self.is_ident(i) {
                return Err(self.unexpected(i, "a parameter name"));
            }
            let pname_i = i;
            i += 1;
            while self.is(i, "[") {
                i = self.skip_balanced(i, Code::FX0001, "an array size")?;
            }
            let mut semantic = None;
            let mut semantic_range = None;
            while self.is(i, ":") && self.is_ident(i + 1) {
                semantic = Some(self.text(i + 1).to_string());
                semantic_range = Some(self.range(i + 1));
                i += 2;
            }
            let mut depth = 0;
            while i < close - 1 {
                match self.text(i) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    "," if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            params.push(Param {
                qualifier,
                ty,
                name: self.text(pname_i).to_string(),
                semantic,
                range: self.span(pstart, i - 1),
                row_major,
            });
            sites.push(ParamSite {
                ty_range: self.range(ty_i).start..self.range(pname_i - 1).end,
                name_range: self.range(pname_i),
                semantic_range,
            });
            if self.is(i, ",") {
                i += 1;
            }
        }
        self.i = close;
        let mut return_semantic = None;
        while self.is(self.i, ":") && self.is_ident(self.i + 1) {
            return_semantic = Some((self.text(self.i + 1).to_string(), self.range(self.i + 1)));
            self.i += 2;
        }
        if self.is(self.i, ";") {
            // A prototype; the definition comes later.
            self.i += 1;
            return Ok(());
        }
        if !self.is(self.i, "{") {
            return Err(self.unexpected(self.i, "a function body"));
        }
        let body_end = self.skip_balanced(self.i, Code::FX0001, "a function body")?;
        let body = self.span(self.i, body_end - 1);
        self.i = body_end;
        self.ast.functions.push(Function {
            name: self.text(name_i).to_string(),
            return_type,
            return_semantic,
            params,
            range: self.range(name_i),
            body,
        });
        self.sites.params.push(sites);
        Ok(())
    }
}
