//! Uniforms as the register image. Every uniform block of the shader (`$Globals`, cbuffers)
//! becomes members of one struct whose members are all `vec4<f32>` or `array<vec4<f32>, N>`,
//! each at 16 × the register the GL path gave it (the same allocation, `DialectShader::registers`),
//! with padding members over the registers no uniform of this shader reads. So the buffer's
//! bytes are the GL record's (`vs_uniforms_vec4` / `ps_uniforms_vec4`) and the generated `Params`
//! fills both, and WGSL's own layout rules give every member its offset, with no stride or
//! alignment WGSL cannot spell.
//!
//! Every read is rebuilt from registers where it happens: a scalar or vector is a register's
//! first lanes, a matrix is built from its registers (one per SPIR-V column, or per row under
//! `RowMajor`, which is how DXC marks HLSL's default `column_major`), an element of an array is
//! its register run. Why in SPIR-V and not after naga: naga's reader refuses DX-layout matrix
//! strides and transposes `RowMajor` members as if they were square, so matrices must be gone
//! before it reads the module.

use super::words::{deco, op, storage, Spv};
use super::WgslError;
use crate::cross::spirv::Inst;
use crate::dialect::RegisterAlloc;

/// What the rewrite made: the uniform variable and its size.
pub(super) struct Registers {
    pub var: Option<u32>,
    /// Bytes (16 × registers); 0 when the shader reads no uniform.
    pub size: u32,
}

#[derive(Clone, Copy, Debug)]
enum Index {
    Const(u32),
    Id(u32),
}

/// A register number: a constant plus run-time terms (id × factor).
#[derive(Clone, Debug, Default)]
struct Reg {
    constant: u32,
    terms: Vec<(u32, u32)>,
}

impl Reg {
    fn plus(&self, idx: Index, factor: u32) -> Reg {
        let mut r = self.clone();
        match idx {
            Index::Const(v) => r.constant += v * factor,
            Index::Id(id) => r.terms.push((id, factor)),
        }
        r
    }
}

#[derive(Clone, Debug)]
enum Shape {
    Scalar,
    Vector {
        n: u32,
    },
    /// SPIR-V matrix of `cols` columns of `rows`; `row_major`: one register per SPIR-V row.
    Matrix {
        cols: u32,
        rows: u32,
        col_ty: u32,
        row_major: bool,
    },
    /// Column `j` of a `RowMajor` matrix: lane `j` of `rows` registers.
    RowColumn {
        j: Index,
        rows: u32,
    },
    Array {
        elem: u32,
        elem_regs: u32,
    },
}

/// A pointer into the registers, made by an access chain on a uniform block.
#[derive(Clone, Debug)]
struct Place {
    member: u32,
    /// The member is one `vec4` (no register index).
    single: bool,
    reg: Reg,
    lane: Option<Index>,
    shape: Shape,
    /// The member's `RowMajor` decoration, which every matrix inside it follows.
    row_major: bool,
    /// The member's user-facing name, for errors.
    name: String,
}

struct Block {
    var: u32,
    ty: u32,
    instance: String,
}

/// Replaces every uniform block of the module with the register struct, bound at
/// (`group`, 0), and every read of a block with reads of its registers.
pub(super) fn rewrite(
    spv: &mut Spv,
    regs: &[RegisterAlloc],
    group: u32,
    stage_prefix: &str,
) -> Result<Registers, WgslError> {
    let blocks = blocks(spv);
    if blocks.is_empty() {
        return Ok(Registers { var: None, size: 0 });
    }
    let layout = Layout::of(spv, &blocks, regs)?;
    let (var, annotations) = layout.declare(spv, group, stage_prefix);
    rebuild_reads(spv, &blocks, &layout.placed, var)?;
    remove_blocks(spv, &blocks);
    insert_annotations(spv, annotations);
    Ok(Registers {
        var: Some(var),
        size: layout.size,
    })
}

/// The register struct's members in register order, padded over the registers this shader
/// does not read, so every member lands on the register the GL path gave it.
struct Layout {
    vec4: u32,
    /// (type, name) of each member.
    members: Vec<(u32, String)>,
    /// (block var, old member, new member, single) of each uniform that has a register.
    placed: Vec<(u32, u32, u32, bool)>,
    /// Bytes (16 × registers).
    size: u32,
}

impl Layout {
    /// Walks the allocation by base register; uniforms this module's blocks do not hold are
    /// skipped, as their registers only pad.
    fn of(spv: &mut Spv, blocks: &[Block], regs: &[RegisterAlloc]) -> Result<Layout, WgslError> {
        let mut sorted: Vec<&RegisterAlloc> = regs.iter().collect();
        sorted.sort_by_key(|r| r.base);
        let vec4 = spv.vec4();
        let mut members = Vec::new();
        let mut placed = Vec::new();
        let mut next = 0u32;
        let mut pad = 0;
        for r in &sorted {
            let Some(b) = blocks.iter().find(|b| b.instance == r.block) else {
                continue;
            };
            let Some(old) = (0..)
                .take(4096)
                .find(|&m| spv.member_name(b.ty, m).as_deref() == Some(&r.name))
            else {
                continue;
            };
            if r.base > next {
                let t = if r.base - next == 1 {
                    vec4
                } else {
                    spv.array(vec4, r.base - next)
                };
                members.push((t, format!("_pad{pad}")));
                pad += 1;
            } else if r.base < next {
                return Err(WgslError::internal(format!(
                    "uniform `{}` overlaps the one before it (register {})",
                    r.name, r.base
                )));
            }
            let single = r.count == 1 && !is_array(spv, member_type(spv, b.ty, old));
            let t = if single {
                vec4
            } else {
                spv.array(vec4, r.count)
            };
            placed.push((b.var, old, members.len() as u32, single));
            members.push((t, crate::lower::user_name(&r.name).to_string()));
            next = r.base + r.count;
        }
        Ok(Layout {
            vec4,
            members,
            placed,
            size: next * 16,
        })
    }

    /// Declares the struct, its pointer and its variable, and returns the variable with the
    /// names and decorations (offsets, strides, binding) that make it a uniform buffer; they
    /// are returned rather than placed because they go in sections after the globals.
    fn declare(&self, spv: &mut Spv, group: u32, stage_prefix: &str) -> (u32, Vec<Inst>) {
        let vec4 = self.vec4;
        let st = spv.new_struct(&self.members.iter().map(|m| m.0).collect::<Vec<_>>());
        let ptr = spv.pointer(storage::UNIFORM, st);
        let var = spv.id();
        spv.global(Inst::new(op::VARIABLE, &[ptr, var, storage::UNIFORM]));
        let mut offset = 0;
        let mut annotations = Vec::new();
        for (k, (t, name)) in self.members.iter().enumerate() {
            annotations.push(Inst::new(
                op::MEMBER_DECORATE,
                &[st, k as u32, deco::OFFSET, offset],
            ));
            let mut ops = vec![st, k as u32];
            ops.extend(super::words::string_words(name));
            annotations.push(Inst::new(op::MEMBER_NAME, &ops));
            let len = if *t == vec4 { 1 } else { array_len(spv, *t) };
            if *t != vec4 {
                annotations.push(Inst::new(op::DECORATE, &[*t, deco::ARRAY_STRIDE, 16]));
            }
            offset += 16 * len;
        }
        annotations.push(Inst::new(op::DECORATE, &[st, deco::BLOCK]));
        annotations.push(Inst::new(op::DECORATE, &[var, deco::DESCRIPTOR_SET, group]));
        annotations.push(Inst::new(op::DECORATE, &[var, deco::BINDING, 0]));
        let mut name = vec![var];
        name.extend(super::words::string_words(&format!(
            "{stage_prefix}_uniforms"
        )));
        annotations.push(Inst::new(op::NAME, &name));
        let mut tname = vec![st];
        tname.extend(super::words::string_words(&format!(
            "{stage_prefix}_registers"
        )));
        annotations.push(Inst::new(op::NAME, &tname));
        (var, annotations)
    }
}

/// The old blocks must have no reader left before they are removed: access chains on them
/// become places in the registers, and each load of a place is rebuilt from `var`.
fn rebuild_reads(
    spv: &mut Spv,
    blocks: &[Block],
    placed: &[(u32, u32, u32, bool)],
    var: u32,
) -> Result<(), WgslError> {
    let mut places: std::collections::BTreeMap<u32, Place> = Default::default();
    let old_vars: Vec<u32> = blocks.iter().map(|b| b.var).collect();
    let insts = spv.insts.clone();
    let mut out = Vec::with_capacity(insts.len());
    for inst in insts {
        match inst.op() {
            op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN => {
                match chain_place(spv, blocks, placed, &places, &inst)? {
                    Some(place) => {
                        places.insert(inst.0[2], place);
                    }
                    None => out.push(inst),
                }
            }
            op::LOAD if places.contains_key(&inst.0[3]) => {
                let place = places[&inst.0[3]].clone();
                load(spv, &place, var, inst.0[1], inst.0[2], &mut out)?;
            }
            _ => {
                refuse_pointer_use(&places, &old_vars, &inst)?;
                out.push(inst);
            }
        }
    }
    spv.insts = out;
    Ok(())
}

/// Where an access chain points when its base is a block or a place already known; `None`
/// for a chain that does not reach into the uniforms.
fn chain_place(
    spv: &Spv,
    blocks: &[Block],
    placed: &[(u32, u32, u32, bool)],
    places: &std::collections::BTreeMap<u32, Place>,
    inst: &Inst,
) -> Result<Option<Place>, WgslError> {
    let base = inst.0[3];
    let indices: Vec<Index> = inst.0[4..].iter().map(|&i| index(spv, i)).collect();
    let start = if let Some(b) = blocks.iter().find(|b| b.var == base) {
        Some((member_place(spv, b, placed, &indices)?, &indices[1..]))
    } else {
        places.get(&base).map(|p| (p.clone(), &indices[..]))
    };
    let Some((mut place, rest)) = start else {
        return Ok(None);
    };
    for &i in rest {
        place = step(spv, place, i)?;
    }
    Ok(Some(place))
}

/// The place of the block member a chain's first index selects: the register member it was
/// given, with the shape its type reads as.
fn member_place(
    spv: &Spv,
    b: &Block,
    placed: &[(u32, u32, u32, bool)],
    indices: &[Index],
) -> Result<Place, WgslError> {
    let Some(Index::Const(m)) = indices.first().copied() else {
        return Err(WgslError::internal(
            "a uniform block indexed at run time".into(),
        ));
    };
    let name = spv.member_name(b.ty, m).unwrap_or_default();
    let Some(&(_, _, new, single)) = placed.iter().find(|p| p.0 == b.var && p.1 == m) else {
        return Err(WgslError::internal(format!(
            "uniform `{name}` is read but has no register"
        )));
    };
    let ty = member_type(spv, b.ty, m);
    let row_major = spv.member_decoration(b.ty, m, deco::ROW_MAJOR).is_some();
    let shape = shape(spv, ty, row_major, crate::lower::user_name(&name))?;
    Ok(Place {
        member: new,
        single,
        reg: Reg::default(),
        lane: None,
        shape,
        row_major,
        name: crate::lower::user_name(&name).to_string(),
    })
}

/// A uniform is only ever read by value in the register form; any other use of its pointer
/// would need the old block, which is about to go.
fn refuse_pointer_use(
    places: &std::collections::BTreeMap<u32, Place>,
    old_vars: &[u32],
    inst: &Inst,
) -> Result<(), WgslError> {
    if let Some(p) = pointer_operands(inst)
        .into_iter()
        .find(|p| places.contains_key(p) || old_vars.contains(p))
    {
        let name = places
            .get(&p)
            .map_or("a uniform block", |pl| pl.name.as_str());
        return Err(WgslError::unsupported(
            name,
            "uniform used other than by reading a value (passed as a pointer, copied whole)",
        ));
    }
    Ok(())
}

/// SPIR-V keeps names and decorations in their own sections, ahead of the types.
fn insert_annotations(spv: &mut Spv, annotations: Vec<Inst>) {
    let (names, decos): (Vec<Inst>, Vec<Inst>) = annotations
        .into_iter()
        .partition(|i| i.op() == op::NAME || i.op() == op::MEMBER_NAME);
    let at = spv.annotations_at();
    spv.insts.splice(at..at, decos);
    let at = spv.names_at();
    spv.insts.splice(at..at, names);
}

/// The pointer operands of the instructions that could take a uniform pointer other than to
/// read it.
fn pointer_operands(inst: &Inst) -> Vec<u32> {
    match inst.op() {
        op::STORE => inst.0[1..2].to_vec(),
        op::COPY_MEMORY => inst.0[1..3].to_vec(),
        op::FUNCTION_CALL => inst.0[4..].to_vec(),
        op::PTR_ACCESS_CHAIN => inst.0[3..4].to_vec(),
        op::LOAD => inst.0[3..4].to_vec(),
        _ => Vec::new(),
    }
}

fn blocks(spv: &Spv) -> Vec<Block> {
    spv.insts
        .iter()
        .filter(|i| i.op() == op::VARIABLE && i.operand(2) == Some(storage::UNIFORM))
        .filter_map(|i| {
            let var = i.0[2];
            let ptr = spv.def(i.0[1])?;
            let ty = ptr.operand(2)?;
            (spv.def(ty)?.op() == op::TYPE_STRUCT).then(|| Block {
                var,
                ty,
                instance: spv.name(var).unwrap_or_default(),
            })
        })
        .collect()
}

/// Removes the old blocks: variables, struct types, their pointer types, names and decorations
/// (naga would read their DX-layout matrix strides even unused).
fn remove_blocks(spv: &mut Spv, blocks: &[Block]) {
    let mut gone: Vec<u32> = Vec::new();
    for b in blocks {
        gone.push(b.var);
        gone.push(b.ty);
    }
    let ptrs: Vec<u32> = spv
        .insts
        .iter()
        .filter(|i| {
            i.op() == op::TYPE_POINTER
                && i.operand(2)
                    .is_some_and(|t| blocks.iter().any(|b| b.ty == t))
        })
        .map(|i| i.0[1])
        .collect();
    gone.extend(&ptrs);
    spv.insts.retain(|i| {
        let first = i.operand(0);
        let defines = super::words::result_id(i);
        let annot = matches!(
            i.op(),
            op::NAME | op::MEMBER_NAME | op::DECORATE | op::MEMBER_DECORATE
        );
        !(annot && first.is_some_and(|f| gone.contains(&f))
            || defines.is_some_and(|d| gone.contains(&d)))
    });
}

fn member_type(spv: &Spv, st: u32, m: u32) -> u32 {
    spv.def(st).map_or(0, |i| i.0[2 + m as usize])
}

fn is_array(spv: &Spv, ty: u32) -> bool {
    spv.def(ty).is_some_and(|i| i.op() == op::TYPE_ARRAY)
}

fn array_len(spv: &Spv, ty: u32) -> u32 {
    spv.def(ty)
        .and_then(|i| spv.const_value(i.0[3]))
        .unwrap_or(0)
}

fn index(spv: &Spv, id: u32) -> Index {
    spv.const_value(id).map_or(Index::Id(id), Index::Const)
}

fn is_float(spv: &Spv, ty: u32) -> bool {
    spv.def(ty)
        .is_some_and(|i| i.op() == op::TYPE_FLOAT && i.0[2] == 32)
}

fn shape(spv: &Spv, ty: u32, row_major: bool, name: &str) -> Result<Shape, WgslError> {
    let def = spv
        .def(ty)
        .ok_or_else(|| WgslError::internal(format!("`{name}` has no type")))?;
    let non_float = || WgslError::unsupported(name, "uniform that is not float-based");
    Ok(match def.op() {
        op::TYPE_FLOAT if def.0[2] == 32 => Shape::Scalar,
        op::TYPE_VECTOR if is_float(spv, def.0[2]) => Shape::Vector { n: def.0[3] },
        op::TYPE_MATRIX => {
            let col_ty = def.0[2];
            let col = spv.def(col_ty).ok_or_else(non_float)?;
            if !is_float(spv, col.0[2]) {
                return Err(non_float());
            }
            Shape::Matrix {
                cols: def.0[3],
                rows: col.0[3],
                col_ty,
                row_major,
            }
        }
        op::TYPE_ARRAY => {
            let elem = def.0[2];
            let elem_regs = regs_of(spv, elem, row_major, name)?;
            Shape::Array { elem, elem_regs }
        }
        _ => return Err(non_float()),
    })
}

fn regs_of(spv: &Spv, ty: u32, row_major: bool, name: &str) -> Result<u32, WgslError> {
    Ok(match shape(spv, ty, row_major, name)? {
        Shape::Scalar | Shape::Vector { .. } | Shape::RowColumn { .. } => 1,
        Shape::Matrix {
            cols,
            rows,
            row_major,
            ..
        } => {
            if row_major {
                rows
            } else {
                cols
            }
        }
        Shape::Array { elem_regs, .. } => array_len(spv, ty) * elem_regs,
    })
}

fn step(spv: &Spv, mut p: Place, i: Index) -> Result<Place, WgslError> {
    p.shape = match p.shape {
        Shape::Array { elem, elem_regs } => {
            p.reg = p.reg.plus(i, elem_regs);
            shape(spv, elem, p.row_major, &p.name)?
        }
        Shape::Matrix {
            rows,
            row_major: false,
            ..
        } => {
            p.reg = p.reg.plus(i, 1);
            Shape::Vector { n: rows }
        }
        Shape::Matrix {
            rows,
            row_major: true,
            ..
        } => Shape::RowColumn { j: i, rows },
        Shape::RowColumn { j, .. } => {
            p.reg = p.reg.plus(i, 1);
            p.lane = Some(j);
            Shape::Scalar
        }
        Shape::Vector { .. } => {
            p.lane = Some(i);
            Shape::Scalar
        }
        Shape::Scalar => {
            return Err(WgslError::internal(format!(
                "`{}` indexed past a scalar",
                p.name
            )))
        }
    };
    Ok(p)
}

/// Emits the register reads that make the value `place` points to, as `result`.
fn load(
    spv: &mut Spv,
    place: &Place,
    var: u32,
    result_ty: u32,
    result: u32,
    out: &mut Vec<Inst>,
) -> Result<(), WgslError> {
    let vec4 = spv.vec4();
    let float = spv.float();
    match &place.shape {
        Shape::Scalar => match place.lane {
            Some(lane) => {
                let p = chain(spv, place, &place.reg, Some(lane), var, out);
                out.push(Inst::new(op::LOAD, &[float, result, p]));
            }
            None => {
                let v = read(spv, place, &place.reg, var, out);
                out.push(Inst::new(op::COMPOSITE_EXTRACT, &[result_ty, result, v, 0]));
            }
        },
        Shape::Vector { n } => {
            let p = chain(spv, place, &place.reg, None, var, out);
            if *n == 4 {
                out.push(Inst::new(op::LOAD, &[vec4, result, p]));
            } else {
                let v = spv.id();
                out.push(Inst::new(op::LOAD, &[vec4, v, p]));
                shuffle(out, result_ty, result, v, *n);
            }
        }
        Shape::Matrix {
            cols,
            rows,
            col_ty,
            row_major,
        } => {
            let (cols, rows, col_ty, row_major) = (*cols, *rows, *col_ty, *row_major);
            let mut columns = Vec::new();
            if row_major {
                let regs: Vec<u32> = (0..rows)
                    .map(|i| read(spv, place, &place.reg.plus(Index::Const(i), 1), var, out))
                    .collect();
                for j in 0..cols {
                    let lanes: Vec<u32> = regs
                        .iter()
                        .map(|&r| {
                            let x = spv.id();
                            out.push(Inst::new(op::COMPOSITE_EXTRACT, &[float, x, r, j]));
                            x
                        })
                        .collect();
                    let c = spv.id();
                    let mut ops = vec![col_ty, c];
                    ops.extend(lanes);
                    out.push(Inst::new(op::COMPOSITE_CONSTRUCT, &ops));
                    columns.push(c);
                }
            } else {
                for k in 0..cols {
                    let r = read(spv, place, &place.reg.plus(Index::Const(k), 1), var, out);
                    if rows == 4 {
                        columns.push(r);
                    } else {
                        let c = spv.id();
                        shuffle(out, col_ty, c, r, rows);
                        columns.push(c);
                    }
                }
            }
            let mut ops = vec![result_ty, result];
            ops.extend(columns);
            out.push(Inst::new(op::COMPOSITE_CONSTRUCT, &ops));
        }
        Shape::RowColumn { j, rows } => {
            let lanes: Vec<u32> = (0..*rows)
                .map(|i| {
                    let p = chain(
                        spv,
                        place,
                        &place.reg.plus(Index::Const(i), 1),
                        Some(*j),
                        var,
                        out,
                    );
                    let x = spv.id();
                    out.push(Inst::new(op::LOAD, &[float, x, p]));
                    x
                })
                .collect();
            let mut ops = vec![result_ty, result];
            ops.extend(lanes);
            out.push(Inst::new(op::COMPOSITE_CONSTRUCT, &ops));
        }
        Shape::Array { .. } => {
            return Err(WgslError::unsupported(
                &place.name,
                "uniform array read as a whole value (read its elements instead)",
            ))
        }
    }
    Ok(())
}

fn shuffle(out: &mut Vec<Inst>, ty: u32, result: u32, v: u32, n: u32) {
    if n == 1 {
        out.push(Inst::new(op::COMPOSITE_EXTRACT, &[ty, result, v, 0]));
    } else {
        let mut ops = vec![ty, result, v, v];
        ops.extend(0..n);
        out.push(Inst::new(op::VECTOR_SHUFFLE, &ops));
    }
}

/// Loads the register `reg` of `place`'s member as a `vec4`.
fn read(spv: &mut Spv, place: &Place, reg: &Reg, var: u32, out: &mut Vec<Inst>) -> u32 {
    let vec4 = spv.vec4();
    let p = chain(spv, place, reg, None, var, out);
    let v = spv.id();
    out.push(Inst::new(op::LOAD, &[vec4, v, p]));
    v
}

/// An access chain to register `reg` (lane `lane`) of `place`'s member.
fn chain(
    spv: &mut Spv,
    place: &Place,
    reg: &Reg,
    lane: Option<Index>,
    var: u32,
    out: &mut Vec<Inst>,
) -> u32 {
    let pointee = if lane.is_some() {
        spv.float()
    } else {
        spv.vec4()
    };
    let ptr = spv.pointer(storage::UNIFORM, pointee);
    let member = spv.int_const(place.member as i32);
    let mut ops = vec![ptr, 0, var, member];
    if !place.single {
        ops.push(register_value(spv, reg, out));
    }
    if let Some(l) = lane {
        ops.push(match l {
            Index::Const(c) => spv.int_const(c as i32),
            Index::Id(id) => id,
        });
    }
    let id = spv.id();
    ops[1] = id;
    out.push(Inst::new(op::ACCESS_CHAIN, &ops));
    id
}

/// The register number as an `int` value (constant folded, run-time terms multiplied and added).
fn register_value(spv: &mut Spv, reg: &Reg, out: &mut Vec<Inst>) -> u32 {
    let int = spv.int();
    let mut acc = spv.int_const(reg.constant as i32);
    let mut first = reg.constant == 0;
    for &(id, factor) in &reg.terms {
        let mut v = id;
        if spv.type_of(id) != Some(int) {
            let b = spv.id();
            out.push(Inst::new(op::BITCAST, &[int, b, v]));
            v = b;
        }
        if factor != 1 {
            let f = spv.int_const(factor as i32);
            let m = spv.id();
            out.push(Inst::new(op::IMUL, &[int, m, v, f]));
            v = m;
        }
        if first {
            acc = v;
            first = false;
        } else {
            let s = spv.id();
            out.push(Inst::new(op::IADD, &[int, s, acc, v]));
            acc = s;
        }
    }
    acc
}
