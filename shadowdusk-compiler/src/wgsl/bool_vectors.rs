//! `&&` and `||` between bool vectors, as pixel-art upscalers write their edge rules
//! (`bool4 edr = (a < b) && (c > d);`).
//!
//! HLSL applies them per component (no short-circuit; `-HV 2018`, as fxc), and DXC writes
//! `OpLogicalAnd` / `OpLogicalOr` on the vectors. naga's SPIR-V reader turns those into its
//! `LogicalAnd` / `LogicalOr`, which, like WGSL's `&&` and `||`, take one `bool` only: its type
//! resolution refuses `LogicalAnd(vec4<bool>, _)`. Each becomes an `OpSelect` per component,
//! which naga writes as WGSL's `select`: `a && b` is `a ? b : false` and `a || b` is
//! `a ? true : b`, component by component, the same values.
//!
//! The other bool-vector operations have WGSL counterparts naga reads as they are: `!`
//! (`OpLogicalNot`), `==`/`!=` (`OpLogicalEqual`/`OpLogicalNotEqual`), `?:` with a bool-vector
//! condition (`OpSelect`, WGSL's `select`), `any` and `all`. The GL path reads DXC's module
//! unchanged (SPIRV-Cross writes each component).

use std::collections::BTreeMap;

use super::words::{op, Spv};
use crate::cross::spirv::Inst;

const TYPE_BOOL: u16 = 20;
const CONSTANT_TRUE: u16 = 41;
const CONSTANT_FALSE: u16 = 42;
const CONSTANT_COMPOSITE: u16 = 44;
const LOGICAL_OR: u16 = 166;
const LOGICAL_AND: u16 = 167;
const SELECT: u16 = 169;

pub(super) fn rewrite(spv: &mut Spv) {
    // (bool vector type, value) → the splat constant.
    let mut splats: BTreeMap<(u32, bool), u32> = BTreeMap::new();
    for k in 0..spv.insts.len() {
        let code = spv.insts[k].op();
        if (code != LOGICAL_AND && code != LOGICAL_OR) || spv.insts[k].0.len() != 5 {
            continue;
        }
        let [ty, result, a, b] = [1, 2, 3, 4].map(|w| spv.insts[k].0[w]);
        let Some((component, size)) = bool_vector(spv, ty) else {
            continue;
        };
        let or = code == LOGICAL_OR;
        let splat = match splats.get(&(ty, or)) {
            Some(&id) => id,
            None => {
                let id = splat(spv, component, ty, size, or);
                splats.insert((ty, or), id);
                id
            }
        };
        let (accept, reject) = if or { (splat, b) } else { (b, splat) };
        spv.insts[k] = Inst::new(SELECT, &[ty, result, a, accept, reject]);
    }
}

/// (the bool type, component count) of `ty` when it is a bool vector.
fn bool_vector(spv: &Spv, ty: u32) -> Option<(u32, u32)> {
    let v = spv.def(ty)?;
    if v.op() != op::TYPE_VECTOR {
        return None;
    }
    let (component, size) = (v.operand(1)?, v.operand(2)?);
    (spv.def(component)?.op() == TYPE_BOOL).then_some((component, size))
}

/// A `vecN<bool>` constant with every component `value`.
fn splat(spv: &mut Spv, component: u32, ty: u32, size: u32, value: bool) -> u32 {
    let scalar_op = if value { CONSTANT_TRUE } else { CONSTANT_FALSE };
    let existing = spv
        .insts
        .iter()
        .find(|i| i.op() == scalar_op && i.operand(0) == Some(component))
        .and_then(|i| i.operand(1));
    let scalar = match existing {
        Some(id) => id,
        None => {
            let id = spv.id();
            spv.global(Inst::new(scalar_op, &[component, id]));
            id
        }
    };
    let id = spv.id();
    let mut ops = vec![ty, id];
    ops.extend(std::iter::repeat_n(scalar, size as usize));
    spv.global(Inst::new(CONSTANT_COMPOSITE, &ops));
    id
}

#[cfg(test)]
mod tests {
    use crate::lower::Stage;
    use crate::wgsl::{translate, GlLayout};

    /// Upscaler-style logic through DXC and the whole wgpu translation: `&&`/`||` of bool
    /// vectors reach naga as `select`, which validates, and nothing else changes.
    #[test]
    fn logical_and_or_of_bool_vectors_become_selects_naga_accepts() {
        if crate::dxc::missing_skips() {
            return;
        }
        let hlsl = "float4 main(float4 c : COLOR0) : SV_Target0 {\n\
            bool4 a = c > 0.5; bool4 b = c < 0.75; bool2 p = c.xy > c.zw;\n\
            bool4 x = a && b; bool4 y = a || !b; bool2 q = p && !p.yx;\n\
            float4 r = x ? c : (y ? 1 - c : 0);\n\
            return any(q) || all(x) ? r : r.wzyx; }";
        let spv = crate::dxc::compile(hlsl, "main", Stage::Pixel).expect("DXC compiles it");
        let words = crate::cross::rewritten(&spv).expect("rewrites");
        let logical = |w: &[u32]| {
            let insts = crate::cross::spirv::instructions(w).unwrap();
            insts
                .iter()
                .filter(|i| matches!(i.op(), super::LOGICAL_AND | super::LOGICAL_OR))
                .count()
        };
        // DXC writes them on the vectors (and `||` of the two scalars).
        assert!(
            logical(&words) >= 4,
            "DXC no longer writes OpLogicalAnd/Or on vectors"
        );
        let mut opened = crate::wgsl::words::Spv::open(&words).unwrap();
        super::rewrite(&mut opened);
        // Only the scalar `||` is left.
        assert_eq!(logical(&opened.close()), 1);
        let gl = GlLayout {
            registers: &[],
            samplers: &[],
        };
        let w = translate(&words, Stage::Pixel, &gl).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(w.wgsl.contains("select("), "{}", w.wgsl);
    }
}
