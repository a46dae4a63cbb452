//! Non-square matrix uniforms, which GLSL 1.10 cannot declare, carried as the vec4 registers
//! MonoGame uploads them to and read back through generated getters.

use crate::diag::{Code, Diagnostic};
use crate::effect::lexer::{Token, TokenKind};
use crate::effect::{GlobalSite, GlobalVar, HlslType, ParsedEffect};
use crate::lower::emit::Edits;
use crate::lower::scope::Scopes;
use crate::lower::RetypedUniform;
use crate::source::SourceMap;

/// Prefix of the float4-array carriers of non-square matrix uniforms.
pub const MATRIX_CARRIER_PREFIX: &str = "__sd_m_";

/// Non-square matrix uniforms (`float4x3 World`, `float4x3 Bones[72]`), which GLSL 1.10 cannot
/// declare. MonoGame uploads such a matrix as one vec4 register per column (per row when
/// `row_major`), so it is declared as exactly that — `float4 __sd_m_World[3]`,
/// `float4 __sd_m_Bones[216]` — and every use reads the matrix back through a generated getter
/// (`World` → `__sd_get_World()`, `Bones[i]` → `__sd_get_Bones(i)`), which builds it element by
/// element from the registers. DXC inlines the getter, so the shader multiplies a matrix built
/// in place, which the cross stage's `widen` pass turns into square-matrix maths GLSL 1.10 has.
/// The parameter keeps its name, class and shape ([`RetypedUniform`]).
pub fn non_square_uniforms(
    parsed: &ParsedEffect,
    toks: &[Token],
    scopes: &Scopes,
    map: &SourceMap,
    edits: &mut Edits,
) -> Result<Vec<RetypedUniform>, Box<Diagnostic>> {
    let src = parsed.stripped.as_str();
    let mut out = Vec::new();
    for (g, site) in parsed.ast.globals.iter().zip(&parsed.sites.globals) {
        let t = &g.ty;
        let float_based = matches!(t.base.as_str(), "float" | "half") || t.base.starts_with("min1");
        if !t.is_matrix || t.rows == t.columns || !float_based {
            continue;
        }
        let Some(name_tok) = toks.iter().position(|x| x.range == g.range) else {
            continue;
        };
        let m = Matrix::new(src, toks, g, site, name_tok);
        m.declare_carrier(edits);
        edits.insert(m.getter_at(), m.getters());
        m.rewrite_uses(scopes, map, edits)?;
        out.push(RetypedUniform {
            name: g.name.clone(),
            carrier: m.carrier,
        });
    }
    Ok(out)
}

const SWIZZLE: [&str; 4] = ["x", "y", "z", "w"];

/// One non-square matrix uniform and the names its rewrite generates, shared by the passes
/// that declare its carrier, write its getters and rewrite its uses.
struct Matrix<'a> {
    src: &'a str,
    toks: &'a [Token],
    g: &'a GlobalVar,
    site: &'a GlobalSite,
    t: &'a HlslType,
    /// The declaration's name token.
    name_tok: usize,
    /// Registers per matrix.
    registers: u32,
    /// Components of each register that hold elements.
    width: u32,
    /// `__sd_m_World`: the vec4 array.
    carrier: String,
    /// `__sd_get_World`: the whole matrix (of element `__sd_i` for an array).
    getter: String,
    /// `__sd_row_World`: one row, picked by index.
    row_getter: String,
    /// `float4x3`.
    ty: String,
}

impl<'a> Matrix<'a> {
    fn new(
        src: &'a str,
        toks: &'a [Token],
        g: &'a GlobalVar,
        site: &'a GlobalSite,
        name_tok: usize,
    ) -> Self {
        let t = &g.ty;
        let (r, c) = (t.rows, t.columns);
        // Registers per matrix and the element each register component holds.
        let (registers, width) = if t.row_major { (r, c) } else { (c, r) };
        Matrix {
            src,
            toks,
            g,
            site,
            t,
            name_tok,
            registers,
            width,
            carrier: format!("{MATRIX_CARRIER_PREFIX}{}", g.name),
            getter: format!("__sd_get_{}", g.name),
            row_getter: format!("__sd_row_{}", g.name),
            ty: format!("{}{r}x{c}", t.base),
        }
    }

    /// The text of token `i`, "" past the end.
    fn text(&self, i: usize) -> &'a str {
        self.toks.get(i).map(|t| t.text(self.src)).unwrap_or("")
    }

    /// Declaration: `float4x3 World` → `float4 __sd_m_World[3]`; an array's size is
    /// multiplied by the registers per element.
    fn declare_carrier(&self, edits: &mut Edits) {
        let (g, site, toks) = (self.g, self.site, self.toks);
        edits.replace(site.ty_range.clone(), format!("float{}", self.width));
        // A packing qualifier would be an error on the vector carrier.
        if let Some(ty_tok) = toks
            .iter()
            .position(|x| x.range.start == site.ty_range.start)
        {
            for q in toks[..ty_tok].iter().rev().take(4) {
                match q.text(self.src) {
                    "row_major" | "column_major" => edits.replace(q.range.clone(), ""),
                    "static" | "const" | "uniform" | "extern" | "shared" | "volatile" => {}
                    _ => break,
                }
            }
        }
        let name_tok = self.name_tok;
        match self.t.array {
            None => edits.replace(
                g.range.clone(),
                format!("{}[{}]", self.carrier, self.registers),
            ),
            Some(n) => {
                edits.replace(g.range.clone(), self.carrier.clone());
                if self.text(name_tok + 1) == "[" {
                    let close = (name_tok + 1..toks.len()).find(|&k| self.text(k) == "]");
                    if let Some(close) = close {
                        edits.replace(
                            toks[name_tok + 1].range.start..toks[close].range.end,
                            format!("[{}]", n * self.registers),
                        );
                    }
                }
            }
        }
    }

    /// Register `reg` of the matrix (of element `__sd_i` for an array).
    fn register(&self, reg: &str) -> String {
        match self.t.array {
            None => format!("{}[{reg}]", self.carrier),
            Some(_) => format!("{}[__sd_i * {} + {reg}]", self.carrier, self.registers),
        }
    }

    /// The two getters: the whole matrix, built element by element, and one row.
    fn getters(&self) -> String {
        let t = self.t;
        let (r, c) = (t.rows, t.columns);
        let elements: Vec<String> = (0..r)
            .flat_map(|row| (0..c).map(move |col| (row, col)))
            .map(|(row, col)| {
                let (reg, comp) = if t.row_major { (row, col) } else { (col, row) };
                format!("{}.{}", self.register(&reg.to_string()), SWIZZLE[comp as usize])
            })
            .collect();
        let params = if t.array.is_some() { "int __sd_i" } else { "" };
        let row_params = if t.array.is_some() {
            "int __sd_i, int __sd_row"
        } else {
            "int __sd_row"
        };
        let (ty, getter, row_getter) = (&self.ty, &self.getter, &self.row_getter);
        format!(
            " {ty} {getter}({params}) {{ return {ty}({}); }} {} {row_getter}({row_params}) {{ {} }}",
            elements.join(", "),
            self.row_type(),
            self.row_body()
        )
    }

    /// `float3`: a row of the matrix.
    fn row_type(&self) -> String {
        format!("{}{}", self.t.base, self.t.columns)
    }

    /// A row picked by index (`World[i]`, `Bones[b][i]`, also at run time) is read straight
    /// from the registers: a row-major matrix's row is a register; a column-major one's is
    /// one component of each register, chosen without indexing a vector dynamically (GLSL ES
    /// 1.00 fragment shaders need not support that).
    fn row_body(&self) -> String {
        if self.t.row_major {
            return format!("return {};", self.register("__sd_row"));
        }
        let row_of = |row: u32| {
            let parts: Vec<String> = (0..self.t.columns)
                .map(|col| {
                    format!("{}.{}", self.register(&col.to_string()), SWIZZLE[row as usize])
                })
                .collect();
            format!("{}({})", self.row_type(), parts.join(", "))
        };
        // Selects, not branches: SPIRV-Cross spells early returns as `do … while (false)`,
        // a loop GLSL ES 1.00 need not accept.
        let r = self.t.rows;
        let mut chosen = row_of(r - 1);
        for row in (0..r - 1).rev() {
            chosen = format!("__sd_row == {row} ? {} : ({chosen})", row_of(row));
        }
        format!("return {chosen};")
    }

    /// Where the getters go: after the declaration; a cbuffer member's after the cbuffer
    /// (functions cannot be declared in it).
    fn getter_at(&self) -> usize {
        if self.g.cbuffer.is_none() {
            return self.site.stmt_end;
        }
        let mut depth = 0i32;
        let close = (self.name_tok..self.toks.len()).find(|&k| {
            match self.text(k) {
                "{" => depth += 1,
                "}" => depth -= 1,
                _ => {}
            }
            depth < 0
        });
        match close {
            Some(k) if self.text(k + 1) == ";" => self.toks[k + 1].range.end,
            Some(k) => self.toks[k].range.end,
            None => self.site.stmt_end,
        }
    }

    /// The bracket that closes the one opening at `open`.
    fn closing(&self, open: usize) -> Option<usize> {
        let mut depth = 0;
        (open..self.toks.len()).find(|&k| {
            match self.text(k) {
                "[" => depth += 1,
                "]" => depth -= 1,
                _ => {}
            }
            depth == 0
        })
    }

    /// Every use of the uniform reads it through a getter; an array used whole is refused
    /// (FX0012), as there is no matrix array left to pass.
    fn rewrite_uses(
        &self,
        scopes: &Scopes,
        map: &SourceMap,
        edits: &mut Edits,
    ) -> Result<(), Box<Diagnostic>> {
        let g = self.g;
        for (i, tok) in self.toks.iter().enumerate() {
            if tok.kind != TokenKind::Ident
                || tok.range == g.range
                || tok.text(self.src) != g.name
                || (i > 0 && self.text(i - 1) == ".")
                || scopes.shadowed(&g.name, tok.range.start)
            {
                continue;
            }
            match self.t.array {
                None if self.text(i + 1) == "[" => {
                    if let Some(close) = self.closing(i + 1) {
                        self.call(&self.row_getter, i, close, edits);
                    }
                }
                None => edits.replace(tok.range.clone(), format!("{}()", self.getter)),
                Some(_) => self.array_use(i, map, edits)?,
            }
        }
        Ok(())
    }

    /// `name[ … ]` at token `i`, closed at `close`, becomes `getter( … )`.
    fn call(&self, getter: &str, i: usize, close: usize, edits: &mut Edits) {
        edits.replace(self.toks[i].range.clone(), getter.to_string());
        edits.replace(self.toks[i + 1].range.clone(), "(");
        edits.replace(self.toks[close].range.clone(), ")");
    }

    /// A use of a matrix array at token `i`: `Bones[b]` reads element b, `Bones[b][i]` its
    /// row i.
    fn array_use(&self, i: usize, map: &SourceMap, edits: &mut Edits) -> Result<(), Box<Diagnostic>> {
        let (g, toks) = (self.g, self.toks);
        if self.text(i + 1) != "[" {
            return Err(Box::new(
                Diagnostic::error(
                    Code::FX0012,
                    format!(
                        "`{}` is an array of {} matrices, which the OpenGL profile keeps as vec4 registers; it can only be read element by element",
                        g.name, self.ty
                    ),
                )
                .at_opt(map.span(toks[i].range.clone()))
                .with_help(format!("index it here (`{}[i]`)", g.name)),
            ));
        }
        let Some(close) = self.closing(i + 1) else {
            return Ok(());
        };
        if self.text(close + 1) != "[" {
            self.call(&self.getter, i, close, edits);
            return Ok(());
        }
        let Some(second) = self.closing(close + 1) else {
            return Ok(());
        };
        edits.replace(toks[i].range.clone(), self.row_getter.clone());
        edits.replace(toks[i + 1].range.clone(), "(");
        edits.replace(toks[close].range.start..toks[close + 1].range.end, ", ");
        edits.replace(toks[second].range.clone(), ")");
        Ok(())
    }
}
