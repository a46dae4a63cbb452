//! Which overload of the entry a `compile` statement names, as fxc's effect compiler picks it.
//!
//! fxc (asked through the oracle with profile `fx_2_0`) resolves `compile ps_2_0 PS(args)` like
//! a call whose arguments are the `uniform` parameters: the other parameters (the shader's
//! inputs and outputs) take no part. With `PS(VSOutput input)` and
//! `PS(VSOutput input, uniform bool gammaCorrection)`, `PS()` is the first and `PS(true)` the
//! second, whatever their order in the file.
//! * Overloads with as many `uniform` parameters as there are arguments are candidates; among
//!   them the one at least as good for every argument, and better for one, wins. Two with the
//!   same `uniform` types, or neither better, is fxc's X3067 ("ambiguous function call").
//! * Per argument, the base type counts before the shape. A `bool` argument takes `bool`
//!   exactly and any other base alike; an integer literal takes `int`/`uint` exactly, then
//!   `bool`, then `float`/`half`; a float literal takes `float`/`half` exactly, then anything
//!   else alike; a typed value (`float2(…)`, `(int)x`, `1.5h`) its own type exactly, an `int`
//!   then `uint`/`bool` before `float`, others alike. A scalar spreads to a vector or matrix at
//!   a cost, a vector or matrix may be cut to a smaller one at a higher cost (fxc warns), never
//!   grown: `float2(1, 2)` for a `float4` is X3017 ("cannot implicitly convert").
//! * No overload with that many `uniform` parameters: fxc refuses (X3013, "function does not
//!   take N parameters"). mgfxc, whose `compile` takes no arguments, compiles the entry by its
//!   name alone, which takes the first definition and leaves its `uniform` parameters to the
//!   application (`$name`); so an overload with more `uniform` parameters than arguments is
//!   taken here too, the first in source order whose leading parameters take the arguments.
//!   With none, the `compile` is refused as fxc refuses it.
//!
//! An argument whose type cannot be read from its text (a name, an expression) takes every
//! parameter alike, so it never decides between overloads on its own.

use crate::diag::{Code, Diagnostic};
use crate::effect::{Function, Param, ParsedEffect, ShaderRef};
use crate::source::SourceMap;

/// The index in `parsed.ast.functions` of the overload `shader` compiles.
pub fn choose(
    parsed: &ParsedEffect,
    shader: &ShaderRef,
    map: &SourceMap,
) -> Result<usize, Box<Diagnostic>> {
    let functions = &parsed.ast.functions;
    let overloads: Vec<usize> = (0..functions.len())
        .filter(|&i| functions[i].name == shader.entry)
        .collect();
    let at = || map.span(shader.range.clone());
    if overloads.is_empty() {
        return Err(Box::new(
            Diagnostic::error(Code::SD0102, format!("entry point `{}` not found", shader.entry))
                .at_opt(at())
                .with_help("define the function before the technique, or fix the name in the `compile` statement"),
        ));
    }
    // A second definition with the same parameter types is no overload but fxc's X3003
    // ("redefinition"): the first stands for both, and DXC reports the redefinition, as
    // `reach` keeps both bodies.
    let overloads: Vec<usize> = overloads
        .iter()
        .copied()
        .filter(|&i| {
            !overloads
                .iter()
                .any(|&j| j < i && same_signature(&functions[i], &functions[j]))
        })
        .collect();
    let args: Vec<Arg> = shader.args.iter().map(|a| Arg::read(a)).collect();
    let n = args.len();
    let exact: Vec<usize> = overloads
        .iter()
        .copied()
        .filter(|&i| uniforms(&functions[i]).len() == n)
        .collect();
    if !exact.is_empty() {
        let costed: Vec<(usize, Vec<Cost>)> = exact
            .iter()
            .filter_map(|&i| costs(&args, &uniforms(&functions[i])).map(|c| (i, c)))
            .collect();
        if costed.is_empty() {
            return Err(not_convertible(parsed, shader, &args, exact[0], map));
        }
        let better = |a: &[Cost], b: &[Cost]| {
            a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
        };
        let best: Vec<usize> = costed
            .iter()
            .filter(|(i, c)| {
                costed
                    .iter()
                    .all(|(j, d)| j == i || better(c, d))
            })
            .map(|(i, _)| *i)
            .collect();
        if let [one] = best[..] {
            return Ok(one);
        }
        // The overloads no other one beats are the ones fxc cannot choose between.
        let tied: Vec<usize> = costed
            .iter()
            .filter(|(i, c)| !costed.iter().any(|(j, d)| j != i && better(d, c)))
            .map(|(i, _)| *i)
            .collect();
        return Err(ambiguous(parsed, shader, &tied, map));
    }
    let longer: Vec<usize> = overloads
        .iter()
        .copied()
        .filter(|&i| uniforms(&functions[i]).len() > n)
        .collect();
    if let Some(&first) = longer
        .iter()
        .find(|&&i| costs(&args, &uniforms(&functions[i])[..n]).is_some())
    {
        return Ok(first);
    }
    if let Some(&first) = longer.first() {
        return Err(not_convertible(parsed, shader, &args, first, map));
    }
    Err(wrong_count(parsed, shader, &overloads, map))
}

/// Whether `a` and `b` have the same name and parameter types: one function defined twice, not
/// two overloads.
pub fn same_signature(a: &Function, b: &Function) -> bool {
    let key = |f: &Function| -> Vec<(String, String)> {
        f.params
            .iter()
            .map(|p| {
                let q = if p.qualifier == "in" { "" } else { p.qualifier.as_str() };
                (q.to_string(), p.ty.trim().to_string())
            })
            .collect()
    };
    a.name == b.name && key(a) == key(b)
}

/// The `uniform` parameters of `f`, in order: what `compile` arguments bind.
fn uniforms(f: &Function) -> Vec<&Param> {
    f.params.iter().filter(|p| p.qualifier == "uniform").collect()
}

/// `PS(uniform bool gammaCorrection)`: an overload as `compile` sees it.
fn signature(f: &Function) -> String {
    let list: Vec<String> = uniforms(f)
        .iter()
        .map(|p| format!("uniform {} {}", p.ty.trim(), p.name))
        .collect();
    format!("{}({})", f.name, list.join(", "))
}

fn overload_labels(
    mut d: Diagnostic,
    parsed: &ParsedEffect,
    which: &[usize],
    map: &SourceMap,
) -> Diagnostic {
    for &i in which {
        let f = &parsed.ast.functions[i];
        match map.span(f.range.clone()) {
            Some(span) => d = d.with_label(span, format!("candidate `{}`", signature(f))),
            None => d = d.with_note(format!("candidate: `{}`", signature(f))),
        }
    }
    d
}

fn wrong_count(parsed: &ParsedEffect, shader: &ShaderRef, overloads: &[usize], map: &SourceMap) -> Box<Diagnostic> {
    let n = shader.args.len();
    let functions = &parsed.ast.functions;
    let message = match overloads {
        [one] => format!(
            "`compile` passes {n} argument(s) but `{}` has {} `uniform` parameter(s)",
            shader.entry,
            uniforms(&functions[*one]).len()
        ),
        _ => format!(
            "`compile` passes {n} argument(s) but no overload of `{}` has as many `uniform` parameters",
            shader.entry
        ),
    };
    let d = Diagnostic::error(Code::FX0003, message)
        .at_opt(map.span(shader.range.clone()))
        .with_note(format!(
            "fxc refuses it too: error X3013: '{}': function does not take {n} parameters",
            shader.entry
        ));
    let d = if overloads.len() > 1 {
        overload_labels(d, parsed, overloads, map)
    } else {
        d
    };
    Box::new(d.with_help("pass one literal per `uniform` parameter of the entry point"))
}

fn not_convertible(
    parsed: &ParsedEffect,
    shader: &ShaderRef,
    args: &[Arg],
    overload: usize,
    map: &SourceMap,
) -> Box<Diagnostic> {
    let f = &parsed.ast.functions[overload];
    let params = uniforms(f);
    let (k, p) = args
        .iter()
        .zip(&params)
        .enumerate()
        .find(|(_, (a, p))| cost(a, p).is_none())
        .map(|(k, (_, p))| (k, *p))
        .unwrap_or((0, params[0]));
    let from = args[k].type_name().unwrap_or_else(|| shader.args[k].clone());
    Box::new(
        Diagnostic::error(
            Code::FX0003,
            format!(
                "`compile` argument `{}` cannot become the `uniform {} {}` parameter of `{}`",
                shader.args[k],
                p.ty.trim(),
                p.name,
                f.name
            ),
        )
        .at_opt(map.span(shader.range.clone()))
        .with_note(format!(
            "fxc refuses it too: error X3017: '{}': cannot implicitly convert from 'const {from}' to '{}'",
            f.name,
            p.ty.trim()
        ))
        .with_help("pass a value of the parameter's type; a vector or matrix can be cut to a smaller one, never grown"),
    )
}

fn ambiguous(parsed: &ParsedEffect, shader: &ShaderRef, tied: &[usize], map: &SourceMap) -> Box<Diagnostic> {
    let d = Diagnostic::error(
        Code::FX0003,
        format!(
            "`compile` arguments ({}) match several overloads of `{}` equally",
            shader.args.join(", "),
            shader.entry
        ),
    )
    .at_opt(map.span(shader.range.clone()))
    .with_note(format!(
        "fxc refuses it too: error X3067: '{}': ambiguous function call",
        shader.entry
    ));
    Box::new(
        overload_labels(d, parsed, tied, map).with_help(
            "write each argument in the type of the overload you mean (`true`, `1`, `1.0`, `float2(…)`), or give the overloads different `uniform` parameter types or names",
        ),
    )
}

// ---- argument and parameter types ----------------------------------------------------------

/// A base type, as overload resolution ranks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    Bool,
    Int,
    Uint,
    Half,
    Float,
    Double,
}

impl Base {
    fn of(name: &str) -> Option<Base> {
        Some(match name {
            "bool" => Base::Bool,
            "int" | "min16int" | "min12int" => Base::Int,
            "uint" | "dword" | "min16uint" => Base::Uint,
            "half" | "min16float" | "min10float" => Base::Half,
            "float" => Base::Float,
            "double" => Base::Double,
            _ => return None,
        })
    }
    fn name(self) -> &'static str {
        match self {
            Base::Bool => "bool",
            Base::Int => "int",
            Base::Uint => "uint",
            Base::Half => "half",
            Base::Float => "float",
            Base::Double => "double",
        }
    }
}

/// What an argument's text says its value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `true`, `false`.
    Bool,
    /// `1`, `0x10`: fxc's literal int, as good for `uint` as for `int`.
    IntLiteral,
    /// `1.0`, `1e3`: fxc's literal float, as good for `half` as for `float`.
    FloatLiteral,
    /// A value of a declared type: a constructor, a cast, a suffixed literal.
    Typed(Base),
}

/// Rows and columns (1×1 scalar, 1×n vector).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    rows: u32,
    columns: u32,
    matrix: bool,
}

const SCALAR: Shape = Shape {
    rows: 1,
    columns: 1,
    matrix: false,
};

/// A `compile` argument; `None` when its type cannot be read from the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Arg(Option<(Kind, Shape)>);

impl Arg {
    fn read(text: &str) -> Arg {
        Arg(read_arg(text.trim()))
    }

    /// fxc's name of the argument's type (`float2`), for the X3017 note.
    fn type_name(&self) -> Option<String> {
        let (kind, shape) = self.0?;
        let base = match kind {
            Kind::Bool => "bool",
            Kind::IntLiteral => "int",
            Kind::FloatLiteral => "float",
            Kind::Typed(b) => b.name(),
        };
        Some(if shape.matrix {
            format!("{base}{}x{}", shape.rows, shape.columns)
        } else if shape.columns > 1 {
            format!("{base}{}", shape.columns)
        } else {
            base.to_string()
        })
    }
}

fn read_arg(t: &str) -> Option<(Kind, Shape)> {
    if let Some(rest) = t.strip_prefix(['-', '+', '!']) {
        return read_arg(rest.trim_start());
    }
    if t == "true" || t == "false" {
        return Some((Kind::Bool, SCALAR));
    }
    if let Some(inner) = t.strip_prefix('(') {
        // `(float)1`, `(1.0)`.
        let close = matching_paren(inner)?;
        let (head, rest) = (&inner[..close], inner[close + 1..].trim());
        if rest.is_empty() {
            return read_arg(head.trim());
        }
        let ty = crate::effect::types::numeric(head.trim())?;
        return Some((Kind::Typed(Base::of(&ty.base)?), shape(&ty)));
    }
    if let Some(open) = t.find('(') {
        // `float2(1, 2)`, and nothing after it (`uint2(1, 2).x` is not read).
        if matching_paren(&t[open + 1..])? != t.len() - open - 2 {
            return None;
        }
        let ty = crate::effect::types::numeric(t[..open].trim())?;
        return Some((Kind::Typed(Base::of(&ty.base)?), shape(&ty)));
    }
    number(t).map(|k| (k, SCALAR))
}

/// The byte index in `s` of the `)` closing a `(` just before `s`.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

fn number(t: &str) -> Option<Kind> {
    let lower = t.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        let (digits, unsigned) = suffix_u(hex);
        return (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_hexdigit()))
            .then_some(if unsigned { Kind::Typed(Base::Uint) } else { Kind::IntLiteral });
    }
    if !lower.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let float_chars = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
    };
    if lower.chars().all(|c| c.is_ascii_digit()) {
        return Some(Kind::IntLiteral);
    }
    if let (digits, true) = suffix_u(&lower) {
        return digits.chars().all(|c| c.is_ascii_digit()).then_some(Kind::Typed(Base::Uint));
    }
    if let Some(body) = lower.strip_suffix('h') {
        return float_chars(body).then_some(Kind::Typed(Base::Half));
    }
    if let Some(body) = lower.strip_suffix('f') {
        return float_chars(body).then_some(Kind::Typed(Base::Float));
    }
    if let Some(body) = lower.strip_suffix('l') {
        return float_chars(body).then_some(Kind::Typed(Base::Double));
    }
    float_chars(&lower).then_some(Kind::FloatLiteral)
}

fn suffix_u(s: &str) -> (&str, bool) {
    match s.strip_suffix('u') {
        Some(d) => (d, true),
        None => (s, false),
    }
}

fn shape(t: &crate::effect::HlslType) -> Shape {
    Shape {
        rows: t.rows,
        columns: t.columns,
        matrix: t.is_matrix,
    }
}

/// (base rank, shape rank) of passing an argument to a parameter; lower is better, the base
/// first. `None`: not convertible.
type Cost = (u8, u8);

fn costs(args: &[Arg], params: &[&Param]) -> Option<Vec<Cost>> {
    args.iter().zip(params).map(|(a, p)| cost(a, p)).collect()
}

fn cost(arg: &Arg, p: &Param) -> Option<Cost> {
    let Some((kind, from)) = arg.0 else {
        return Some((0, 0));
    };
    let ty = crate::effect::types::numeric(p.ty.trim())?;
    let to_base = Base::of(&ty.base)?;
    Some((base_rank(kind, to_base), shape_rank(from, shape(&ty))?))
}

fn base_rank(kind: Kind, to: Base) -> u8 {
    use Base::*;
    match (kind, to) {
        (Kind::Bool, Bool) => 0,
        (Kind::Bool, _) => 1,
        (Kind::IntLiteral, Int | Uint) => 0,
        (Kind::IntLiteral, Bool) => 1,
        (Kind::IntLiteral, _) => 2,
        (Kind::FloatLiteral, Half | Float | Double) => 0,
        (Kind::FloatLiteral, _) => 1,
        (Kind::Typed(from), to) if from == to => 0,
        (Kind::Typed(Int), Uint | Bool) | (Kind::Typed(Uint), Int | Bool) => 1,
        (Kind::Typed(Int | Uint), _) => 2,
        (Kind::Typed(_), _) => 1,
    }
}

fn shape_rank(from: Shape, to: Shape) -> Option<u8> {
    if from == to {
        return Some(0);
    }
    if from == SCALAR {
        return Some(1);
    }
    // A vector as a matrix of as many components, or back (`float4` → `float2x2`): fxc prefers
    // it to a cut.
    if from.matrix != to.matrix && from.rows * from.columns == to.rows * to.columns {
        return Some(1);
    }
    // A vector or matrix cut to a smaller one of its kind, or to a scalar.
    let fits = to == SCALAR
        || (from.matrix == to.matrix && to.rows <= from.rows && to.columns <= from.columns);
    fits.then_some(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(t: &str) -> Option<(Kind, Shape)> {
        Arg::read(t).0
    }

    #[test]
    fn argument_types_from_their_text() {
        assert_eq!(kind("true"), Some((Kind::Bool, SCALAR)));
        assert_eq!(kind("1"), Some((Kind::IntLiteral, SCALAR)));
        assert_eq!(kind("-1"), Some((Kind::IntLiteral, SCALAR)));
        assert_eq!(kind("0x10"), Some((Kind::IntLiteral, SCALAR)));
        assert_eq!(kind("1u"), Some((Kind::Typed(Base::Uint), SCALAR)));
        assert_eq!(kind("1.0"), Some((Kind::FloatLiteral, SCALAR)));
        assert_eq!(kind(".5e3"), Some((Kind::FloatLiteral, SCALAR)));
        assert_eq!(kind("-1.5"), Some((Kind::FloatLiteral, SCALAR)));
        assert_eq!(kind("1.5h"), Some((Kind::Typed(Base::Half), SCALAR)));
        assert_eq!(kind("1.0f"), Some((Kind::Typed(Base::Float), SCALAR)));
        assert_eq!(kind("(1.0)"), Some((Kind::FloatLiteral, SCALAR)));
        assert_eq!(kind("(float)1"), Some((Kind::Typed(Base::Float), SCALAR)));
        let v2 = Shape {
            rows: 1,
            columns: 2,
            matrix: false,
        };
        assert_eq!(kind("float2(1, 2)"), Some((Kind::Typed(Base::Float), v2)));
        assert_eq!(kind("int2(1, 2)"), Some((Kind::Typed(Base::Int), v2)));
        assert_eq!(Arg::read("float2(1, 2)").type_name().as_deref(), Some("float2"));
        assert_eq!(kind("uint2(1, 2).x"), None);
        assert_eq!(kind("Strength"), None);
        assert_eq!(kind("Scale * 2"), None);
        assert_eq!(kind("1 + 2"), None);
    }

    #[test]
    fn ranks_follow_the_oracle() {
        use Base::*;
        // int literal: int = uint (fxc: ambiguous), then bool, then float = half.
        assert_eq!(base_rank(Kind::IntLiteral, Int), base_rank(Kind::IntLiteral, Uint));
        assert!(base_rank(Kind::IntLiteral, Bool) < base_rank(Kind::IntLiteral, Float));
        assert_eq!(base_rank(Kind::IntLiteral, Float), base_rank(Kind::IntLiteral, Half));
        // bool: exact, then every other base alike (int vs float ambiguous).
        assert_eq!(base_rank(Kind::Bool, Int), base_rank(Kind::Bool, Float));
        // float literal: float = half, then bool = int.
        assert_eq!(base_rank(Kind::FloatLiteral, Half), 0);
        assert_eq!(base_rank(Kind::FloatLiteral, Bool), base_rank(Kind::FloatLiteral, Int));
        // typed int: bool and uint before float.
        assert!(base_rank(Kind::Typed(Int), Bool) < base_rank(Kind::Typed(Int), Float));
        // shapes: exact, spread, cut; never grown.
        let v = |n| Shape {
            rows: 1,
            columns: n,
            matrix: false,
        };
        assert_eq!(shape_rank(SCALAR, v(2)), Some(1));
        assert_eq!(shape_rank(v(4), v(3)), shape_rank(v(4), v(2)));
        assert_eq!(shape_rank(v(2), SCALAR), Some(2));
        assert_eq!(shape_rank(v(2), v(4)), None);
        let m22 = Shape {
            rows: 2,
            columns: 2,
            matrix: true,
        };
        assert!(shape_rank(v(4), m22) < shape_rank(v(4), v(2)));
    }
}
