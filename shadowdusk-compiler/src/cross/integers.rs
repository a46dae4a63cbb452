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
//! * `a / b` becomes float maths with an explicit truncation, `int((a + 0.5 * sign(a)) / b)`:
//!   HLSL's quotient rounded toward zero. The half moves an exact quotient away from the
//!   rounding error of a reciprocal-based division (3 / 3 is never 0.9999), and cannot carry a
//!   true quotient past the next integer, which is at least `1 / |b|` away;
//! * `a % b` becomes `a - (a / b) * b` with that quotient: HLSL's (and C's) remainder, which
//!   takes the dividend's sign;
//! * `abs`, `sign`, `min`, `max` and `clamp` on integers (GLSL 1.10 has only float overloads)
//!   run on floats and convert back, exactly, as fxc's float registers did.
//!
//! Bit operations are left alone for the dialect stage to refuse (SD0221): fxc refuses them for
//! these profiles too.
//!
//! Input and output are SPIR-V words; the module is only rewritten when it has something to
//! change.

use super::spirv::{instructions, Inst};
use std::collections::BTreeMap;

const OP_EXT_INST_IMPORT: u16 = 11;
const OP_EXT_INST: u16 = 12;
const OP_MEMORY_MODEL: u16 = 14;
const OP_TYPE_INT: u16 = 21;
const OP_TYPE_FLOAT: u16 = 22;
const OP_TYPE_VECTOR: u16 = 23;
const OP_CONSTANT: u16 = 43;
const OP_FUNCTION: u16 = 54;
const OP_CONVERT_F_TO_U: u16 = 109;
const OP_CONVERT_F_TO_S: u16 = 110;
const OP_CONVERT_S_TO_F: u16 = 111;
const OP_CONVERT_U_TO_F: u16 = 112;
const OP_U_CONVERT: u16 = 113;
const OP_S_CONVERT: u16 = 114;
const OP_I_SUB: u16 = 130;
const OP_I_MUL: u16 = 132;
const OP_U_DIV: u16 = 134;
const OP_S_DIV: u16 = 135;
const OP_U_MOD: u16 = 137;
const OP_S_REM: u16 = 138;
const OP_F_ADD: u16 = 129;
const OP_F_DIV: u16 = 136;
const OP_F_MUL: u16 = 133;
const OP_VECTOR_TIMES_SCALAR: u16 = 142;
/// `OpUGreaterThan` … `OpSLessThanEqual`: unsigned at even opcodes, signed one above.
const UNSIGNED_COMPARISONS: [u16; 4] = [172, 174, 176, 178];
/// GLSL.std.450 `FSign`.
const GLSL_FSIGN: u32 = 6;
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

/// What the new instructions need declared: float types by width, the half, GLSL.std.450.
struct Declared {
    bound: u32,
    float: Option<u32>,
    float_vectors: BTreeMap<u32, u32>,
    half: Option<u32>,
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
    fn half(&mut self) -> u32 {
        if let Some(h) = self.half {
            return h;
        }
        let f = self.float();
        let h = self.id();
        self.globals
            .push(Inst::new(OP_CONSTANT, &[f, h, 0.5f32.to_bits()]));
        self.half = Some(h);
        h
    }
    fn glsl(&mut self) -> u32 {
        if let Some(g) = self.glsl {
            return g;
        }
        let g = self.id();
        let mut operands = vec![g];
        operands.extend(literal_string("GLSL.std.450"));
        self.import = Some(Inst::new(OP_EXT_INST_IMPORT, &operands));
        self.glsl = Some(g);
        g
    }
}

/// A SPIR-V literal string: UTF-8, nul-terminated, padded to whole words.
fn literal_string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn string_at(inst: &Inst, from: usize) -> String {
    let bytes: Vec<u8> = inst.0[from..]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Rewrites the module if it has unsigned integers, integer division or remainders; `None`
/// when it has none.
pub fn lower(words: &[u32]) -> Option<Vec<u32>> {
    let mut insts = instructions(words)?;

    // 32-bit integer types (scalar → 1, vectors → their width), and the float ones.
    let mut int_width: BTreeMap<u32, u32> = BTreeMap::new();
    let mut declared = Declared {
        bound: words[3],
        float: None,
        float_vectors: BTreeMap::new(),
        half: None,
        glsl: None,
        globals: Vec::new(),
        import: None,
    };
    let mut changed = false;
    for x in &mut insts {
        match x.op() {
            OP_TYPE_INT if x.operand(1) == Some(32) => {
                int_width.insert(x.operand(0)?, 1);
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
    for x in &insts {
        if x.op() == OP_TYPE_VECTOR {
            let (id, component, width) = (x.operand(0)?, x.operand(1)?, x.operand(2)?);
            if int_width.contains_key(&component) {
                int_width.insert(id, width);
            } else if Some(component) == declared.float {
                declared.float_vectors.insert(width, id);
            }
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
            let ty = x.operand(0)?;
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
        let (ty, result, a, b) = (x.operand(0)?, x.operand(1)?, x.operand(2)?, x.operand(3)?);
        let width = *int_width.get(&ty)?;
        changed = true;
        let q = if op == OP_S_DIV { result } else { declared.id() };
        truncated_quotient(&mut declared, &mut out, ty, width, q, a, b);
        if op == OP_S_REM {
            let product = declared.id();
            out.push(Inst::new(OP_I_MUL, &[ty, product, q, b]));
            out.push(Inst::new(OP_I_SUB, &[ty, result, a, product]));
        }
    }
    if !changed {
        return None;
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
    Some(result)
}

/// `q = int((float(a) + 0.5 * sign(float(a))) / float(b))`, `width` components of type `ty`.
fn truncated_quotient(
    d: &mut Declared,
    out: &mut Vec<Inst>,
    ty: u32,
    width: u32,
    q: u32,
    a: u32,
    b: u32,
) {
    let f = d.float_of(width);
    let half = d.half();
    let glsl = d.glsl();
    let (fa, fb, sign, nudge, nudged, fq) = (d.id(), d.id(), d.id(), d.id(), d.id(), d.id());
    out.push(Inst::new(OP_CONVERT_S_TO_F, &[f, fa, a]));
    out.push(Inst::new(OP_CONVERT_S_TO_F, &[f, fb, b]));
    out.push(Inst::new(OP_EXT_INST, &[f, sign, glsl, GLSL_FSIGN, fa]));
    let scale = if width == 1 { OP_F_MUL } else { OP_VECTOR_TIMES_SCALAR };
    out.push(Inst::new(scale, &[f, nudge, sign, half]));
    out.push(Inst::new(OP_F_ADD, &[f, nudged, fa, nudge]));
    out.push(Inst::new(OP_F_DIV, &[f, fq, nudged, fb]));
    out.push(Inst::new(OP_CONVERT_F_TO_S, &[ty, q, fq]));
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
