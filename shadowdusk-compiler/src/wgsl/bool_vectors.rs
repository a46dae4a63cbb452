//! `&&` and `||` between bool vectors, as pixel-art upscalers write their edge rules
//! (`bool4 edr = (a < b) && (c > d);`).
//!
//! HLSL applies them per component (no short-circuit; `-HV 2018`, as fxc), and DXC writes
//! `OpLogicalAnd` / `OpLogicalOr` on the vectors. naga's SPIR-V reader turns those into its
//! `LogicalAnd` / `LogicalOr`, which, like WGSL's `&&` and `||`, take one `bool` only: its type
//! resolution refuses `LogicalAnd(vec4<bool>, _)`. Each becomes the operation on every
//! component and a vector built from the results (`vec4<bool>(a.x && b.x, …)`), the same
//! values. Not a `select` with a splat `false`/`true`: naga writes a `select` of bool vectors
//! for GL (wgpu's GL back end) as `mix(bvec4, bvec4, bvec4)`, which only GLSL 4.50 and
//! GLSL ES 3.10 have.
//!
//! The other bool-vector operations have WGSL counterparts naga reads as they are: `!`
//! (`OpLogicalNot`), `==`/`!=` (`OpLogicalEqual`/`OpLogicalNotEqual`), `?:` with a bool-vector
//! condition (`OpSelect`, WGSL's `select`), `any` and `all`. The GL path reads DXC's module
//! unchanged (SPIRV-Cross writes each component).

use super::words::{op, Spv};
use crate::cross::spirv::Inst;

const TYPE_BOOL: u16 = 20;
const LOGICAL_OR: u16 = 166;
const LOGICAL_AND: u16 = 167;

pub(super) fn rewrite(spv: &mut Spv) {
    let insts = std::mem::take(&mut spv.insts);
    let mut out = Vec::with_capacity(insts.len());
    for inst in insts {
        let code = inst.op();
        let vector = if (code == LOGICAL_AND || code == LOGICAL_OR) && inst.0.len() == 5 {
            bool_vector(spv, &out, inst.0[1])
        } else {
            None
        };
        let Some((component, size)) = vector else {
            out.push(inst);
            continue;
        };
        let [ty, result, a, b] = [1, 2, 3, 4].map(|w| inst.0[w]);
        let mut lanes = vec![ty, result];
        for k in 0..size {
            let (ak, bk, rk) = (spv.id(), spv.id(), spv.id());
            out.push(Inst::new(op::COMPOSITE_EXTRACT, &[component, ak, a, k]));
            out.push(Inst::new(op::COMPOSITE_EXTRACT, &[component, bk, b, k]));
            out.push(Inst::new(code, &[component, rk, ak, bk]));
            lanes.push(rk);
        }
        out.push(Inst::new(op::COMPOSITE_CONSTRUCT, &lanes));
    }
    spv.insts = out;
}

/// (the bool type, component count) of `ty` when it is a bool vector; types are declared
/// before any function, so among the instructions already passed.
fn bool_vector(spv: &Spv, before: &[Inst], ty: u32) -> Option<(u32, u32)> {
    let def = |id: u32| {
        before
            .iter()
            .find(|i| super::words::result_id(i) == Some(id))
            .or_else(|| spv.def(id))
    };
    let v = def(ty)?;
    if v.op() != op::TYPE_VECTOR {
        return None;
    }
    let (component, size) = (v.operand(1)?, v.operand(2)?);
    (def(component)?.op() == TYPE_BOOL).then_some((component, size))
}

#[cfg(test)]
mod tests {
    use crate::lower::Stage;
    use crate::wgsl::{translate, GlLayout};

    /// Upscaler-style logic through DXC and the whole wgpu translation: `&&`/`||` of bool
    /// vectors reach naga one component at a time, which validates.
    #[test]
    fn logical_and_or_of_bool_vectors_go_component_by_component() {
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
        // (logical operations, those on vectors) of a module.
        let count = |spv: &crate::wgsl::words::Spv| {
            let logical: Vec<_> = spv
                .insts
                .iter()
                .filter(|i| matches!(i.op(), super::LOGICAL_AND | super::LOGICAL_OR))
                .collect();
            let vectors = logical
                .iter()
                .filter(|i| super::bool_vector(spv, &[], i.0[1]).is_some())
                .count();
            (logical.len(), vectors)
        };
        let mut opened = crate::wgsl::words::Spv::open(&words).unwrap();
        // DXC writes them on the vectors (`x`, `y`, `q`), and `||` of the two scalars.
        assert_eq!(
            count(&opened),
            (4, 3),
            "DXC no longer writes OpLogicalAnd/Or on vectors"
        );
        super::rewrite(&mut opened);
        // 4 + 4 + 2 lanes and the scalar `||`, none on a vector.
        assert_eq!(count(&opened), (11, 0));
        let gl = GlLayout {
            registers: &[],
            samplers: &[],
        };
        let w = translate(&words, Stage::Pixel, &gl).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(w.wgsl.contains("vec4<bool>("), "{}", w.wgsl);
    }
}
