//! Stage inputs and outputs. Each shader numbers its vertex inputs, and its varyings (vertex
//! outputs, pixel inputs), 0, 1, 2, … in the canonical order of `tables.rs`, from what it
//! declares; pixel outputs take their render target's number. A pixel shader's inputs whose
//! values reach nothing are dropped first (`unread.rs`), so it asks for what it reads. A
//! runtime links a pass by semantic: it moves the pixel shader's input locations to the vertex
//! shader's, at the offsets of their numbers in the WGSL text ([`locate_pixel_inputs`]).
//!
//! Every varying is a four-component vector, as on GL, where MojoShader declares them `vec4`:
//! D3D lets a vertex shader write a `float2 TEXCOORD0` a pixel shader reads as `float4`, and
//! WebGPU links only equal types; missing lanes are (0, 0, 0, 1) in order. Integer varyings are
//! `flat` (WGSL requires it). The point size (`PSIZE0` out of a vertex shader, GL's
//! `gl_PointSize`) is dropped: WGSL has none, and wgpu draws points one pixel wide.

use std::collections::BTreeSet;

use super::tables;
use super::words::{builtin, deco, op, storage, Spv};
use super::{unread, WgpuVarying, WgpuVertexInput, WgslError};
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

/// A located stage variable: its canonical sort key, and what it becomes.
enum Entry {
    Input(WgpuVertexInput),
    Varying(WgpuVarying),
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
    let builtins: BTreeSet<u32> = vars
        .iter()
        .filter(|v| spv.decoration(v.id, deco::BUILTIN).is_some())
        .map(|v| v.id)
        .collect();
    let mut drop = match stage {
        Stage::Pixel => unread::unread_inputs(spv, &builtins),
        Stage::Vertex => Vec::new(),
    };
    let mut located: Vec<((u32, u32), u32, Entry)> = Vec::new();
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
        if drop.contains(&v.id) {
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
        match (stage, v.output) {
            (Stage::Vertex, false) => {
                let Some(key) = tables::vertex_input_order(&usage, index) else {
                    return Err(WgslError::location(&semantic, true));
                };
                let format = format(spv, scalar, components);
                located.push((
                    key,
                    v.id,
                    Entry::Input(WgpuVertexInput {
                        usage,
                        index,
                        location: 0,
                        format,
                    }),
                ));
            }
            (Stage::Vertex, true) if usage == "PSIZE" && index == 0 => drop.push(v.id),
            (Stage::Pixel, true) => {
                let location = match usage.as_str() {
                    "COLOR" | "SV_TARGET" if index < 8 => index,
                    _ => return Err(WgslError::location(&semantic, false)),
                };
                spv.undecorate(v.id, &[deco::LOCATION]);
                spv.decorate(v.id, deco::LOCATION, &[location]);
            }
            _ => {
                let Some(key) = tables::varying_order(&usage, index) else {
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
                located.push((
                    key,
                    v.id,
                    Entry::Varying(WgpuVarying {
                        semantic: format!("{usage}{index}"),
                        location: 0,
                        flat,
                        location_at: None,
                    }),
                ));
            }
        }
    }
    for id in drop {
        make_private(spv, id);
    }
    // Two variables of one semantic are refused before here (DXC, the GL interface), so the
    // order is total.
    located.sort_by_key(|(key, ..)| *key);
    let mut result = Interface {
        inputs: Vec::new(),
        varyings: Vec::new(),
    };
    // Vertex inputs and varyings are numbered apart, each from 0.
    for (id, entry) in located.into_iter().map(|(_, id, entry)| (id, entry)) {
        let location = match entry {
            Entry::Input(i) => {
                let location = result.inputs.len() as u32;
                result.inputs.push(WgpuVertexInput { location, ..i });
                location
            }
            Entry::Varying(v) => {
                let location = result.varyings.len() as u32;
                result.varyings.push(WgpuVarying { location, ..v });
                location
            }
        };
        spv.undecorate(id, &[deco::LOCATION]);
        spv.decorate(id, deco::LOCATION, &[location]);
    }
    Ok(result)
}

/// Records where each pixel input's location number sits in `wgsl` (naga's text): in the
/// entry point's parameter list, `@location(N)` once per input. Anything else is an internal
/// error, so a runtime can rewrite the numbers without parsing WGSL.
pub(super) fn locate_pixel_inputs(
    wgsl: &str,
    entry: &str,
    varyings: &mut [WgpuVarying],
) -> Result<(), WgslError> {
    let missing = || WgslError::internal(format!("no parameter list of `{entry}` in the WGSL"));
    let head = format!("fn {entry}(");
    let start = wgsl
        .find("@fragment")
        .and_then(|f| wgsl[f..].find(&head).map(|at| f + at + head.len()))
        .ok_or_else(missing)?;
    let mut depth = 1usize;
    let mut end = None;
    for (at, c) in wgsl[start..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(start + at);
                    break;
                }
            }
            _ => {}
        }
    }
    let params = &wgsl[start..end.ok_or_else(missing)?];
    const TAG: &str = "@location(";
    let mut seen = Vec::new();
    for (at, _) in params.match_indices(TAG) {
        let digits = start + at + TAG.len();
        let number: String = wgsl[digits..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let location: u32 = number
            .parse()
            .map_err(|_| WgslError::internal(format!("a location of `{entry}` is not a number")))?;
        seen.push((location, digits as u32));
    }
    if seen.len() != varyings.len() {
        return Err(WgslError::internal(format!(
            "`{entry}` has {} located parameters for {} pixel inputs",
            seen.len(),
            varyings.len()
        )));
    }
    for v in varyings.iter_mut() {
        let mut at = seen.iter().filter(|(l, _)| *l == v.location);
        match (at.next(), at.next()) {
            (Some(&(_, offset)), None) => v.location_at = Some(offset),
            _ => {
                return Err(WgslError::internal(format!(
                    "pixel input {} is not at one `@location({})` of `{entry}`",
                    v.semantic, v.location
                )))
            }
        }
    }
    Ok(())
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

/// Takes `id` out of the interface: a private variable (an output nothing reads, an input
/// whose values reach nothing).
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
