//! Pass state blocks applied as MonoGame's OpenGL `BlendState`, `DepthStencilState` and
//! `RasterizerState` `PlatformApplyState` do (mgfx-format.md §8.1–§8.3).
//!
//! Blocks absent from the pass leave the current GL state untouched.

use glow::HasContext;

use crate::mgfx::{
    Blend, BlendFunction, BlendState, CompareFunction, CullMode, DepthStencilState, FillMode,
    RasterizerState, StencilOperation,
};

/// `GetBlendFactorSrc`/`GetBlendFactorDest` (identical tables in MonoGame 3.8).
pub(crate) fn blend_factor(b: Blend) -> u32 {
    match b {
        Blend::One => glow::ONE,
        Blend::Zero => glow::ZERO,
        Blend::SourceColor => glow::SRC_COLOR,
        Blend::InverseSourceColor => glow::ONE_MINUS_SRC_COLOR,
        Blend::SourceAlpha => glow::SRC_ALPHA,
        Blend::InverseSourceAlpha => glow::ONE_MINUS_SRC_ALPHA,
        Blend::DestinationColor => glow::DST_COLOR,
        Blend::InverseDestinationColor => glow::ONE_MINUS_DST_COLOR,
        Blend::DestinationAlpha => glow::DST_ALPHA,
        Blend::InverseDestinationAlpha => glow::ONE_MINUS_DST_ALPHA,
        Blend::BlendFactor => glow::CONSTANT_COLOR,
        Blend::InverseBlendFactor => glow::ONE_MINUS_CONSTANT_COLOR,
        Blend::SourceAlphaSaturation => glow::SRC_ALPHA_SATURATE,
    }
}

/// `GetBlendEquationMode`.
pub(crate) fn blend_equation(f: BlendFunction) -> u32 {
    match f {
        BlendFunction::Add => glow::FUNC_ADD,
        BlendFunction::Subtract => glow::FUNC_SUBTRACT,
        BlendFunction::ReverseSubtract => glow::FUNC_REVERSE_SUBTRACT,
        BlendFunction::Min => glow::MIN,
        BlendFunction::Max => glow::MAX,
    }
}

/// `GetDepthFunction` / `GetStencilFunc`.
pub(crate) fn compare(f: CompareFunction) -> u32 {
    match f {
        CompareFunction::Always => glow::ALWAYS,
        CompareFunction::Never => glow::NEVER,
        CompareFunction::Less => glow::LESS,
        CompareFunction::LessEqual => glow::LEQUAL,
        CompareFunction::Equal => glow::EQUAL,
        CompareFunction::GreaterEqual => glow::GEQUAL,
        CompareFunction::Greater => glow::GREATER,
        CompareFunction::NotEqual => glow::NOTEQUAL,
    }
}

/// `GetStencilOp`: note MonoGame's pairing, Increment = wrap, IncrementSaturation = clamp.
pub(crate) fn stencil_op(op: StencilOperation) -> u32 {
    match op {
        StencilOperation::Keep => glow::KEEP,
        StencilOperation::Zero => glow::ZERO,
        StencilOperation::Replace => glow::REPLACE,
        StencilOperation::Increment => glow::INCR_WRAP,
        StencilOperation::Decrement => glow::DECR_WRAP,
        StencilOperation::IncrementSaturation => glow::INCR,
        StencilOperation::DecrementSaturation => glow::DECR,
        StencilOperation::Invert => glow::INVERT,
    }
}

/// Blending is enabled unless both color and alpha are One/Zero (MonoGame's test).
pub(crate) fn blend_enabled(b: &BlendState) -> bool {
    !(b.color_source_blend == Blend::One
        && b.color_destination_blend == Blend::Zero
        && b.alpha_source_blend == Blend::One
        && b.alpha_destination_blend == Blend::Zero)
}

pub(crate) fn apply_blend(gl: &glow::Context, b: &BlendState) {
    let f = b.blend_factor.map(|c| c as f32 / 255.0);
    let mask = b.color_write_channels[0];
    // SAFETY: state calls on the caller's current context.
    unsafe {
        if blend_enabled(b) {
            gl.enable(glow::BLEND);
        } else {
            gl.disable(glow::BLEND);
        }
        gl.blend_color(f[0], f[1], f[2], f[3]);
        gl.blend_equation_separate(
            blend_equation(b.color_blend_function),
            blend_equation(b.alpha_blend_function),
        );
        gl.blend_func_separate(
            blend_factor(b.color_source_blend),
            blend_factor(b.color_destination_blend),
            blend_factor(b.alpha_source_blend),
            blend_factor(b.alpha_destination_blend),
        );
        // MonoGame's GL backend only applies the first render target's channels.
        gl.color_mask(mask & 1 != 0, mask & 2 != 0, mask & 4 != 0, mask & 8 != 0);
    }
}

pub(crate) fn apply_depth_stencil(gl: &glow::Context, d: &DepthStencilState) {
    // SAFETY: state calls on the caller's current context.
    unsafe {
        if d.depth_buffer_enable {
            gl.enable(glow::DEPTH_TEST);
        } else {
            gl.disable(glow::DEPTH_TEST);
        }
        gl.depth_func(compare(d.depth_buffer_function));
        gl.depth_mask(d.depth_buffer_write_enable);
        if d.stencil_enable {
            gl.enable(glow::STENCIL_TEST);
        } else {
            gl.disable(glow::STENCIL_TEST);
        }
        let mask = d.stencil_mask as u32;
        if d.two_sided_stencil_mode {
            gl.stencil_func_separate(
                glow::FRONT,
                compare(d.stencil_function),
                d.reference_stencil,
                mask,
            );
            gl.stencil_func_separate(
                glow::BACK,
                compare(d.ccw_stencil_function),
                d.reference_stencil,
                mask,
            );
            gl.stencil_op_separate(
                glow::FRONT,
                stencil_op(d.stencil_fail),
                stencil_op(d.stencil_depth_buffer_fail),
                stencil_op(d.stencil_pass),
            );
            gl.stencil_op_separate(
                glow::BACK,
                stencil_op(d.ccw_stencil_fail),
                stencil_op(d.ccw_stencil_depth_buffer_fail),
                stencil_op(d.ccw_stencil_pass),
            );
        } else {
            gl.stencil_func(compare(d.stencil_function), d.reference_stencil, mask);
            gl.stencil_op(
                stencil_op(d.stencil_fail),
                stencil_op(d.stencil_depth_buffer_fail),
                stencil_op(d.stencil_pass),
            );
        }
        gl.stencil_mask(d.stencil_write_mask as u32);
    }
}

/// Front face for a cull mode. MonoGame culls GL's back faces and picks the front-face winding
/// so that D3D's clockwise convention holds; a bound render target is rendered y-flipped by
/// `posFixup`, which reverses the winding, so the choice flips too.
pub(crate) fn front_face(cull: CullMode, render_target: bool) -> Option<u32> {
    match (cull, render_target) {
        (CullMode::None, _) => None,
        (CullMode::CullClockwiseFace, false) | (CullMode::CullCounterClockwiseFace, true) => {
            Some(glow::CCW)
        }
        (CullMode::CullClockwiseFace, true) | (CullMode::CullCounterClockwiseFace, false) => {
            Some(glow::CW)
        }
    }
}

/// MonoGame's depth-bias multiplier for the active depth format (`1 << 16 - 1` in C# is
/// `1 << 15` by operator precedence; likewise `1 << 23` for 24-bit depth).
pub(crate) fn depth_bias_scale(depth_bits: i32) -> f32 {
    match depth_bits {
        0 => 0.0,
        1..=16 => (1u32 << 15) as f32,
        _ => (1u32 << 23) as f32,
    }
}

/// Applies `r`; `Err` says what of it the context cannot do (nothing is set then): OpenGL ES
/// has no polygon mode, so a wireframe fill is refused there, as MonoGame's GLES builds throw.
pub(crate) fn apply_rasterizer(
    gl: &glow::Context,
    r: &RasterizerState,
    render_target: bool,
) -> Result<(), String> {
    let desktop = !gl.version().is_embedded;
    if !desktop && r.fill_mode == FillMode::WireFrame {
        return Err("FillMode.WireFrame: OpenGL ES has no polygon mode".to_string());
    }
    // SAFETY: state calls on the caller's current context.
    unsafe {
        match front_face(r.cull_mode, render_target) {
            None => gl.disable(glow::CULL_FACE),
            Some(face) => {
                gl.enable(glow::CULL_FACE);
                gl.cull_face(glow::BACK);
                gl.front_face(face);
            }
        }
        let mode = match r.fill_mode {
            FillMode::Solid => glow::FILL,
            FillMode::WireFrame => glow::LINE,
        };
        if desktop {
            gl.polygon_mode(glow::FRONT_AND_BACK, mode);
        }
        if r.scissor_test_enable {
            gl.enable(glow::SCISSOR_TEST);
        } else {
            gl.disable(glow::SCISSOR_TEST);
        }
        if r.depth_bias != 0.0 || r.slope_scale_depth_bias != 0.0 {
            // DEPTH_BITS is not a core-profile query: asking anyway raises an error, and
            // clearing it with glGetError would also clear the caller's pending one.
            let bits = if has_depth_bits_query(gl) {
                gl.get_parameter_i32(glow::DEPTH_BITS)
            } else {
                24
            };
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(
                r.slope_scale_depth_bias,
                r.depth_bias * depth_bias_scale(bits),
            );
        } else {
            gl.disable(glow::POLYGON_OFFSET_FILL);
        }
    }
    Ok(())
}

/// Whether `GL_DEPTH_BITS` may be queried: OpenGL ES, desktop GL before 3.1, and
/// compatibility contexts (3.1 with `GL_ARB_compatibility`, 3.2+ with the compatibility bit).
fn has_depth_bits_query(gl: &glow::Context) -> bool {
    let v = gl.version();
    if v.is_embedded || (v.major, v.minor) < (3, 1) {
        return true;
    }
    if (v.major, v.minor) == (3, 1) {
        return gl.supported_extensions().contains("GL_ARB_compatibility");
    }
    // SAFETY: a query GL 3.2+ has, on the caller's current context.
    let mask = unsafe { gl.get_parameter_i32(glow::CONTEXT_PROFILE_MASK) };
    mask as u32 & glow::CONTEXT_COMPATIBILITY_PROFILE_BIT != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cull_clockwise_keeps_ccw_front_on_the_backbuffer_and_flips_in_targets() {
        assert_eq!(
            front_face(CullMode::CullClockwiseFace, false),
            Some(glow::CCW)
        );
        assert_eq!(
            front_face(CullMode::CullClockwiseFace, true),
            Some(glow::CW)
        );
        assert_eq!(
            front_face(CullMode::CullCounterClockwiseFace, false),
            Some(glow::CW)
        );
        assert_eq!(front_face(CullMode::None, true), None);
    }

    #[test]
    fn stencil_saturation_pairs_are_monogames() {
        assert_eq!(
            stencil_op(StencilOperation::IncrementSaturation),
            glow::INCR
        );
        assert_eq!(stencil_op(StencilOperation::Increment), glow::INCR_WRAP);
        assert_eq!(stencil_op(StencilOperation::Decrement), glow::DECR_WRAP);
    }

    #[test]
    fn default_blend_state_disables_blending() {
        assert!(!blend_enabled(&BlendState::default()));
        let additive = BlendState {
            color_source_blend: Blend::SourceAlpha,
            color_destination_blend: Blend::One,
            ..BlendState::default()
        };
        assert!(blend_enabled(&additive));
    }

    #[test]
    fn depth_bias_scale_follows_csharp_precedence() {
        assert_eq!(depth_bias_scale(16), 32768.0);
        assert_eq!(depth_bias_scale(24), 8388608.0);
        assert_eq!(depth_bias_scale(0), 0.0);
    }
}
