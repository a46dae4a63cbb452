//! The wgpu target's output for one effect, as the compiler writes it (`/Profile:Wgpu` JSON, the
//! build's generated tables) and the runtime loads it: WGSL per shader of the MGFX effect, its
//! bind-group layout entries, vertex inputs and varyings. Plain data; the compiler makes it, the
//! runtime (`shadowdusk::wgpu_runtime`) turns it into what it draws with.

use serde::{Deserialize, Serialize};

/// `format` of a `/Profile:Wgpu` file.
pub const FILE_FORMAT: &str = "shadowdusk-wgpu";

/// `version` of the `/Profile:Wgpu` file this crate reads and the CLI writes.
pub const FILE_VERSION: u32 = 2;

/// What a runtime reads of a `/Profile:Wgpu` file (the CLI's JSON; other fields describe the
/// effect for people and tools): the wgpu output, and the MGFX file written beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuFile {
    /// [`FILE_FORMAT`].
    pub format: String,
    /// [`FILE_VERSION`].
    pub version: u32,
    /// The file name of the same compile's MGFX, beside this file.
    pub mgfx: String,
    /// The wgpu output, one shader per shader of the MGFX effect, in its order.
    pub shaders: Vec<WgpuShader>,
}

/// The wgpu output of an effect: one [`WgpuShader`] per shader of the MGFX effect, in the same
/// order (`Effect::shaders`), so a pass's `vertex_shader` / `pixel_shader` indices name them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuEffect {
    /// Parallel to `shadowdusk_mgfx::Effect::shaders`.
    pub shaders: Vec<WgpuShader>,
}

/// One shader for wgpu.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuShader {
    /// `"vertex"` or `"pixel"`.
    pub stage: String,
    /// The WGSL module (validated by naga with every flag).
    pub wgsl: String,
    /// Its entry point.
    pub entry: String,
    /// The bind group: 0 for a vertex shader, 1 for a pixel shader.
    pub group: u32,
    /// Bytes of the uniform buffer at binding 0 (16 × the GL record's registers); 0 = none.
    pub uniform_size: u32,
    /// Bind-group layout entries, by binding.
    pub bindings: Vec<WgpuBinding>,
    /// Vertex inputs (vertex shaders), by location: 0, 1, 2, … in D3D9's usage order.
    pub vertex_inputs: Vec<WgpuVertexInput>,
    /// Varyings: vertex outputs or the pixel inputs the shader reads, by location: 0, 1, 2, …
    /// with COLOR first, TEXCOORD second, then D3D9's usage order.
    pub varyings: Vec<WgpuVarying>,
}

/// One bind-group layout entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuBinding {
    /// Bind group (0 vertex, 1 pixel).
    pub group: u32,
    /// Binding: 0 the registers, 1 + 2N texture of slot N, 2 + 2N its sampler.
    pub binding: u32,
    /// The sampler slot (texture unit) for textures and samplers.
    pub slot: Option<u32>,
    /// The HLSL name (texture, `SamplerState`, or the register block).
    pub name: String,
    /// What is bound.
    pub kind: WgpuBindingKind,
}

/// What a binding holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WgpuBindingKind {
    /// A uniform buffer of `size` bytes.
    Uniform {
        /// Bytes.
        size: u32,
    },
    /// A filterable float texture.
    Texture {
        /// `"1d"`, `"2d"`, `"3d"` or `"cube"`.
        dimension: String,
    },
    /// A filtering sampler.
    Sampler,
}

/// A vertex input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuVertexInput {
    /// D3D9 usage, upper case (`POSITION`, `TEXCOORD`).
    pub usage: String,
    /// Usage index.
    pub index: u32,
    /// `@location`.
    pub location: u32,
    /// The shader's type as a wgpu vertex format name (`Float32x3`); a buffer may supply fewer
    /// components, which wgpu fills as D3D does.
    pub format: String,
}

/// A varying.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgpuVarying {
    /// Semantic with its index (`TEXCOORD0`).
    pub semantic: String,
    /// `@location`.
    pub location: u32,
    /// `@interpolate(flat)` (integer varyings).
    pub flat: bool,
    /// A pixel shader's input: the byte offset in `wgsl` of its location's first digit, where
    /// a runtime writes the number the pass's vertex shader gives the semantic. `None` for a
    /// vertex shader's output.
    #[serde(default)]
    pub location_at: Option<u32>,
}

/// A border colour a wgpu sampler can clamp to: wgpu has three, where MonoGame's `BorderColor`
/// is any colour. The compiler warns (SD0310) naming the one a colour becomes, and the runtimes
/// use that same one, so this is the only table of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgpuBorder {
    /// `SamplerBorderColor::TransparentBlack`, RGBA 0, 0, 0, 0.
    TransparentBlack,
    /// `SamplerBorderColor::OpaqueBlack`, RGBA 0, 0, 0, 255.
    OpaqueBlack,
    /// `SamplerBorderColor::OpaqueWhite`, RGBA 255, 255, 255, 255.
    OpaqueWhite,
}

impl WgpuBorder {
    /// Every border colour with its RGBA, in the order ties are resolved.
    pub const ALL: [(WgpuBorder, [u8; 4]); 3] = [
        (WgpuBorder::TransparentBlack, [0, 0, 0, 0]),
        (WgpuBorder::OpaqueBlack, [0, 0, 0, 255]),
        (WgpuBorder::OpaqueWhite, [255, 255, 255, 255]),
    ];

    /// The border colour exactly `rgba`, if wgpu has it.
    pub fn exact(rgba: [u8; 4]) -> Option<WgpuBorder> {
        Self::ALL.iter().find(|(_, c)| *c == rgba).map(|&(b, _)| b)
    }

    /// The border colour nearest to `rgba` (summed channel distance, the first of equals).
    pub fn nearest(rgba: [u8; 4]) -> WgpuBorder {
        let distance = |c: &[u8; 4]| -> u32 {
            c.iter()
                .zip(rgba)
                .map(|(x, y)| u32::from(x.abs_diff(y)))
                .sum()
        };
        Self::ALL
            .iter()
            .min_by_key(|(_, c)| distance(c))
            .map_or(WgpuBorder::OpaqueWhite, |&(b, _)| b)
    }

    /// Its name in `wgpu::SamplerBorderColor`.
    pub fn name(self) -> &'static str {
        match self {
            WgpuBorder::TransparentBlack => "TransparentBlack",
            WgpuBorder::OpaqueBlack => "OpaqueBlack",
            WgpuBorder::OpaqueWhite => "OpaqueWhite",
        }
    }
}
