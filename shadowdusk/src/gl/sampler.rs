//! Baked sampler states applied to the bound texture, as MonoGame's
//! `SamplerState.OpenGL.cs` (`Activate`) does it: `glTexParameter` on the texture object, with
//! the mip-aware minification filter only when the texture has more than one level.
//!
//! Anisotropy needs `GL_EXT_texture_filter_anisotropic` (or GL 4.6); without it the setting is
//! skipped, as MonoGame does when the capability is missing. MonoGame's quirks are kept: no
//! `TEXTURE_WRAP_R` (AddressW is ignored) and `TEXTURE_MAX_LEVEL` always goes to the unit's
//! `TEXTURE_2D` binding.
//!
//! OpenGL ES has less, and only what the context's version has is set, as MonoGame's GLES
//! builds do: no LOD bias (desktop only), no compare mode and max level before ES 3, border
//! colour and `Border` addressing from ES 3.2 or with `GL_OES_texture_border_clamp` (without
//! them `Border` is refused, as MonoGame throws), and a texture's level count cannot be asked
//! before ES 3.1, so there the minification filter is the one without mipmaps, which samples
//! level 0 of any texture (a mipmapped filter on a texture without mipmaps samples black).

use glow::HasContext;

use super::formats::Api;
use crate::mgfx::{SamplerState, TextureAddressMode, TextureFilter};

const TEXTURE_MAX_ANISOTROPY: u32 = 0x84FE;
const MAX_TEXTURE_MAX_ANISOTROPY: u32 = 0x84FF;

/// (min filter, mag filter) for `filter`, as MonoGame maps it.
pub(crate) fn filters(filter: TextureFilter, mipmaps: bool) -> (u32, u32) {
    use TextureFilter::*;
    let pick = |mip: u32, plain: u32| if mipmaps { mip } else { plain };
    match filter {
        Point => (
            pick(glow::NEAREST_MIPMAP_NEAREST, glow::NEAREST),
            glow::NEAREST,
        ),
        Linear | Anisotropic => (pick(glow::LINEAR_MIPMAP_LINEAR, glow::LINEAR), glow::LINEAR),
        PointMipLinear => (
            pick(glow::NEAREST_MIPMAP_LINEAR, glow::NEAREST),
            glow::NEAREST,
        ),
        LinearMipPoint => (
            pick(glow::LINEAR_MIPMAP_NEAREST, glow::LINEAR),
            glow::LINEAR,
        ),
        MinLinearMagPointMipLinear => (
            pick(glow::LINEAR_MIPMAP_LINEAR, glow::LINEAR),
            glow::NEAREST,
        ),
        MinLinearMagPointMipPoint => (
            pick(glow::LINEAR_MIPMAP_NEAREST, glow::LINEAR),
            glow::NEAREST,
        ),
        MinPointMagLinearMipLinear => (
            pick(glow::NEAREST_MIPMAP_LINEAR, glow::NEAREST),
            glow::LINEAR,
        ),
        MinPointMagLinearMipPoint => (
            pick(glow::NEAREST_MIPMAP_NEAREST, glow::NEAREST),
            glow::LINEAR,
        ),
    }
}

/// GL wrap mode for an address mode (desktop GL: Border is CLAMP_TO_BORDER).
pub(crate) fn wrap(mode: TextureAddressMode) -> u32 {
    match mode {
        TextureAddressMode::Wrap => glow::REPEAT,
        TextureAddressMode::Clamp => glow::CLAMP_TO_EDGE,
        TextureAddressMode::Mirror => glow::MIRRORED_REPEAT,
        TextureAddressMode::Border => glow::CLAMP_TO_BORDER,
    }
}

/// What a context can set of a sampler state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Capabilities {
    /// `glGetTexLevelParameter` (desktop, ES 3.1).
    level_query: bool,
    /// `TEXTURE_LOD_BIAS` (desktop).
    lod_bias: bool,
    /// `TEXTURE_COMPARE_MODE` and `TEXTURE_MAX_LEVEL` (desktop, ES 3).
    es3_parameters: bool,
    /// `CLAMP_TO_BORDER` and `TEXTURE_BORDER_COLOR`.
    border: bool,
}

impl Capabilities {
    /// For a context of `version` listing extensions as `has` says.
    pub(crate) fn of(version: &glow::Version, has: &dyn Fn(&str) -> bool) -> Capabilities {
        let es_at_least = |major, minor| (version.major, version.minor) >= (major, minor);
        match Api::of(version) {
            Api::Desktop => Capabilities {
                level_query: true,
                lod_bias: true,
                es3_parameters: true,
                border: true,
            },
            api => Capabilities {
                level_query: es_at_least(3, 1),
                lod_bias: false,
                es3_parameters: api == Api::Es3,
                border: es_at_least(3, 2)
                    || has("GL_OES_texture_border_clamp")
                    || has("GL_EXT_texture_border_clamp"),
            },
        }
    }

    fn current(gl: &glow::Context) -> Capabilities {
        let extensions = gl.supported_extensions();
        Capabilities::of(gl.version(), &|name| extensions.contains(name))
    }
}

/// Whether the texture bound to `target` on the active unit has a level 1 (MonoGame:
/// `LevelCount > 1`); `false` where the context cannot say.
fn has_mipmaps(gl: &glow::Context, target: u32, caps: Capabilities) -> bool {
    if !caps.level_query {
        return false;
    }
    let level_target = if target == glow::TEXTURE_CUBE_MAP {
        glow::TEXTURE_CUBE_MAP_POSITIVE_X
    } else {
        target
    };
    // SAFETY: query on the texture bound by the caller.
    unsafe { gl.get_tex_level_parameter_i32(level_target, 1, glow::TEXTURE_WIDTH) > 0 }
}

/// `Ok` when the context can do `state`; `Err` says what of it it cannot.
pub(crate) fn check(gl: &glow::Context, state: &SamplerState) -> Result<(), String> {
    supported(Capabilities::current(gl), state)
}

fn supported(caps: Capabilities, state: &SamplerState) -> Result<(), String> {
    let border_wanted = [state.address_u, state.address_v].contains(&TextureAddressMode::Border);
    if border_wanted && !caps.border {
        return Err("TextureAddressMode.Border needs OpenGL ES 3.2 or \
                    GL_OES_texture_border_clamp, which this context lacks"
            .to_string());
    }
    Ok(())
}

/// Applies `state` to the texture bound to `target` on the active texture unit; `Err` says
/// what of it the context cannot do (nothing is set then).
pub(crate) fn apply(gl: &glow::Context, target: u32, state: &SamplerState) -> Result<(), String> {
    let caps = Capabilities::current(gl);
    supported(caps, state)?;
    let mipmaps = has_mipmaps(gl, target, caps);
    let (min, mag) = filters(state.filter, mipmaps);
    let border = state.border_color.map(|c| c as f32 / 255.0);
    let aniso = gl
        .supported_extensions()
        .contains("GL_EXT_texture_filter_anisotropic")
        || gl
            .supported_extensions()
            .contains("GL_ARB_texture_filter_anisotropic");
    // SAFETY: parameter calls on the texture bound by the caller.
    unsafe {
        if aniso {
            let value = if state.filter == TextureFilter::Anisotropic {
                let max = gl.get_parameter_f32(MAX_TEXTURE_MAX_ANISOTROPY).max(1.0);
                (state.max_anisotropy as f32).clamp(1.0, max)
            } else {
                1.0
            };
            gl.tex_parameter_f32(target, TEXTURE_MAX_ANISOTROPY, value);
        }
        gl.tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, min as i32);
        gl.tex_parameter_i32(target, glow::TEXTURE_MAG_FILTER, mag as i32);
        gl.tex_parameter_i32(target, glow::TEXTURE_WRAP_S, wrap(state.address_u) as i32);
        gl.tex_parameter_i32(target, glow::TEXTURE_WRAP_T, wrap(state.address_v) as i32);
        // MonoGame sets no TEXTURE_WRAP_R: AddressW has no effect on its GL backend.
        if caps.border {
            gl.tex_parameter_f32_slice(target, glow::TEXTURE_BORDER_COLOR, &border);
        }
        if caps.lod_bias {
            gl.tex_parameter_f32(target, glow::TEXTURE_LOD_BIAS, state.mip_lod_bias);
        }
        if caps.es3_parameters {
            gl.tex_parameter_i32(target, glow::TEXTURE_COMPARE_MODE, glow::NONE as i32);
            let max_level = if state.max_mip_level > 0 {
                state.max_mip_level
            } else {
                1000
            };
            // MonoGame writes MAX_LEVEL to the TEXTURE_2D binding of the unit whatever the
            // sampler's target; a cube or volume texture keeps its own max level.
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAX_LEVEL, max_level);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_filters_are_nearest_and_mip_aware() {
        assert_eq!(
            filters(TextureFilter::Point, false),
            (glow::NEAREST, glow::NEAREST)
        );
        assert_eq!(
            filters(TextureFilter::Point, true),
            (glow::NEAREST_MIPMAP_NEAREST, glow::NEAREST)
        );
        assert_eq!(
            filters(TextureFilter::MinPointMagLinearMipLinear, true),
            (glow::NEAREST_MIPMAP_LINEAR, glow::LINEAR)
        );
    }

    fn version(is_embedded: bool, major: u32, minor: u32) -> glow::Version {
        glow::Version {
            major,
            minor,
            is_embedded,
            revision: None,
            vendor_info: String::new(),
        }
    }

    #[test]
    fn es_contexts_set_only_the_parameters_their_version_has() {
        let none = |_: &str| false;
        let clamp = |e: &str| e == "GL_OES_texture_border_clamp";
        let desktop = Capabilities::of(&version(false, 2, 1), &none);
        assert!(
            desktop.level_query && desktop.lod_bias && desktop.es3_parameters && desktop.border
        );
        let es2 = Capabilities::of(&version(true, 2, 0), &none);
        assert_eq!(
            es2,
            Capabilities {
                level_query: false,
                lod_bias: false,
                es3_parameters: false,
                border: false
            }
        );
        assert!(Capabilities::of(&version(true, 2, 0), &clamp).border);
        let es30 = Capabilities::of(&version(true, 3, 0), &none);
        assert!(es30.es3_parameters && !es30.level_query && !es30.border && !es30.lod_bias);
        let es32 = Capabilities::of(&version(true, 3, 2), &none);
        assert!(es32.level_query && es32.border && !es32.lod_bias);
    }

    #[test]
    fn border_maps_to_clamp_to_border() {
        assert_eq!(wrap(TextureAddressMode::Border), glow::CLAMP_TO_BORDER);
        assert_eq!(wrap(TextureAddressMode::Mirror), glow::MIRRORED_REPEAT);
    }
}
