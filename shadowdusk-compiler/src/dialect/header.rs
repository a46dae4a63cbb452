//! The fixed text blocks of the dialect (glsl-dialect.md §2.1, §6.3, §7).
//!
//! One text serves desktop GLSL 1.10 (MonoGame's DesktopGL), GLSL ES 1.00 (OpenGL ES 2, WebGL 1)
//! and GLSL ES 3.00: on an OpenGL ES 3 context MonoGame's runtime prepends `#version 300 es`,
//! renames the legacy builtins and inserts its fragment output declaration after the first line
//! that is exactly `#endif`. That declaration needs the default float precision, so the first
//! such line must close the precision header: every block that comes before it (the ones that
//! may hold `#extension` lines, which GLSL ES allows only before the first statement) closes its
//! `#if` with an `#endif` followed by a comment.

use crate::lower::Stage;

/// Precision header, guarded for GLSL ES (VS highp float, PS mediump float, both mediump int).
/// With `volume` (a `sampler3D` is declared) it also gives `sampler3D` a precision: GLSL ES has
/// a default one for `sampler2D` and `samplerCube` only, in 1.00 (where `GL_OES_texture_3D`
/// adds the type) as in 3.00, and refuses the declaration without one.
pub fn precision(stage: Stage, volume: bool) -> String {
    let float = match stage {
        Stage::Vertex => "highp",
        Stage::Pixel => "mediump",
    };
    let sampler3d = if volume {
        "precision mediump sampler3D;\n"
    } else {
        ""
    };
    format!("#ifdef GL_ES\nprecision {float} float;\nprecision mediump int;\n{sampler3d}#endif\n")
}

/// GLSL ES 1.00 has 3D textures (`sampler3D`, `texture3D`) only through `GL_OES_texture_3D`;
/// desktop GLSL and GLSL ES 3.00 have them built in.
pub const TEXTURE_3D: &str = "#if defined(GL_ES) && __VERSION__ < 300
#extension GL_OES_texture_3D : enable
#endif // GL_OES_texture_3D
";

/// GLSL ES 1.00 declares `gl_FragData` with `gl_MaxDrawBuffers` = 1 elements; writing
/// `gl_FragData[1]` and up needs `GL_EXT_draw_buffers`.
pub const DRAW_BUFFERS: &str = "#if defined(GL_ES) && __VERSION__ < 300
#extension GL_EXT_draw_buffers : enable
#endif // GL_EXT_draw_buffers
";

/// Needed on GLSL ES 1.00 for `dFdx`/`dFdy`/`fwidth`; mgfxc puts it before everything else.
pub const DERIVATIVES: &str = "#extension GL_OES_standard_derivatives : enable\n";

/// Maps the legacy LOD/gradient/projection names onto whatever the driver offers (§6.3).
pub const LOD: &str = "#if __VERSION__ >= 300
#define texture2DLod textureLod
#define textureCubeLod textureLod
#define texture3DLod textureLod
#define texture2DGrad textureGrad
#define textureCubeGrad textureGrad
#define texture3DGrad textureGrad
#define texture2DProj textureProj
#define texture3DProj textureProj
#define texture2DProjGrad textureProjGrad
#define texture3DProjGrad textureProjGrad
#elif defined(GL_ARB_shader_texture_lod)
#extension GL_ARB_shader_texture_lod : enable
#define texture2DGrad texture2DGradARB
#define textureCubeGrad textureCubeGradARB
#define texture3DGrad texture3DGradARB
#define texture2DProjGrad texture2DProjGradARB
#define texture3DProjGrad texture3DProjGradARB
#elif defined(GL_EXT_gpu_shader4)
#extension GL_EXT_gpu_shader4 : enable
#else
#define texture2DGrad(a,b,c,d) texture2D(a,b)
#define textureCubeGrad(a,b,c,d) textureCube(a,b)
#define texture3DGrad(a,b,c,d) texture3D(a,b)
#define texture2DProjGrad(a,b,c,d) texture2DProj(a,b)
#define texture3DProjGrad(a,b,c,d) texture3DProj(a,b)
#define texture2DLod(a,b,c) texture2D(a,b)
#define textureCubeLod(a,b,c) textureCube(a,b)
#define texture3DLod(a,b,c) texture3D(a,b)
#endif // texture LOD
";

/// `SV_Depth`: GLSL ES 1.00 spells the depth output `gl_FragDepthEXT` behind an extension.
pub const DEPTH: &str = "#if defined(GL_ES) && __VERSION__ < 300
#extension GL_EXT_frag_depth : enable
#define ps_oDepth gl_FragDepthEXT
#else
#define ps_oDepth gl_FragDepth
#endif // GL_EXT_frag_depth
";

/// The per-draw position fixup MonoGame's runtime drives through `posFixup` (§7); the third
/// line is SPIRV-Cross's depth remap in mgfxc's spelling.
pub fn pos_fixup(indent: &str) -> String {
    format!(
        "gl_Position.y = gl_Position.y * posFixup.y;\n{indent}gl_Position.xy += posFixup.zw * gl_Position.ww;\n\
         {indent}gl_Position.z = gl_Position.z * 2.0 - gl_Position.w;"
    )
}
