//! Sampler state blocks (`sampler_state { Texture = <T>; MinFilter = Point; ... }`) baked into
//! MonoGame's `SamplerState` the way mgfxc does it (fx-pipeline.md §3.2).
//!
//! Input: the block's assignments in source order. Output: the `Texture` name, if any, and the
//! baked state, which exists only when a key other than `Texture` was set.
//!
//! Filter: (min, mag, mip) → `TextureFilter` by the first matching row of the §3.2 table, with
//! `None` ranked like `Point`; `MipFilter = None` then forces bias −16 and MaxMipLevel 0.
//!
//! Refused (SD0024): unknown keys or values, and a `BorderColor` that is not `0xRRGGBB` or
//! `0xRRGGBBAA`.

use shadowdusk_mgfx::{SamplerState, TextureAddressMode, TextureFilter};

use super::values::{self, Value, ValueError};

/// Every key accepted, for the help text.
pub const KEYS: &[&str] = &[
    "Texture",
    "MinFilter",
    "MagFilter",
    "MipFilter",
    "Filter",
    "AddressU",
    "AddressV",
    "AddressW",
    "BorderColor",
    "MaxAnisotropy",
    "MaxMipLevel",
    "MaxLod",
    "MipLodBias",
    "MipMapLodBias",
];

/// Filter vocabulary, ranked None < Point < Linear < Anisotropic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum F {
    None,
    Point,
    Linear,
    Anisotropic,
}

const FILTERS: &[(&str, F)] = &[
    ("None", F::None),
    ("Point", F::Point),
    ("Linear", F::Linear),
    ("Anisotropic", F::Anisotropic),
];

const ADDRESS: &[(&str, TextureAddressMode)] = &[
    ("Wrap", TextureAddressMode::Wrap),
    ("Clamp", TextureAddressMode::Clamp),
    ("Mirror", TextureAddressMode::Mirror),
    ("Border", TextureAddressMode::Border),
];

/// A D3D10/11 filter name (`MIN_MAG_MIP_POINT`, `MIN_LINEAR_MAG_MIP_POINT`, `ANISOTROPIC`, the
/// `COMPARISON_` forms), as `SamplerState` blocks written for DirectX 11 use it: the three
/// filters it names. `None` for anything else (the D3D9 names are tried next).
fn d3d10_filter(value: &Value) -> Option<(F, F, F)> {
    let Value::Ident(name) = value else {
        return None;
    };
    let up = name.to_ascii_uppercase();
    let up = up
        .strip_prefix("D3D11_FILTER_")
        .or_else(|| up.strip_prefix("D3D10_FILTER_"))
        .unwrap_or(&up);
    let up = up
        .strip_prefix("COMPARISON_")
        .or_else(|| up.strip_prefix("MINIMUM_"))
        .or_else(|| up.strip_prefix("MAXIMUM_"))
        .unwrap_or(up);
    if up == "ANISOTROPIC" {
        return Some((F::Anisotropic, F::Anisotropic, F::Anisotropic));
    }
    // MIN_<f>_MAG_<f>_MIP_<f>, with shared filters written once: MIN_MAG_<f>_MIP_<f>,
    // MIN_<f>_MAG_MIP_<f>, MIN_MAG_MIP_<f>.
    let mut filters = [None; 3];
    let mut pending: Vec<usize> = Vec::new();
    for word in up.split('_') {
        match word {
            "MIN" => pending.push(0),
            "MAG" => pending.push(1),
            "MIP" => pending.push(2),
            "POINT" | "LINEAR" => {
                let f = if word == "POINT" { F::Point } else { F::Linear };
                for k in pending.drain(..) {
                    filters[k] = Some(f);
                }
            }
            _ => return None,
        }
    }
    match filters {
        [Some(min), Some(mag), Some(mip)] if pending.is_empty() => Some((min, mag, mip)),
        _ => None,
    }
}

/// Accumulates one block's keys.
#[derive(Clone, Debug)]
pub struct SamplerBlock {
    /// `Texture = <T>`.
    pub texture: Option<String>,
    state: SamplerState,
    min: F,
    mag: F,
    mip: F,
    any_state_key: bool,
}

impl Default for SamplerBlock {
    fn default() -> Self {
        SamplerBlock {
            texture: None,
            state: SamplerState::default(),
            min: F::Linear,
            mag: F::Linear,
            mip: F::Linear,
            any_state_key: false,
        }
    }
}

impl SamplerBlock {
    /// Applies one assignment (`key` as written, case-insensitive).
    pub fn apply(&mut self, key: &str, value: &Value) -> Result<(), ValueError> {
        let k = key.to_ascii_lowercase();
        if k == "texture" {
            self.texture = Some(match value {
                Value::Bracketed(n) | Value::Ident(n) => n.clone(),
                _ => {
                    return Err(ValueError::BadValue {
                        expected: "a texture name",
                        valid: "<Name>, (Name) or Name".into(),
                    })
                }
            });
            return Ok(());
        }
        match k.as_str() {
            "minfilter" => self.min = values::enumerated(value, FILTERS)?,
            "magfilter" => self.mag = values::enumerated(value, FILTERS)?,
            "mipfilter" => self.mip = values::enumerated(value, FILTERS)?,
            "filter" => {
                (self.min, self.mag, self.mip) = match d3d10_filter(value) {
                    Some(f) => f,
                    None => {
                        let f = values::enumerated(value, FILTERS)?;
                        (f, f, f)
                    }
                };
            }
            "addressu" => self.state.address_u = values::enumerated(value, ADDRESS)?,
            "addressv" => self.state.address_v = values::enumerated(value, ADDRESS)?,
            "addressw" => self.state.address_w = values::enumerated(value, ADDRESS)?,
            "bordercolor" => self.state.border_color = border_color(value)?,
            "maxanisotropy" => self.state.max_anisotropy = values::number(value)?.floor() as i32,
            "maxmiplevel" | "maxlod" => {
                self.state.max_mip_level = values::number(value)?.floor() as i32
            }
            "miplodbias" | "mipmaplodbias" => {
                self.state.mip_lod_bias = values::number(value)? as f32
            }
            _ => {
                return Err(ValueError::UnknownKey {
                    valid: KEYS.join(", "),
                })
            }
        }
        self.any_state_key = true;
        Ok(())
    }

    /// The baked state; `None` when only `Texture` (or nothing) was set.
    pub fn bake(&self) -> Option<SamplerState> {
        if !self.any_state_key {
            return None;
        }
        let mut s = self.state;
        s.filter = filter(self.min, self.mag, self.mip);
        if self.mip == F::None {
            s.mip_lod_bias = -16.0;
            s.max_mip_level = 0;
        }
        Some(s)
    }
}

fn filter(min: F, mag: F, mip: F) -> TextureFilter {
    use TextureFilter::*;
    let lin = |f: F| f == F::Linear;
    let pt = |f: F| f <= F::Point;
    if min == F::Anisotropic {
        Anisotropic
    } else if lin(min) && lin(mag) && lin(mip) {
        Linear
    } else if lin(min) && lin(mag) && pt(mip) {
        LinearMipPoint
    } else if lin(min) && pt(mag) && lin(mip) {
        MinLinearMagPointMipLinear
    } else if lin(min) && pt(mag) && pt(mip) {
        MinLinearMagPointMipPoint
    } else if pt(min) && lin(mag) && lin(mip) {
        MinPointMagLinearMipLinear
    } else if pt(min) && lin(mag) && pt(mip) {
        MinPointMagLinearMipPoint
    } else if pt(min) && pt(mag) && pt(mip) {
        Point
    } else if pt(min) && pt(mag) && lin(mip) {
        PointMipLinear
    } else {
        Linear
    }
}

fn border_color(v: &Value) -> Result<[u8; 4], ValueError> {
    let err = || ValueError::BadValue {
        expected: "a hex color",
        valid: "0xRRGGBB or 0xRRGGBBAA".into(),
    };
    let text = match v {
        Value::Number { text, value } if *value >= 0.0 => text,
        _ => return Err(err()),
    };
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .ok_or_else(err)?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(err());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| err());
    let a = if hex.len() == 8 { byte(6)? } else { 255 };
    Ok([byte(0)?, byte(2)?, byte(4)?, a])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bake(items: &[(&str, &str)]) -> SamplerBlock {
        let mut b = SamplerBlock::default();
        for (k, v) in items {
            b.apply(k, &Value::parse_for_test(v))
                .unwrap_or_else(|e| panic!("{k} = {v}: {e:?}"));
        }
        b
    }

    #[test]
    fn texture_only_has_no_state() {
        let b = bake(&[("Texture", "<Tex>")]);
        assert_eq!(b.texture.as_deref(), Some("Tex"));
        assert_eq!(b.bake(), None);
        assert_eq!(bake(&[("texture", "(T)")]).texture.as_deref(), Some("T"));
        assert_eq!(bake(&[("Texture", "T")]).texture.as_deref(), Some("T"));
    }

    #[test]
    fn golden_multitexture_point_clamp() {
        let s = bake(&[
            ("Texture", "<A>"),
            ("MinFilter", "Point"),
            ("MagFilter", "Point"),
            ("AddressU", "Clamp"),
            ("AddressV", "Clamp"),
        ])
        .bake()
        .unwrap();
        assert_eq!(s.filter, TextureFilter::PointMipLinear);
        assert_eq!(s.address_u, TextureAddressMode::Clamp);
        assert_eq!(s.address_v, TextureAddressMode::Clamp);
        assert_eq!(s.address_w, TextureAddressMode::Wrap);
    }

    #[test]
    fn golden_sampler_states_full() {
        let s = bake(&[
            ("Filter", "Point"),
            ("MipFilter", "None"),
            ("MipLodBias", "2"),
        ])
        .bake()
        .unwrap();
        assert_eq!(s.filter, TextureFilter::Point);
        assert_eq!(s.mip_lod_bias, -16.0);
        assert_eq!(s.max_mip_level, 0);
        let s = bake(&[
            ("MinFilter", "Anisotropic"),
            ("MagFilter", "Linear"),
            ("MipFilter", "Linear"),
            ("AddressU", "Border"),
            ("AddressV", "Mirror"),
            ("AddressW", "Clamp"),
            ("BorderColor", "0xFF0000"),
            ("MaxAnisotropy", "2"),
            ("MaxMipLevel", "1"),
            ("MipLodBias", "0.5"),
        ])
        .bake()
        .unwrap();
        assert_eq!(s.filter, TextureFilter::Anisotropic);
        assert_eq!(s.border_color, [255, 0, 0, 255]);
        assert_eq!(s.max_anisotropy, 2);
        assert_eq!(s.max_mip_level, 1);
        assert_eq!(s.mip_lod_bias, 0.5);
        assert_eq!(s.address_u, TextureAddressMode::Border);
        assert_eq!(s.address_v, TextureAddressMode::Mirror);
        assert_eq!(s.address_w, TextureAddressMode::Clamp);
    }

    #[test]
    fn filter_table_rows() {
        use TextureFilter as T;
        use F::*;
        let rows = [
            (Anisotropic, Point, None, T::Anisotropic),
            (Linear, Linear, Linear, T::Linear),
            (Linear, Linear, Point, T::LinearMipPoint),
            (Linear, Linear, None, T::LinearMipPoint),
            (Linear, Point, Linear, T::MinLinearMagPointMipLinear),
            (Linear, None, Point, T::MinLinearMagPointMipPoint),
            (Point, Linear, Linear, T::MinPointMagLinearMipLinear),
            (None, Linear, Point, T::MinPointMagLinearMipPoint),
            (Point, Point, Point, T::Point),
            (Point, Point, Linear, T::PointMipLinear),
            (Linear, Anisotropic, Linear, T::Linear),
        ];
        for (min, mag, mip, want) in rows {
            assert_eq!(filter(min, mag, mip), want, "{min:?} {mag:?} {mip:?}");
        }
    }

    #[test]
    fn alias_keys_and_alpha_border() {
        let s = bake(&[
            ("MaxLod", "3.9"),
            ("MipMapLodBias", "-1"),
            ("BorderColor", "0x11223344"),
        ])
        .bake()
        .unwrap();
        assert_eq!(s.max_mip_level, 3);
        assert_eq!(s.mip_lod_bias, -1.0);
        assert_eq!(s.border_color, [0x11, 0x22, 0x33, 0x44]);
    }

    #[test]
    fn refusals() {
        let mut b = SamplerBlock::default();
        assert!(matches!(
            b.apply("SRGBTexture", &Value::parse_for_test("true")),
            Err(ValueError::UnknownKey { .. })
        ));
        assert!(b
            .apply("MinFilter", &Value::parse_for_test("Cubic"))
            .is_err());
        assert!(b
            .apply("BorderColor", &Value::parse_for_test("0xFFF"))
            .is_err());
        assert!(b
            .apply("BorderColor", &Value::parse_for_test("255"))
            .is_err());
        assert!(b
            .apply("AddressU", &Value::parse_for_test("Repeat"))
            .is_err());
    }

    #[test]
    fn d3d10_filter_names() {
        let f = |n: &str| d3d10_filter(&Value::Ident(n.into()));
        assert_eq!(f("MIN_MAG_MIP_POINT"), Some((F::Point, F::Point, F::Point)));
        assert_eq!(
            f("MIN_MAG_LINEAR_MIP_POINT"),
            Some((F::Linear, F::Linear, F::Point))
        );
        assert_eq!(
            f("MIN_POINT_MAG_MIP_LINEAR"),
            Some((F::Point, F::Linear, F::Linear))
        );
        assert_eq!(
            f("min_linear_mag_point_mip_linear"),
            Some((F::Linear, F::Point, F::Linear))
        );
        assert_eq!(
            f("COMPARISON_MIN_MAG_MIP_LINEAR"),
            Some((F::Linear, F::Linear, F::Linear))
        );
        assert_eq!(
            f("ANISOTROPIC"),
            Some((F::Anisotropic, F::Anisotropic, F::Anisotropic))
        );
        assert_eq!(f("MIN_MAG_POINT"), None);
        assert_eq!(f("Point"), None);
        let mut b = SamplerBlock::default();
        b.apply("Filter", &Value::Ident("MIN_MAG_MIP_POINT".into()))
            .unwrap();
        assert_eq!(b.bake().unwrap().filter, TextureFilter::Point);
    }
}
