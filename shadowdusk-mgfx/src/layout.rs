//! The layout contract between an effect and the typed code generated for it.
//!
//! A generated module (`Params`, `Technique`, passes, texture slots) relies on the register
//! records, the value and texture parameters with their shapes, the texture units each texture
//! is sampled on (its public `textures::*_UNITS`), and the technique and pass names — not on
//! shader code or default values. Two effects with the same layout can be
//! swapped under the same generated module (shader hot reload), and [`compare`] names the first
//! declaration that differs when they cannot. [`fingerprint`] hashes the same description, so
//! generated code can carry its effect's layout as one constant.

use std::fmt::Write as _;

use super::{Effect, Parameter, ParameterClass, ParameterType};

/// One line per thing generated code relies on, in a fixed order: parameters (name, class,
/// type, shape, array length), the texture units of each texture parameter, records (name,
/// size, entries by parameter name and offset), techniques with their passes. Deterministic:
/// the same layout always gives the same text.
pub fn describe(effect: &Effect) -> Vec<String> {
    let mut out = Vec::new();
    for p in &effect.parameters {
        out.push(format!("parameter {}: {}", quoted(&p.name), shape(p)));
    }
    for (i, p) in effect.parameters.iter().enumerate() {
        if is_texture(p) {
            out.push(units_line(p, &texture_units(effect, i)));
        }
    }
    for cb in &effect.constant_buffers {
        let mut line = format!("record {} of {} bytes:", quoted(&cb.name), cb.size);
        for e in &cb.entries {
            let name = usize::try_from(e.parameter)
                .ok()
                .and_then(|i| effect.parameters.get(i))
                .map_or_else(|| format!("#{}", e.parameter), |p| quoted(&p.name));
            let _ = write!(line, " {name}@{}", e.offset);
        }
        out.push(line);
    }
    for t in &effect.techniques {
        let passes: Vec<String> = t.passes.iter().map(|p| quoted(&p.name)).collect();
        out.push(format!(
            "technique {} passes [{}]",
            quoted(&t.name),
            passes.join(", ")
        ));
    }
    out
}

/// A 64-bit FNV-1a hash of [`describe`]: equal for effects whose layouts are equal.
pub fn fingerprint(effect: &Effect) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for line in describe(effect) {
        for b in line.bytes().chain(std::iter::once(b'\n')) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Why a new effect does not fit the code generated for the old one: the first difference,
/// naming the declaration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LayoutChange(pub String);

/// `Ok` when `new` can replace `old` under the same generated code; else the first difference,
/// in words that name the parameter, record or technique.
pub fn compare(old: &Effect, new: &Effect) -> Result<(), LayoutChange> {
    let change = |s: String| Err(LayoutChange(s));
    let position = |list: &[Parameter], name: &str| list.iter().position(|p| p.name == name);
    // Added and removed parameters first: they are what moved everything after them.
    if let Some((j, q)) = new
        .parameters
        .iter()
        .enumerate()
        .find(|(_, q)| position(&old.parameters, &q.name).is_none())
    {
        if let Some(p) = old.parameters.get(j) {
            if position(&new.parameters, &p.name).is_none() {
                return change(format!(
                    "parameter {} ({}) was renamed {} ({}); the generated setters use the old name",
                    quoted(&p.name),
                    shape(p),
                    quoted(&q.name),
                    shape(q)
                ));
            }
        }
        return change(format!(
            "the new effect adds parameter {} ({}), which the generated Params has no place for",
            quoted(&q.name),
            shape(q)
        ));
    }
    if let Some(p) = old
        .parameters
        .iter()
        .find(|p| position(&new.parameters, &p.name).is_none())
    {
        return change(format!(
            "parameter {} ({}) is gone from the new effect",
            quoted(&p.name),
            shape(p)
        ));
    }
    for (i, p) in old.parameters.iter().enumerate() {
        let j = position(&new.parameters, &p.name).expect("checked above");
        let q = &new.parameters[j];
        if shape(p) != shape(q) {
            return change(format!(
                "parameter {} changed from {} to {}",
                quoted(&p.name),
                shape(p),
                shape(q)
            ));
        }
        if i != j {
            return change(format!(
                "parameter {} moved from position {i} to {j} in the parameter list",
                quoted(&p.name)
            ));
        }
    }
    for (i, p) in old
        .parameters
        .iter()
        .enumerate()
        .filter(|(_, p)| is_texture(p))
    {
        let (was, now) = (texture_units(old, i), texture_units(new, i));
        if was != now {
            return change(format!(
                "texture {} moved from texture units {was:?} to {now:?}; the generated \
                 `textures` constants name the old units",
                quoted(&p.name)
            ));
        }
    }
    let (a, b) = (describe(old), describe(new));
    if let Some((x, y)) = a.iter().zip(&b).find(|(x, y)| x != y) {
        return change(format!("{x} is now {y}"));
    }
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Less => change(format!("the new effect adds {}", b[a.len()])),
        std::cmp::Ordering::Greater => change(format!("the new effect drops {}", a[b.len()])),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// Whether generated code gives `p` a texture slot and a `_UNITS` constant.
fn is_texture(p: &Parameter) -> bool {
    matches!(
        p.ty,
        ParameterType::Texture
            | ParameterType::Texture1D
            | ParameterType::Texture2D
            | ParameterType::Texture3D
            | ParameterType::TextureCube
    )
}

/// The texture units any shader samples parameter `index` on, sorted and distinct, as the
/// generated `textures::*_UNITS` constant lists them.
fn texture_units(effect: &Effect, index: usize) -> Vec<u8> {
    let mut units: Vec<u8> = effect
        .shaders
        .iter()
        .flat_map(|s| &s.samplers)
        .filter(|s| usize::from(s.parameter) == index)
        .map(|s| s.texture_slot)
        .collect();
    units.sort_unstable();
    units.dedup();
    units
}

fn units_line(p: &Parameter, units: &[u8]) -> String {
    format!("texture {} on units {units:?}", quoted(&p.name))
}

fn quoted(name: &str) -> String {
    format!("`{name}`")
}

/// `float4`, `float4x3[72]`, `Texture2D`, `struct { … }` as generated code sees a parameter.
fn shape(p: &Parameter) -> String {
    if let Some(first) = p.elements.first() {
        return format!("{}[{}]", shape(first), p.elements.len());
    }
    let ty = match p.ty {
        ParameterType::Single => "float".to_string(),
        ParameterType::Int32 => "int".to_string(),
        ParameterType::Bool => "bool".to_string(),
        other => format!("{other:?}"),
    };
    match p.class {
        ParameterClass::Scalar => ty,
        ParameterClass::Vector => format!("{ty}{}", p.columns),
        ParameterClass::Matrix => format!("{ty}{}x{}", p.rows, p.columns),
        ParameterClass::Object => ty,
        ParameterClass::Struct => {
            let members: Vec<String> = p
                .members
                .iter()
                .map(|m| format!("{}: {}", m.name, shape(m)))
                .collect();
            format!("struct {{ {} }}", members.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        CbufferEntry, ConstantBuffer, Effect, Parameter, ParameterClass, ParameterType, Pass,
        Profile, Sampler, SamplerType, Shader, ShaderStage, Technique,
    };

    fn effect(params: Vec<Parameter>) -> Effect {
        let entries = (0..params.len() as i32)
            .map(|i| CbufferEntry {
                parameter: i,
                offset: 16 * i as u16,
            })
            .collect();
        Effect {
            version: 10,
            profile: Profile::OpenGL,
            key: 0,
            constant_buffers: vec![ConstantBuffer {
                name: "ps_uniforms_vec4".into(),
                size: 16 * params.len() as u16,
                entries,
            }],
            shaders: Vec::new(),
            parameters: params,
            techniques: vec![Technique {
                name: "T".into(),
                annotations: 0,
                passes: vec![Pass {
                    name: "P0".into(),
                    annotations: 0,
                    vertex_shader: -1,
                    pixel_shader: -1,
                    blend: None,
                    depth_stencil: None,
                    rasterizer: None,
                }],
            }],
        }
    }

    fn float(name: &str, columns: u8) -> Parameter {
        let class = if columns == 1 {
            ParameterClass::Scalar
        } else {
            ParameterClass::Vector
        };
        Parameter::value(name, class, ParameterType::Single, 1, columns)
    }

    #[test]
    fn defaults_and_code_are_not_layout() {
        let a = effect(vec![float("Tint", 4)]);
        let mut b = a.clone();
        b.parameters[0].data = Some(vec![1.0f32.to_bits(); 4]);
        assert_eq!(compare(&a, &b), Ok(()));
        assert_eq!(fingerprint(&a), fingerprint(&b));
    }

    #[test]
    fn every_change_names_the_declaration() {
        let a = effect(vec![float("Tint", 4), float("Amount", 1)]);
        let retyped = effect(vec![float("Tint", 2), float("Amount", 1)]);
        assert_eq!(
            compare(&a, &retyped).unwrap_err().0,
            "parameter `Tint` changed from float4 to float2"
        );
        let added = effect(vec![float("Tint", 4), float("Amount", 1), float("Glow", 1)]);
        assert!(compare(&a, &added)
            .unwrap_err()
            .0
            .contains("adds parameter `Glow`"));
        // Inserted in the middle, it is still the new parameter that is named.
        let inserted = effect(vec![float("Tint", 4), float("Glow", 1), float("Amount", 1)]);
        let why = compare(&a, &inserted).unwrap_err().0;
        assert!(why.contains("adds parameter `Glow`"), "{why}");
        let renamed = effect(vec![float("Color", 4), float("Amount", 1)]);
        let why = compare(&a, &renamed).unwrap_err().0;
        assert!(why.contains("`Tint` (float4) was renamed `Color`"), "{why}");
        let removed = effect(vec![float("Amount", 1)]);
        let why = compare(&a, &removed).unwrap_err().0;
        assert!(why.contains("`Tint` (float4) is gone"), "{why}");
        let mut pass = a.clone();
        pass.techniques[0].passes[0].name = "Main".into();
        assert!(compare(&a, &pass).unwrap_err().0.contains("technique `T`"));
        assert_ne!(fingerprint(&a), fingerprint(&retyped));
    }

    /// A pixel shader sampling parameter `parameter` on `unit`.
    fn sampling(parameter: u8, unit: u8) -> Shader {
        Shader {
            stage: ShaderStage::Pixel,
            source_file: None,
            entry_point: None,
            code: Vec::new(),
            samplers: vec![Sampler {
                ty: SamplerType::Sampler2D,
                texture_slot: unit,
                sampler_slot: unit,
                state: None,
                name: format!("ps_s{unit}"),
                parameter,
            }],
            cbuffers: Vec::new(),
            attributes: Vec::new(),
        }
    }

    #[test]
    fn a_texture_on_another_unit_is_a_layout_change() {
        let mut a = effect(vec![float("Tint", 4)]);
        a.parameters
            .push(Parameter::texture("Sprite", ParameterType::Texture2D));
        a.shaders.push(sampling(1, 0));
        let mut b = a.clone();
        b.shaders[0] = sampling(1, 1);
        assert_eq!(
            compare(&a, &b).unwrap_err().0,
            "texture `Sprite` moved from texture units [0] to [1]; the generated `textures` \
             constants name the old units"
        );
        assert_ne!(fingerprint(&a), fingerprint(&b));
        // Another sampler name on the same unit is shader code, not layout.
        let mut c = a.clone();
        c.shaders[0].samplers[0].name = "ps_sprite".into();
        assert_eq!(compare(&a, &c), Ok(()));
        assert_eq!(fingerprint(&a), fingerprint(&c));
    }
}
