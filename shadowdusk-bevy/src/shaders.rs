//! An effect's pass as Bevy shaders: which passes Bevy can draw, the pass's pixel shader with
//! its bind group renumbered, and its vertex stage: the pass's own vertex shader on a mesh
//! (`vertex.rs`), or for a pixel-only pass the one written here.
//!
//! A pixel-only pass in MonoGame draws with SpriteBatch's vertex shader, which writes COLOR0
//! (the sprite's colour) and TEXCOORD0 (the texture coordinate). Bevy draws a material over a
//! mesh and a post-process over the whole view, so the vertex stage here writes the same two
//! values from those sources, at exactly the locations the pixel shader reads them (its own
//! numbering, `Varying::location`), so the pixel shader's WGSL is used as the compiler wrote
//! it. Only its bind group changes: the compiler puts pixel resources in group 1, a Bevy 2D
//! material's are in `#{MATERIAL_BIND_GROUP}` (a shader definition Bevy fills in).

use std::any::TypeId;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::marker::PhantomData;

use bevy::asset::uuid::Uuid;
use bevy::asset::Handle;
use bevy::shader::Shader;
use bevy::sprite_render::MATERIAL_2D_BIND_GROUP_INDEX;
use shadowdusk::mgfx::BlendState;
use shadowdusk::wgsl::{self, Stage, Unlinked, Varying, WgslPass, WgslShader};
use shadowdusk::{Effect, Pass};

use crate::{vertex, EffectError};

/// The material's binding of SpriteBatch's vertex colour (a `vec4<f32>` uniform), past every
/// texture unit's pair (unit N at 1 + 2N and 2 + 2N; D3D9 has 16 units).
pub(crate) const COLOR_BINDING: u32 = 64;

/// Where the vertex stage takes position, colour and texture coordinate from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Source {
    /// A `Mesh2d`: its positions through Bevy's mesh and view transforms, its UVs, the
    /// material's colour times its vertex colours.
    Mesh,
    /// One triangle over the whole view: UV 0–1 across it, white.
    Screen,
    /// A `Mesh2d` through the effect's vertex shader `.0` (index into `WgslEffect::shaders`).
    Own(usize),
}

/// One of the shaders made for a pixel shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Vertex(Source),
    Fragment(Source),
}

/// A pass Bevy can draw: the pass, its pixel shader (index into `WgslEffect::shaders`) and
/// its own vertex shader, if it has one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DrawablePass {
    pub(crate) pass: &'static WgslPass,
    pub(crate) pixel: usize,
    pub(crate) shader: &'static WgslShader,
    pub(crate) vertex: Option<(usize, &'static WgslShader)>,
}

impl DrawablePass {
    /// Its blend state: the pass's, else the device's. A pixel-only pass stands for a
    /// `SpriteBatch.Draw`, so SpriteBatch's (`BlendState.AlphaBlend`); a pass with its own vertex
    /// shader stands for a mesh drawn with the effect, so the initial `BlendState.Opaque`.
    pub(crate) fn blend(&self) -> BlendState {
        self.pass.blend.unwrap_or_else(|| match self.vertex {
            Some(_) => BlendState::default(),
            None => shadowdusk::DeviceStates::sprite_batch().blend,
        })
    }

    /// Where its vertex stage comes from, on a mesh.
    pub(crate) fn mesh_source(&self) -> Source {
        self.vertex.map_or(Source::Mesh, |(vs, _)| Source::Own(vs))
    }
}

/// `pass` of `E` if Bevy can draw it, else what stops it: with its own vertex shader on a mesh
/// when `own_vertex` (materials), else with SpriteBatch's vertex stage (post-processes, and
/// pixel-only passes everywhere).
pub(crate) fn drawable<E: Effect>(
    pass: Pass<E>,
    own_vertex: bool,
) -> Result<DrawablePass, EffectError> {
    let effect = E::NAME;
    let wgpu = E::WGPU.ok_or(EffectError::NoWgpu { effect })?;
    let (technique, index) = (pass.technique_index(), pass.index());
    let info = wgpu.pass(technique, index).ok_or(EffectError::NoSuchPass {
        effect,
        technique,
        pass: index,
    })?;
    let pixel = info.pixel.ok_or(EffectError::NoPixelShader {
        effect,
        pass: info.name,
    })?;
    let shader = &wgpu.shaders[pixel];
    if let Some(vs) = info.vertex {
        if !own_vertex {
            return Err(EffectError::OwnVertexShader {
                effect,
                pass: info.name,
            });
        }
        let vertex = &wgpu.shaders[vs];
        vertex::check(vertex).map_err(|input| match input {
            None => EffectError::VertexTextures {
                effect,
                pass: info.name,
            },
            Some(input) => EffectError::MeshAttribute {
                effect,
                pass: info.name,
                input,
            },
        })?;
        if let Err(Unlinked::Missing(semantic) | Unlinked::Unmarked(semantic)) =
            wgsl::relocate(shader.wgsl, shader.varyings, vertex.varyings)
        {
            return Err(EffectError::NotWritten {
                effect,
                pass: info.name,
                semantic,
            });
        }
        return Ok(DrawablePass {
            pass: info,
            pixel,
            shader,
            vertex: Some((vs, vertex)),
        });
    }
    if let Some(v) = shader
        .varyings
        .iter()
        .find(|v| v.semantic != "COLOR0" && v.semantic != "TEXCOORD0")
    {
        return Err(EffectError::Varying {
            effect,
            pass: info.name,
            semantic: v.semantic,
        });
    }
    Ok(DrawablePass {
        pass: info,
        pixel,
        shader,
        vertex: None,
    })
}

/// The handle of shader `kind` made for pixel shader `pixel` of `E`: a fixed id, so Bevy's
/// pipeline specialization (a function without access to the world) can name it.
pub(crate) fn handle<E: Effect>(pixel: usize, kind: Kind) -> Handle<Shader> {
    let mut hasher = DefaultHasher::new();
    (TypeId::of::<E>(), pixel, kind).hash(&mut hasher);
    let high = hasher.finish();
    "shadowdusk-bevy".hash(&mut hasher);
    Handle::Uuid(Uuid::from_u64_pair(high, hasher.finish()), PhantomData)
}

/// One shader's code: the compiler's WGSL and its varyings, with the offsets of a pixel
/// shader's input locations in that text (`Varying::location_at`).
pub(crate) struct Code<'a> {
    pub(crate) wgsl: Cow<'a, str>,
    pub(crate) varyings: Cow<'a, [Varying]>,
}

/// Every shader made for `E`'s passes from the build's code, with its handle; `Err` for a
/// pass's own vertex shader that could not be rewritten (its message).
pub(crate) fn all<E: Effect>() -> Vec<Result<(Handle<Shader>, Shader), String>> {
    let code: Vec<Code> = E::WGPU
        .into_iter()
        .flat_map(|w| w.shaders)
        .map(|s| Code {
            wgsl: Cow::Borrowed(s.wgsl),
            varyings: Cow::Borrowed(s.varyings),
        })
        .collect();
    made::<E>(&code)
}

/// Every shader made for `E`'s passes from `code` (one per shader of `E::WGPU`, whose
/// interface it has: the build's, or a hot reload's).
pub(crate) fn made<E: Effect>(code: &[Code]) -> Vec<Result<(Handle<Shader>, Shader), String>> {
    let Some(wgpu) = E::WGPU else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let group = MATERIAL_2D_BIND_GROUP_INDEX as u32;
    for pass in wgpu.techniques.iter().flat_map(|t| t.iter()) {
        let (Some(vs), Some(ps)) = (pass.vertex, pass.pixel) else {
            continue;
        };
        let (vertex, pixel) = (&wgpu.shaders[vs], &code[ps]);
        let path = |what: &str| format!("shadowdusk/{}/{ps}-{vs}-{what}.wgsl", E::NAME);
        if vertex::check(vertex).is_err() {
            continue;
        }
        let Ok(linked) = wgsl::relocate(&pixel.wgsl, &pixel.varyings, vertex.varyings) else {
            continue;
        };
        let linked = linked.unwrap_or_else(|| pixel.wgsl.to_string());
        out.push(
            vertex::adapt(&code[vs].wgsl, vertex.entry, group)
                .map(|text| {
                    (
                        handle::<E>(ps, Kind::Vertex(Source::Own(vs))),
                        Shader::from_wgsl(text, path("vertex")),
                    )
                })
                .map_err(|e| format!("{}, pass {}: {e}", E::NAME, pass.name)),
        );
        out.push(Ok((
            handle::<E>(ps, Kind::Fragment(Source::Own(vs))),
            Shader::from_wgsl(material_group(&linked), path("fragment")),
        )));
    }
    for (i, shader) in wgpu.shaders.iter().enumerate() {
        if shader.stage != Stage::Pixel {
            continue;
        }
        for source in [Source::Mesh, Source::Screen] {
            let path = |what: &str| format!("shadowdusk/{}/{i}-{source:?}-{what}.wgsl", E::NAME);
            out.push(Ok((
                handle::<E>(i, Kind::Vertex(source)),
                Shader::from_wgsl(vertex_wgsl(shader, source), path("vertex")),
            )));
            out.push(Ok((
                handle::<E>(i, Kind::Fragment(source)),
                Shader::from_wgsl(fragment_wgsl(&code[i].wgsl, source), path("fragment")),
            )));
        }
    }
    out
}

/// The pixel shader for `source`: a material's resources are in Bevy's material group; a
/// post-process keeps group 1 (its pipeline layout leaves group 0 empty). naga writes each
/// binding as `@group(N) @binding(M)`, and no WGSL identifier can contain `@`, so the
/// replacement touches nothing else.
fn fragment_wgsl(pixel: &str, source: Source) -> String {
    match source {
        Source::Mesh | Source::Own(_) => material_group(pixel),
        Source::Screen => pixel.to_string(),
    }
}

/// A pixel shader's WGSL with its group 1 moved to the material's.
fn material_group(wgsl: &str) -> String {
    wgsl.replace("@group(1)", "@group(#{MATERIAL_BIND_GROUP})")
}

/// The vertex stage for `pixel` drawn from `source`: SpriteBatch's outputs (COLOR0, TEXCOORD0
/// as `(u, v, 0, 0)`), at the locations the pixel shader reads them.
fn vertex_wgsl(pixel: &WgslShader, source: Source) -> String {
    let mut outputs = String::new();
    let mut writes = String::new();
    for v in pixel.varyings {
        let value = match v.semantic {
            "COLOR0" => "color",
            _ => "vec4<f32>(uv, 0.0, 0.0)",
        };
        let _ = writeln!(
            outputs,
            "    @location({}) v{}: vec4<f32>,",
            v.location, v.location
        );
        let _ = writeln!(writes, "    out.v{} = {value};", v.location);
    }
    let body = match source {
        Source::Mesh | Source::Own(_) => MESH_VERTEX,
        Source::Screen => SCREEN_VERTEX,
    };
    format!(
        "{}\nstruct Out {{\n    @builtin(position) position: vec4<f32>,\n{outputs}}}\n\n{}",
        body.0,
        body.1.replace("    // outputs\n", &writes)
    )
}

/// Bevy's 2D mesh vertex, as `bevy_sprite::mesh2d`'s own vertex shader reads it (attributes at
/// its locations: position 0, UV 2, colour 4).
const MESH_VERTEX: (&str, &str) = (
    "#import bevy_sprite::mesh2d_functions as mesh_functions

struct SpriteColor { color: vec4<f32> }
@group(#{MATERIAL_BIND_GROUP}) @binding(64) var<uniform> sprite_color: SpriteColor;

struct Vertex {
    @builtin(instance_index) instance_index: u32,
    @location(0) position: vec3<f32>,
#ifdef VERTEX_UVS
    @location(2) uv: vec2<f32>,
#endif
#ifdef VERTEX_COLORS
    @location(4) color: vec4<f32>,
#endif
}
",
    "@vertex
fn vertex(vertex: Vertex) -> Out {
    let world_from_local = mesh_functions::get_world_from_local(vertex.instance_index);
    let world = mesh_functions::mesh2d_position_local_to_world(
        world_from_local,
        vec4<f32>(vertex.position, 1.0),
    );
    var color = sprite_color.color;
#ifdef VERTEX_COLORS
    color = color * vertex.color;
#endif
    var uv = vec2<f32>(0.0, 0.0);
#ifdef VERTEX_UVS
    uv = vertex.uv;
#endif
    var out: Out;
    out.position = mesh_functions::mesh2d_position_world_to_clip(world);
    // outputs
    return out;
}
",
);

/// One triangle covering the view (vertices 0, 1, 2; no buffers), UV (0, 0) at the top left
/// and (1, 1) at the bottom right, as SpriteBatch drawing a target-sized quad.
const SCREEN_VERTEX: (&str, &str) = (
    "",
    "@vertex
fn vertex(@builtin(vertex_index) index: u32) -> Out {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    let color = vec4<f32>(1.0, 1.0, 1.0, 1.0);
    var out: Out;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    // outputs
    return out;
}
",
);

#[cfg(test)]
mod tests {
    use super::*;
    use shadowdusk::wgsl::Varying;

    fn pixel(varyings: &'static [Varying]) -> WgslShader {
        WgslShader {
            stage: Stage::Pixel,
            wgsl: "@group(1) @binding(0) var<uniform> r: vec4<f32>;",
            entry: "main",
            bindings: &[],
            vertex_inputs: &[],
            varyings,
        }
    }

    #[test]
    fn the_vertex_stage_writes_what_the_pixel_shader_reads_where_it_reads_it() {
        static V: [Varying; 2] = [
            Varying {
                semantic: "COLOR0",
                location: 0,
                flat: false,
                location_at: Some(0),
            },
            Varying {
                semantic: "TEXCOORD0",
                location: 1,
                flat: false,
                location_at: Some(0),
            },
        ];
        let text = vertex_wgsl(&pixel(&V), Source::Screen);
        assert!(text.contains("@location(0) v0: vec4<f32>"), "{text}");
        assert!(text.contains("out.v0 = color;"), "{text}");
        assert!(text.contains("out.v1 = vec4<f32>(uv, 0.0, 0.0);"), "{text}");
        let only_uv = vertex_wgsl(&pixel(&V[1..]), Source::Mesh);
        assert!(only_uv.contains("@location(1) v1"), "{only_uv}");
        assert!(!only_uv.contains("v0"), "{only_uv}");
    }

    #[test]
    fn a_material_fragment_moves_to_bevys_material_group() {
        let p = pixel(&[]);
        assert_eq!(
            fragment_wgsl(p.wgsl, Source::Mesh),
            "@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> r: vec4<f32>;"
        );
        assert_eq!(fragment_wgsl(p.wgsl, Source::Screen), p.wgsl);
    }
}
