//! Stage inputs and outputs. Vertex inputs take their `@location` from their D3D9 usage and
//! index, varyings (vertex outputs, pixel inputs) from the semantic table, pixel outputs from
//! their render target (`tables.rs`). Every varying is a four-component vector, as on GL, where
//! MojoShader declares them `vec4`: D3D lets a vertex shader write a `float2 TEXCOORD0` a pixel
//! shader reads as `float4`, and WebGPU links only equal types; missing lanes are (0, 0, 0, 1)
//! in order. Integer varyings are `flat` (WGSL requires it). A point size (`PSIZE`) is dropped:
//! WGSL has none, and wgpu draws points one pixel wide.

use super::tables;
use super::words::{builtin, deco, op, storage, Spv};
use super::{WgpuVarying, WgpuVertexInput, WgslError};
use crate::cross::spirv::Inst;
use crate::lower::Stage;

pub(super) struct Interface {
    pub inputs: Vec<WgpuVertexInput>,
    pub varyings: Vec<WgpuVarying>,
}

struct Var {
    id: u32,
    ptr: u32,
    output: bool,
}

pub(super) fn assign(spv: &mut Spv, stage: Stage) -> Result<Interface, WgslError> {
    let vars: Vec<Var> = spv
        .insts
        .iter()
        .filter(|i| {
            i.op() == op::VARIABLE && matches!(i.operand(2), Some(storage::INPUT | storage::OUTPUT))
        })
        .map(|i| Var {
            id: i.0[2],
            ptr: i.0[1],
            output: i.0[3] == storage::OUTPUT,
        })
        .collect();
    let mut result = Interface {
        inputs: Vec::new(),
        varyings: Vec::new(),
    };
    let mut drop = Vec::new();
    for v in &vars {
        if let Some(b) = spv.decoration(v.id, deco::BUILTIN) {
            match b.first().copied() {
                Some(builtin::POINT_SIZE) if v.output => drop.push(v.id),
                Some(builtin::CLIP_DISTANCE | builtin::CULL_DISTANCE) => {
                    return Err(WgslError::unsupported(
                        "SV_ClipDistance / SV_CullDistance",
                        "clip and cull distances (a wgpu feature this target does not ask for)",
                    ))
                }
                _ => {}
            }
            continue;
        }
        let raw = spv.name(v.id).unwrap_or_default();
        let semantic = raw
            .strip_prefix(if v.output { "out.var." } else { "in.var." })
            .unwrap_or(&raw)
            .to_ascii_uppercase();
        // `in.var.TEXCOORD0` would be `in_u002e_var_u002e_TEXCOORD0_` in WGSL.
        let readable = format!("{}_{semantic}", if v.output { "out" } else { "in" });
        spv.rename(v.id, &readable);
        let (usage, index) = crate::dialect::interface::split_semantic(&semantic);
        let usage = usage.to_string();
        let pointee = spv.def(v.ptr).and_then(|p| p.operand(2)).unwrap_or(0);
        let (scalar, components) = scalar_and_width(spv, pointee);
        let location = match (stage, v.output) {
            (Stage::Vertex, false) => {
                let Some(l) = tables::vertex_input_location(&usage, index) else {
                    return Err(WgslError::location(&semantic, true));
                };
                result.inputs.push(WgpuVertexInput {
                    usage,
                    index,
                    location: l,
                    format: format(spv, scalar, components),
                });
                l
            }
            (Stage::Vertex, true) if usage == "PSIZE" => {
                drop.push(v.id);
                continue;
            }
            (Stage::Pixel, true) => match usage.as_str() {
                "COLOR" | "SV_TARGET" if index < 8 => index,
                _ => return Err(WgslError::location(&semantic, false)),
            },
            _ => {
                let Some(l) = tables::varying_location(&usage, index) else {
                    return Err(WgslError::location(&semantic, false));
                };
                let flat = is_int(spv, scalar);
                if flat {
                    spv.undecorate(v.id, &[deco::FLAT]);
                    spv.decorate(v.id, deco::FLAT, &[]);
                }
                if components != 4 {
                    widen(spv, v, scalar, components)?;
                }
                result.varyings.push(WgpuVarying {
                    semantic: format!("{usage}{index}"),
                    location: l,
                    flat,
                });
                l
            }
        };
        spv.undecorate(v.id, &[deco::LOCATION]);
        spv.decorate(v.id, deco::LOCATION, &[location]);
    }
    for id in drop {
        make_private(spv, id);
    }
    result.inputs.sort_by_key(|i| i.location);
    result.varyings.sort_by_key(|v| v.location);
    Ok(result)
}

fn scalar_and_width(spv: &Spv, ty: u32) -> (u32, u32) {
    match spv.def(ty) {
        Some(t) if t.op() == op::TYPE_VECTOR => (t.0[2], t.0[3]),
        _ => (ty, 1),
    }
}

fn is_int(spv: &Spv, scalar: u32) -> bool {
    spv.def(scalar).is_some_and(|t| t.op() == op::TYPE_INT)
}

fn format(spv: &Spv, scalar: u32, n: u32) -> String {
    let base = match spv.def(scalar) {
        Some(t) if t.op() == op::TYPE_INT && t.0[3] == 1 => "Sint32",
        Some(t) if t.op() == op::TYPE_INT => "Uint32",
        _ => "Float32",
    };
    if n == 1 {
        base.into()
    } else {
        format!("{base}x{n}")
    }
}

/// Makes `v` four lanes wide; stores fill the missing lanes, loads take the first ones.
fn widen(spv: &mut Spv, v: &Var, scalar: u32, n: u32) -> Result<(), WgslError> {
    let class = if v.output {
        storage::OUTPUT
    } else {
        storage::INPUT
    };
    let wide = spv.ty(op::TYPE_VECTOR, &[scalar, 4]);
    let ptr = spv.pointer(class, wide);
    let int = is_int(spv, scalar);
    let fill: Vec<u32> = (n..4)
        .map(|k| {
            let one = k == 3;
            if int {
                spv.int_const(i32::from(one))
            } else {
                spv.float_const(if one { 1.0 } else { 0.0 })
            }
        })
        .collect();
    // Integer fill constants are `int`; an unsigned varying gets them bitcast.
    let insts = spv.insts.clone();
    let mut out = Vec::with_capacity(insts.len() + 4);
    for mut i in insts {
        match i.op() {
            op::VARIABLE if i.0[2] == v.id => i.0[1] = ptr,
            op::STORE if i.0[1] == v.id => {
                let value = i.0[2];
                let mut parts = Vec::new();
                if n == 1 {
                    parts.push(value);
                } else {
                    for k in 0..n {
                        let x = spv.id();
                        out.push(Inst::new(op::COMPOSITE_EXTRACT, &[scalar, x, value, k]));
                        parts.push(x);
                    }
                }
                for &f in &fill {
                    if int && spv.type_of(f) != Some(scalar) {
                        let b = spv.id();
                        out.push(Inst::new(op::BITCAST, &[scalar, b, f]));
                        parts.push(b);
                    } else {
                        parts.push(f);
                    }
                }
                let c = spv.id();
                let mut ops = vec![wide, c];
                ops.extend(parts);
                out.push(Inst::new(op::COMPOSITE_CONSTRUCT, &ops));
                i.0[2] = c;
            }
            op::LOAD if i.0[3] == v.id => {
                let (ty, result) = (i.0[1], i.0[2]);
                let w = spv.id();
                out.push(Inst::new(op::LOAD, &[wide, w, v.id]));
                if n == 1 {
                    out.push(Inst::new(op::COMPOSITE_EXTRACT, &[ty, result, w, 0]));
                } else {
                    let mut ops = vec![ty, result, w, w];
                    ops.extend(0..n);
                    out.push(Inst::new(op::VECTOR_SHUFFLE, &ops));
                }
                continue;
            }
            op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN if i.0[3] == v.id => {}
            op::COPY_MEMORY | op::FUNCTION_CALL if i.0[1..].contains(&v.id) => {
                return Err(WgslError::internal(format!(
                    "stage variable {} used through a pointer",
                    v.id
                )))
            }
            _ => {}
        }
        out.push(i);
    }
    spv.insts = out;
    // Declared after its new pointer type.
    if let Some(at) = spv
        .insts
        .iter()
        .position(|i| i.op() == op::VARIABLE && i.0[2] == v.id)
    {
        let var = spv.insts.remove(at);
        spv.global(var);
    }
    Ok(())
}

/// Takes `id` out of the interface: a private variable written and never read by the stage.
fn make_private(spv: &mut Spv, id: u32) {
    let pointee = spv
        .insts
        .iter()
        .find(|i| i.op() == op::VARIABLE && i.0[2] == id)
        .and_then(|i| spv.def(i.0[1]))
        .and_then(|p| p.operand(2))
        .unwrap_or(0);
    let ptr = spv.pointer(storage::PRIVATE, pointee);
    // Access chains to its lanes point into private memory now.
    let mut chain_types = Vec::new();
    for i in &spv.insts {
        if matches!(i.op(), op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN) && i.0[3] == id {
            chain_types.push((
                i.0[2],
                spv.def(i.0[1]).and_then(|p| p.operand(2)).unwrap_or(0),
            ));
        }
    }
    let chain_ptrs: Vec<(u32, u32)> = chain_types
        .into_iter()
        .map(|(r, t)| (r, spv.pointer(storage::PRIVATE, t)))
        .collect();
    for i in spv.insts.iter_mut() {
        match i.op() {
            op::VARIABLE if i.0[2] == id => {
                i.0[1] = ptr;
                i.0[3] = storage::PRIVATE;
            }
            op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN => {
                if let Some(&(_, p)) = chain_ptrs.iter().find(|(r, _)| *r == i.0[2]) {
                    i.0[1] = p;
                }
            }
            op::ENTRY_POINT => {
                let name_words = string_words(&i.0[3..]);
                let keep: Vec<u32> = i.0[..3 + name_words]
                    .iter()
                    .copied()
                    .chain(i.0[3 + name_words..].iter().copied().filter(|&x| x != id))
                    .collect();
                let count = keep.len() as u32;
                *i = Inst(keep);
                i.0[0] = (count << 16) | u32::from(op::ENTRY_POINT);
            }
            _ => {}
        }
    }
    spv.undecorate(id, &[deco::BUILTIN, deco::LOCATION]);
    // The private variable must be declared after its (possibly new) pointer type.
    if let Some(at) = spv
        .insts
        .iter()
        .position(|i| i.op() == op::VARIABLE && i.0[2] == id)
    {
        let var = spv.insts.remove(at);
        spv.global(var);
    }
}

/// Words taken by the NUL-terminated string at the start of `words`.
fn string_words(words: &[u32]) -> usize {
    words
        .iter()
        .position(|w| w.to_le_bytes().contains(&0))
        .map_or(words.len(), |p| p + 1)
}
