//! Baked sampler states applied to the bound texture, as MonoGame's
//! `SamplerState.OpenGL.cs` (`Activate`) does it: `glTexParameter` on the texture object, with
//! the mip-aware minification filter only when the texture has more than one level.
//!
//! Anisotropy needs `GL_EXT_texture_filter_anisotropic` (or GL 4.6); without it the setting is
//! skipped, as MonoGame does when the capability is missing. MonoGame's quirks are kept: no
//! `TEXTURE_WRAP_R` (AddressW is ignored) and `TEXTURE_MAX_LEVEL` always goes to the unit's
//! `TEXTURE_2D` binding.

use glow::HasContext;

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

/// Whether the texture bound to `target` on the active unit has a level 1 (MonoGame:
/// `LevelCount > 1`).
fn has_mipmaps(gl: &glow::Context, target: u32) -> bool {
    let level_target = if target == glow::TEXTURE_CUBE_MAP {
        glow::TEXTURE_CUBE_MAP_POSITIVE_X
    } else {
        target
    };
    // SAFETY: query on the texture bound by the caller.
    unsafe { gl.get_tex_level_parameter_i32(level_target, 1, glow::TEXTURE_WIDTH) > 0 }
}

/// Applies `state` to the texture bound to `target` on the active texture unit.
pub(crate) fn apply(gl: &glow::Context, target: u32, state: &SamplerState) {
    let mipmaps = has_mipmaps(gl, target);
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
        gl.tex_parameter_f32_slice(target, glow::TEXTURE_BORDER_COLOR, &border);
        gl.tex_parameter_f32(target, glow::TEXTURE_LOD_BIAS, state.mip_lod_bias);
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

    #[test]
    fn border_maps_to_clamp_to_border() {
        assert_eq!(wrap(TextureAddressMode::Border), glow::CLAMP_TO_BORDER);
        assert_eq!(wrap(TextureAddressMode::Mirror), glow::MIRRORED_REPEAT);
    }
}
