//! Shader Model 2/3 integers, as fxc compiled them, before SPIRV-Cross sees the module.
//!
//! D3D9 bytecode has no integer arithmetic: fxc carries `int` and `uint` values in float
//! registers, truncates where HLSL converts to an integer, and MojoShader's GLSL only ever saw
//! floats (every attribute a `vec4`). DXC instead gives the module real 32-bit integers, signed
//! and unsigned. GLSL 1.10 / GLSL ES 1.00 have `int` but no `uint`, no `%`, and leave the
//! rounding of an integer `/` unspecified — GLES 2 GPUs run `int` on their float units. So:
//!
//! * unsigned integer types become signed ones (`OpTypeInt 32 0` is retyped in place; the
//!   unsigned opcodes become their signed twins). Values past 2^31 cannot exist in a float
//!   register anyway, so nothing fxc could compute changes meaning;
//! * `a / b` and `a % b` become float maths that is exact wherever fxc's float registers hold
//!   the operands exactly (|a|, |b| < 2^24), rounded toward zero and with the dividend's sign as
//!   HLSL (and C) define them. On magnitudes: `q = floor(|a| / |b|)` is an estimate, since a
//!   GPU's division is a reciprocal and a product (GLSL allows 2.5 units in the last place, which
//!   is up to 3 below 2^24), so three rounds each compare the exact remainder `|a| - q·|b|`
//!   with 0 and `|b|` and step `q` one towards the quotient
//!   (`q += step(|b|, r) + step(0, r) - 1`). Every product `q·|b|` is an integer below 2^24,
//!   hence exact, except one past the quotient, which rounds to at least 2^24 > |a| and so
//!   still gives a negative remainder: the step is right either way. Then `a / b` is
//!   `sign(a)·sign(b)·q` and `a % b` is `sign(a)·(|a| - q·|b|)`. (The former
//!   `int((a + 0.5·sign(a)) / b)` lost the half from 2^23 up: `8388609 / 2` gave 4194305.);
//! * `abs`, `sign`, `min`, `max` and `clamp` on integers (GLSL 1.10 has only float overloads)
//!   run on floats and convert back, exactly, as fxc's float registers did.
//!
//! Bit operations are left alone for the dialect stage to refuse (SD0221): fxc refuses them for
//! these profiles too.
//!
//! Integers of other widths (`int64_t`) have no Shader Model 2/3 meaning; they are left for the
//! dialect stage to refuse (their GLSL needs an extension, SD0219).
//!
//! Input and output are SPIR-V words; the module is only rewritten when it has something to
//! change. An instruction the rewrite must change but cannot read is an error (SD0101, a
//! ShadowDusk bug), never a module passed on half-rewritten or unchanged.

use super::spirv::{instructions, Inst};
use std::collections::BTreeMap;

const OP_EXT_INST_IMPORT: u16 = 11;
const OP_EXT_INST: u16 = 12;
const OP_MEMORY_MODEL: u16 = 14;
const OP_TYPE_INT: u16 = 21;
const OP_TYPE_FLOAT: u16 = 22;
const OP_TYPE_VECTOR: u16 = 23;
const OP_CONSTANT: u16 = 43;
const OP_CONSTANT_COMPOSITE: u16 = 44;
const OP_FUNCTION: u16 = 54;
const OP_CONVERT_F_TO_U: u16 = 109;
const OP_CONVERT_F_TO_S: u16 = 110;
const OP_CONVERT_S_TO_F: u16 = 111;
const OP_CONVERT_U_TO_F: u16 = 112;
const OP_U_CONVERT: u16 = 113;
const OP_S_CONVERT: u16 = 114;
const OP_U_DIV: u16 = 134;
const OP_S_DIV: u16 = 135;
const OP_U_MOD: u16 = 137;
const OP_S_REM: u16 = 138;
const OP_F_ADD: u16 = 129;
const OP_F_SUB: u16 = 131;
const OP_F_MUL: u16 = 133;
const OP_F_DIV: u16 = 136;
/// `OpUGreaterThan` … `OpSLessThanEqual`: unsigned at even opcodes, signed one above.
const UNSIGNED_COMPARISONS: [u16; 4] = [172, 174, 176, 178];
/// GLSL.std.450 `FAbs`, `FSign`, `Floor`, `Step`.
const GLSL_FABS: u32 = 4;
const GLSL_FSIGN: u32 = 6;
const GLSL_FLOOR: u32 = 8;
const GLSL_STEP: u32 = 48;
/// Rounds of remainder correction after the float estimate (see the module docs).
const CORRECTIONS: usize = 3;
/// GLSL.std.450 integer instructions and their float twins: `SAbs`, `SSign`, `UMin`, `SMin`,
/// `UMax`, `SMax`, `UClamp`, `SClamp`.
const GLSL_INTEGER_TO_FLOAT: [(u32, u32); 8] = [
    (5, 4),
    (7, 6),
    (38, 37),
    (39, 37),
    (41, 40),
    (42, 40),
    (44, 43),
    (45, 43),
];

/// What the new instructions need declared: float types by width, float constants (by width
/// and bits), GLSL.std.450.
struct Declared {
    bound: u32,
    float: Option<u32>,
    float_vectors: BTreeMap<u32, u32>,
    constants: BTreeMap<(u32, u32), u32>,
    glsl: Option<u32>,
    /// Declarations to add before the first function, in order.
    globals: Vec<Inst>,
    /// An `OpExtInstImport` to add before the memory model.
    import: Option<Inst>,
}

impl Declared {
    fn id(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }
    fn float(&mut self) -> u32 {
        if let Some(f) = self.float {
            return f;
        }
        let f = self.id();
        self.globals.push(Inst::new(OP_TYPE_FLOAT, &[f, 32]));
        self.float = Some(f);
        f
    }
    /// The float type with `width` components (1: the scalar).
    fn float_of(&mut self, width: u32) -> u32 {
        let f = self.float();
        if width == 1 {
            return f;
        }
        if let Some(&v) = self.float_vectors.get(&width) {
            return v;
        }
        let v = self.id();
        self.globals.push(Inst::new(OP_TYPE_VECTOR, &[v, f, width]));
        self.float_vectors.insert(width, v);
        v
    }
    /// The float constant `value` with `width` components (1: the scalar).
    fn constant(&mut self, width: u32, value: f32) -> u32 {
        let key = (width, value.to_bits());
        if let Some(&c) = self.constants.get(&key) {
            return c;
        }
        let id = if width == 1 {
            let f = self.float();
            let c = self.id();
            self.globals
                .push(Inst::new(OP_CONSTANT, &[f, c, value.to_bits()]));
            c
        } else {
            let scalar = self.constant(1, value);
            let v = self.float_of(width);
            let c = self.id();
            let mut operands = vec![v, c];
            operands.extend(std::iter::repeat_n(scalar, width as usize));
            self.globals
                .push(Inst::new(OP_CONSTANT_COMPOSITE, &operands));
            c
        };
        self.constants.insert(key, id);
        id
    }
    fn glsl(&mut self) -> u32 {
        if let Some(g) = self.glsl {
            return g;
        }
        let g = self.id();
        let mut operands = vec![g];
        operands.extend(super::spirv::literal_string("GLSL.std.450"));
        self.import = Some(Inst::new(OP_EXT_INST_IMPORT, &operands));
        self.glsl = Some(g);
        g
    }
}


fn string_at(inst: &Inst, from: usize) -> String {
    let bytes: Vec<u8> = inst.0[from..]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Rewrites the module if it has unsigned integers, integer division or remainders: `Ok(None)`
/// when it has none, an error when an instruction it must rewrite cannot be read.
pub fn lower(words: &[u32]) -> Result<Option<Vec<u32>>, String> {
    let malformed = |what: &str| format!("the integer rewrite cannot read {what}");
    let mut insts = instructions(words).ok_or_else(|| malformed("the module"))?;

    // 32-bit integer types (scalar → 1, vectors → their width), and the float ones.
    let mut int_width: BTreeMap<u32, u32> = BTreeMap::new();
    let mut declared = Declared {
        bound: words[3],
        float: None,
        float_vectors: BTreeMap::new(),
        constants: BTreeMap::new(),
        glsl: None,
        globals: Vec::new(),
        import: None,
    };
    let mut changed = false;
    for x in &mut insts {
        match x.op() {
            OP_TYPE_INT if x.operand(1) == Some(32) => {
                let id = x.operand(0).ok_or_else(|| malformed("an OpTypeInt"))?;
                int_width.insert(id, 1);
                if x.operand(2) == Some(0) {
                    x.0[3] = 1;
                    changed = true;
                }
            }
            OP_TYPE_FLOAT if x.operand(1) == Some(32) => declared.float = x.operand(0),
            OP_EXT_INST_IMPORT if string_at(x, 2) == "GLSL.std.450" => {
                declared.glsl = x.operand(0);
            }
            _ => {}
        }
    }
    for x in insts.iter().filter(|x| x.op() == OP_TYPE_VECTOR) {
        let (Some(id), Some(component), Some(width)) = (x.operand(0), x.operand(1), x.operand(2))
        else {
            return Err(malformed("an OpTypeVector"));
        };
        if int_width.contains_key(&component) {
            int_width.insert(id, width);
        } else if Some(component) == declared.float {
            declared.float_vectors.insert(width, id);
        }
    }

    let mut out: Vec<Inst> = Vec::with_capacity(insts.len());
    for mut x in insts {
        let signed = match x.op() {
            OP_U_DIV => Some(OP_S_DIV),
            OP_U_MOD => Some(OP_S_REM),
            OP_CONVERT_F_TO_U => Some(OP_CONVERT_F_TO_S),
            OP_CONVERT_U_TO_F => Some(OP_CONVERT_S_TO_F),
            OP_U_CONVERT => Some(OP_S_CONVERT),
            op if UNSIGNED_COMPARISONS.contains(&op) => Some(op + 1),
            _ => None,
        };
        if let Some(op) = signed {
            x.set_op(op);
            changed = true;
        }
        let op = x.op();
        if op == OP_EXT_INST && x.operand(2) == declared.glsl {
            let float_twin = GLSL_INTEGER_TO_FLOAT
                .iter()
                .find(|(int, _)| Some(*int) == x.operand(3))
                .map(|&(_, f)| f);
            let ty = x.operand(0).ok_or_else(|| malformed("an OpExtInst"))?;
            if let (Some(f_op), Some(&width)) = (float_twin, int_width.get(&ty)) {
                changed = true;
                float_ext_inst(&mut declared, &mut out, &x, ty, width, f_op);
                continue;
            }
        }
        if op != OP_S_DIV && op != OP_S_REM {
            out.push(x);
            continue;
        }
        let (Some(ty), Some(result), Some(a), Some(b)) =
            (x.operand(0), x.operand(1), x.operand(2), x.operand(3))
        else {
            return Err(malformed("an integer division"));
        };
        // Not a 32-bit integer (`int64_t`): for the dialect stage to refuse.
        let Some(&width) = int_width.get(&ty) else {
            out.push(x);
            continue;
        };
        changed = true;
        divide(
            &mut declared,
            &mut out,
            Division {
                ty,
                width,
                result,
                a,
                b,
                remainder: op == OP_S_REM,
            },
        );
    }
    if !changed {
        return Ok(None);
    }

    let mut result = words[..5].to_vec();
    result[3] = declared.bound;
    let mut globals = Some(declared.globals);
    let mut import = declared.import;
    for x in out {
        if x.op() == OP_MEMORY_MODEL {
            if let Some(i) = import.take() {
                result.extend_from_slice(&i.0);
            }
        }
        if x.op() == OP_FUNCTION {
            for g in globals.take().unwrap_or_default() {
                result.extend_from_slice(&g.0);
            }
        }
        result.extend_from_slice(&x.0);
    }
    if globals.is_some_and(|g| !g.is_empty()) {
        return Err(malformed("a module without a function"));
    }
    Ok(Some(result))
}

/// One integer `/` or `%` to rewrite: `result = a / b` (or `a % b`), `width` components of the
/// integer type `ty`.
struct Division {
    ty: u32,
    width: u32,
    result: u32,
    a: u32,
    b: u32,
    remainder: bool,
}

/// Emits `div`'s float maths (see the module docs).
fn divide(d: &mut Declared, out: &mut Vec<Inst>, div: Division) {
    let f = d.float_of(div.width);
    let glsl = d.glsl();
    let zero = d.constant(div.width, 0.0);
    let one = d.constant(div.width, 1.0);
    let mut emit = |op: u16, operands: &[u32]| {
        let id = d.id();
        let mut words = vec![f, id];
        words.extend_from_slice(operands);
        out.push(Inst::new(op, &words));
        id
    };
    let fa = emit(OP_CONVERT_S_TO_F, &[div.a]);
    let fb = emit(OP_CONVERT_S_TO_F, &[div.b]);
    let abs_a = emit(OP_EXT_INST, &[glsl, GLSL_FABS, fa]);
    let abs_b = emit(OP_EXT_INST, &[glsl, GLSL_FABS, fb]);
    let estimate = emit(OP_F_DIV, &[abs_a, abs_b]);
    let mut q = emit(OP_EXT_INST, &[glsl, GLSL_FLOOR, estimate]);
    let rest = |q: u32, emit: &mut dyn FnMut(u16, &[u32]) -> u32| {
        let product = emit(OP_F_MUL, &[q, abs_b]);
        emit(OP_F_SUB, &[abs_a, product])
    };
    for _ in 0..CORRECTIONS {
        let r = rest(q, &mut emit);
        let up = emit(OP_EXT_INST, &[glsl, GLSL_STEP, abs_b, r]);
        let not_down = emit(OP_EXT_INST, &[glsl, GLSL_STEP, zero, r]);
        let q1 = emit(OP_F_ADD, &[q, up]);
        let q2 = emit(OP_F_ADD, &[q1, not_down]);
        q = emit(OP_F_SUB, &[q2, one]);
    }
    let sign_a = emit(OP_EXT_INST, &[glsl, GLSL_FSIGN, fa]);
    let value = if div.remainder {
        let r = rest(q, &mut emit);
        emit(OP_F_MUL, &[sign_a, r])
    } else {
        let sign_b = emit(OP_EXT_INST, &[glsl, GLSL_FSIGN, fb]);
        let signs = emit(OP_F_MUL, &[sign_a, sign_b]);
        emit(OP_F_MUL, &[signs, q])
    };
    out.push(Inst::new(OP_CONVERT_F_TO_S, &[div.ty, div.result, value]));
}

/// `ty(f(float(x), …))` for the GLSL.std.450 integer instruction `inst`, `f` its float twin.
fn float_ext_inst(d: &mut Declared, out: &mut Vec<Inst>, inst: &Inst, ty: u32, width: u32, f_op: u32) {
    let f = d.float_of(width);
    let result = inst.0[2];
    let set = inst.0[3];
    let mut operands = vec![f, 0, set, f_op];
    for &arg in &inst.0[5..] {
        let fa = d.id();
        out.push(Inst::new(OP_CONVERT_S_TO_F, &[f, fa, arg]));
        operands.push(fa);
    }
    let fr = d.id();
    operands[1] = fr;
    out.push(Inst::new(OP_EXT_INST, &operands));
    out.push(Inst::new(OP_CONVERT_F_TO_S, &[ty, result, fr]));
}

#[cfg(test)]
mod tests {
    use super::{lower, CORRECTIONS};

    /// A module header, then `insts` (opcode, operands).
    fn module(insts: &[(u16, &[u32])]) -> Vec<u32> {
        let mut words = vec![0x0723_0203, 0x0001_0000, 0, 16, 0];
        for (op, operands) in insts {
            words.push(((operands.len() as u32 + 1) << 16) | u32::from(*op));
            words.extend_from_slice(operands);
        }
        words
    }

    #[test]
    fn what_the_rewrite_cannot_read_is_an_error_never_the_module_unchanged() {
        // `%3 = OpSDiv %int %2` with its divisor missing.
        let short_division = module(&[(21, &[1, 32, 1]), (135, &[1, 3, 2])]);
        let e = lower(&short_division).expect_err("an integer division it cannot read");
        assert!(e.contains("integer division"), "{e}");
        // A word count running past the end.
        let mut cut = module(&[(21, &[1, 32, 0])]);
        cut.pop();
        assert!(lower(&cut).is_err());
        // A 64-bit division is not Shader Model 2/3's: left for the dialect stage (SD0219).
        let wide = module(&[(21, &[1, 64, 1]), (135, &[1, 4, 2, 3])]);
        assert_eq!(lower(&wide), Ok(None));
    }

    /// GLSL's `sign` and `step`.
    fn sign(x: f32) -> f32 {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    }
    fn step(edge: f32, x: f32) -> f32 {
        if x < edge {
            0.0
        } else {
            1.0
        }
    }

    /// A GPU's float division.
    type Division = dyn Fn(f32, f32) -> f32;

    /// The maths `divide` emits, in f32, with the GPU's division `div`: (quotient, remainder).
    fn model(a: i32, b: i32, div: &Division) -> (i32, i32) {
        let (fa, fb) = (a as f32, b as f32);
        let (abs_a, abs_b) = (fa.abs(), fb.abs());
        let rest = |q: f32| abs_a - q * abs_b;
        let mut q = div(abs_a, abs_b).floor();
        for _ in 0..CORRECTIONS {
            let r = rest(q);
            q = q + step(abs_b, r) + step(0.0, r) - 1.0;
        }
        (
            (sign(fa) * sign(fb) * q) as i32,
            (sign(fa) * rest(q)) as i32,
        )
    }

    /// The quotient `a / b` off by `ulps` units in the last place of the true quotient, then
    /// rounded to f32: GLSL's allowance for a division is 2.5.
    fn off_by(a: f32, b: f32, ulps: f64) -> f32 {
        let x = f64::from(a) / f64::from(b);
        if x == 0.0 {
            return 0.0;
        }
        let ulp = 2f64.powi(x.log2().floor() as i32 - 23);
        (x + ulps * ulp) as f32
    }

    /// Exact for every sign combination wherever fxc's float registers hold the operands
    /// (|a|, |b| < 2^24), with a correctly rounded division, a reciprocal times the dividend,
    /// and a quotient off by as much as GLSL allows (2.5 units in the last place).
    #[test]
    fn division_is_exact_below_2_pow_24_for_any_rounding_of_the_estimate() {
        let big = 1i32 << 23;
        let mut magnitudes: Vec<i32> = (0..40).chain((big - 20)..(big + 40)).collect();
        magnitudes.extend([(1 << 24) - 1, (1 << 24) - 2, (1 << 24) - 3, 6_000_001, 12_000_002]);
        magnitudes.extend((0..200).map(|k| (k * 83_887 + 7) % (1 << 24)));
        let divisors = [1, 2, 3, 4, 5, 7, 10, 255, 256, 4095, 65_537, 6_000_001, big - 1, big, big + 1, (1 << 24) - 1];
        let divisions: [(&str, &Division); 4] = [
            ("IEEE", &|a, b| a / b),
            ("reciprocal", &|a, b| a * (1.0 / b)),
            ("2.5 ulps over", &|a, b| off_by(a, b, 2.5)),
            ("2.5 ulps under", &|a, b| off_by(a, b, -2.5)),
        ];
        let mut wrong = Vec::new();
        for &m in &magnitudes {
            for &d in &divisors {
                for (a, b) in [(m, d), (-m, d), (m, -d), (-m, -d)] {
                    for (name, div) in &divisions {
                        let got = model(a, b, div);
                        if got != (a / b, a % b) {
                            wrong.push(format!("{a} / {b} ({name}): {got:?}"));
                        }
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong[..wrong.len().min(20)].join("\n"));
    }
}
