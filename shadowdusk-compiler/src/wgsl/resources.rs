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

/// Applies the binding rule to one stage's module: bound variables are decorated and renamed
/// to their HLSL names, and the bindings a runtime must create are returned.
pub(super) fn bind(
    spv: &mut Spv,
    samplers: &[DialectSampler],
    group: u32,
) -> Result<Vec<WgpuBinding>, WgslError> {
    let vars = resource_vars(spv);
    if vars.is_empty() {
        return Ok(Vec::new());
    }
    let names = vars
        .keys()
        .map(|&v| (v, spv.name(v).unwrap_or_default()))
        .collect();
    let mut resources = Resources {
        vars,
        names,
        bound: BTreeMap::new(),
        first_slot: BTreeMap::new(),
    };
    resources.split_sampled_pairs(spv, samplers)?;
    resources.bind_unsampled(spv, samplers)?;
    let mut bindings = resources.decorate(spv, group);
    bindings.sort_by_key(|b| b.binding);
    if bindings.windows(2).any(|w| w[0].binding == w[1].binding) {
        return Err(WgslError::internal("two resources on one binding".into()));
    }
    Ok(bindings)
}

/// Only images and samplers take bindings of their own; the registers are bound elsewhere.
/// Maps each such variable to (pointer type, is image).
fn resource_vars(spv: &Spv) -> BTreeMap<u32, (u32, bool)> {
    let mut vars = BTreeMap::new();
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
    vars
}

/// The state of one shader's binding: which variable ends up on which slot, gathered from
/// sampled pairs first and from names second, so sampling decides a slot before names do.
struct Resources {
    /// Resource variable → (pointer type, is image).
    vars: BTreeMap<u32, (u32, bool)>,
    names: BTreeMap<u32, String>,
    /// (original var, slot) → the variable bound there.
    bound: BTreeMap<(u32, u32), u32>,
    /// The slot on which each original variable kept itself rather than a copy.
    first_slot: BTreeMap<u32, u32>,
}

impl Resources {
    /// wgpu binds a texture and a sampler per slot, so every sampled pair must read variables
    /// of the slot that pair is declared on.
    fn split_sampled_pairs(
        &mut self,
        spv: &mut Spv,
        samplers: &[DialectSampler],
    ) -> Result<(), WgslError> {
        let loads: BTreeMap<u32, u32> = spv
            .insts
            .iter()
            .filter(|i| i.op() == op::LOAD && self.vars.contains_key(&i.0[3]))
            .map(|i| (i.0[2], i.0[3]))
            .collect();
        let insts = spv.insts.clone();
        let mut out = Vec::with_capacity(insts.len());
        for mut inst in insts {
            if inst.op() == op::SAMPLED_IMAGE {
                self.rebind_pair(spv, samplers, &loads, &mut inst, &mut out)?;
            }
            out.push(inst);
        }
        spv.insts = out;
        Ok(())
    }

    /// One `SampledImage`: when its texture or sampler is bound on another slot already, it
    /// loads this slot's copy instead (the load goes into `out` ahead of the instruction).
    fn rebind_pair(
        &mut self,
        spv: &mut Spv,
        samplers: &[DialectSampler],
        loads: &BTreeMap<u32, u32>,
        inst: &mut Inst,
        out: &mut Vec<Inst>,
    ) -> Result<(), WgslError> {
        let (img, smp) = (inst.0[3], inst.0[4]);
        let (Some(&t), Some(&s)) = (loads.get(&img), loads.get(&smp)) else {
            return Err(WgslError::internal(
                "a sampled image whose texture or sampler is not a variable".into(),
            ));
        };
        let slot = samplers
            .iter()
            .find(|d| d.texture == self.names[&t] && d.sampler == self.names[&s])
            .map(|d| d.slot)
            .ok_or_else(|| {
                WgslError::internal(format!(
                    "texture `{}` with sampler `{}` has no sampler slot",
                    crate::lower::user_name(&self.names[&t]),
                    self.names[&s]
                ))
            })?;
        for (k, var) in [(3usize, t), (4usize, s)] {
            let target = self.variable_on(spv, var, slot);
            if target != var {
                let pointee = spv
                    .def(self.vars[&var].0)
                    .and_then(|p| p.operand(2))
                    .unwrap_or(0);
                let v = spv.id();
                out.push(Inst::new(op::LOAD, &[pointee, v, target]));
                inst.0[k] = v;
            }
        }
        Ok(())
    }

    /// The variable `var` is bound through on `slot`: the first slot keeps the variable,
    /// another slot gets a copy, declared once per slot.
    fn variable_on(&mut self, spv: &mut Spv, var: u32, slot: u32) -> u32 {
        if let Some(&target) = self.bound.get(&(var, slot)) {
            return target;
        }
        let target = match self.first_slot.entry(var) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(slot);
                var
            }
            std::collections::btree_map::Entry::Occupied(_) => {
                let clone = spv.id();
                spv.global(Inst::new(
                    op::VARIABLE,
                    &[self.vars[&var].0, clone, storage::UNIFORM_CONSTANT],
                ));
                clone
            }
        };
        self.bound.insert((var, slot), target);
        target
    }

    /// Textures read without a sampler (`Load`, size queries) take the slot their name has;
    /// with no such slot they cannot be bound, unless they are never read at all.
    fn bind_unsampled(
        &mut self,
        spv: &mut Spv,
        samplers: &[DialectSampler],
    ) -> Result<(), WgslError> {
        for (&var, (_, is_image)) in &self.vars {
            if self.first_slot.contains_key(&var) {
                continue;
            }
            let by_name = samplers.iter().find(|d| {
                if *is_image {
                    d.texture == self.names[&var]
                } else {
                    d.sampler == self.names[&var]
                }
            });
            match by_name {
                Some(d) => {
                    self.first_slot.insert(var, d.slot);
                    self.bound.insert((var, d.slot), var);
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
                None => return Err(unsampled_texture(&self.names[&var])),
            }
        }
        Ok(())
    }

    /// Gives every bound variable its group, binding and HLSL name, and lists the bindings a
    /// runtime must create.
    fn decorate(&self, spv: &mut Spv, group: u32) -> Vec<WgpuBinding> {
        let mut bindings = Vec::new();
        for (&(orig, slot), &var) in &self.bound {
            let (ptr, is_image) = self.vars[&orig];
            spv.undecorate(var, &[deco::BINDING, deco::DESCRIPTOR_SET]);
            let binding = if is_image {
                texture_binding(slot)
            } else {
                sampler_binding(slot)
            };
            spv.rename(var, crate::lower::user_name(&self.names[&orig]));
            spv.decorate(var, deco::DESCRIPTOR_SET, &[group]);
            spv.decorate(var, deco::BINDING, &[binding]);
            let kind = if is_image {
                texture_kind(spv, ptr)
            } else {
                WgpuBindingKind::Sampler
            };
            bindings.push(WgpuBinding {
                group,
                binding,
                slot: Some(slot),
                name: crate::lower::user_name(&self.names[&orig]).to_string(),
                kind,
            });
        }
        bindings
    }
}

/// A runtime needs the texture's dimension to build its bind-group layout entry.
fn texture_kind(spv: &Spv, ptr: u32) -> WgpuBindingKind {
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
}

/// wgpu has no slot for a texture that is never sampled and whose name matches no sampler
/// slot, so the effect cannot run there.
fn unsampled_texture(name: &str) -> WgslError {
    let mut e = WgslError::unsupported(
        crate::lower::user_name(name),
        "a texture read without a sampler slot (wgpu binds textures by the slot of \
         the sampler they are sampled with)",
    );
    e.code = crate::diag::Code::SD0301;
    e.help = "sample the texture with a sampler somewhere in the shader, so it has a slot".into();
    e
}
