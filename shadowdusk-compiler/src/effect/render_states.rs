//! Render-state assignments inside a pass (`AlphaBlendEnable = true;`), baked into MonoGame's
//! state objects exactly the way mgfxc does it (fx-pipeline.md §3.1).
//!
//! Input: one key and the value tokens of one assignment, in source order. Output: the pass's
//! optional `BlendState` / `DepthStencilState` / `RasterizerState`.
//!
//! Keys apply in source order, because mgfxc's `AlphaBlendEnable = true` only presets
//! One/InvSrcAlpha when no earlier key of the pass created the blend state. `BlendOp` sets only
//! the alpha function (an mgfxc quirk kept for byte-identical output).
//!
//! Refused (SD0011): unknown keys (mgfxc rejects them too) and unknown values; the help text
//! lists the valid ones.

use shadowdusk_mgfx::{
    Blend, BlendFunction, BlendState, CompareFunction, CullMode, DepthStencilState, FillMode,
    RasterizerState, StencilOperation,
};

use super::values::{self, Value, ValueError};

/// The state objects one pass accumulates.
#[derive(Clone, Debug, Default)]
pub struct PassStates {
    /// Created by the first blend key.
    pub blend: Option<BlendState>,
    /// Created by the first Z/stencil key.
    pub depth_stencil: Option<DepthStencilState>,
    /// Created by the first rasterizer key.
    pub rasterizer: Option<RasterizerState>,
}

/// Every key mgfxc accepts, for the help text.
pub const KEYS: &[&str] = &[
    "AlphaBlendEnable",
    "SrcBlend",
    "DestBlend",
    "BlendOp",
    "ColorWriteEnable",
    "ZEnable",
    "ZWriteEnable",
    "ZFunc",
    "StencilEnable",
    "StencilFunc",
    "StencilPass",
    "StencilFail",
    "StencilZFail",
    "StencilRef",
    "StencilMask",
    "StencilWriteMask",
    "CullMode",
    "FillMode",
    "MultiSampleAntiAlias",
    "ScissorTestEnable",
    "DepthBias",
    "SlopeScaleDepthBias",
];

pub(super) const BLENDS: &[(&str, Blend)] = &[
    ("Zero", Blend::Zero),
    ("One", Blend::One),
    ("SrcColor", Blend::SourceColor),
    ("InvSrcColor", Blend::InverseSourceColor),
    ("SrcAlpha", Blend::SourceAlpha),
    ("InvSrcAlpha", Blend::InverseSourceAlpha),
    ("DestAlpha", Blend::DestinationAlpha),
    ("InvDestAlpha", Blend::InverseDestinationAlpha),
    ("DestColor", Blend::DestinationColor),
    ("InvDestColor", Blend::InverseDestinationColor),
    ("SrcAlphaSat", Blend::SourceAlphaSaturation),
    ("BlendFactor", Blend::BlendFactor),
    ("InvBlendFactor", Blend::InverseBlendFactor),
];

pub(super) const BLEND_OPS: &[(&str, BlendFunction)] = &[
    ("Add", BlendFunction::Add),
    ("Subtract", BlendFunction::Subtract),
    ("RevSubtract", BlendFunction::ReverseSubtract),
    ("Min", BlendFunction::Min),
    ("Max", BlendFunction::Max),
];

pub(super) const CMP_FUNCS: &[(&str, CompareFunction)] = &[
    ("Never", CompareFunction::Never),
    ("Less", CompareFunction::Less),
    ("Equal", CompareFunction::Equal),
    ("LessEqual", CompareFunction::LessEqual),
    ("Greater", CompareFunction::Greater),
    ("NotEqual", CompareFunction::NotEqual),
    ("GreaterEqual", CompareFunction::GreaterEqual),
    ("Always", CompareFunction::Always),
];

pub(super) const STENCIL_OPS: &[(&str, StencilOperation)] = &[
    ("Keep", StencilOperation::Keep),
    ("Zero", StencilOperation::Zero),
    ("Replace", StencilOperation::Replace),
    ("IncrSat", StencilOperation::IncrementSaturation),
    ("DecrSat", StencilOperation::DecrementSaturation),
    ("Invert", StencilOperation::Invert),
    ("Incr", StencilOperation::Increment),
    ("Decr", StencilOperation::Decrement),
];

const CULL_MODES: &[(&str, CullMode)] = &[
    ("None", CullMode::None),
    ("CW", CullMode::CullClockwiseFace),
    ("CCW", CullMode::CullCounterClockwiseFace),
];

pub(super) const FILL_MODES: &[(&str, FillMode)] = &[
    ("Solid", FillMode::Solid),
    ("WireFrame", FillMode::WireFrame),
];

const CHANNELS: &[(&str, u8)] = &[
    ("Red", 1),
    ("Green", 2),
    ("Blue", 4),
    ("Alpha", 8),
    ("None", 0),
    ("All", 15),
    ("true", 15),
    ("false", 0),
    ("1", 15),
    ("0", 0),
];

pub(super) fn to_alpha(b: Blend) -> Blend {
    match b {
        Blend::SourceColor => Blend::SourceAlpha,
        Blend::InverseSourceColor => Blend::InverseSourceAlpha,
        Blend::DestinationColor => Blend::DestinationAlpha,
        Blend::InverseDestinationColor => Blend::InverseDestinationAlpha,
        other => other,
    }
}

/// Applies one assignment. `key` is as written; matching is case-insensitive.
pub fn apply(states: &mut PassStates, key: &str, value: &Value) -> Result<(), ValueError> {
    let k = key.to_ascii_lowercase();
    match k.as_str() {
        "alphablendenable" => {
            let on = values::boolean(value)?;
            match (&mut states.blend, on) {
                (None, true) => {
                    states.blend = Some(BlendState {
                        color_source_blend: Blend::One,
                        alpha_source_blend: Blend::One,
                        color_destination_blend: Blend::InverseSourceAlpha,
                        alpha_destination_blend: Blend::InverseSourceAlpha,
                        ..BlendState::default()
                    })
                }
                (Some(_), true) => {}
                (slot, false) => {
                    let b = slot.get_or_insert_with(BlendState::default);
                    b.color_source_blend = Blend::One;
                    b.alpha_source_blend = Blend::One;
                    b.color_destination_blend = Blend::Zero;
                    b.alpha_destination_blend = Blend::Zero;
                }
            }
        }
        "srcblend" => {
            let v = values::enumerated(value, BLENDS)?;
            let b = states.blend.get_or_insert_with(BlendState::default);
            b.color_source_blend = v;
            b.alpha_source_blend = to_alpha(v);
        }
        "destblend" => {
            let v = values::enumerated(value, BLENDS)?;
            let b = states.blend.get_or_insert_with(BlendState::default);
            b.color_destination_blend = v;
            b.alpha_destination_blend = to_alpha(v);
        }
        "blendop" => {
            let v = values::enumerated(value, BLEND_OPS)?;
            states
                .blend
                .get_or_insert_with(BlendState::default)
                .alpha_blend_function = v;
        }
        "colorwriteenable" => {
            let v = values::flags(value, CHANNELS)?;
            states
                .blend
                .get_or_insert_with(BlendState::default)
                .color_write_channels[0] = v;
        }
        "zenable" => ds(states).depth_buffer_enable = values::boolean(value)?,
        "zwriteenable" => ds(states).depth_buffer_write_enable = values::boolean(value)?,
        "zfunc" => ds(states).depth_buffer_function = values::enumerated(value, CMP_FUNCS)?,
        "stencilenable" => ds(states).stencil_enable = values::boolean(value)?,
        "stencilfunc" => ds(states).stencil_function = values::enumerated(value, CMP_FUNCS)?,
        "stencilpass" => ds(states).stencil_pass = values::enumerated(value, STENCIL_OPS)?,
        "stencilfail" => ds(states).stencil_fail = values::enumerated(value, STENCIL_OPS)?,
        "stencilzfail" => {
            ds(states).stencil_depth_buffer_fail = values::enumerated(value, STENCIL_OPS)?
        }
        "stencilref" => ds(states).reference_stencil = values::number(value)?.floor() as i32,
        "stencilmask" => ds(states).stencil_mask = values::number(value)?.floor() as i32,
        "stencilwritemask" => ds(states).stencil_write_mask = values::number(value)?.floor() as i32,
        "cullmode" => rs(states).cull_mode = values::enumerated(value, CULL_MODES)?,
        "fillmode" => rs(states).fill_mode = values::enumerated(value, FILL_MODES)?,
        "multisampleantialias" => rs(states).multi_sample_anti_alias = values::boolean(value)?,
        "scissortestenable" => rs(states).scissor_test_enable = values::boolean(value)?,
        "depthbias" => rs(states).depth_bias = values::number(value)? as f32,
        "slopescaledepthbias" => rs(states).slope_scale_depth_bias = values::number(value)? as f32,
        _ => {
            return Err(ValueError::UnknownKey {
                valid: KEYS.join(", "),
            })
        }
    }
    Ok(())
}

fn ds(s: &mut PassStates) -> &mut DepthStencilState {
    s.depth_stencil
        .get_or_insert_with(DepthStencilState::default)
}

fn rs(s: &mut PassStates) -> &mut RasterizerState {
    s.rasterizer.get_or_insert_with(RasterizerState::default)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        Value::parse_for_test(s)
    }

    fn run(items: &[(&str, &str)]) -> PassStates {
        let mut st = PassStates::default();
        for (k, val) in items {
            apply(&mut st, k, &v(val)).unwrap_or_else(|e| panic!("{k} = {val}: {e:?}"));
        }
        st
    }

    #[test]
    fn golden_render_states_fx() {
        let st = run(&[
            ("CullMode", "None"),
            ("AlphaBlendEnable", "True"),
            ("ZEnable", "False"),
        ]);
        let b = st.blend.unwrap();
        assert_eq!(b.color_source_blend, Blend::One);
        assert_eq!(b.alpha_source_blend, Blend::One);
        assert_eq!(b.color_destination_blend, Blend::InverseSourceAlpha);
        assert_eq!(b.alpha_destination_blend, Blend::InverseSourceAlpha);
        let d = st.depth_stencil.unwrap();
        assert_eq!(
            d,
            DepthStencilState {
                depth_buffer_enable: false,
                ..DepthStencilState::default()
            }
        );
        assert_eq!(st.rasterizer.unwrap().cull_mode, CullMode::None);
    }

    #[test]
    fn golden_state_blend_additive() {
        let st = run(&[
            ("AlphaBlendEnable", "true"),
            ("SrcBlend", "SrcAlpha"),
            ("DestBlend", "One"),
        ]);
        let b = st.blend.unwrap();
        assert_eq!(b.color_source_blend, Blend::SourceAlpha);
        assert_eq!(b.alpha_source_blend, Blend::SourceAlpha);
        assert_eq!(b.color_destination_blend, Blend::One);
        assert_eq!(b.alpha_destination_blend, Blend::One);
        assert_eq!(b.color_blend_function, BlendFunction::Add);
        assert_eq!(b.alpha_blend_function, BlendFunction::Add);
    }

    #[test]
    fn alpha_blend_enable_after_src_blend_keeps_the_explicit_values() {
        // mgfxc: the preset applies only when the blend state does not exist yet.
        let st = run(&[("SrcBlend", "SrcColor"), ("AlphaBlendEnable", "true")]);
        let b = st.blend.unwrap();
        assert_eq!(b.color_source_blend, Blend::SourceColor);
        assert_eq!(b.alpha_source_blend, Blend::SourceAlpha);
        assert_eq!(b.color_destination_blend, Blend::Zero);
    }

    #[test]
    fn alpha_blend_disable_overrides_earlier_keys() {
        let st = run(&[("SrcBlend", "SrcAlpha"), ("AlphaBlendEnable", "0")]);
        let b = st.blend.unwrap();
        assert_eq!(b.color_source_blend, Blend::One);
        assert_eq!(b.color_destination_blend, Blend::Zero);
    }

    #[test]
    fn blend_op_sets_only_the_alpha_function() {
        let st = run(&[("BlendOp", "RevSubtract")]);
        let b = st.blend.unwrap();
        assert_eq!(b.alpha_blend_function, BlendFunction::ReverseSubtract);
        assert_eq!(b.color_blend_function, BlendFunction::Add);
    }

    #[test]
    fn color_write_enable_flags() {
        let st = run(&[("ColorWriteEnable", "Red | Green")]);
        assert_eq!(st.blend.unwrap().color_write_channels, [3, 15, 15, 15]);
        let st = run(&[("colorwriteenable", "false")]);
        assert_eq!(st.blend.unwrap().color_write_channels[0], 0);
        let st = run(&[("ColorWriteEnable", "Blue|Alpha")]);
        assert_eq!(st.blend.unwrap().color_write_channels[0], 12);
    }

    #[test]
    fn every_depth_stencil_key() {
        let st = run(&[
            ("ZEnable", "true"),
            ("ZWriteEnable", "false"),
            ("ZFunc", "Greater"),
            ("StencilEnable", "1"),
            ("StencilFunc", "NotEqual"),
            ("StencilPass", "Replace"),
            ("StencilFail", "IncrSat"),
            ("StencilZFail", "Decr"),
            ("StencilRef", "3.7"),
            ("StencilMask", "255"),
            ("StencilWriteMask", "15.0f"),
        ]);
        let d = st.depth_stencil.unwrap();
        assert!(d.depth_buffer_enable);
        assert!(!d.depth_buffer_write_enable);
        assert_eq!(d.depth_buffer_function, CompareFunction::Greater);
        assert!(d.stencil_enable);
        assert_eq!(d.stencil_function, CompareFunction::NotEqual);
        assert_eq!(d.stencil_pass, StencilOperation::Replace);
        assert_eq!(d.stencil_fail, StencilOperation::IncrementSaturation);
        assert_eq!(d.stencil_depth_buffer_fail, StencilOperation::Decrement);
        assert_eq!(d.reference_stencil, 3);
        assert_eq!(d.stencil_mask, 255);
        assert_eq!(d.stencil_write_mask, 15);
        assert!(st.blend.is_none() && st.rasterizer.is_none());
    }

    #[test]
    fn every_rasterizer_key() {
        let st = run(&[
            ("CullMode", "CW"),
            ("FillMode", "WireFrame"),
            ("MultiSampleAntiAlias", "false"),
            ("ScissorTestEnable", "TRUE"),
            ("DepthBias", "-0.5f"),
            ("SlopeScaleDepthBias", "2"),
        ]);
        let r = st.rasterizer.unwrap();
        assert_eq!(r.cull_mode, CullMode::CullClockwiseFace);
        assert_eq!(r.fill_mode, FillMode::WireFrame);
        assert!(!r.multi_sample_anti_alias);
        assert!(r.scissor_test_enable);
        assert_eq!(r.depth_bias, -0.5);
        assert_eq!(r.slope_scale_depth_bias, 2.0);
    }

    #[test]
    fn unknown_key_and_value_are_refused() {
        let mut st = PassStates::default();
        assert!(matches!(
            apply(&mut st, "AlphaTestEnable", &v("true")),
            Err(ValueError::UnknownKey { .. })
        ));
        match apply(&mut st, "SrcBlend", &v("Bogus")) {
            Err(ValueError::BadValue { valid, .. }) => assert!(valid.contains("InvSrcAlpha")),
            other => panic!("{other:?}"),
        }
    }
}
