//! GL state shared by the render tests: a clean slate between draws, and the "every uniform at
//! zero" control that proves the uniforms a test sets really arrive.

use glow::HasContext;
use shadowdusk::gl::{DynEffect, GlContext};
use shadowdusk::mgfx::ParameterClass;

/// MonoGame's defaults for everything a pass does not bake (BlendState.Opaque,
/// DepthStencilState.None, RasterizerState.CullNone), so one draw cannot leak into the next.
pub fn reset_states(ctx: &GlContext) {
    let gl = ctx.glow();
    // SAFETY: plain state calls on the current context (`GlContext`).
    unsafe {
        gl.disable(glow::BLEND);
        gl.disable(glow::DEPTH_TEST);
        gl.disable(glow::STENCIL_TEST);
        gl.disable(glow::CULL_FACE);
        gl.disable(glow::SCISSOR_TEST);
        gl.disable(glow::POLYGON_OFFSET_FILL);
        gl.polygon_mode(glow::FRONT_AND_BACK, glow::FILL);
        // GL's initial winding. MonoGame sets it only when a pass culls, so a `VFACE` shader
        // under CullMode.None sees this one (corpus::gl_front_facing).
        gl.front_face(glow::CCW);
        gl.color_mask(true, true, true, true);
        gl.depth_mask(true);
    }
}

/// Sets every value parameter of the effect to zeros.
pub fn zero_values(effect: &mut DynEffect) -> Result<(), String> {
    let zeros: Vec<(usize, usize)> = effect
        .effect()
        .parameters
        .iter()
        .enumerate()
        .filter(|(_, p)| p.class != ParameterClass::Object)
        .filter_map(|(i, p)| shadowdusk::gl::parameter_value_count(p).map(|n| (i, n)))
        .collect();
    for (i, n) in zeros {
        effect
            .set_values(i, &vec![0.0; n])
            .map_err(|err| format!("zeroing parameter {i}: {err}"))?;
    }
    Ok(())
}
