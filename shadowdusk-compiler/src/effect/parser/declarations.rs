//! Declaration statements at depth 0 or inside a cbuffer: `static const int N = 4;`,
//! `float4x4 World : WORLD;`, `float4 Tint = {1, 1, 1, 1}, Fog;` (fx-pipeline.md §3).
//!
//! A statement starts with qualifiers and a type; object types (samplers, textures, state
//! objects) and functions go to their own parsers, everything else is a list of declarators.
//! Non-static declarators become uniforms; `static const` scalars are remembered for later
//! array sizes and initializers. Refused: FX0001, FX0008, SD0025 (array size not a number or
//! too large, initializer not a constant expression).

use std::ops::Range;

use super::{Parser, R};
use crate::diag::Code;
use crate::effect::ast::*;
use crate::effect::{initializer, types, GlobalSite};

/// The most elements an array declaration may have (all profiles together have fewer
/// registers); larger sizes are refused before any arithmetic on them.
const MAX_ARRAY: u32 = 1 << 16;

/// Qualifiers that may precede a declaration's type.
const QUALIFIERS: &[&str] = &[
    "static",
    "const",
    "uniform",
    "extern",
    "groupshared",
    "shared",
    "volatile",
    "row_major",
    "column_major",
    "precise",
    "inline",
    "snorm",
    "unorm",
];

/// The qualifiers in front of a statement's type: they apply to every declarator in it.
struct Qualifiers {
    is_static: bool,
    is_const: bool,
    row_major: bool,
}

/// One declarator (`Name[4] : SEMANTIC <annotations> = init`), read before deciding whether it
/// is a uniform, a remembered constant or neither.
struct Declarator {
    name_i: usize,
    /// Total element count over all `[n]` suffixes.
    array: Option<u32>,
    /// `false` when some `[n]` was not a constant number.
    array_ok: bool,
    semantic: Option<String>,
    register: Option<String>,
    annotations: Vec<Annotation>,
    /// Tokens after `=`, up to the `,` or `;` ending the declarator.
    init_toks: Option<Range<usize>>,
}

impl Parser<'_> {
    /// One declaration statement at depth 0 (or inside a cbuffer).
    pub(super) fn declaration(&mut self, cbuffer: Option<&str>) -> R<()> {
        let q = self.qualifiers();
        if !self.is_ident(self.i) {
            return Err(self.unexpected(self.i, "a type name"));
        }
        let ty_i = self.i;
        let ty_text = self.text(ty_i);
        self.i += 1;
        let mut template = None;
        if self.is(self.i, "<") {
            let open = self.i;
            self.i = self.skip_template(self.i)?;
            template = Some(open + 1..self.i - 1);
        }
        let ty_end = self.i - 1;
        if cbuffer.is_none() && !q.is_static {
            if let Some(done) = self.object_declaration(ty_i) {
                return done;
            }
        }
        if !self.is_ident(self.i) {
            return Err(self.unexpected(self.i, "a name"));
        }
        if self.is(self.i + 1, "(") {
            let ret = self.src[self.span(ty_i, ty_end)].to_string();
            return self.function(ret);
        }
        let base_ty = self.declared_type(ty_text, template);
        loop {
            let d = self.declarator()?;
            if q.is_static && q.is_const {
                self.remember_const(&d, base_ty.as_ref());
            }
            if let (false, Some(ty)) = (q.is_static, base_ty.clone()) {
                self.uniform(d, ty, q.row_major, cbuffer, ty_i)?;
            }
            if self.is(self.i, ",") {
                self.i += 1;
                continue;
            }
            break;
        }
        self.expect_semicolon()?;
        let end = self.range(self.i - 1).end;
        for g in self.sites.globals.iter_mut().filter(|g| g.stmt_end == 0) {
            g.stmt_end = end;
        }
        Ok(())
    }

    /// Reads the qualifiers; `#pragma pack_matrix` sets the default packing and a
    /// `row_major`/`column_major` qualifier overrides it.
    fn qualifiers(&mut self) -> Qualifiers {
        let mut q = Qualifiers {
            is_static: false,
            is_const: false,
            row_major: self.row_major_default(self.i),
        };
        while self.is_ident(self.i) && QUALIFIERS.contains(&self.text(self.i)) {
            match self.text(self.i) {
                // A non-static `const` global is still a uniform: fxc and DXC both place it
                // in `$Globals` (its initializer becomes the parameter's default).
                "static" | "groupshared" => q.is_static = true,
                "row_major" => q.row_major = true,
                "column_major" => q.row_major = false,
                "const" => q.is_const = true,
                _ => {}
            }
            self.i += 1;
        }
        q
    }

    /// Object types (samplers, textures, state objects) have their own declaration syntax;
    /// `None` when the type at `ty_i` is not one or the name is a function's.
    fn object_declaration(&mut self, ty_i: usize) -> Option<R<()>> {
        let ty_text = self.text(ty_i);
        let named = self.is_ident(self.i) && !self.is(self.i + 1, "(");
        if let Some(dim) = types::legacy_sampler(ty_text) {
            if named {
                return Some(self.sampler_decl(ty_i, dim, true));
            }
        }
        if ty_text == "SamplerState" && named {
            return Some(self.sampler_decl(ty_i, None, false));
        }
        if let Some(kind) = crate::effect::state_objects::ObjectKind::from_type(ty_text) {
            if named {
                return Some(self.state_object_decl(ty_i, kind));
            }
        }
        if let Some((dim, legacy)) = types::texture_keyword(ty_text) {
            if named {
                return Some(self.texture_decl(ty_i, dim, legacy));
            }
        }
        None
    }

    /// The declared type, or `None` for types the effect parameters cannot hold (their
    /// declarators are still parsed, to find the end of the statement).
    fn declared_type(&self, ty_text: &str, template: Option<Range<usize>>) -> Option<HlslType> {
        self.generic_type(ty_text, template)
            .or_else(|| types::numeric(ty_text))
            .or_else(|| {
                self.ast
                    .structs
                    .iter()
                    .any(|s| s.name == ty_text)
                    .then(|| HlslType {
                        base: ty_text.to_string(),
                        rows: 1,
                        columns: 1,
                        is_vector: false,
                        is_matrix: false,
                        array: None,
                        row_major: false,
                    })
            })
    }

    /// Reads one declarator up to (not including) the `,` or `;` after it.
    fn declarator(&mut self) -> R<Declarator> {
        if !self.is_ident(self.i) {
            return Err(self.unexpected(self.i, "a variable name"));
        }
        let name_i = self.i;
        self.i += 1;
        let (array, array_ok) = self.array_size(name_i)?;
        let (semantic, register) = self.semantic_and_register()?;
        let annotations = self.maybe_annotations()?;
        let init_toks = self.initializer_tokens();
        Ok(Declarator {
            name_i,
            array,
            array_ok,
            semantic,
            register,
            annotations,
            init_toks,
        })
    }

    /// Multiplies the `[n]` suffixes together; a size that is not a number is only an error
    /// for uniforms (reported later), but one past [`MAX_ARRAY`] is refused here.
    fn array_size(&mut self, name_i: usize) -> R<(Option<u32>, bool)> {
        let mut array: Option<u32> = None;
        let mut array_ok = true;
        while self.is(self.i, "[") {
            let close = self.skip_balanced(self.i, Code::FX0001, "an array size")?;
            let n = self.const_value(self.i + 1..close - 1);
            match n {
                Some(n) if n >= 1.0 => {
                    // Checked: a size from the user's text must not overflow.
                    let total = (n.min(f64::from(u32::MAX)) as u32)
                        .checked_mul(array.unwrap_or(1))
                        .filter(|&t| t <= MAX_ARRAY);
                    let Some(total) = total else {
                        return Err(self.err(
                            Code::SD0025,
                            self.range(name_i),
                            format!("`{}` has more than {MAX_ARRAY} elements", self.text(name_i)),
                            "no shader profile has that many registers; use a smaller array or a texture",
                        ));
                    };
                    array = Some(total);
                }
                _ => array_ok = false,
            }
            self.i = close;
        }
        Ok((array, array_ok))
    }

    /// Reads `: SEMANTIC`, `: register(...)` and `: packoffset(...)` clauses; only the
    /// register is kept, since packing offsets are left to the compiler.
    fn semantic_and_register(&mut self) -> R<(Option<String>, Option<String>)> {
        let mut semantic = None;
        let mut register = None;
        while self.is(self.i, ":") {
            let k = self.i + 1;
            if (self.is(k, "register") || self.is(k, "packoffset")) && self.is(k + 1, "(") {
                let close = self.skip_balanced(k + 1, Code::FX0001, "a register")?;
                if self.is(k, "register") {
                    register = Some(self.src[self.span(k + 2, close - 2)].to_string());
                }
                self.i = close;
            } else if self.is_ident(k) {
                semantic = Some(self.text(k).to_string());
                self.i = k + 1;
            } else {
                return Err(self.unexpected(k, "a semantic or `register(...)`"));
            }
        }
        Ok((semantic, register))
    }

    /// Skips `= ...` up to the `,` or `;` at the same depth, so commas inside braces and
    /// calls stay part of the initializer; returns its tokens (possibly empty).
    fn initializer_tokens(&mut self) -> Option<Range<usize>> {
        if !self.is(self.i, "=") {
            return None;
        }
        let start = self.i + 1;
        let mut depth = 0;
        let mut j = start;
        while j < self.toks.len() {
            match self.text(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," | ";" if depth == 0 => break,
                _ => {}
            }
            if depth < 0 {
                break;
            }
            j += 1;
        }
        self.i = j;
        Some(start..j)
    }

    /// `static const int N = 4;`: usable in later array sizes and initializers.
    fn remember_const(&mut self, d: &Declarator, ty: Option<&HlslType>) {
        let (Some(ty), Some(r)) = (ty, d.init_toks.clone()) else {
            return;
        };
        if types::components(ty) == 1 && ty.array.is_none() && !r.is_empty() {
            if let Some(v) = self.const_value(r) {
                self.consts.insert(self.text(d.name_i).to_string(), v);
            }
        }
    }

    /// Records a non-static declarator as an effect parameter, with the site the lowering
    /// stage edits (its `stmt_end` is filled in once the statement's `;` is read).
    fn uniform(
        &mut self,
        d: Declarator,
        mut ty: HlslType,
        row_major: bool,
        cbuffer: Option<&str>,
        ty_i: usize,
    ) -> R<()> {
        let name_i = d.name_i;
        if !d.array_ok {
            return Err(self.err(
                Code::SD0025,
                self.range(name_i),
                format!("the array size of `{}` is not a number", self.text(name_i)),
                "use a literal array size (or a macro that expands to one)",
            ));
        }
        ty.array = d.array;
        ty.row_major = row_major;
        let initializer = match d.init_toks.clone() {
            Some(r) if r.is_empty() => {
                return Err(self.unexpected(r.start, "an initializer"));
            }
            Some(r) => Some(self.initial_value(name_i, &ty, r)?),
            None => None,
        };
        self.ast.globals.push(GlobalVar {
            name: self.text(name_i).to_string(),
            ty,
            cbuffer: cbuffer.map(str::to_string),
            initializer,
            annotations: d.annotations,
            register: d.register,
            semantic: d.semantic,
            range: self.range(name_i),
        });
        let init_range = d
            .init_toks
            .as_ref()
            .filter(|r| !r.is_empty())
            .map(|r| self.range(r.start - 1).start..self.range(r.end - 1).end);
        self.sites.globals.push(GlobalSite {
            ty_range: self.range(ty_i),
            stmt_end: 0,
            init_range,
        });
        Ok(())
    }

    /// Evaluates the initializer tokens `r` to the parameter's default value; the effect
    /// file stores defaults as numbers, so anything not constant is refused.
    fn initial_value(&self, name_i: usize, ty: &HlslType, r: Range<usize>) -> R<Vec<f64>> {
        let toks = &self.toks[r.clone()];
        let consts = &self.consts;
        let at = match initializer::evaluate(self.src, toks, ty, &|n| consts.get(n).copied()) {
            Ok(v) => return Ok(v),
            Err(at) => at,
        };
        let bad = at.min(toks.len() - 1);
        // Refused for its depth (the evaluator does not recurse past it)?
        let depth = toks[..bad]
            .iter()
            .fold(0i64, |d, t| match t.text(self.src) {
                "(" | "{" => d + 1,
                ")" | "}" => d - 1,
                _ => d,
            });
        let at = r.start + bad;
        let message = if depth >= i64::from(initializer::MAX_NEST) {
            format!(
                "the initializer of `{}` is nested more than {} levels deep",
                self.text(name_i),
                initializer::MAX_NEST
            )
        } else {
            format!(
                "cannot evaluate the initializer of `{}` as a constant",
                self.text(name_i)
            )
        };
        Err(self.err(
            Code::SD0025,
            self.span(at, r.end - 1),
            message,
            "use literals, constructors of literals or intrinsics of them, e.g. `float4(1, 0, 0, 1)`, `{1, 2, 3}` or `normalize(float3(1, 2, 3))`",
        ))
    }
}
