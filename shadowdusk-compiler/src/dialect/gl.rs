//! Test-only headless OpenGL (Mesa llvmpipe through EGL surfaceless, toolchain.md §3, made by
//! `shadowdusk::gl::headless`): compiles the emitted dialect as desktop GLSL 1.10 and as GLSL ES
//! 1.00, and renders with it. The shaders are compiled and linked directly, not through the
//! runtime's loader, so these tests see exactly the text the dialect stage emits (plus one
//! comment line, see [`Gl::compile`]).
//!
//! The GLSL ES 1.00 context is a real OpenGL ES 2.0 one: asked for ES 2, Mesa makes ES 3.2
//! unless `MESA_GLES_VERSION_OVERRIDE=2.0` (which the workspace's `.cargo/config.toml` sets for
//! everything cargo runs), and [`context`] fails when the version is not 2.0.

use glow::HasContext;
use shadowdusk::gl::headless::{Api, HeadlessGl};

/// A current context on this thread; dropped → released.
pub struct Gl {
    context: HeadlessGl,
    /// `GL_VERSION`.
    version: String,
}

/// A context, or `None` after a loud [`shadowdusk_testkit::skip`] (a failure under
/// `SHADOWDUSK_REQUIRE_ALL=1`) when EGL/Mesa is missing.
pub fn context(es: bool) -> Option<Gl> {
    let api = if es { Api::Gles2 } else { Api::DesktopGl };
    match HeadlessGl::with_api(8, 8, api) {
        Ok(context) => {
            // SAFETY: a query on the context just made current on this thread.
            let version = unsafe { context.gl().get_parameter_string(glow::VERSION) };
            assert!(
                !es || version.starts_with("OpenGL ES 2.0"),
                "asked for OpenGL ES 2.0, got `{version}`: run the tests through cargo, whose \
                 .cargo/config.toml sets MESA_GLES_VERSION_OVERRIDE=2.0"
            );
            Some(Gl { context, version })
        }
        Err(e) => {
            let why = format!("GL check ({api:?}): headless OpenGL unavailable: {e}");
            shadowdusk_testkit::skip(&shadowdusk_testkit::this_test(), &why);
            None
        }
    }
}

impl Gl {
    /// Compiles one shader; `Err(log)` on failure, `Ok(log)` otherwise.
    ///
    /// The text gets a last line naming this context's version. Mesa's shader cache skips the
    /// compile of any text that once compiled, in any context of the same driver, and reports
    /// success: a text desktop GL accepted would then pass as GLSL ES 1.00 unchecked.
    pub fn compile(&self, vertex: bool, src: &str) -> Result<(glow::Shader, String), String> {
        let src = format!("{src}\n// compiled as {}\n", self.version);
        unsafe {
            let kind = if vertex {
                glow::VERTEX_SHADER
            } else {
                glow::FRAGMENT_SHADER
            };
            let s = self.context.gl().create_shader(kind)?;
            self.context.gl().shader_source(s, &src);
            self.context.gl().compile_shader(s);
            let log = self.context.gl().get_shader_info_log(s);
            if self.context.gl().get_shader_compile_status(s) {
                Ok((s, log))
            } else {
                Err(log)
            }
        }
    }

    /// Links a program, binding `attributes[k]` to location k before linking.
    pub fn link(&self, vs: &str, ps: &str, attributes: &[&str]) -> Result<glow::Program, String> {
        let (v, _) = self
            .compile(true, vs)
            .map_err(|l| format!("VS: {l}\n{vs}"))?;
        let (f, _) = self
            .compile(false, ps)
            .map_err(|l| format!("PS: {l}\n{ps}"))?;
        unsafe {
            let p = self.context.gl().create_program()?;
            self.context.gl().attach_shader(p, v);
            self.context.gl().attach_shader(p, f);
            for (k, a) in attributes.iter().enumerate() {
                self.context.gl().bind_attrib_location(p, k as u32, a);
            }
            self.context.gl().link_program(p);
            if !self.context.gl().get_program_link_status(p) {
                return Err(self.context.gl().get_program_info_log(p));
            }
            Ok(p)
        }
    }

    /// Draws a full-screen quad (attribute 0 = xy in clip space) into a 1x1 RGBA32F target with
    /// `uniforms` (name → vec4 data) set, and returns the pixel (desktop GL only).
    pub fn render_pixel(&self, program: glow::Program, uniforms: &[(&str, Vec<f32>)]) -> [f32; 4] {
        unsafe {
            let gl = self.context.gl();
            let tex = gl.create_texture().unwrap();
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA32F as i32,
                1,
                1,
                0,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(None),
            );
            let fbo = gl.create_framebuffer().unwrap();
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::TEXTURE_2D,
                Some(tex),
                0,
            );
            assert_eq!(
                gl.check_framebuffer_status(glow::FRAMEBUFFER),
                glow::FRAMEBUFFER_COMPLETE
            );
            gl.viewport(0, 0, 1, 1);
            gl.use_program(Some(program));
            for (name, data) in uniforms {
                let loc = gl.get_uniform_location(program, name);
                assert!(loc.is_some(), "uniform {name} not active");
                gl.uniform_4_f32_slice(loc.as_ref(), data);
            }
            let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
            let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_le_bytes()).collect();
            let vao = gl.create_vertex_array().unwrap();
            gl.bind_vertex_array(Some(vao));
            let vbo = gl.create_buffer().unwrap();
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STATIC_DRAW);
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, 8, 0);
            gl.draw_arrays(glow::TRIANGLE_STRIP, 0, 4);
            let mut px = [0u8; 16];
            gl.read_pixels(
                0,
                0,
                1,
                1,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelPackData::Slice(Some(&mut px)),
            );
            assert_eq!(gl.get_error(), glow::NO_ERROR);
            let f = |k: usize| {
                f32::from_le_bytes([px[4 * k], px[4 * k + 1], px[4 * k + 2], px[4 * k + 3]])
            };
            [f(0), f(1), f(2), f(3)]
        }
    }
}

/// Compiles `src` in a desktop GLSL 1.10 and a GLES2 (GLSL ES 1.00) context and panics on any
/// error or on a warning not in `allowed_warnings`.
pub fn assert_compiles(vertex: bool, src: &str, check_es: bool) {
    let modes: &[bool] = if check_es { &[false, true] } else { &[false] };
    for &es in modes {
        let Some(g) = context(es) else { return };
        match g.compile(vertex, src) {
            Ok((_, log)) => {
                let noisy = log
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .filter(|l| !l.contains("GL_OES_standard_derivatives"))
                    .count();
                assert_eq!(
                    noisy,
                    0,
                    "{} compile log not clean:\n{log}\n{src}",
                    if es { "ES" } else { "GL" }
                );
            }
            Err(log) => panic!(
                "{} compile failed:\n{log}\n{src}",
                if es { "GLSL ES 1.00" } else { "GLSL 1.10" }
            ),
        }
    }
}
