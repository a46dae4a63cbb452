//! Evaluating a uniform's initializer (`float4 Tint = float4(1, 0.5, 0, 1);`) into the flat
//! list of floats MGFX stores as the parameter's default (fx-pipeline.md §9.4).
//!
//! Accepted: number literals (any suffix), `true`/`false`, unary `-`/`+`, parentheses,
//! constructors of numeric types (nested; a single scalar argument splats to the constructor's
//! width), brace lists `{...}` for arrays and matrices (nested braces flatten), and the four
//! binary operators `+ - * /` between scalars. Matrices are flattened row by row as written.
//!
//! Names of `static const` scalars declared earlier stand for their values (array sizes such as
//! `float Weights[SAMPLE_COUNT * 2]` and initializers use them).
//!
//! Intrinsic calls on constants are folded, as fxc folds them (`const float3 LumCoeff =
//! normalize(float3(0.3, 0.59, 0.11));`, `static const float PI = acos(-1);`): the
//! component-wise maths functions (scalars broadcast), `dot`, `length`, `distance`, `normalize`
//! and `cross` ([`intrinsic`]); and casts to a scalar type (`(int)x` truncates toward zero).
//!
//! Refused: anything else (other identifiers, user function calls) → the caller reports SD0025
//! at the returned token.

use super::lexer::{number_value, Token, TokenKind};
use super::types;

/// Evaluates `toks` (the text between `=` and the end of the declarator) for `ty`.
/// On failure returns the index of the offending token.
pub fn evaluate(
    src: &str,
    toks: &[Token],
    ty: &super::ast::HlslType,
    consts: &dyn Fn(&str) -> Option<f64>,
) -> Result<Vec<f64>, usize> {
    let mut p = P {
        src,
        toks,
        i: 0,
        consts,
        depth: 0,
    };
    let vals = p.expr()?;
    if p.i != toks.len() {
        return Err(p.i);
    }
    let per = types::components(ty);
    let needed = per * ty.array.unwrap_or(1) as usize;
    if vals.len() == needed {
        return Ok(vals);
    }
    if vals.len() == 1 && ty.array.is_none() {
        return Ok(vec![vals[0]; needed]);
    }
    if vals.len() > needed && ty.array.is_none() {
        // HLSL truncates wider values (with a warning in fxc).
        return Ok(vals[..needed].to_vec());
    }
    Err(0)
}

struct P<'a> {
    src: &'a str,
    toks: &'a [Token],
    i: usize,
    consts: &'a dyn Fn(&str) -> Option<f64>,
    /// Nesting of the expression being read; past [`MAX_NEST`] it is refused rather than
    /// recursed into (10^5 parentheses must not overflow the stack).
    depth: u32,
}

/// Deepest nesting an initializer may have (DXC stops at 256 brackets).
pub(crate) const MAX_NEST: u32 = 256;

impl<'a> P<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.i).map(|t| t.text(self.src))
    }

    fn expect(&mut self, s: &str) -> Result<(), usize> {
        if self.peek() == Some(s) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.i.min(self.toks.len().saturating_sub(1)))
        }
    }

    fn expr(&mut self) -> Result<Vec<f64>, usize> {
        let mut acc = self.term()?;
        while let Some(op @ ("+" | "-")) = self.peek() {
            let at = self.i;
            self.i += 1;
            let rhs = self.term()?;
            acc = scalar_op(&acc, &rhs, op, at)?;
        }
        Ok(acc)
    }

    fn term(&mut self) -> Result<Vec<f64>, usize> {
        let mut acc = self.unary()?;
        while let Some(op @ ("*" | "/")) = self.peek() {
            let at = self.i;
            self.i += 1;
            let rhs = self.unary()?;
            acc = scalar_op(&acc, &rhs, op, at)?;
        }
        Ok(acc)
    }

    fn unary(&mut self) -> Result<Vec<f64>, usize> {
        if self.depth >= MAX_NEST {
            return Err(self.i);
        }
        self.depth += 1;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<Vec<f64>, usize> {
        match self.peek() {
            Some("-") => {
                self.i += 1;
                Ok(self.unary()?.into_iter().map(|v| -v).collect())
            }
            Some("+") => {
                self.i += 1;
                self.unary()
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Vec<f64>, usize> {
        let at = self.i;
        let Some(tok) = self.toks.get(self.i) else {
            return Err(self.toks.len().saturating_sub(1));
        };
        let text = tok.text(self.src);
        match tok.kind {
            TokenKind::Number => {
                self.i += 1;
                number_value(text).map(|v| vec![v]).ok_or(at)
            }
            TokenKind::Ident if text == "true" || text == "false" => {
                self.i += 1;
                Ok(vec![if text == "true" { 1.0 } else { 0.0 }])
            }
            TokenKind::Ident
                if types::numeric(text).is_none()
                    && self.toks.get(self.i + 1).map(|t| t.text(self.src)) == Some("(") =>
            {
                self.i += 2;
                let mut args = Vec::new();
                if self.peek() != Some(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.peek() == Some(",") {
                            self.i += 1;
                        } else {
                            break;
                        }
                    }
                }
                self.expect(")")?;
                intrinsic(text, &args).ok_or(at)
            }
            TokenKind::Ident if types::numeric(text).is_none() => {
                self.i += 1;
                (self.consts)(text).map(|v| vec![v]).ok_or(at)
            }
            TokenKind::Ident => {
                let ty = types::numeric(text).ok_or(at)?;
                self.i += 1;
                self.expect("(")?;
                let mut vals = Vec::new();
                if self.peek() != Some(")") {
                    loop {
                        vals.extend(self.expr()?);
                        if self.peek() == Some(",") {
                            self.i += 1;
                        } else {
                            break;
                        }
                    }
                }
                self.expect(")")?;
                let width = types::components(&ty);
                if vals.len() == 1 && width > 1 {
                    Ok(vec![vals[0]; width])
                } else if vals.len() == width {
                    Ok(vals)
                } else {
                    Err(at)
                }
            }
            TokenKind::Punct if text == "(" && self.cast_type().is_some() => {
                let ty = self.cast_type().expect("checked");
                self.i += 3;
                let v = self.unary()?;
                let convert = |x: f64| match ty.base.as_str() {
                    "int" | "uint" | "dword" => x.trunc(),
                    "bool" => f64::from(u8::from(x != 0.0)),
                    _ => x,
                };
                Ok(v.into_iter().map(convert).collect())
            }
            TokenKind::Punct if text == "(" => {
                self.i += 1;
                let mut v = self.expr()?;
                // `(0.5, 0.5, 0.5, 0.5)` is C's comma operator, not a vector: the last value,
                // splat by the caller (fxc takes it so, with a warning).
                while self.peek() == Some(",") {
                    self.i += 1;
                    v = self.expr()?;
                }
                self.expect(")")?;
                Ok(v)
            }
            TokenKind::Punct if text == "{" => {
                self.i += 1;
                let mut vals = Vec::new();
                while self.peek() != Some("}") {
                    vals.extend(self.expr()?);
                    if self.peek() == Some(",") {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                self.expect("}")?;
                Ok(vals)
            }
            _ => Err(at),
        }
    }
}

impl P<'_> {
    /// The scalar type of a cast `(int)` starting at the current `(`.
    fn cast_type(&self) -> Option<super::ast::HlslType> {
        let t = |k: usize| self.toks.get(self.i + k).map(|t| t.text(self.src));
        let ty = types::numeric(t(1)?)?;
        (t(2)? == ")" && types::components(&ty) == 1).then_some(ty)
    }
}

/// The value of intrinsic `name` on constant arguments; `None` for an unknown name or
/// arguments of the wrong count or widths.
fn intrinsic(name: &str, args: &[Vec<f64>]) -> Option<Vec<f64>> {
    let unary: Option<fn(f64) -> f64> = match name {
        "abs" => Some(f64::abs),
        "acos" => Some(f64::acos),
        "asin" => Some(f64::asin),
        "atan" => Some(f64::atan),
        "ceil" => Some(f64::ceil),
        "cos" => Some(f64::cos),
        "cosh" => Some(f64::cosh),
        "degrees" => Some(f64::to_degrees),
        "exp" => Some(f64::exp),
        "exp2" => Some(f64::exp2),
        "floor" => Some(f64::floor),
        "frac" => Some(|x| x - x.floor()),
        "log" => Some(f64::ln),
        "log10" => Some(f64::log10),
        "log2" => Some(f64::log2),
        "radians" => Some(f64::to_radians),
        "round" => Some(f64::round),
        "rsqrt" => Some(|x| 1.0 / x.sqrt()),
        "saturate" => Some(|x| x.clamp(0.0, 1.0)),
        "sign" => Some(|x| if x == 0.0 { 0.0 } else { x.signum() }),
        "sin" => Some(f64::sin),
        "sinh" => Some(f64::sinh),
        "sqrt" => Some(f64::sqrt),
        "tan" => Some(f64::tan),
        "tanh" => Some(f64::tanh),
        "trunc" => Some(f64::trunc),
        _ => None,
    };
    if let (Some(f), [a]) = (unary, args) {
        return Some(a.iter().map(|x| f(*x)).collect());
    }
    let binary: Option<fn(f64, f64) -> f64> = match name {
        "atan2" => Some(f64::atan2),
        "fmod" => Some(|x, y| x % y),
        "max" => Some(f64::max),
        "min" => Some(f64::min),
        "pow" => Some(f64::powf),
        "step" => Some(|edge, x| f64::from(u8::from(x >= edge))),
        _ => None,
    };
    if let (Some(f), [a, b]) = (binary, args) {
        return componentwise(&[a, b], |v| f(v[0], v[1]));
    }
    let dot = |a: &[f64], b: &[f64]| (a.len() == b.len()).then(|| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>());
    match (name, args) {
        ("lerp", [a, b, t]) => componentwise(&[a, b, t], |v| v[0] + (v[1] - v[0]) * v[2]),
        ("clamp", [x, lo, hi]) => componentwise(&[x, lo, hi], |v| v[0].max(v[1]).min(v[2])),
        ("smoothstep", [lo, hi, x]) => componentwise(&[lo, hi, x], |v| {
            let t = ((v[2] - v[0]) / (v[1] - v[0])).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        }),
        ("dot", [a, b]) => dot(a, b).map(|d| vec![d]),
        ("length", [a]) => dot(a, a).map(|d| vec![d.sqrt()]),
        ("distance", [a, b]) if a.len() == b.len() => {
            let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
            dot(&d, &d).map(|d| vec![d.sqrt()])
        }
        ("normalize", [a]) => {
            let l = dot(a, a)?.sqrt();
            Some(a.iter().map(|x| x / l).collect())
        }
        ("cross", [a, b]) if a.len() == 3 && b.len() == 3 => Some(vec![
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]),
        _ => None,
    }
}

/// `f` applied per component; scalar arguments broadcast, other widths must agree.
fn componentwise(args: &[&Vec<f64>], f: impl Fn(&[f64]) -> f64) -> Option<Vec<f64>> {
    let width = args.iter().map(|a| a.len()).max()?;
    if args.iter().any(|a| a.len() != 1 && a.len() != width) {
        return None;
    }
    Some(
        (0..width)
            .map(|k| {
                let v: Vec<f64> = args.iter().map(|a| a[if a.len() == 1 { 0 } else { k }]).collect();
                f(&v)
            })
            .collect(),
    )
}

fn scalar_op(a: &[f64], b: &[f64], op: &str, at: usize) -> Result<Vec<f64>, usize> {
    let f = |x: f64, y: f64| match op {
        "+" => x + y,
        "-" => x - y,
        "*" => x * y,
        _ => x / y,
    };
    match (a.len(), b.len()) {
        (1, _) => Ok(b.iter().map(|y| f(a[0], *y)).collect()),
        (_, 1) => Ok(a.iter().map(|x| f(*x, b[0])).collect()),
        (n, m) if n == m => Ok(a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect()),
        _ => Err(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::lexer::tokenize;

    fn eval(ty: &str, array: Option<u32>, init: &str) -> Result<Vec<f64>, usize> {
        let mut t = types::numeric(ty).unwrap();
        t.array = array;
        let l = tokenize(init);
        evaluate(init, &l.tokens, &t, &|_| None)
    }

    #[test]
    fn literals_and_constructors() {
        assert_eq!(eval("float", None, "0.5f"), Ok(vec![0.5]));
        assert_eq!(eval("float", None, "-2"), Ok(vec![-2.0]));
        assert_eq!(
            eval("float4", None, "float4(1, 0.5, 0, 1)"),
            Ok(vec![1.0, 0.5, 0.0, 1.0])
        );
        assert_eq!(
            eval("float4", None, "float4(float2(1, 2), 3, -4)"),
            Ok(vec![1.0, 2.0, 3.0, -4.0])
        );
        assert_eq!(eval("float3", None, "float3(0.25)"), Ok(vec![0.25; 3]));
        assert_eq!(eval("float3", None, "1"), Ok(vec![1.0; 3]));
        assert_eq!(eval("bool", None, "true"), Ok(vec![1.0]));
        assert_eq!(eval("float", None, "1.0 / 4"), Ok(vec![0.25]));
        assert_eq!(
            eval("float2", None, "-float2(1, 2) * 2"),
            Ok(vec![-2.0, -4.0])
        );
    }

    #[test]
    fn brace_lists_for_arrays_and_matrices() {
        assert_eq!(eval("float", Some(3), "{1, 2, 3}"), Ok(vec![1.0, 2.0, 3.0]));
        assert_eq!(
            eval("float2x2", None, "{ {1, 2}, {3, 4} }"),
            Ok(vec![1.0, 2.0, 3.0, 4.0])
        );
        assert_eq!(
            eval("float2", Some(2), "{ float2(1, 2), float2(3, 4) }"),
            Ok(vec![1.0, 2.0, 3.0, 4.0])
        );
    }

    #[test]
    fn intrinsics_and_casts_fold() {
        let pi = std::f64::consts::PI;
        assert_eq!(eval("float", None, "2 * acos(-1)"), Ok(vec![2.0 * pi]));
        let n = eval("float3", None, "normalize(float3(1, 2, 2))").unwrap();
        assert_eq!(n, vec![1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0]);
        assert_eq!(
            eval("float2", None, "lerp(float2(0, 10), 20, 0.5)"),
            Ok(vec![10.0, 15.0])
        );
        assert_eq!(eval("float", None, "dot(float3(1, 2, 3), 2)"), Err(0));
        assert_eq!(
            eval("float3", None, "cross(float3(1, 0, 0), float3(0, 1, 0))"),
            Ok(vec![0.0, 0.0, 1.0])
        );
        assert_eq!(eval("float", None, "(int)floor(3.5) + (int)-2.7"), Ok(vec![1.0]));
        assert_eq!(eval("float", None, "pow(2, 10) / max(1, 4)"), Ok(vec![256.0]));
    }

    #[test]
    fn refusals() {
        assert_eq!(eval("float", None, "Other"), Err(0));
        assert_eq!(eval("float", None, "Helper(1)"), Err(0));
        assert_eq!(eval("float", None, "dot(float2(1, 2), float3(1, 2, 3))"), Err(0));
        assert!(eval("float4", None, "float4(1, 2)").is_err());
        assert!(eval("float", Some(3), "{1, 2}").is_err());
    }

    #[test]
    fn deep_nesting_is_refused_not_recursed() {
        let t = types::numeric("float").unwrap();
        for src in [
            format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)),
            format!("{}1", "-".repeat(100_000)),
        ] {
            let l = super::super::lexer::tokenize(&src);
            assert!(evaluate(&src, &l.tokens, &t, &|_| None).is_err());
        }
        let ok = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        let l = super::super::lexer::tokenize(&ok);
        assert_eq!(evaluate(&ok, &l.tokens, &t, &|_| None), Ok(vec![1.0]));
    }

    #[test]
    fn parenthesized_lists_are_the_comma_operator() {
        let t = types::numeric("float4").unwrap();
        let src = "(0.5f, 0.25, 0.75f)";
        let l = super::super::lexer::tokenize(src);
        assert_eq!(evaluate(src, &l.tokens, &t, &|_| None), Ok(vec![0.75; 4]));
    }
}
