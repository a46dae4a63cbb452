//! Compiling a GLSL text the way each of MonoGame's OpenGL back ends would, to check it: as
//! desktop GLSL 1.10 (no `#version`, DesktopGL) or 1.20, as GLSL ES 1.00 in a real OpenGL ES 2.0
//! context (Android, iOS, WebGL 1), and as GLSL ES 3.00 after the rewrite MonoGame's runtime
//! applies on an OpenGL ES 3 context ([`monogame_es3_upgrade`]).
//!
//! Asked for OpenGL ES 2, Mesa makes an ES 3.2 context unless `MESA_GLES_VERSION_OVERRIDE=2.0`,
//! which the workspace's `.cargo/config.toml` sets for everything cargo runs; [`gles2`] checks
//! the version the context reports.

use glow::HasContext;
use shadowdusk::gl::headless::{Api, HeadlessGl};

/// A headless OpenGL ES 2.0 context current on this thread, or `None` after a loud
/// [`crate::skip`] when EGL/Mesa is missing. Panics when the context is not ES 2.0.
pub fn gles2(test: &str) -> Option<HeadlessGl> {
    let context = match HeadlessGl::with_api(8, 8, Api::Gles2) {
        Ok(context) => context,
        Err(e) => {
            crate::skip(test, &format!("no headless OpenGL ES 2.0 context: {e}"));
            return None;
        }
    };
    let version = gl_version(context.gl());
    assert!(
        version.starts_with("OpenGL ES 2.0"),
        "asked for OpenGL ES 2.0, got `{version}`: run the tests through cargo, whose \
         .cargo/config.toml sets MESA_GLES_VERSION_OVERRIDE=2.0"
    );
    Some(context)
}

/// The context's `GL_VERSION`.
pub fn gl_version(gl: &glow::Context) -> String {
    // SAFETY: a query on the caller's current context.
    unsafe { gl.get_parameter_string(glow::VERSION) }
}

/// Compiles `source` as a vertex or fragment shader in `gl`'s current context: `Err(log)` when
/// the driver refuses it, `Ok(log)` otherwise.
///
/// The text gets a last comment line naming the context's version, because Mesa's shader cache
/// skips the compile of a text that once compiled, in any context of the same driver, and
/// reports success: a text desktop GL accepted would otherwise pass as GLSL ES unchecked.
pub fn compile(gl: &glow::Context, vertex: bool, source: &str) -> Result<String, String> {
    let source = format!("{source}\n// compiled as {}\n", gl_version(gl));
    let kind = if vertex {
        glow::VERTEX_SHADER
    } else {
        glow::FRAGMENT_SHADER
    };
    // SAFETY: object creation and compilation on the caller's current context; the shader
    // object is deleted before returning.
    unsafe {
        let shader = gl.create_shader(kind)?;
        gl.shader_source(shader, &source);
        gl.compile_shader(shader);
        let log = gl.get_shader_info_log(shader);
        let ok = gl.get_shader_compile_status(shader);
        gl.delete_shader(shader);
        if ok {
            Ok(log)
        } else {
            Err(log)
        }
    }
}

/// The text MonoGame's OpenGL runtime compiles on an OpenGL ES 3 context: it turns the dialect
/// into GLSL ES 3.00 by text replacement (`Shader.OpenGL.cs`, `UpgradeEs2ShaderSourceToEs3`):
/// `#version 300 es` first (unless the text has a `#version`), `texture(` for the legacy
/// sampling builtins, `in`/`out` for `attribute`/`varying`, and in a pixel shader an
/// `out vec4 _mgColor0` declared after the first `#endif` line for `gl_FragColor` (at the very
/// start when there is none) and one `_mgColor<i>` per `#define ps_oC<i> gl_FragData[<i>]`.
pub fn monogame_es3_upgrade(glsl: &str, vertex: bool) -> String {
    let mut text = if glsl.contains("#version") {
        glsl.to_string()
    } else {
        format!("#version 300 es\n{glsl}")
    };
    for legacy in ["texture2D(", "textureCube(", "texture3D("] {
        text = text.replace(legacy, "texture(");
    }
    if vertex {
        return text
            .replace("attribute ", "in ")
            .replace("varying ", "out ");
    }
    text = text.replace("varying ", "in ");
    if text.contains("gl_FragColor") {
        text = text.replace("gl_FragColor", "_mgColor0");
        let declaration = "layout(location = 0) out vec4 _mgColor0;\n";
        if !text.contains(declaration) {
            text = match text.find("#endif\n") {
                Some(at) => {
                    let at = at + "#endif\n".len();
                    format!("{}{declaration}{}", &text[..at], &text[at..])
                }
                None => format!("{declaration}{text}"),
            };
        }
    }
    for i in 0..8 {
        let legacy = format!("#define ps_oC{i} gl_FragData[{i}]");
        let upgraded =
            format!("layout(location = {i}) out vec4 _mgColor{i};\n#define ps_oC{i} _mgColor{i}");
        text = text.replace(&legacy, &upgraded);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_es3_upgrade_declares_outputs_after_the_first_endif() {
        let ps = "#ifdef GL_ES\nprecision mediump float;\n#endif\n\nvarying vec4 vTexCoord0;\n\
                  uniform sampler2D ps_s0;\n#define ps_oC0 gl_FragColor\n\
                  void main() { ps_oC0 = texture2D(ps_s0, vTexCoord0.xy); }\n";
        assert_eq!(
            monogame_es3_upgrade(ps, false),
            "#version 300 es\n#ifdef GL_ES\nprecision mediump float;\n#endif\n\
             layout(location = 0) out vec4 _mgColor0;\n\nin vec4 vTexCoord0;\n\
             uniform sampler2D ps_s0;\n#define ps_oC0 _mgColor0\n\
             void main() { ps_oC0 = texture(ps_s0, vTexCoord0.xy); }\n"
        );
        let mrt = "#define ps_oC0 gl_FragData[0]\n#define ps_oC1 gl_FragData[1]\n";
        assert_eq!(
            monogame_es3_upgrade(mrt, false),
            "#version 300 es\nlayout(location = 0) out vec4 _mgColor0;\n#define ps_oC0 _mgColor0\n\
             layout(location = 1) out vec4 _mgColor1;\n#define ps_oC1 _mgColor1\n"
        );
        let vs = "attribute vec4 vs_v0;\nvarying vec4 vTexCoord0;\n";
        assert_eq!(
            monogame_es3_upgrade(vs, true),
            "#version 300 es\nin vec4 vs_v0;\nout vec4 vTexCoord0;\n"
        );
    }
}
