//! Pixel inputs whose values reach nothing leave the interface, so a pass links with every
//! vertex shader that writes what it really reads (SpriteBatch's among them), as on GL, where
//! the driver drops a varying whose value is dead before linking.
//!
//! Two steps. First, array elements overwritten before anything reads them: a pixel shader
//! declaring `float2 texCoord[8] : TEXCOORD0` gets its eight inputs stored into a local array
//! at once (`OpCompositeConstruct` + `OpStore`); when, in the same block and before any read of
//! the array, element k is stored again through a constant index, element k of the first value
//! is never seen, and it becomes a zero constant. Second, liveness: every instruction in a
//! function that is not a pure value (a store, a call, a branch, a sample) keeps its operands
//! alive, a live pure value keeps its operands alive, and an input variable no live
//! instruction names is unread. Operands are taken word by word, literals too, so the count
//! errs on the side of keeping an input.

use std::collections::{BTreeMap, BTreeSet};

use super::words::{op, storage, Spv};
use crate::cross::spirv::Inst;

const LABEL: u16 = 248;
const SELECTION_MERGE: u16 = 247;
const LOOP_MERGE: u16 = 246;
const SWITCH: u16 = 251;
const COMPOSITE_INSERT: u16 = 82;
const COPY_OBJECT: u16 = 83;

/// Pure instructions `(type, result, operands…)`: their value matters only where it is used.
fn pure(code: u16) -> bool {
    matches!(
        code,
        op::LOAD
            | op::ACCESS_CHAIN
            | op::IN_BOUNDS_ACCESS_CHAIN
            | op::VECTOR_SHUFFLE
            | op::COMPOSITE_CONSTRUCT
            | op::COMPOSITE_EXTRACT
            | COMPOSITE_INSERT
            | COPY_OBJECT
            | op::BITCAST
    )
}

/// The input variables (not built-ins) of `spv` whose values reach nothing, after zeroing the
/// array elements overwritten before they are read.
pub(super) fn unread_inputs(spv: &mut Spv, builtins: &BTreeSet<u32>) -> Vec<u32> {
    zero_overwritten_elements(spv);
    let inputs: Vec<u32> = spv
        .insts
        .iter()
        .filter(|i| i.op() == op::VARIABLE && i.operand(2) == Some(storage::INPUT))
        .map(|i| i.0[2])
        .filter(|id| !builtins.contains(id))
        .collect();
    let first_function = spv
        .insts
        .iter()
        .position(|i| i.op() == op::FUNCTION)
        .unwrap_or(spv.insts.len());
    let body = &spv.insts[first_function..];
    let mut defs: BTreeMap<u32, usize> = BTreeMap::new();
    let mut live = BTreeSet::new();
    let mut work = Vec::new();
    for (at, i) in body.iter().enumerate() {
        if pure(i.op()) {
            defs.insert(i.0[2], at);
        } else {
            work.extend(ids(i));
        }
    }
    while let Some(id) = work.pop() {
        if !live.insert(id) {
            continue;
        }
        if let Some(&at) = defs.get(&id) {
            work.extend(ids(&body[at]));
        }
    }
    inputs.into_iter().filter(|id| !live.contains(id)).collect()
}

/// The operand words of `i` that may be ids: all of them but the result (and its type), less
/// the literals of the instructions a shader is made of, so that a literal equal to an input's
/// id keeps it less often (any literal left errs towards keeping an input).
fn ids(i: &Inst) -> Vec<u32> {
    let w = &i.0;
    let from = |k: usize| w.get(k..).unwrap_or_default().to_vec();
    let skip = |k: usize| {
        w.iter()
            .enumerate()
            .skip(1)
            .filter(|&(at, _)| at != k)
            .map(|(_, &x)| x)
            .collect::<Vec<_>>()
    };
    match i.op() {
        // After the result (and its type).
        op::LOAD | op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN | COPY_OBJECT | op::BITCAST => {
            from(3)
        }
        op::VECTOR_SHUFFLE | COMPOSITE_INSERT => w.get(3..5).unwrap_or_default().to_vec(),
        op::COMPOSITE_EXTRACT => w.get(3..4).unwrap_or_default().to_vec(),
        op::COMPOSITE_CONSTRUCT => from(3),
        // Storage class, then an optional initializer.
        op::VARIABLE => from(4),
        // The instruction number of the extended set.
        op::EXT_INST => skip(4),
        // Merge controls.
        SELECTION_MERGE => w.get(1..2).unwrap_or_default().to_vec(),
        LOOP_MERGE => w.get(1..3).unwrap_or_default().to_vec(),
        // The selector; the rest are literals and labels.
        SWITCH => w.get(1..2).unwrap_or_default().to_vec(),
        // The image-operands mask.
        87 | 88 | 91 | 92 | 95 => skip(5),
        89 | 90 | 93 | 94 | 96 | 97 => skip(6),
        _ => from(1),
    }
}

/// An array stored whole, then element by element through constant indices: the elements
/// stored again before a read of them are `overwritten`.
#[derive(Clone)]
struct Pending {
    var: u32,
    value: u32,
    read: BTreeSet<u32>,
    overwritten: BTreeSet<u32>,
}

fn zero_overwritten_elements(spv: &mut Spv) {
    let function_vars: BTreeSet<u32> = spv
        .insts
        .iter()
        .filter(|i| i.op() == op::VARIABLE && i.operand(2) == Some(7))
        .map(|i| i.0[2])
        .collect();
    let mut uses: BTreeMap<u32, usize> = BTreeMap::new();
    for i in &spv.insts {
        for &w in &i.0[1..] {
            *uses.entry(w).or_default() += 1;
        }
    }
    let mut found: Vec<Pending> = Vec::new();
    let mut open: Vec<Pending> = Vec::new();
    // Access chains into an open array: chain id → (array, constant first index, whether it
    // points at a whole element).
    let mut chains: BTreeMap<u32, (u32, Option<u32>, bool)> = BTreeMap::new();
    for i in &spv.insts {
        let code = i.op();
        if code == LABEL || code == op::FUNCTION {
            found.append(&mut open);
            chains.clear();
            continue;
        }
        match code {
            op::STORE if function_vars.contains(&i.0[1]) => {
                let (var, value) = (i.0[1], i.0[2]);
                if let Some(at) = open.iter().position(|p| p.var == var) {
                    found.push(open.remove(at));
                }
                // An array or struct takes one construct operand per element; a vector may take
                // several lanes from one operand, so its operands are not its elements.
                let construct = spv.def(value).is_some_and(|d| {
                    d.op() == op::COMPOSITE_CONSTRUCT
                        && spv
                            .def(d.0[1])
                            .is_some_and(|t| matches!(t.op(), op::TYPE_ARRAY | op::TYPE_STRUCT))
                });
                if construct && uses.get(&value) == Some(&2) {
                    // Used by its definition's result word and this store only.
                    open.push(Pending {
                        var,
                        value,
                        read: BTreeSet::new(),
                        overwritten: BTreeSet::new(),
                    });
                }
                continue;
            }
            op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN
                if open.iter().any(|p| p.var == i.0[3]) =>
            {
                let index = i.0.get(4).and_then(|&k| spv.const_value(k));
                chains.insert(i.0[2], (i.0[3], index, i.0.len() == 5));
                continue;
            }
            op::STORE | op::LOAD
                if chains.contains_key(&i.0[if code == op::STORE { 1 } else { 3 }]) =>
            {
                let pointer = i.0[if code == op::STORE { 1 } else { 3 }];
                let (var, index, whole) = chains[&pointer];
                if let (Some(k), Some(p)) = (index, open.iter_mut().find(|p| p.var == var)) {
                    if code == op::STORE && whole && !p.read.contains(&k) {
                        p.overwritten.insert(k);
                    } else if !p.overwritten.contains(&k) {
                        p.read.insert(k);
                    }
                    continue;
                }
            }
            _ => {}
        }
        // Any other use of an open array or of a chain into it reads it: stop there.
        let named: Vec<u32> = i.0[1..]
            .iter()
            .map(|w| chains.get(w).map_or(*w, |(var, ..)| *var))
            .collect();
        open.retain(|p| {
            let read = named.contains(&p.var);
            if read {
                found.push(p.clone());
            }
            !read
        });
    }
    found.append(&mut open);
    for p in found.into_iter().filter(|p| !p.overwritten.is_empty()) {
        let Some(at) = spv
            .insts
            .iter()
            .position(|i| i.op() == op::COMPOSITE_CONSTRUCT && i.0[2] == p.value)
        else {
            continue;
        };
        for k in p.overwritten {
            let slot = 3 + k as usize;
            let Some(&old) = spv.insts[at].0.get(slot) else {
                continue;
            };
            let Some(ty) = spv.type_of(old) else {
                continue;
            };
            let zero = spv.null(ty);
            spv.insts[at].0[slot] = zero;
        }
    }
}
