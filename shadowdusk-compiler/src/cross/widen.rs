//! Square matrices for the matrix *temporaries* HLSL's implicit truncation creates, before
//! SPIRV-Cross sees the module.
//!
//! `mul(input.Normal, World)` with a `float3` normal and a `float4x4` World — XNA-era lighting
//! code is full of it — is `mul(v, (float3x4)World)` to HLSL: DXC builds a 3-column matrix from
//! World's columns and multiplies. GLSL 1.10 and ES 1.00 have no `mat3x4`, so SPIRV-Cross's
//! output would be refused. fxc got away with it because D3D9 bytecode has no matrix types
//! (the multiply is three `dp4`s), and MojoShader never saw a matrix.
//!
//! The same product, with the matrix padded to 4×4 by zero rows and columns and the vector
//! padded with zeros, has the original result in its first components. So every non-square
//! float matrix the shader builds (`OpCompositeConstruct`, `OpTranspose`, `OpMatrixTimesMatrix`)
//! whose every use is a product with a vector or a matrix, or a transpose, is rebuilt as a 4×4
//! matrix; the vectors it multiplies are padded and the products shuffled back to their width.
//! One width for all shapes means products of different shapes (`mul(float4x3, float3x4)`)
//! line up without further padding; a product or transpose that takes a widened matrix but
//! yields a smaller square one (`mul(float3x4, float4x3)` is a float3x3) is cut back to its
//! type, and a square operand beside a widened one is padded. The result is exactly equal (the
//! padding only ever adds products with zero).
//!
//! Left alone, for the dialect stage to refuse: non-square matrices used any other way — in
//! practice a local whose row is picked at run time, which DXC spills to a matrix variable.
//!
//! Input and output are SPIR-V words; the module is only rewritten when something matches.

use super::spirv::{instructions, module, Inst};
use std::collections::{BTreeMap, BTreeSet};

/// Names, strings, line markers and decorations: they mention ids without using them.
const DEBUG_AND_ANNOTATIONS: [u16; 6] = [5, 6, 7, 8, 71, 72];
const OP_TYPE_FLOAT: u16 = 22;
const OP_TYPE_VECTOR: u16 = 23;
const OP_TYPE_MATRIX: u16 = 24;
const OP_CONSTANT: u16 = 43;
const OP_CONSTANT_NULL: u16 = 46;
const OP_FUNCTION: u16 = 54;
const OP_VECTOR_SHUFFLE: u16 = 79;
const OP_COMPOSITE_CONSTRUCT: u16 = 80;
const OP_COMPOSITE_EXTRACT: u16 = 81;
const OP_COPY_OBJECT: u16 = 83;
const OP_TRANSPOSE: u16 = 84;
const OP_VECTOR_TIMES_SCALAR: u16 = 142;
const OP_MATRIX_TIMES_SCALAR: u16 = 143;
const OP_VECTOR_TIMES_MATRIX: u16 = 144;
const OP_MATRIX_TIMES_VECTOR: u16 = 145;
const OP_MATRIX_TIMES_MATRIX: u16 = 146;

/// A non-square float matrix type: `columns` columns of `rows`-component vectors.
#[derive(Clone, Copy)]
struct Shape {
    rows: u32,
    columns: u32,
}

impl Shape {
    fn square(self) -> bool {
        self.rows == self.columns
    }
}

/// Rewrites the module if it holds matrix temporaries to widen; `None` when there are none.
pub fn widen(words: &[u32]) -> Option<Vec<u32>> {
    let mut insts = instructions(words)?;

    let float = insts
        .iter()
        .find(|x| x.op() == OP_TYPE_FLOAT && x.operand(1) == Some(32))?
        .operand(0)?;
    let vectors: BTreeMap<u32, (u32, u32)> = insts
        .iter()
        .filter(|x| x.op() == OP_TYPE_VECTOR)
        .filter_map(|x| Some((x.operand(0)?, (x.operand(1)?, x.operand(2)?))))
        .collect();
    let non_square: BTreeMap<u32, Shape> = float_matrices(&insts, &vectors, float)
        .into_iter()
        .filter(|(_, s)| !s.square())
        .collect();
    if non_square.is_empty() {
        return None;
    }
    let mut bound = words[3];
    let folded = fold_columns(&mut insts, &non_square, &mut bound);

    let matrix_types = float_matrices(&insts, &vectors, float);
    let shape_of = matrix_values(&insts, &matrix_types);
    let widen = widened_values(&insts, &shape_of);
    let wide_ops = wide_operations(&insts, &widen);
    if widen.is_empty() && wide_ops.is_empty() && !folded {
        return None;
    }

    let mut fresh = || {
        bound += 1;
        bound - 1
    };
    let mut vec_of: BTreeMap<u32, u32> = vectors
        .iter()
        .filter(|(_, (c, _))| *c == float)
        .map(|(id, (_, n))| (*n, *id))
        .collect();
    let mut declarations: Vec<Inst> = Vec::new();
    let e = Emit::declare(
        &insts,
        float,
        &mut vec_of,
        &matrix_types,
        &mut fresh,
        &mut declarations,
    )?;
    let mut r = Rebuild {
        e,
        widen: &widen,
        wide_ops: &wide_ops,
        shape_of: &shape_of,
        out: Vec::with_capacity(insts.len() + declarations.len()),
    };
    let declared = r.rewrite(insts, declarations)?;
    let out = r.out;
    if !declared && !folded {
        return None;
    }
    Some(module(words, bound, out))
}

/// Every float matrix type by id, with its shape: what tells a widened value's size.
fn float_matrices(
    insts: &[Inst],
    vectors: &BTreeMap<u32, (u32, u32)>,
    float: u32,
) -> BTreeMap<u32, Shape> {
    insts
        .iter()
        .filter(|x| x.op() == OP_TYPE_MATRIX)
        .filter_map(|x| {
            let (component, rows) = *vectors.get(&x.operand(1)?)?;
            (component == float).then_some((
                x.operand(0)?,
                Shape {
                    rows,
                    columns: x.operand(2)?,
                },
            ))
        })
        .collect()
}

/// The shape of every matrix-typed value (ids are unique, so an instruction whose first
/// operand is a matrix type id declares a value of that type).
fn matrix_values(insts: &[Inst], matrix_types: &BTreeMap<u32, Shape>) -> BTreeMap<u32, Shape> {
    insts
        .iter()
        .filter(|x| !DEBUG_AND_ANNOTATIONS.contains(&x.op()) && x.op() != OP_TYPE_MATRIX)
        .filter_map(|x| Some((x.operand(1)?, *matrix_types.get(&x.operand(0)?)?)))
        .collect()
}

/// Non-square values built in the shader (constructed, transposed, multiplied), held as
/// 4×4 while every use is a product with a vector or matrix or a transpose.
fn widened_values(insts: &[Inst], shape_of: &BTreeMap<u32, Shape>) -> BTreeSet<u32> {
    let mut widen: BTreeSet<u32> = insts
        .iter()
        .filter(|x| {
            matches!(
                x.op(),
                OP_COMPOSITE_CONSTRUCT | OP_TRANSPOSE | OP_MATRIX_TIMES_MATRIX
            )
        })
        .filter_map(|x| {
            let r = x.operand(1)?;
            (!shape_of.get(&r)?.square()).then_some(r)
        })
        .collect();
    loop {
        let before = widen.len();
        for x in insts
            .iter()
            .filter(|x| !DEBUG_AND_ANNOTATIONS.contains(&x.op()))
        {
            for w in other_uses(x, &widen) {
                widen.remove(&w);
            }
        }
        if widen.len() == before {
            break;
        }
    }
    widen
}

/// The candidates `x` uses other than as a product's matrix or a transpose's operand: those
/// must keep their declared type.
fn other_uses(x: &Inst, widen: &BTreeSet<u32>) -> Vec<u32> {
    let allowed: &[usize] = match x.op() {
        OP_MATRIX_TIMES_VECTOR | OP_TRANSPOSE => &[2],
        OP_VECTOR_TIMES_MATRIX => &[3],
        OP_MATRIX_TIMES_MATRIX => &[2, 3],
        _ => &[],
    };
    let defines = matches!(
        x.op(),
        OP_COMPOSITE_CONSTRUCT | OP_TRANSPOSE | OP_MATRIX_TIMES_MATRIX
    );
    // Any other appearance (or a coinciding literal, conservatively) keeps the matrix.
    x.0.iter()
        .enumerate()
        .skip(1)
        .filter(|&(k, w)| widen.contains(w) && !(defines && k == 2) && !allowed.contains(&(k - 1)))
        .map(|(_, w)| *w)
        .collect()
}

/// Transposes and products computed at 4×4: those that make a widened value, and those
/// that take one (their result is then cut back to its own type).
fn wide_operations(insts: &[Inst], widen: &BTreeSet<u32>) -> BTreeSet<u32> {
    insts
        .iter()
        .filter(|x| matches!(x.op(), OP_TRANSPOSE | OP_MATRIX_TIMES_MATRIX))
        .filter(|x| {
            x.operand(1).is_some_and(|r| widen.contains(&r))
                || x.0[3..].iter().any(|o| widen.contains(o))
        })
        .filter_map(|x| x.operand(1))
        .collect()
}

/// The module copied with its widened matrices: each instruction that makes or takes one is
/// re-emitted at 4×4, everything else passes through.
struct Rebuild<'a> {
    e: Emit<'a>,
    widen: &'a BTreeSet<u32>,
    wide_ops: &'a BTreeSet<u32>,
    shape_of: &'a BTreeMap<u32, Shape>,
    out: Vec<Inst>,
}

impl Rebuild<'_> {
    /// Copies `insts` into `out`, with `declarations` before the first function (types and
    /// constants must precede it); returns whether there was a function to put them before.
    fn rewrite(&mut self, insts: Vec<Inst>, mut declarations: Vec<Inst>) -> Option<bool> {
        let mut declared = false;
        for x in insts {
            if x.op() == OP_FUNCTION && !declared {
                self.out.append(&mut declarations);
                declared = true;
            }
            match x.op() {
                OP_COMPOSITE_CONSTRUCT if x.operand(1).is_some_and(|r| self.widen.contains(&r)) => {
                    self.construct(&x)?
                }
                OP_TRANSPOSE | OP_MATRIX_TIMES_MATRIX
                    if x.operand(1).is_some_and(|r| self.wide_ops.contains(&r)) =>
                {
                    self.matrix_op(&x)?
                }
                OP_MATRIX_TIMES_VECTOR | OP_VECTOR_TIMES_MATRIX => self.vector_product(x)?,
                _ => self.out.push(x),
            }
        }
        Some(declared)
    }

    /// A widened matrix is built from its columns padded to 4 components, then null columns.
    fn construct(&mut self, x: &Inst) -> Option<()> {
        let result = x.operand(1)?;
        let s = self.shape_of[&result];
        let mut columns: Vec<u32> = x.0[3..]
            .iter()
            .map(|&c| self.e.pad(&mut self.out, c, s.rows))
            .collect();
        columns.resize(WIDE as usize, self.e.null4);
        let mut ops = vec![self.e.mat4, result];
        ops.extend(columns);
        self.out.push(Inst::new(OP_COMPOSITE_CONSTRUCT, &ops));
        Some(())
    }

    /// A transpose or matrix product at 4×4: operands not widened are padded to 4×4.
    fn matrix_op(&mut self, x: &Inst) -> Option<()> {
        let (rt, result) = (x.operand(0)?, x.operand(1)?);
        let operands: Vec<u32> = x.0[3..]
            .iter()
            .map(|&m| {
                if self.widen.contains(&m) {
                    Some(m)
                } else {
                    self.e
                        .pad_matrix(&mut self.out, m, *self.shape_of.get(&m)?)
                }
            })
            .collect::<Option<_>>()?;
        // A 4×4 result is already its own type; a widened one stays wide; any other
        // is cut back to the type the shader declared.
        let keep = self.widen.contains(&result) || rt == self.e.mat4;
        let wide = if keep { result } else { (self.e.fresh)() };
        let mut ops = vec![self.e.mat4, wide];
        ops.extend(operands);
        self.out.push(Inst::new(x.op(), &ops));
        if !keep {
            self.e
                .shrink(&mut self.out, wide, rt, result, self.shape_of[&result]);
        }
        Some(())
    }

    /// A product of a widened matrix and a vector: the vector is padded to 4 components and
    /// the product shuffled back to the width the shader declared.
    fn vector_product(&mut self, x: Inst) -> Option<()> {
        let times_vector = x.op() == OP_MATRIX_TIMES_VECTOR;
        let (m, v) = if times_vector {
            (x.operand(2)?, x.operand(3)?)
        } else {
            (x.operand(3)?, x.operand(2)?)
        };
        if !self.widen.contains(&m) {
            self.out.push(x);
            return Some(());
        }
        let s = self.shape_of[&m];
        // M·v takes a `columns`-wide v and gives `rows`; v·M the other way round.
        let (v_width, r_width) = if times_vector {
            (s.columns, s.rows)
        } else {
            (s.rows, s.columns)
        };
        let pv = self.e.pad(&mut self.out, v, v_width);
        let result = x.operand(1)?;
        let product = if r_width < WIDE {
            (self.e.fresh)()
        } else {
            result
        };
        let vec4 = self.e.vec4;
        let ops = if times_vector {
            [vec4, product, m, pv]
        } else {
            [vec4, product, pv, m]
        };
        self.out.push(Inst::new(x.op(), &ops));
        if r_width < WIDE {
            let mut ops = vec![x.operand(0)?, result, product, product];
            ops.extend(0..r_width);
            self.out.push(Inst::new(OP_VECTOR_SHUFFLE, &ops));
        }
        Some(())
    }
}

/// The width every widened matrix takes: 4×4 holds every shape, so products of widened
/// matrices of different shapes line up without further padding.
const WIDE: u32 = 4;

/// What emitting widened code needs: the float vector types by width, the ids of `0.0`,
/// `vec4`, `mat4` and a null `vec4`, and fresh ids.
struct Emit<'a> {
    vec_of: &'a BTreeMap<u32, u32>,
    zero: u32,
    vec4: u32,
    mat4: u32,
    null4: u32,
    fresh: &'a mut dyn FnMut() -> u32,
}

impl<'a> Emit<'a> {
    /// Finds the `0.0`, `vec4` and `mat4` widened code refers to, declaring those the module
    /// lacks (and always a null `vec4`) into `declarations`, which go before the first function.
    fn declare(
        insts: &[Inst],
        float: u32,
        vec_of: &'a mut BTreeMap<u32, u32>,
        matrix_types: &BTreeMap<u32, Shape>,
        fresh: &'a mut dyn FnMut() -> u32,
        declarations: &mut Vec<Inst>,
    ) -> Option<Self> {
        let mat4 = matrix_types
            .iter()
            .find(|(_, s)| s.rows == 4 && s.columns == 4)
            .map(|(id, _)| *id);
        let zero = match insts.iter().find(|x| {
            x.op() == OP_CONSTANT && x.operand(0) == Some(float) && x.operand(2) == Some(0)
        }) {
            Some(x) => x.operand(1)?,
            None => {
                let id = fresh();
                declarations.push(Inst::new(OP_CONSTANT, &[float, id, 0]));
                id
            }
        };
        let vec4 = *vec_of.entry(WIDE).or_insert_with(|| {
            let id = fresh();
            declarations.push(Inst::new(OP_TYPE_VECTOR, &[id, float, WIDE]));
            id
        });
        let mat4 = mat4.unwrap_or_else(|| {
            let id = fresh();
            declarations.push(Inst::new(OP_TYPE_MATRIX, &[id, vec4, WIDE]));
            id
        });
        let null4 = fresh();
        declarations.push(Inst::new(OP_CONSTANT_NULL, &[vec4, null4]));
        Some(Emit {
            vec_of,
            zero,
            vec4,
            mat4,
            null4,
            fresh,
        })
    }
}

impl Emit<'_> {
    /// `value` (a `from`-wide float vector) padded with zeros to 4 components.
    fn pad(&mut self, out: &mut Vec<Inst>, value: u32, from: u32) -> u32 {
        if from >= WIDE {
            return value;
        }
        let id = (self.fresh)();
        let mut ops = vec![self.vec4, id, value];
        ops.extend(std::iter::repeat_n(self.zero, (WIDE - from) as usize));
        out.push(Inst::new(OP_COMPOSITE_CONSTRUCT, &ops));
        id
    }

    /// Matrix `m` of shape `s` as a zero-padded 4×4, column by column.
    fn pad_matrix(&mut self, out: &mut Vec<Inst>, m: u32, s: Shape) -> Option<u32> {
        if s.rows == WIDE && s.columns == WIDE {
            return Some(m);
        }
        let column_type = *self.vec_of.get(&s.rows)?;
        let mut columns = Vec::with_capacity(WIDE as usize);
        for k in 0..s.columns {
            let c = (self.fresh)();
            out.push(Inst::new(OP_COMPOSITE_EXTRACT, &[column_type, c, m, k]));
            columns.push(self.pad(out, c, s.rows));
        }
        columns.resize(WIDE as usize, self.null4);
        let id = (self.fresh)();
        let mut ops = vec![self.mat4, id];
        ops.extend(columns);
        out.push(Inst::new(OP_COMPOSITE_CONSTRUCT, &ops));
        Some(id)
    }

    /// `result` (of type `rt`, shape `s`) as the top-left block of the 4×4 `wide`.
    fn shrink(&mut self, out: &mut Vec<Inst>, wide: u32, rt: u32, result: u32, s: Shape) {
        let mut ops = vec![rt, result];
        for k in 0..s.columns {
            let c = (self.fresh)();
            out.push(Inst::new(OP_COMPOSITE_EXTRACT, &[self.vec4, c, wide, k]));
            if s.rows < WIDE {
                let cut = (self.fresh)();
                let mut shuffle = vec![self.vec_of[&s.rows], cut, c, c];
                shuffle.extend(0..s.rows);
                out.push(Inst::new(OP_VECTOR_SHUFFLE, &shuffle));
                ops.push(cut);
            } else {
                ops.push(c);
            }
        }
        out.push(Inst::new(OP_COMPOSITE_CONSTRUCT, &ops));
    }
}

/// Matrix arithmetic DXC spells column by column on a built matrix: a skinning blend
/// (`skinning += Bones[i] * w`) scales a constructed `float4x3` and adds it column by column.
/// Each column taken from a constructed matrix is its constructor operand (`OpCopyObject`), and
/// from a scaled constructed matrix that operand times the scalar (`OpVectorTimesScalar`); the
/// matrices then unused are dropped. The sums are vector maths GLSL 1.10 has, and what is left
/// non-square is a matrix built from columns and multiplied, which [`widen`] handles.
fn fold_columns(insts: &mut Vec<Inst>, non_square: &BTreeMap<u32, Shape>, bound: &mut u32) -> bool {
    let constructs: BTreeMap<u32, Vec<u32>> = insts
        .iter()
        .filter(|x| x.op() == OP_COMPOSITE_CONSTRUCT)
        .filter(|x| x.operand(0).is_some_and(|t| non_square.contains_key(&t)))
        .filter_map(|x| Some((x.operand(1)?, x.0[3..].to_vec())))
        .collect();
    let scaled: BTreeMap<u32, (u32, u32)> = insts
        .iter()
        .filter(|x| x.op() == OP_MATRIX_TIMES_SCALAR)
        .filter_map(|x| {
            let m = x.operand(2)?;
            constructs
                .contains_key(&m)
                .then_some((x.operand(1)?, (m, x.operand(3)?)))
        })
        .collect();
    // Matrix type → its column vector type.
    let column_types: BTreeMap<u32, u32> = insts
        .iter()
        .filter(|x| x.op() == OP_TYPE_MATRIX)
        .filter_map(|x| Some((x.operand(0)?, x.operand(1)?)))
        .collect();
    let mut folded = false;
    for x in insts.iter_mut() {
        if x.op() != OP_COMPOSITE_EXTRACT || x.0.len() != 5 {
            continue;
        }
        let (Some(rt), Some(res), Some(from), Some(k)) =
            (x.operand(0), x.operand(1), x.operand(2), x.operand(3))
        else {
            continue;
        };
        if let Some(&(m, scalar)) = scaled.get(&from) {
            if let Some(&column) = constructs[&m].get(k as usize) {
                *x = Inst::new(OP_VECTOR_TIMES_SCALAR, &[rt, res, column, scalar]);
                folded = true;
            }
        } else if let Some(&column) = constructs.get(&from).and_then(|c| c.get(k as usize)) {
            *x = Inst::new(OP_COPY_OBJECT, &[rt, res, column]);
            folded = true;
        }
    }
    // A scaled matrix still used as a whole (multiplied by a vector) becomes a matrix built from
    // scaled columns, which `widen` handles like any built matrix.
    let mut rebuilt = Vec::with_capacity(insts.len());
    for x in insts.drain(..) {
        let (Some(&(m, scalar)), true) = (
            x.operand(1).and_then(|r| scaled.get(&r)),
            x.op() == OP_MATRIX_TIMES_SCALAR,
        ) else {
            rebuilt.push(x);
            continue;
        };
        let (Some(rt), Some(res)) = (x.operand(0), x.operand(1)) else {
            rebuilt.push(x);
            continue;
        };
        // The column type is the constructor's operand type: find it from the construct's
        // matrix type (`non_square` knows rows; the vector type id is read off a column use).
        let columns = &constructs[&m];
        let Some(column_type) = column_types.get(&rt).copied() else {
            rebuilt.push(x);
            continue;
        };
        let mut ops = vec![rt, res];
        for &c in columns {
            let id = *bound;
            *bound += 1;
            rebuilt.push(Inst::new(
                OP_VECTOR_TIMES_SCALAR,
                &[column_type, id, c, scalar],
            ));
            ops.push(id);
        }
        rebuilt.push(Inst::new(OP_COMPOSITE_CONSTRUCT, &ops));
        folded = true;
    }
    *insts = rebuilt;
    if !folded {
        return false;
    }
    // Drop the matrices no longer used (a scaled one first frees its construct).
    loop {
        let used: BTreeSet<u32> = insts
            .iter()
            .filter(|x| !DEBUG_AND_ANNOTATIONS.contains(&x.op()))
            .flat_map(|x| {
                // Every word after the result id may be an operand (literals too: conservative).
                let skip = if has_result_type(x.op()) { 3 } else { 1 };
                x.0.iter().skip(skip).copied().collect::<Vec<_>>()
            })
            .collect();
        let before = insts.len();
        insts.retain(|x| {
            let dead_matrix = matches!(x.op(), OP_COMPOSITE_CONSTRUCT | OP_MATRIX_TIMES_SCALAR)
                && x.operand(0).is_some_and(|t| non_square.contains_key(&t))
                && x.operand(1).is_some_and(|r| !used.contains(&r));
            !dead_matrix
        });
        if insts.len() == before {
            break;
        }
    }
    true
}

/// Whether `op` has a result type and id as its first two operands (the ones folding makes).
fn has_result_type(op: u16) -> bool {
    matches!(
        op,
        OP_COMPOSITE_CONSTRUCT
            | OP_COMPOSITE_EXTRACT
            | OP_COPY_OBJECT
            | OP_VECTOR_TIMES_SCALAR
            | OP_MATRIX_TIMES_SCALAR
            | OP_VECTOR_TIMES_MATRIX
            | OP_MATRIX_TIMES_VECTOR
            | OP_VECTOR_SHUFFLE
    )
}
