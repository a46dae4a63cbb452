//! Global state objects, as effects written for DirectX 10/11 (and MonoGame effects that copy
//! them) declare them, and the passes that set them:
//!
//! ```hlsl
//! BlendState Additive { BlendEnable[0] = TRUE; SrcBlend = SRC_ALPHA; DestBlend = ONE; };
//! DepthStencilState NoDepth { DepthEnable = FALSE; DepthWriteMask = ZERO; };
//! RasterizerState NoCull { CullMode = NONE; };
//! technique T { pass P { SetBlendState(Additive, float4(0, 0, 0, 0), 0xFFFFFFFF);
//!                        SetDepthStencilState(NoDepth, 0); SetRasterizerState(NoCull); … } }
//! ```
//!
//! Each object is baked into the MonoGame state block a pass carries (mgfx-format.md §8): what
//! MonoGame's `BlendState`, `DepthStencilState` and `RasterizerState` would be after setting
//! the same fields. Keys are D3D10 names (`BlendEnable`, `SrcBlendAlpha`, `DepthWriteMask`,
//! `FrontFaceStencilFunc`, `ScissorEnable`, …) or the D3D9 ones of pass blocks; values are
//! D3D10 (`SRC_ALPHA`, `LESS_EQUAL`, `INCR_SAT`) or D3D9 spellings, case-insensitive.
//!
//! Unlike a D3D9 pass, an object's fields do not depend on key order: `BlendEnable = FALSE`
//! means opaque (One, Zero, Add) whatever else was set; the alpha factors follow the colour
//! ones unless `SrcBlendAlpha`/`DestBlendAlpha`/`BlendOpAlpha` are given. Render target 0 is
//! what MonoGame has; `BlendEnable[n]`/`RenderTargetWriteMask[n]` for n > 0 set the write mask of
//! that target and are otherwise refused (MonoGame has one blend equation for all targets).

use shadowdusk_mgfx::{
    Blend, BlendFunction, BlendState, CullMode, DepthStencilState, RasterizerState,
};

use super::render_states::{to_alpha, BLENDS, BLEND_OPS, CMP_FUNCS, FILL_MODES, STENCIL_OPS};
use super::values::{self, Value, ValueError};

/// Which object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// `BlendState`.
    Blend,
    /// `DepthStencilState`.
    DepthStencil,
    /// `RasterizerState`.
    Rasterizer,
}

impl ObjectKind {
    /// The HLSL type name, if `word` is one.
    pub fn from_type(word: &str) -> Option<ObjectKind> {
        match word {
            "BlendState" => Some(ObjectKind::Blend),
            "DepthStencilState" => Some(ObjectKind::DepthStencil),
            "RasterizerState" => Some(ObjectKind::Rasterizer),
            _ => None,
        }
    }

    /// The pass function that sets it (`SetBlendState`, …).
    pub fn setter(self) -> &'static str {
        match self {
            ObjectKind::Blend => "SetBlendState",
            ObjectKind::DepthStencil => "SetDepthStencilState",
            ObjectKind::Rasterizer => "SetRasterizerState",
        }
    }
}

/// The baked state of one object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ObjectState {
    /// A blend state.
    Blend(BlendState),
    /// A depth-stencil state.
    DepthStencil(DepthStencilState),
    /// A rasterizer state.
    Rasterizer(RasterizerState),
}

/// Accumulates one object's assignments.
#[derive(Clone, Debug)]
pub struct ObjectBlock {
    kind: ObjectKind,
    blend: BlendState,
    blend_enable: Option<bool>,
    alpha_source: Option<Blend>,
    alpha_destination: Option<Blend>,
    alpha_function: Option<BlendFunction>,
    depth: DepthStencilState,
    raster: RasterizerState,
    cull: Option<&'static str>,
    front_ccw: bool,
}

/// Blend keys, for the help text of an unknown key.
const BLEND_KEYS: &str = "BlendEnable[0], AlphaBlendEnable, SrcBlend, DestBlend, BlendOp, \
     SrcBlendAlpha, DestBlendAlpha, BlendOpAlpha, RenderTargetWriteMask[n], BlendFactor";
const DEPTH_KEYS: &str = "DepthEnable, DepthWriteMask, DepthFunc, StencilEnable, \
     StencilReadMask, StencilWriteMask, FrontFaceStencilFunc/Pass/Fail/DepthFail, \
     BackFaceStencilFunc/Pass/Fail/DepthFail (and the D3D9 ZEnable, ZWriteEnable, ZFunc, …)";
const RASTER_KEYS: &str = "FillMode, CullMode, FrontCounterClockwise, DepthBias, \
     SlopeScaledDepthBias, ScissorEnable, MultisampleEnable";

/// `SRC_ALPHA`, `D3D11_BLEND_SRC_ALPHA` → `SRCALPHA`, matched case-insensitively against the D3D9
/// names (`SrcAlpha`).
fn enumerated<T: Copy>(v: &Value, table: &[(&str, T)]) -> Result<T, ValueError> {
    if let Value::Ident(s) = v {
        let up = s.to_ascii_uppercase();
        let bare = ["D3D11_", "D3D10_"]
            .iter()
            .find_map(|p| up.strip_prefix(p))
            .map(|rest| rest.split_once('_').map_or(rest, |(_, r)| r))
            .unwrap_or(&up)
            .replace('_', "");
        if let Some((_, t)) = table.iter().find(|(n, _)| n.eq_ignore_ascii_case(&bare)) {
            return Ok(*t);
        }
    }
    values::enumerated(v, table)
}

/// `DepthWriteMask = ZERO | ALL` or a boolean.
fn write_mask(v: &Value) -> Result<bool, ValueError> {
    match v {
        Value::Ident(s) if s.eq_ignore_ascii_case("ALL") => Ok(true),
        Value::Ident(s) if s.eq_ignore_ascii_case("ZERO") => Ok(false),
        _ => values::boolean(v),
    }
}

/// A write mask: a number (`0x0F`), channel flags, or a boolean.
fn channels(v: &Value) -> Result<u8, ValueError> {
    match v {
        Value::Number { value, .. } => Ok((*value as u32 & 15) as u8),
        _ => values::flags(
            v,
            &[
                ("Red", 1),
                ("Green", 2),
                ("Blue", 4),
                ("Alpha", 8),
                ("All", 15),
                ("None", 0),
                ("true", 15),
                ("false", 0),
            ],
        ),
    }
}

impl ObjectBlock {
    /// An empty block of `kind` (MonoGame's constructor values).
    pub fn new(kind: ObjectKind) -> ObjectBlock {
        ObjectBlock {
            kind,
            blend: BlendState::default(),
            blend_enable: None,
            alpha_source: None,
            alpha_destination: None,
            alpha_function: None,
            depth: DepthStencilState::default(),
            raster: RasterizerState::default(),
            cull: None,
            front_ccw: false,
        }
    }

    /// Applies `key[index] = value` (`index` 0 when not written).
    pub fn apply(&mut self, key: &str, index: u32, value: &Value) -> Result<(), ValueError> {
        let k = key.to_ascii_lowercase();
        let unknown = |valid: &str| ValueError::UnknownKey {
            valid: valid.to_string(),
        };
        match self.kind {
            ObjectKind::Blend => match k.as_str() {
                "blendenable" | "alphablendenable" if index == 0 => {
                    self.blend_enable = Some(values::boolean(value)?)
                }
                "srcblend" => self.blend.color_source_blend = enumerated(value, BLENDS)?,
                "destblend" => self.blend.color_destination_blend = enumerated(value, BLENDS)?,
                "blendop" => self.blend.color_blend_function = enumerated(value, BLEND_OPS)?,
                "srcblendalpha" => self.alpha_source = Some(enumerated(value, BLENDS)?),
                "destblendalpha" => self.alpha_destination = Some(enumerated(value, BLENDS)?),
                "blendopalpha" => self.alpha_function = Some(enumerated(value, BLEND_OPS)?),
                "rendertargetwritemask" | "colorwriteenable" if index < 4 => {
                    self.blend.color_write_channels[index as usize] = channels(value)?
                }
                "alphatocoverageenable" if !values::boolean(value)? => {}
                _ => return Err(unknown(BLEND_KEYS)),
            },
            ObjectKind::DepthStencil => {
                let d = &mut self.depth;
                match k.as_str() {
                    "depthenable" | "zenable" => d.depth_buffer_enable = values::boolean(value)?,
                    "depthwritemask" | "zwriteenable" => {
                        d.depth_buffer_write_enable = write_mask(value)?
                    }
                    "depthfunc" | "zfunc" => {
                        d.depth_buffer_function = enumerated(value, CMP_FUNCS)?
                    }
                    "stencilenable" => d.stencil_enable = values::boolean(value)?,
                    "stencilreadmask" | "stencilmask" => {
                        d.stencil_mask = values::number(value)?.floor() as i32
                    }
                    "stencilwritemask" => {
                        d.stencil_write_mask = values::number(value)?.floor() as i32
                    }
                    "stencilref" => d.reference_stencil = values::number(value)?.floor() as i32,
                    "frontfacestencilfunc" | "stencilfunc" => {
                        d.stencil_function = enumerated(value, CMP_FUNCS)?
                    }
                    "frontfacestencilpass" | "stencilpass" => {
                        d.stencil_pass = enumerated(value, STENCIL_OPS)?
                    }
                    "frontfacestencilfail" | "stencilfail" => {
                        d.stencil_fail = enumerated(value, STENCIL_OPS)?
                    }
                    "frontfacestencildepthfail" | "stencilzfail" => {
                        d.stencil_depth_buffer_fail = enumerated(value, STENCIL_OPS)?
                    }
                    "backfacestencilfunc" => {
                        d.ccw_stencil_function = enumerated(value, CMP_FUNCS)?;
                        d.two_sided_stencil_mode = true;
                    }
                    "backfacestencilpass" => {
                        d.ccw_stencil_pass = enumerated(value, STENCIL_OPS)?;
                        d.two_sided_stencil_mode = true;
                    }
                    "backfacestencilfail" => {
                        d.ccw_stencil_fail = enumerated(value, STENCIL_OPS)?;
                        d.two_sided_stencil_mode = true;
                    }
                    "backfacestencildepthfail" => {
                        d.ccw_stencil_depth_buffer_fail = enumerated(value, STENCIL_OPS)?;
                        d.two_sided_stencil_mode = true;
                    }
                    _ => return Err(unknown(DEPTH_KEYS)),
                }
            }
            ObjectKind::Rasterizer => {
                let r = &mut self.raster;
                match k.as_str() {
                    "fillmode" => r.fill_mode = enumerated(value, FILL_MODES)?,
                    "cullmode" => {
                        self.cull = Some(enumerated(
                            value,
                            &[
                                ("None", "none"),
                                ("Front", "front"),
                                ("Back", "back"),
                                ("CW", "cw"),
                                ("CCW", "ccw"),
                            ],
                        )?)
                    }
                    "frontcounterclockwise" => self.front_ccw = values::boolean(value)?,
                    "depthbias" => r.depth_bias = values::number(value)? as f32,
                    "slopescaleddepthbias" | "slopescaledepthbias" => {
                        r.slope_scale_depth_bias = values::number(value)? as f32
                    }
                    "scissorenable" | "scissortestenable" => {
                        r.scissor_test_enable = values::boolean(value)?
                    }
                    "multisampleenable" | "multisampleantialias" => {
                        r.multi_sample_anti_alias = values::boolean(value)?
                    }
                    "depthclipenable" | "antialiasedlineenable" | "depthbiasclamp" => {}
                    _ => return Err(unknown(RASTER_KEYS)),
                }
            }
        }
        Ok(())
    }

    /// The state MonoGame would hold.
    pub fn bake(&self) -> ObjectState {
        match self.kind {
            ObjectKind::Blend => {
                let mut b = self.blend;
                b.alpha_source_blend = self.alpha_source.unwrap_or(to_alpha(b.color_source_blend));
                b.alpha_destination_blend = self
                    .alpha_destination
                    .unwrap_or(to_alpha(b.color_destination_blend));
                b.alpha_blend_function = self.alpha_function.unwrap_or(b.color_blend_function);
                if self.blend_enable == Some(false) {
                    // Blending off is MonoGame's opaque equation.
                    b.color_source_blend = Blend::One;
                    b.alpha_source_blend = Blend::One;
                    b.color_destination_blend = Blend::Zero;
                    b.alpha_destination_blend = Blend::Zero;
                    b.color_blend_function = BlendFunction::Add;
                    b.alpha_blend_function = BlendFunction::Add;
                }
                ObjectState::Blend(b)
            }
            ObjectKind::DepthStencil => ObjectState::DepthStencil(self.depth),
            ObjectKind::Rasterizer => {
                let mut r = self.raster;
                // D3D10 names the culled side; MonoGame names the winding. Front faces are
                // clockwise unless FrontCounterClockwise.
                let (front, back) = if self.front_ccw {
                    (
                        CullMode::CullCounterClockwiseFace,
                        CullMode::CullClockwiseFace,
                    )
                } else {
                    (
                        CullMode::CullClockwiseFace,
                        CullMode::CullCounterClockwiseFace,
                    )
                };
                r.cull_mode = match self.cull {
                    Some("none") => CullMode::None,
                    Some("front") => front,
                    Some("back") | None => back,
                    Some("cw") => CullMode::CullClockwiseFace,
                    _ => CullMode::CullCounterClockwiseFace,
                };
                ObjectState::Rasterizer(r)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shadowdusk_mgfx::{CompareFunction, FillMode, StencilOperation};

    fn bake(kind: ObjectKind, items: &[(&str, u32, &str)]) -> ObjectState {
        let mut b = ObjectBlock::new(kind);
        for (k, i, v) in items {
            b.apply(k, *i, &Value::parse_for_test(v))
                .unwrap_or_else(|e| panic!("{k} = {v}: {e:?}"));
        }
        b.bake()
    }

    #[test]
    fn d3d10_blend_objects() {
        let ObjectState::Blend(b) = bake(
            ObjectKind::Blend,
            &[
                ("BlendEnable", 0, "TRUE"),
                ("SrcBlend", 0, "SRC_ALPHA"),
                ("DestBlend", 0, "INV_SRC_ALPHA"),
                ("BlendOp", 0, "ADD"),
                ("SrcBlendAlpha", 0, "ONE"),
                ("RenderTargetWriteMask", 0, "0x07"),
            ],
        ) else {
            panic!()
        };
        assert_eq!(
            (b.color_source_blend, b.color_destination_blend),
            (Blend::SourceAlpha, Blend::InverseSourceAlpha)
        );
        assert_eq!(
            (b.alpha_source_blend, b.alpha_destination_blend),
            (Blend::One, Blend::InverseSourceAlpha)
        );
        assert_eq!(b.color_write_channels[0], 7);
        let ObjectState::Blend(off) = bake(
            ObjectKind::Blend,
            &[("SrcBlend", 0, "SRC_COLOR"), ("BlendEnable", 0, "FALSE")],
        ) else {
            panic!()
        };
        assert_eq!(off, BlendState::default());
        let ObjectState::Blend(sub) = bake(
            ObjectKind::Blend,
            &[
                ("BlendOp", 0, "REV_SUBTRACT"),
                ("DestBlend", 0, "D3D11_BLEND_DEST_COLOR"),
            ],
        ) else {
            panic!()
        };
        assert_eq!(sub.color_blend_function, BlendFunction::ReverseSubtract);
        assert_eq!(sub.alpha_blend_function, BlendFunction::ReverseSubtract);
        assert_eq!(sub.alpha_destination_blend, Blend::DestinationAlpha);
    }

    #[test]
    fn depth_and_rasterizer_objects() {
        let ObjectState::DepthStencil(d) = bake(
            ObjectKind::DepthStencil,
            &[
                ("DepthEnable", 0, "FALSE"),
                ("DepthWriteMask", 0, "ZERO"),
                ("DepthFunc", 0, "LESS_EQUAL"),
                ("StencilEnable", 0, "true"),
                ("FrontFaceStencilPass", 0, "INCR_SAT"),
                ("BackFaceStencilFunc", 0, "NOT_EQUAL"),
            ],
        ) else {
            panic!()
        };
        assert!(!d.depth_buffer_enable && !d.depth_buffer_write_enable && d.stencil_enable);
        assert_eq!(d.stencil_pass, StencilOperation::IncrementSaturation);
        assert_eq!(d.ccw_stencil_function, CompareFunction::NotEqual);
        assert!(d.two_sided_stencil_mode);
        let ObjectState::Rasterizer(r) = bake(
            ObjectKind::Rasterizer,
            &[
                ("CullMode", 0, "FRONT"),
                ("FillMode", 0, "WIREFRAME"),
                ("ScissorEnable", 0, "TRUE"),
            ],
        ) else {
            panic!()
        };
        assert_eq!(r.cull_mode, CullMode::CullClockwiseFace);
        assert_eq!(r.fill_mode, FillMode::WireFrame);
        assert!(r.scissor_test_enable);
        let ObjectState::Rasterizer(r) = bake(ObjectKind::Rasterizer, &[("CullMode", 0, "NONE")])
        else {
            panic!()
        };
        assert_eq!(r.cull_mode, CullMode::None);
        let mut b = ObjectBlock::new(ObjectKind::Blend);
        assert!(matches!(
            b.apply("Frobnicate", 0, &Value::parse_for_test("1")),
            Err(ValueError::UnknownKey { .. })
        ));
        assert!(b
            .apply("BlendEnable", 1, &Value::parse_for_test("TRUE"))
            .is_err());
    }
}
