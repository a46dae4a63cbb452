//! The fixed binding rule: group 0 holds the vertex shader's resources, group 1 the pixel
//! shader's; in each, binding 0 is the registers (`registers.rs`), and the texture and sampler
//! pair on sampler slot N (the GL path's texture unit, fxc's `sN`) take bindings 1 + 2N and
//! 2 + 2N. A runtime can build every bind-group layout from [`super::WgpuBinding`]s without
//! reading WGSL. A texture or `SamplerState` the HLSL pairs with more than one partner is given
//! one variable per pair, so each slot binds its own.

use std::collections::BTreeMap;

use super::words::{deco, op, storage, Spv};
use super::{WgpuBinding, WgpuBindingKind, WgslError};
use crate::cross::spirv::Inst;
use crate::dialect::DialectSampler;

/// The texture binding of sampler slot `slot`.
pub fn texture_binding(slot: u32) -> u32 {
    1 + 2 * slot
}

/// The sampler binding of sampler slot `slot`.
pub fn sampler_binding(slot: u32) -> u32 {
    2 + 2 * slot
}

pub(super) fn bind(
    spv: &mut Spv,
    samplers: &[DialectSampler],
    group: u32,
) -> Result<Vec<WgpuBinding>, WgslError> {
    // Resource variables: (var, pointer type, is image).
    let mut vars: BTreeMap<u32, (u32, bool)> = BTreeMap::new();
    for i in &spv.insts {
        if i.op() == op::VARIABLE && i.operand(2) == Some(storage::UNIFORM_CONSTANT) {
            let pointee = spv.def(i.0[1]).and_then(|p| p.operand(2));
            match pointee.and_then(|t| spv.def(t)).map(|t| t.op()) {
                Some(op::TYPE_IMAGE) => {
                    vars.insert(i.0[2], (i.0[1], true));
                }
                Some(op::TYPE_SAMPLER) => {
                    vars.insert(i.0[2], (i.0[1], false));
                }
                _ => {}
            }
        }
    }
    if vars.is_empty() {
        return Ok(Vec::new());
    }
    let names: BTreeMap<u32, String> = vars
        .keys()
        .map(|&v| (v, spv.name(v).unwrap_or_default()))
        .collect();
    let loads: BTreeMap<u32, u32> = spv
        .insts
        .iter()
        .filter(|i| i.op() == op::LOAD && vars.contains_key(&i.0[3]))
        .map(|i| (i.0[2], i.0[3]))
        .collect();
    let slot_of = |t: u32, s: u32| {
        samplers
            .iter()
            .find(|d| d.texture == names[&t] && d.sampler == names[&s])
            .map(|d| d.slot)
    };
    // (original var, slot) → the variable bound there.
    let mut bound: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut first_slot: BTreeMap<u32, u32> = BTreeMap::new();
    let insts = spv.insts.clone();
    let mut out = Vec::with_capacity(insts.len());
    for mut inst in insts {
        if inst.op() == op::SAMPLED_IMAGE {
            let (img, smp) = (inst.0[3], inst.0[4]);
            if let (Some(&t), Some(&s)) = (loads.get(&img), loads.get(&smp)) {
                let slot = slot_of(t, s).ok_or_else(|| {
                    WgslError::internal(format!(
                        "texture `{}` with sampler `{}` has no sampler slot",
                        crate::lower::user_name(&names[&t]),
                        names[&s]
                    ))
                })?;
                for (k, var) in [(3usize, t), (4usize, s)] {
                    let target = *bound.entry((var, slot)).or_insert_with(|| {
                        // The first slot keeps the variable; another slot gets a copy.
                        match first_slot.entry(var) {
                            std::collections::btree_map::Entry::Vacant(e) => {
                                e.insert(slot);
                                var
                            }
                            std::collections::btree_map::Entry::Occupied(_) => {
                                let clone = spv.id();
                                spv.global(Inst::new(
                                    op::VARIABLE,
                                    &[vars[&var].0, clone, storage::UNIFORM_CONSTANT],
                                ));
                                clone
                            }
                        }
                    });
                    if target != var {
                        let pointee = spv
                            .def(vars[&var].0)
                            .and_then(|p| p.operand(2))
                            .unwrap_or(0);
                        let v = spv.id();
                        out.push(Inst::new(op::LOAD, &[pointee, v, target]));
                        inst.0[k] = v;
                    }
                }
            } else {
                return Err(WgslError::internal(
                    "a sampled image whose texture or sampler is not a variable".into(),
                ));
            }
        }
        out.push(inst);
    }
    spv.insts = out;
    // Textures read without a sampler (`Load`, size queries) take the slot their name has.
    for (&var, (_, is_image)) in &vars {
        if first_slot.contains_key(&var) {
            continue;
        }
        let by_name = samplers.iter().find(|d| {
            if *is_image {
                d.texture == names[&var]
            } else {
                d.sampler == names[&var]
            }
        });
        match by_name {
            Some(d) => {
                first_slot.insert(var, d.slot);
                bound.insert((var, d.slot), var);
            }
            None if !spv
                .insts
                .iter()
                .any(|i| i.op() == op::LOAD && i.0[3] == var) =>
            {
                // Declared, never read: it is dropped, as naga would keep it unbound.
                spv.insts
                    .retain(|i| super::words::result_id(i) != Some(var));
            }
            None => {
                let mut e = WgslError::unsupported(
                    crate::lower::user_name(&names[&var]),
                    "a texture read without a sampler slot (wgpu binds textures by the slot of \
                     the sampler they are sampled with)",
                );
                e.code = crate::diag::Code::SD0301;
                e.help =
                    "sample the texture with a sampler somewhere in the shader, so it has a slot"
                        .into();
                return Err(e);
            }
        }
    }
    let mut bindings = Vec::new();
    for (&(orig, slot), &var) in &bound {
        let (ptr, is_image) = vars[&orig];
        spv.undecorate(var, &[deco::BINDING, deco::DESCRIPTOR_SET]);
        let binding = if is_image {
            texture_binding(slot)
        } else {
            sampler_binding(slot)
        };
        spv.rename(var, crate::lower::user_name(&names[&orig]));
        spv.decorate(var, deco::DESCRIPTOR_SET, &[group]);
        spv.decorate(var, deco::BINDING, &[binding]);
        let kind = if is_image {
            let dim = spv
                .def(ptr)
                .and_then(|p| p.operand(2))
                .and_then(|t| spv.def(t))
                .and_then(|t| t.operand(2))
                .unwrap_or(1);
            WgpuBindingKind::Texture {
                dimension: match dim {
                    0 => "1d",
                    2 => "3d",
                    3 => "cube",
                    _ => "2d",
                }
                .into(),
            }
        } else {
            WgpuBindingKind::Sampler
        };
        bindings.push(WgpuBinding {
            group,
            binding,
            slot: Some(slot),
            name: crate::lower::user_name(&names[&orig]).to_string(),
            kind,
        });
    }
    bindings.sort_by_key(|b| b.binding);
    if bindings.windows(2).any(|w| w[0].binding == w[1].binding) {
        return Err(WgslError::internal("two resources on one binding".into()));
    }
    Ok(bindings)
}
