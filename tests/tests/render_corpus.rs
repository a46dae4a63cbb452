//! Renders every corpus effect on headless OpenGL (Mesa llvmpipe) with `shadowdusk::gl` and
//! checks the picture against the table in `shadowdusk_tests::corpus`: every effect against a
//! CPU reference of its shader math (max channel difference 2/255, in both back-buffer and
//! render-target orientation), and where listed, sensitivity checks (changing one parameter
//! changes the picture). Rendering with all value parameters at zero must then *fail* the
//! comparison, which proves the uniforms reach the shaders.
//!
//! Without headless GL the tests print a loud message and skip. Failure images go to
//! `target/test-output/corpus-<file>-{actual,expected}-<orientation>.png`.

use glow::HasContext;
use image::{Rgba, RgbaImage};

use shadowdusk::gl::{DynEffect, GlContext, GlTexture, RenderTarget};
use shadowdusk::mgfx::ParameterClass;
use shadowdusk_compiler::pipeline::{compile_file, Options};
use shadowdusk_tests::corpus::{
    corpus_dir, entries, Entry, Geometry, PixelFn, TextureSpec, Value, TARGET_SIZE,
};
use shadowdusk_tests::gl_state::{reset_states, zero_values};
use shadowdusk_tests::parity::mesh_elements;
use shadowdusk_tests::{
    draw_mesh, draw_sprite, save_png, texture_3d, texture_cube, Fbo, Filter, Headless, Orientation,
    Sprite,
};

const TOLERANCE_U8: u8 = 2;

/// Creates a 2D texture with every mip level of the spec (the harness helper makes one level).
fn texture_2d_mips(ctx: &GlContext, spec: &TextureSpec) -> Result<GlTexture, String> {
    let levels = spec.levels();
    let gl = ctx.glow();
    // SAFETY: the context is current (`GlContext`); plain GL object creation and uploads of
    // exactly w*h*4 bytes per level.
    unsafe {
        let t = GlTexture::from_raw(ctx, gl.create_texture()?, glow::TEXTURE_2D);
        gl.bind_texture(glow::TEXTURE_2D, Some(t.raw()));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        for level in 0..levels {
            let (w, h) = spec.level_size(level);
            let data = spec.level_rgba(level);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                level as i32,
                glow::RGBA8 as i32,
                w as i32,
                h as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&data)),
            );
        }
        // SamplerState.PointClamp, for samplers without a baked state.
        let min = if levels > 1 {
            glow::NEAREST_MIPMAP_NEAREST
        } else {
            glow::NEAREST
        };
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, min as i32);
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_MAG_FILTER,
            glow::NEAREST as i32,
        );
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_WRAP_S,
            glow::CLAMP_TO_EDGE as i32,
        );
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_WRAP_T,
            glow::CLAMP_TO_EDGE as i32,
        );
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAX_LEVEL, levels as i32 - 1);
        gl.bind_texture(glow::TEXTURE_2D, None);
        Ok(t)
    }
}

fn create_texture(ctx: &GlContext, spec: &TextureSpec) -> Result<GlTexture, String> {
    match spec {
        TextureSpec::D2 { .. } => texture_2d_mips(ctx, spec),
        TextureSpec::Cube { size, .. } => {
            let faces: Vec<Vec<u8>> = (0..6).map(|f| spec.face_rgba(f)).collect();
            let refs: [&[u8]; 6] = std::array::from_fn(|i| faces[i].as_slice());
            texture_cube(ctx, *size, refs, Filter::Nearest)
        }
        TextureSpec::D3 { size } => texture_3d(
            ctx,
            *size,
            *size,
            *size,
            &spec.volume_rgba(),
            Filter::Nearest,
        ),
    }
}

/// One effect loaded with its textures (the effect holds them; dropping it frees all).
struct Loaded {
    effect: DynEffect,
}

fn compile(e: &Entry) -> Result<Vec<u8>, String> {
    compile_file(&corpus_dir().join(e.file), &Options::default())
        .map(|c| c.bytes)
        .map_err(|err| format!("does not compile:\n{}", err.render(false)))
}

fn load(h: &Headless, e: &Entry, bytes: &[u8]) -> Result<Loaded, String> {
    let mut effect =
        DynEffect::new(h.ctx(), bytes).map_err(|err| format!("does not load: {err}"))?;
    for (name, spec) in &e.render.textures {
        let tex = create_texture(h.ctx(), spec)?;
        let i = effect
            .parameter(name)
            .map_err(|err| format!("texture {name}: {err}"))?;
        effect
            .set_texture(i, Some(&tex))
            .map_err(|err| format!("texture {name}: {err}"))?;
    }
    for (name, value) in &e.render.values {
        set(&mut effect, name, value)?;
    }
    Ok(Loaded { effect })
}

fn set(effect: &mut DynEffect, name: &str, value: &Value) -> Result<(), String> {
    let i = effect.parameter(name).map_err(|err| err.to_string())?;
    effect
        .set_values(i, &value.mgfx_data())
        .map_err(|err| format!("setting {name}: {err}"))
}

/// Draws every pass of the entry's technique into the bound framebuffer.
fn draw(h: &Headless, l: &mut Loaded, e: &Entry, target: &RenderTarget) -> Result<(), String> {
    let t = l
        .effect
        .technique(e.render.technique)
        .map_err(|err| err.to_string())?;
    let passes: Vec<_> = l.effect.passes(t).collect();
    h.clear([0, 0, 0, 0]);
    reset_states(h.ctx());
    for pass in passes {
        let applied = l
            .effect
            .apply(pass, target)
            .map_err(|err| format!("apply pass {}: {err}", pass.pass))?;
        match &e.render.geometry {
            Geometry::Sprite { rect, color } => {
                let s = Sprite {
                    color: *color,
                    ..Sprite::new(rect[0], rect[1], rect[2], rect[3])
                };
                draw_sprite(h.ctx(), &applied, &s)?;
            }
            Geometry::Mesh(mesh) => {
                let owned = mesh_elements(mesh);
                let elements: Vec<shadowdusk_tests::Element> = owned
                    .iter()
                    .map(|e| (e.usage, e.index, e.components() as i32, e.data.as_slice()))
                    .collect();
                draw_mesh(h.ctx(), &applied, &elements, &mesh.indices)?;
            }
        }
    }
    Ok(())
}

/// Renders in one orientation and returns the top-down image.
fn render(h: &Headless, l: &mut Loaded, e: &Entry, o: Orientation) -> Result<RgbaImage, String> {
    match o {
        Orientation::Backbuffer => {
            // SAFETY: binds the default framebuffer.
            unsafe { h.gl().bind_framebuffer(glow::FRAMEBUFFER, None) };
            draw(h, l, e, &h.target(o))?;
            Ok(h.read_rgba(o))
        }
        Orientation::RenderTarget => {
            let fbo = Fbo::new(h.ctx(), h.width, h.height)?;
            fbo.bind();
            let result = draw(h, l, e, &fbo.target()).map(|_| fbo.read_rgba());
            Fbo::unbind(h.ctx(), h.width, h.height);
            result
        }
    }
}

fn orientation_name(o: Orientation) -> &'static str {
    match o {
        Orientation::Backbuffer => "backbuffer",
        Orientation::RenderTarget => "rendertarget",
    }
}

/// The reference image (undecided pixels magenta) and the number of mismatching pixels.
fn compare(img: &RgbaImage, f: PixelFn) -> (RgbaImage, usize, String) {
    let (w, h) = TARGET_SIZE;
    let mut expected = RgbaImage::new(w, h);
    let mut bad = 0;
    let mut first = String::new();
    for y in 0..h {
        for x in 0..w {
            let Some(want) = f(x, y) else {
                expected.put_pixel(x, y, Rgba([255, 0, 255, 255]));
                continue;
            };
            let want8 = want.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
            expected.put_pixel(x, y, Rgba(want8));
            let got = img.get_pixel(x, y).0;
            if got
                .iter()
                .zip(want8)
                .any(|(a, b)| a.abs_diff(b) > TOLERANCE_U8)
            {
                if bad == 0 {
                    first = format!("first at ({x},{y}): got {got:?}, expected {want8:?}");
                }
                bad += 1;
            }
        }
    }
    (expected, bad, first)
}

fn save_failure(
    e: &Entry,
    o: Orientation,
    actual: &RgbaImage,
    expected: Option<&RgbaImage>,
) -> String {
    let stem = format!("corpus-{}", e.file.trim_end_matches(".fx"));
    let o = orientation_name(o);
    let mut where_ = Vec::new();
    if let Ok(p) = save_png(actual, &format!("{stem}-actual-{o}.png")) {
        where_.push(p.display().to_string());
    }
    if let Some(exp) = expected {
        if let Ok(p) = save_png(exp, &format!("{stem}-expected-{o}.png")) {
            where_.push(p.display().to_string());
        }
    }
    where_.join(", ")
}

fn changed_fraction(a: &RgbaImage, b: &RgbaImage, region: [u32; 4]) -> f32 {
    let [x0, y0, w, h] = region;
    let mut changed = 0;
    for y in y0..(y0 + h).min(a.height()) {
        for x in x0..(x0 + w).min(a.width()) {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            if p.iter().zip(q).any(|(u, v)| u.abs_diff(v) > TOLERANCE_U8) {
                changed += 1;
            }
        }
    }
    changed as f32 / (w * h) as f32
}

/// Runs one entry on the given MGFX bytes; returns its failures.
fn run_entry(h: &Headless, e: &Entry, bytes: &[u8]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut loaded = match load(h, e, bytes) {
        Ok(l) => l,
        Err(err) => return vec![format!("{}: {err}", e.file)],
    };
    for o in [Orientation::Backbuffer, Orientation::RenderTarget] {
        let img = match render(h, &mut loaded, e, o) {
            Ok(img) => img,
            Err(err) => {
                failures.push(format!("{} ({}): {err}", e.file, orientation_name(o)));
                continue;
            }
        };
        let f = e.render.check.reference.pixel_fn(o);
        let (expected, bad, first) = compare(&img, f);
        if bad > 0 {
            let files = save_failure(e, o, &img, Some(&expected));
            failures.push(format!(
                "{} ({}): {bad} pixels differ from the reference by more than {TOLERANCE_U8}/255; {first}; images: {files}",
                e.file,
                orientation_name(o)
            ));
        }
        for s in &e.render.check.sensitivities {
            let base = e
                .render
                .values
                .iter()
                .find(|(n, _)| *n == s.parameter)
                .map(|(_, v)| v.clone());
            let result = set(&mut loaded.effect, s.parameter, &s.changed)
                .and_then(|_| render(h, &mut loaded, e, o));
            if let Some(base) = base {
                let _ = set(&mut loaded.effect, s.parameter, &base);
            }
            match result {
                Ok(changed) => {
                    let frac = changed_fraction(&img, &changed, s.region);
                    if frac < s.min_fraction {
                        let files = save_failure(e, o, &changed, None);
                        failures.push(format!(
                            "{} ({}): changing {} changed {:.0}% of region {:?}, expected at least {:.0}%; image: {files}",
                            e.file,
                            orientation_name(o),
                            s.parameter,
                            frac * 100.0,
                            s.region,
                            s.min_fraction * 100.0
                        ));
                    }
                }
                Err(err) => failures.push(format!("{}: changing {}: {err}", e.file, s.parameter)),
            }
        }
    }
    // With every uniform at zero the reference must no longer match: the values do arrive.
    let has_values = loaded
        .effect
        .effect()
        .parameters
        .iter()
        .any(|p| p.class != ParameterClass::Object);
    if has_values {
        let o = Orientation::Backbuffer;
        let outcome = zero_values(&mut loaded.effect).and_then(|_| render(h, &mut loaded, e, o));
        match outcome {
            Ok(img) if compare(&img, e.render.check.reference.pixel_fn(o)).1 == 0 => failures.push(format!(
                "{}: rendering with all uniforms at zero still matches the reference; the reference does not depend on the uniforms it claims to test",
                e.file
            )),
            Ok(_) => {}
            Err(err) => failures.push(format!("{}: zero-uniform render: {err}", e.file)),
        }
    }
    failures
}

#[test]
fn every_corpus_effect_renders_like_its_reference() {
    let (w, hgt) = TARGET_SIZE;
    let Some(h) = Headless::or_skip("every_corpus_effect_renders_like_its_reference", w, hgt)
    else {
        return;
    };
    let mut failures = Vec::new();
    for e in entries() {
        match compile(&e) {
            Ok(bytes) => failures.extend(run_entry(&h, &e, &bytes)),
            Err(err) => failures.push(format!("{}: {err}", e.file)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} render failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---- the references and the harness conventions, checked without the compiler ----
//
// Hand-written MojoShader-dialect GLSL (glsl-dialect.md §2–§4) for three entries, packed into
// MGFX models the way mgfxc lays them out. If these pass, the references' conventions (texture
// row order, SpriteBatch uv, cube faces, register = matrix column, mul(v, M), clip-space to
// pixels) agree with MonoGame's runtime model, so a compiler output that fails the same
// reference is the compiler's fault.

mod hand_written {
    use shadowdusk::mgfx::{
        Attribute, ConstantBuffer, Effect, ParameterClass as PC, SamplerType as ST, Shader,
        ShaderStage, TextureAddressMode as TA, TextureFilter, VertexElementUsage as U,
    };
    use shadowdusk_tests::effect_builder::{
        ps_cbuffer, ps_only_effect, sampler, texture_param, value_param,
    };

    const TINT_PS: &str = "uniform vec4 ps_uniforms_vec4[1];\nuniform sampler2D ps_s0;\nvarying vec4 vFrontColor;\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\tgl_FragColor = texture2D(ps_s0, vTexCoord0.xy) * vFrontColor * ps_uniforms_vec4[0];\n}\n";

    const CUBE_PS: &str = "uniform vec4 ps_uniforms_vec4[4];\nuniform samplerCube ps_s0;\nvarying vec4 vFrontColor;\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\tvec3 l = vec3(vTexCoord0.xy * 2.0 - 1.0, ps_uniforms_vec4[3].x);\n\tvec3 d = vec3(dot(l, ps_uniforms_vec4[0].xyz), dot(l, ps_uniforms_vec4[1].xyz), dot(l, ps_uniforms_vec4[2].xyz));\n\tgl_FragColor = textureCube(ps_s0, d) * vFrontColor;\n}\n";

    const CHAIN_VS: &str = "uniform vec4 vs_uniforms_vec4[12];\nuniform vec4 posFixup;\nattribute vec4 vs_v0;\nattribute vec4 vs_v1;\nattribute vec4 vs_v2;\nvarying vec4 vFrontColor;\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\tvec4 w = vec4(dot(vs_v0, vs_uniforms_vec4[0]), dot(vs_v0, vs_uniforms_vec4[1]), dot(vs_v0, vs_uniforms_vec4[2]), dot(vs_v0, vs_uniforms_vec4[3]));\n\tvec4 v = vec4(dot(w, vs_uniforms_vec4[4]), dot(w, vs_uniforms_vec4[5]), dot(w, vs_uniforms_vec4[6]), dot(w, vs_uniforms_vec4[7]));\n\tgl_Position = vec4(dot(v, vs_uniforms_vec4[8]), dot(v, vs_uniforms_vec4[9]), dot(v, vs_uniforms_vec4[10]), dot(v, vs_uniforms_vec4[11]));\n\tvFrontColor = vs_v1;\n\tvTexCoord0 = vs_v2;\n\tgl_Position.y = gl_Position.y * posFixup.y;\n\tgl_Position.xy += posFixup.zw * gl_Position.ww;\n\tgl_Position.z = gl_Position.z * 2.0 - gl_Position.w;\n}\n";

    const CHAIN_PS: &str = "uniform sampler2D ps_s0;\nvarying vec4 vFrontColor;\nvarying vec4 vTexCoord0;\nvoid main()\n{\n\tgl_FragColor = texture2D(ps_s0, vTexCoord0.xy) * vFrontColor;\n}\n";

    fn named(mut e: Effect, technique: &str, pass: &str) -> Effect {
        e.techniques[0].name = technique.into();
        e.techniques[0].passes[0].name = pass.into();
        e
    }

    fn point(u: TA, v: TA) -> shadowdusk::mgfx::SamplerState {
        shadowdusk::mgfx::SamplerState {
            address_u: u,
            address_v: v,
            filter: TextureFilter::Point,
            ..Default::default()
        }
    }

    /// (corpus file, MGFX model) pairs.
    pub fn effects() -> Vec<(&'static str, Effect)> {
        let tint = ps_only_effect(
            TINT_PS,
            vec![sampler(ST::Sampler2D, 0, 1, None)],
            vec![ps_cbuffer(16, &[(0, 0)])],
            vec![
                value_param("Tint", PC::Vector, 1, 4, 0),
                texture_param("SpriteTexture", ST::Sampler2D),
            ],
        );
        let cube = ps_only_effect(
            CUBE_PS,
            vec![sampler(
                ST::SamplerCube,
                0,
                2,
                Some(point(TA::Wrap, TA::Wrap)),
            )],
            vec![ps_cbuffer(64, &[(0, 0), (1, 48)])],
            vec![
                value_param("Orientation", PC::Matrix, 3, 3, 0),
                value_param("Depth", PC::Scalar, 1, 1, 0),
                texture_param("EnvironmentMap", ST::SamplerCube),
            ],
        );
        let mut chain = ps_only_effect(
            CHAIN_PS,
            vec![sampler(
                ST::Sampler2D,
                0,
                3,
                Some(point(TA::Clamp, TA::Clamp)),
            )],
            vec![],
            vec![
                value_param("World", PC::Matrix, 4, 4, 0),
                value_param("View", PC::Matrix, 4, 4, 0),
                value_param("Projection", PC::Matrix, 4, 4, 0),
                texture_param("DiffuseTexture", ST::Sampler2D),
            ],
        );
        chain.constant_buffers.push(ConstantBuffer {
            name: "vs_uniforms_vec4".into(),
            ..ps_cbuffer(192, &[(0, 0), (1, 64), (2, 128)])
        });
        let attr = |name: &str, usage| Attribute {
            name: name.into(),
            usage,
            index: 0,
            location: 0,
        };
        chain.shaders.push(Shader {
            stage: ShaderStage::Vertex,
            source_file: None,
            entry_point: None,
            code: CHAIN_VS.as_bytes().to_vec(),
            samplers: vec![],
            cbuffers: vec![0],
            attributes: vec![
                attr("vs_v0", U::Position),
                attr("vs_v1", U::Color),
                attr("vs_v2", U::TextureCoordinate),
            ],
        });
        chain.techniques[0].passes[0].vertex_shader = 1;
        vec![
            ("template_tint.fx", named(tint, "SpriteDrawing", "P0")),
            ("cube_reflect.fx", named(cube, "Reflect", "P0")),
            ("vs_wvp_chain.fx", named(chain, "Textured", "P0")),
        ]
    }
}

#[test]
fn hand_written_glsl_matches_the_references() {
    let (w, hgt) = TARGET_SIZE;
    let Some(h) = Headless::or_skip("hand_written_glsl_matches_the_references", w, hgt) else {
        return;
    };
    let table = entries();
    let mut failures = Vec::new();
    for (file, effect) in hand_written::effects() {
        let e = table.iter().find(|e| e.file == file).expect("entry exists");
        let bytes = shadowdusk::mgfx::write(&effect).expect("hand-built model writes");
        failures.extend(run_entry(&h, e, &bytes));
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// MGFX v11 (MonoGame's develop line) carries the same shaders: every corpus effect written as
/// v11 reads back as v11, names each shader's source and entry point, loads through `DynEffect`
/// and draws exactly the pixels of its v10 compile.
#[test]
fn every_corpus_effect_draws_the_same_from_mgfx_v11() {
    use shadowdusk_compiler::pipeline::MgfxVersion;
    let (w, hgt) = TARGET_SIZE;
    let Some(h) = Headless::or_skip("every_corpus_effect_draws_the_same_from_mgfx_v11", w, hgt)
    else {
        return;
    };
    let v11 = Options {
        mgfx_version: MgfxVersion::V11,
        ..Options::default()
    };
    let mut failures = Vec::new();
    for e in entries() {
        let path = corpus_dir().join(e.file);
        let (old, new) = match (
            compile_file(&path, &Options::default()),
            compile_file(&path, &v11),
        ) {
            (Ok(a), Ok(b)) => (a.bytes, b.bytes),
            _ => {
                failures.push(format!("{}: does not compile", e.file));
                continue;
            }
        };
        match shadowdusk::mgfx::read(&new) {
            Ok(m) if m.version == 11 => {
                if m.shaders
                    .iter()
                    .any(|s| s.entry_point.is_none() || s.source_file.is_none())
                {
                    failures.push(format!("{}: a v11 shader without source or entry", e.file));
                }
            }
            Ok(m) => failures.push(format!("{}: version {}", e.file, m.version)),
            Err(err) => failures.push(format!("{}: v11 does not read back: {err}", e.file)),
        }
        let mut images = Vec::new();
        for bytes in [&old, &new] {
            match load(&h, &e, bytes) {
                Ok(mut l) => match render(&h, &mut l, &e, Orientation::Backbuffer) {
                    Ok(img) => images.push(img),
                    Err(err) => failures.push(format!("{}: {err}", e.file)),
                },
                Err(err) => failures.push(format!("{}: {err}", e.file)),
            }
        }
        if images.len() == 2 && images[0] != images[1] {
            failures.push(format!("{}: v11 draws other pixels than v10", e.file));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
