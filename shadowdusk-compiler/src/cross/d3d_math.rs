//! Maths Direct3D 9 defines where GLSL and WGSL do not, made to give Direct3D 9's result.
//!
//! fxc compiles HLSL's `pow`, `log`, `sqrt` and `rsqrt` to D3D9 instructions that read the
//! magnitude of their operand: `pow` and `log` take `|x|`, `rsq` takes `|x|` (and `sqrt` is
//! `rcp(rsq(x))`). MojoShader, so mgfxc's OpenGL output, writes `pow(abs(x), y)` and
//! `inversesqrt(abs(x))`. GLSL.std.450 (and so GLSL and WGSL) leaves `Pow` undefined for
//! `x < 0`, `Log`/`Log2` for `x <= 0` and `Sqrt`/`InverseSqrt` for `x < 0`; Mesa gives NaN, and a
//! specular term `pow(dot(R, V), Power)` draws black where Direct3D 9 and MonoGame draw light.
//! So each of these reads `FAbs` of its operand (a constant operand that is not negative is
//! left as it is).
//!
//! fxc also expands `pow` with a whole-number literal exponent into multiplications (and a
//! reciprocal for a negative one) when that is no dearer than its `pow` (one `log` and one `exp`
//! per component and a `mul`): squarings and multiplications of the binary method, plus one
//! `rcp` per component for a negative exponent, at most `2·width + 1` instructions (asked of
//! fxc for scalars to `float4`, exponents -64 to 1024, pixel and vertex Shader Models 2 and 3:
//! a scalar `x^5`, `x^6`, `x^8` and `x^-4` are expanded, `x^7` and `x^-5` are not; a `float3`
//! `x^128` is). The expansion keeps the sign of `x`: `x^3` of a negative `x` is negative, as on
//! Direct3D 9. The exponent is a whole number when DXC has folded it to an `OpConstant` (or a
//! splat `OpConstantComposite`); a uniform exponent stays a `Pow` of `|x|`.
//!
//! Checked on Direct3D 9 (the d3d oracle) and left alone, because GLSL and WGSL as our
//! translators write them already give D3D9's result: `rsqrt(0)` and `x / 0` (D3D9's `rsq(0)`
//! and `rcp(0)` are +inf; Mesa's `inversesqrt(0.0)` and `1.0 / 0.0` too, where MojoShader writes
//! `FLT_MAX`), `log(0)` (-inf both), `sqrt(0)` (0 both), `fmod` (fxc keeps the dividend's sign;
//! DXC's `OpFRem` becomes `x - y * float(int(x / y))` in GLSL and `%` in WGSL, which do too),
//! and `exp`, which both define everywhere. `normalize` of a zero vector is NaN on both (D3D9's
//! `nrm` is `x * rsq(0)`, 0 · inf), so nothing to follow.
//!
//! Input and output are SPIR-V words; the module is only rewritten when something matches.

use super::spirv::{instructions, literal_string, module, Inst};
use std::collections::BTreeMap;

const OP_EXT_INST_IMPORT: u16 = 11;
const OP_EXT_INST: u16 = 12;
const OP_TYPE_FLOAT: u16 = 22;
const OP_TYPE_VECTOR: u16 = 23;
const OP_CONSTANT: u16 = 43;
const OP_CONSTANT_COMPOSITE: u16 = 44;
const OP_FUNCTION: u16 = 54;
const OP_COPY_OBJECT: u16 = 83;
const OP_F_DIV: u16 = 136;
const OP_F_MUL: u16 = 133;
/// GLSL.std.450 instructions.
const GLSL_FABS: u32 = 4;
const GLSL_POW: u32 = 26;
const GLSL_LOG: u32 = 28;
const GLSL_LOG2: u32 = 30;
const GLSL_SQRT: u32 = 31;
const GLSL_INVERSE_SQRT: u32 = 32;
/// Instructions whose only operand D3D9 reads as `|x|`.
const MAGNITUDE_OF_OPERAND: [u32; 4] = [GLSL_LOG, GLSL_LOG2, GLSL_SQRT, GLSL_INVERSE_SQRT];

/// fxc's choice for `pow(x, n)` on `width` components with the whole number `n`: the number of
/// instructions of the expansion, when fxc expands it (see the module docs).
fn expansion_cost(n: i64, width: u32) -> Option<u32> {
    let m = n.unsigned_abs();
    if m == 0 {
        return Some(0);
    }
    let squarings = 63 - m.leading_zeros();
    let products = m.count_ones() - 1;
    let reciprocals = if n < 0 { width } else { 0 };
    let cost = squarings + products + reciprocals;
    (cost <= 2 * width + 1).then_some(cost)
}

/// What a float constant id holds: its value when every component is the same 32-bit float.
fn splat_value(
    id: u32,
    scalars: &BTreeMap<u32, f32>,
    composites: &BTreeMap<u32, Vec<u32>>,
) -> Option<f32> {
    if let Some(&v) = scalars.get(&id) {
        return Some(v);
    }
    let parts = composites.get(&id)?;
    let first = *scalars.get(parts.first()?)?;
    parts
        .iter()
        .all(|p| scalars.get(p).is_some_and(|v| v.to_bits() == first.to_bits()))
        .then_some(first)
}

/// Rewrites the module if it has a `pow`, `log`, `log2`, `sqrt` or `rsqrt` to give D3D9's result;
/// `None` when it has none.
pub fn follow_d3d9(words: &[u32]) -> Option<Vec<u32>> {
    let insts = instructions(words)?;
    let glsl = insts.iter().find_map(|x| {
        (x.op() == OP_EXT_INST_IMPORT && x.0.get(2..) == Some(&literal_string("GLSL.std.450")[..]))
            .then(|| x.operand(0))
            .flatten()
    })?;
    let touches = |x: &Inst| {
        x.op() == OP_EXT_INST
            && x.operand(2) == Some(glsl)
            && x.operand(3)
                .is_some_and(|i| i == GLSL_POW || MAGNITUDE_OF_OPERAND.contains(&i))
    };
    if !insts.iter().any(touches) {
        return None;
    }

    // 32-bit float types (id → components), float constants, splat composites.
    let mut widths: BTreeMap<u32, u32> = BTreeMap::new();
    let mut scalars: BTreeMap<u32, f32> = BTreeMap::new();
    let mut composites: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for x in &insts {
        let o = |k| x.operand(k);
        match x.op() {
            OP_TYPE_FLOAT if o(1) == Some(32) => {
                widths.insert(o(0)?, 1);
            }
            OP_TYPE_VECTOR if o(1).is_some_and(|c| widths.get(&c) == Some(&1)) => {
                widths.insert(o(0)?, o(2)?);
            }
            OP_CONSTANT if o(0).is_some_and(|t| widths.contains_key(&t)) => {
                scalars.insert(o(1)?, f32::from_bits(o(2)?));
            }
            OP_CONSTANT_COMPOSITE if o(0).is_some_and(|t| widths.contains_key(&t)) => {
                composites.insert(o(1)?, x.0[3..].to_vec());
            }
            _ => {}
        }
    }

    let mut new = New {
        bound: words[3],
        widths: &widths,
        ones: BTreeMap::new(),
        globals: Vec::new(),
    };
    let mut body: Vec<Inst> = Vec::with_capacity(insts.len() + 8);
    for x in insts {
        if !touches(&x) || x.0.len() < 6 {
            body.push(x);
            continue;
        }
        let (ty, result, what, operand) = (x.0[1], x.0[2], x.0[4], x.0[5]);
        let Some(&width) = widths.get(&ty) else {
            body.push(x);
            continue;
        };
        let whole = (what == GLSL_POW)
            .then(|| x.operand(5))
            .flatten()
            .and_then(|y| splat_value(y, &scalars, &composites))
            .filter(|v| v.fract() == 0.0 && v.abs() <= 1024.0)
            .map(|v| v as i64)
            .filter(|&n| expansion_cost(n, width).is_some());
        if let Some(n) = whole {
            new.expand_power(&mut body, ty, result, operand, n);
            continue;
        }
        let non_negative = splat_value(operand, &scalars, &composites).is_some_and(|v| v >= 0.0)
            || composites
                .get(&operand)
                .is_some_and(|parts| parts.iter().all(|p| scalars.get(p).is_some_and(|&v| v >= 0.0)));
        if non_negative {
            body.push(x);
            continue;
        }
        let magnitude = new.id();
        body.push(Inst::new(OP_EXT_INST, &[ty, magnitude, glsl, GLSL_FABS, operand]));
        let mut w = x.0[1..].to_vec();
        w[4] = magnitude;
        body.push(Inst::new(OP_EXT_INST, &w));
    }

    let mut globals = Some(std::mem::take(&mut new.globals));
    let mut out = Vec::with_capacity(body.len() + 4);
    for x in body {
        if x.op() == OP_FUNCTION {
            // Constants may be declared anywhere before the first function.
            out.extend(globals.take().unwrap_or_default());
        }
        out.push(x);
    }
    Some(module(words, new.bound, out))
}

/// Ids and declarations the rewrite adds.
struct New<'a> {
    bound: u32,
    /// Float types → components.
    widths: &'a BTreeMap<u32, u32>,
    /// `1.0` of each float type, once declared.
    ones: BTreeMap<u32, u32>,
    /// Declarations to add before the first function.
    globals: Vec<Inst>,
}

impl New<'_> {
    fn id(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    /// The constant `1.0` of the float type `ty`.
    fn one(&mut self, ty: u32) -> u32 {
        if let Some(&c) = self.ones.get(&ty) {
            return c;
        }
        let width = self.widths[&ty];
        let c = if width == 1 {
            let c = self.id();
            self.globals
                .push(Inst::new(OP_CONSTANT, &[ty, c, 1f32.to_bits()]));
            c
        } else {
            let scalar_ty = *self
                .widths
                .iter()
                .find(|(_, &w)| w == 1)
                .expect("a float vector's component type is a float type")
                .0;
            let scalar = self.one(scalar_ty);
            let c = self.id();
            let mut operands = vec![ty, c];
            operands.extend(std::iter::repeat_n(scalar, width as usize));
            self.globals
                .push(Inst::new(OP_CONSTANT_COMPOSITE, &operands));
            c
        };
        self.ones.insert(ty, c);
        c
    }

    /// `result = x^n` as fxc expands it: the binary method's squarings and products, then one
    /// reciprocal for a negative `n`.
    fn expand_power(&mut self, body: &mut Vec<Inst>, ty: u32, result: u32, x: u32, n: i64) {
        let m = n.unsigned_abs();
        if m <= 1 {
            // `x^0` is 1 whatever `x` is (fxc folds it); `x^1` and `x^-1` are `x` times one.
            let one = self.one(ty);
            let (op, operands) = match n {
                0 => (OP_COPY_OBJECT, vec![ty, result, one]),
                1 => (OP_F_MUL, vec![ty, result, x, one]),
                _ => (OP_F_DIV, vec![ty, result, one, x]),
            };
            body.push(Inst::new(op, &operands));
            return;
        }
        // Bits from the top: square, then multiply by `x` where the bit is set.
        let mut steps: Vec<Option<u32>> = Vec::new();
        for bit in (0..63 - m.leading_zeros()).rev() {
            steps.push(None);
            if m >> bit & 1 == 1 {
                steps.push(Some(x));
            }
        }
        let mut power = x;
        let last = steps.len() - 1;
        for (k, step) in steps.into_iter().enumerate() {
            let id = if k == last && n > 0 { result } else { self.id() };
            body.push(Inst::new(OP_F_MUL, &[ty, id, power, step.unwrap_or(power)]));
            power = id;
        }
        if n < 0 {
            let one = self.one(ty);
            body.push(Inst::new(OP_F_DIV, &[ty, result, one, power]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::spirv::{instructions, literal_string};
    use super::*;

    /// A module (id bound 100): GLSL.std.450 as %1, `float` %2, the float constant %3 = `y`,
    /// then a function computing `%10 = <what>(%4 [, %3])` of the parameter-like id %4.
    fn module(what: u32, y: f32) -> Vec<u32> {
        let mut words = vec![0x0723_0203, 0x0001_0000, 0, 100, 0];
        let mut push = |op: u16, operands: &[u32]| words.extend(Inst::new(op, operands).0);
        let mut import = vec![1];
        import.extend(literal_string("GLSL.std.450"));
        push(OP_EXT_INST_IMPORT, &import);
        push(OP_TYPE_FLOAT, &[2, 32]);
        push(OP_CONSTANT, &[2, 3, y.to_bits()]);
        push(OP_FUNCTION, &[2, 5, 0, 6]);
        let mut ext = vec![2, 10, 1, what, 4];
        if what == GLSL_POW {
            ext.push(3);
        }
        push(OP_EXT_INST, &ext);
        words
    }

    /// The function's instructions after the rewrite, as (opcode, operands).
    fn body(words: &[u32]) -> Vec<(u16, Vec<u32>)> {
        let insts = instructions(words).expect("a module");
        let start = insts.iter().position(|x| x.op() == OP_FUNCTION).expect("a function");
        insts[start + 1..].iter().map(|x| (x.op(), x.0[1..].to_vec())).collect()
    }

    #[test]
    fn a_negative_whole_exponent_is_products_then_a_reciprocal() {
        let out = follow_d3d9(&module(GLSL_POW, -3.0)).expect("rewritten");
        let b = body(&out);
        // x², x³, then %10 = 1 / x³, with `1.0` declared before the function.
        assert_eq!(b.len(), 3, "{b:?}");
        assert_eq!((b[0].0, &b[0].1[2..]), (OP_F_MUL, &[4, 4][..]));
        assert_eq!((b[1].0, &b[1].1[2..]), (OP_F_MUL, &[b[0].1[1], 4][..]));
        assert_eq!((b[2].0, b[2].1[1], b[2].1[3]), (OP_F_DIV, 10, b[1].1[1]));
        let one = b[2].1[2];
        let insts = instructions(&out).unwrap();
        assert!(insts
            .iter()
            .any(|x| x.op() == OP_CONSTANT && x.0[2..] == [one, 1f32.to_bits()]));
    }

    #[test]
    fn other_exponents_and_logs_read_the_magnitude() {
        for (what, y) in [(GLSL_POW, 7.0), (GLSL_POW, 2.5), (GLSL_LOG2, 0.0), (GLSL_INVERSE_SQRT, 0.0)] {
            let b = body(&follow_d3d9(&module(what, y)).expect("rewritten"));
            assert_eq!(b.len(), 2, "{b:?}");
            let magnitude = b[0].1[1];
            assert_eq!((b[0].0, &b[0].1[2..]), (OP_EXT_INST, &[1, GLSL_FABS, 4][..]));
            assert_eq!((b[1].0, b[1].1[1], b[1].1[3], b[1].1[4]), (OP_EXT_INST, 10, what, magnitude));
        }
    }

    #[test]
    fn modules_without_these_instructions_are_left_alone() {
        // `Exp` is defined everywhere in GLSL and D3D9 alike.
        assert!(follow_d3d9(&module(27, 0.0)).is_none());
    }

    /// fxc's choice (D3DCompiler_43, `ps_2_0`/`ps_3_0`/`vs_2_0`/`vs_3_0` alike) for
    /// `pow(x, n)` on `width` components: the exponents it expanded into products and the ones
    /// it left a `pow` (or `log`, `mul`, `exp`).
    const FXC: [(u32, &[i64], &[i64]); 4] = [
        (1, &[2, 3, 4, 5, 6, 8, -1, -2, -3, -4], &[7, 9, 10, 16, 32, -5, -6, -7, -8]),
        (2, &[7, 9, 10, 11, 13, 16, 17, 32, -3, -4, -5], &[15, 31, 63, 64, -7, -9]),
        (3, &[15, 16, 17, 32, 64, 128, -9, -16], &[31, 63, 127, 256, -15, -32]),
        (4, &[31, 32, 64, 128, 256, 512, -16, -32], &[63, 127, 1024, -15, -64]),
    ];

    #[test]
    fn whole_number_exponents_are_expanded_where_fxc_expands_them() {
        for (width, expanded, kept) in FXC {
            for &n in expanded {
                assert!(expansion_cost(n, width).is_some(), "x^{n}, width {width}");
            }
            for &n in kept {
                assert!(expansion_cost(n, width).is_none(), "x^{n}, width {width}");
            }
        }
    }
}
