//! A copy for every composite a loop writes one part of but did not build, so SPIRV-Cross's
//! in-place writes cannot carry a value from one iteration into the next.
//!
//! `float2 uv = input.TexCoord; uv.x += offsets[i];` inside a blur's loop is, in DXC's SPIR-V,
//! a load of the input before the loop and, in the loop, an `OpCompositeInsert` of the new `x`
//! into that loaded value. An insert is a copy with one part replaced; SPIRV-Cross's GLSL
//! writer instead speculates that the composite is dead after the insert and writes the part in
//! place (`_34.x = _34.x + …`), falling back to a copy only when it later *emits* a read of the
//! old value. It emits each block once, so a read that happens in a later iteration — the same
//! `OpCompositeExtract` at the top of the loop, run again — is never seen: every iteration after
//! the first starts from the previous one's `uv`, and every pixel is wrong. (SPIRV-Cross's own
//! guard covers composites hoisted out of the loop, not ones defined before it; naga copies,
//! so the WGSL is right.) The same holds for every composite type an insert writes: a struct
//! member, a matrix column, an array element, a vector lane.
//!
//! The in-place write is only sound when the composite is computed afresh every time the insert
//! runs, that is when every loop around the insert also contains the composite's definition.
//! Where one does not, the insert is given `OpCopyObject` of the composite, made right before
//! it, as its input: SPIRV-Cross then writes into that copy (declared in the loop, so
//! re-initialised each iteration) and the original stays intact. Inserts whose composite is
//! computed in the same iteration keep SPIRV-Cross's output unchanged.
//!
//! Loops are the natural loops of the structured control flow: the header (`OpLoopMerge`), and
//! every block that reaches one of the header's back edges without passing the header. A back
//! edge comes from a predecessor of the header that the header reaches without leaving through
//! its merge block.
//!
//! Input and output are SPIR-V words; the module is only rewritten when something matches.

use super::spirv::{instructions, module, Inst};
use std::collections::{BTreeMap, BTreeSet};

const OP_FUNCTION: u16 = 54;
const OP_FUNCTION_END: u16 = 56;
const OP_COMPOSITE_INSERT: u16 = 82;
const OP_COPY_OBJECT: u16 = 83;
const OP_LOOP_MERGE: u16 = 246;
const OP_LABEL: u16 = 248;
const OP_BRANCH: u16 = 249;
const OP_BRANCH_CONDITIONAL: u16 = 250;
const OP_SWITCH: u16 = 251;

/// One basic block: its label and the index range of its instructions (label excluded).
struct Block {
    label: u32,
    body: std::ops::Range<usize>,
}

/// Rewrites the module if a loop writes part of a composite defined outside it; `None` when
/// nothing matches.
pub fn copy_loop_inserts(words: &[u32]) -> Option<Vec<u32>> {
    let insts = instructions(words)?;
    if !insts.iter().any(|x| x.op() == OP_COMPOSITE_INSERT) {
        return None;
    }
    // Instruction index of each insert that needs a copy.
    let mut copies = BTreeSet::new();
    let mut start = 0;
    while let Some(f) = insts[start..].iter().position(|x| x.op() == OP_FUNCTION) {
        let f = start + f;
        let end = insts[f..]
            .iter()
            .position(|x| x.op() == OP_FUNCTION_END)
            .map_or(insts.len(), |e| f + e);
        copies.extend(unsafe_inserts(&insts, f..end));
        start = end;
    }
    if copies.is_empty() {
        return None;
    }
    let mut bound = words[3];
    let mut out = Vec::with_capacity(insts.len() + copies.len());
    for (i, mut x) in insts.into_iter().enumerate() {
        if copies.contains(&i) {
            let (ty, composite) = (x.0[1], x.0[4]);
            let copy = bound;
            bound += 1;
            out.push(Inst::new(OP_COPY_OBJECT, &[ty, copy, composite]));
            x.0[4] = copy;
        }
        out.push(x);
    }
    Some(module(words, bound, out))
}

/// The inserts of one function (instruction range `f`) whose composite is defined outside a
/// loop that contains the insert.
fn unsafe_inserts(insts: &[Inst], f: std::ops::Range<usize>) -> Vec<usize> {
    let mut blocks: Vec<Block> = Vec::new();
    for i in f.clone() {
        if insts[i].op() == OP_LABEL {
            if let Some(b) = blocks.last_mut() {
                b.body.end = i;
            }
            blocks.push(Block {
                label: insts[i].operand(0).unwrap_or(0),
                body: i + 1..f.end,
            });
        }
    }
    let index: BTreeMap<u32, usize> = blocks.iter().enumerate().map(|(k, b)| (b.label, k)).collect();
    let succs: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            let Some(last) = b.body.clone().last().map(|i| &insts[i]) else {
                return Vec::new();
            };
            let targets: Vec<u32> = match last.op() {
                OP_BRANCH => last.0.get(1..2).unwrap_or_default().to_vec(),
                OP_BRANCH_CONDITIONAL => last.0.get(2..4).unwrap_or_default().to_vec(),
                // Selector, default, then (literal, label) pairs: DXC's selectors are 32-bit.
                OP_SWITCH => std::iter::once(last.0.get(2).copied())
                    .chain(last.0.iter().skip(4).step_by(2).map(|w| Some(*w)))
                    .flatten()
                    .collect(),
                _ => Vec::new(),
            };
            targets.iter().filter_map(|t| index.get(t).copied()).collect()
        })
        .collect();
    let mut preds = vec![Vec::new(); blocks.len()];
    for (b, s) in succs.iter().enumerate() {
        for &t in s {
            preds[t].push(b);
        }
    }

    // Loops (block sets) containing each block.
    let mut loops: Vec<BTreeSet<usize>> = Vec::new();
    for (h, b) in blocks.iter().enumerate() {
        let Some(merge) = b
            .body
            .clone()
            .map(|i| &insts[i])
            .find(|x| x.op() == OP_LOOP_MERGE)
            .and_then(|x| index.get(&x.operand(0)?).copied())
        else {
            continue;
        };
        let inside = reach(h, |k| succs[k].iter().copied().filter(|&t| t != merge));
        let mut body = BTreeSet::from([h]);
        let latches = preds[h].iter().copied().filter(|p| inside.contains(p));
        let mut stack: Vec<usize> = latches.collect();
        while let Some(k) = stack.pop() {
            if body.insert(k) {
                stack.extend(preds[k].iter().copied());
            }
        }
        loops.push(body);
    }
    if loops.is_empty() {
        return Vec::new();
    }

    // Block of each value an insert writes into (its type is the insert's result type).
    let composites: BTreeMap<u32, u32> = f
        .clone()
        .filter(|&i| insts[i].op() == OP_COMPOSITE_INSERT)
        .filter_map(|i| Some((insts[i].operand(3)?, insts[i].operand(0)?)))
        .collect();
    let mut defined_in: BTreeMap<u32, usize> = BTreeMap::new();
    for (k, b) in blocks.iter().enumerate() {
        for i in b.body.clone() {
            // A value instruction: result type, then result id. No instruction without a result
            // starts with a type id, so the composite's type then its id is its definition.
            let x = &insts[i];
            if let Some(id) = x.operand(1).filter(|id| composites.get(id) == x.operand(0).as_ref())
            {
                defined_in.entry(id).or_insert(k);
            }
        }
    }

    let mut out = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        for i in b.body.clone() {
            let x = &insts[i];
            if x.op() != OP_COMPOSITE_INSERT || x.0.len() < 5 {
                continue;
            }
            let def = defined_in.get(&x.0[4]);
            if loops
                .iter()
                .any(|l| l.contains(&k) && !def.is_some_and(|d| l.contains(d)))
            {
                out.push(i);
            }
        }
    }
    out
}

/// Blocks reachable from `from` (itself included) along `next`.
fn reach<I: Iterator<Item = usize>>(from: usize, next: impl Fn(usize) -> I) -> BTreeSet<usize> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from];
    while let Some(k) = stack.pop() {
        if seen.insert(k) {
            stack.extend(next(k));
        }
    }
    seen
}
