//! Render and sampler states wgpu cannot express as the effect says, found at build time and
//! said as SD0305 warnings at the state in the user's file, only when the wgpu target is on:
//! a custom border colour (wgpu has transparent black, opaque black and opaque white, behind a
//! native-only feature), border addressing at all (that feature), a mip LOD bias (wgpu's
//! sampler has none; mgfxc's −16 for `MipFilter = None` is no bias but "no mips", which a
//! runtime expresses as `lod_max_clamp = 0`), wireframe fill (a native-only feature, absent on
//! WebGPU and GL), scissor enable (wgpu has no switch: a runtime sets a scissor rectangle), and
//! depth bias (wgpu refuses it for line and point topologies).

use std::ops::Range;

use shadowdusk_mgfx::{FillMode, SamplerState, TextureAddressMode};

use crate::diag::{Code, Diagnostic};
use crate::effect::ParsedEffect;
use crate::preprocess::Expanded;

/// mgfxc's bias for `MipFilter = None`.
const NO_MIPS_BIAS: f32 = -16.0;

/// The SD0305 warnings of the effect's states.
pub(crate) fn warnings(expanded: &Expanded, parsed: &ParsedEffect) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut warn = |from: usize, key: &str, message: String, help: &str| {
        let range = key_range(&expanded.text, from, key).unwrap_or(from..from);
        out.push(
            Diagnostic::warning(Code::SD0305, message)
                .at_opt(expanded.map.span(range))
                .with_note("for the wgpu target; the OpenGL output is unaffected")
                .with_help(help.to_string()),
        );
    };
    for s in &parsed.ast.samplers {
        if let Some(state) = &s.state {
            sampler(state, &s.name, s.range.end, &mut warn);
        }
    }
    for t in &parsed.ast.techniques {
        for p in &t.passes {
            let Some(r) = &p.rasterizer else { continue };
            let at = p.range.end;
            let pass = format!("pass `{}` of technique `{}`", p.name, t.name);
            if r.fill_mode == FillMode::WireFrame {
                warn(
                    at,
                    "FillMode",
                    format!("{pass}: wireframe fill needs wgpu's native-only POLYGON_MODE_LINE feature (not on WebGPU or GL)"),
                    "draw lines instead, or ask the device for POLYGON_MODE_LINE where it has it",
                );
            }
            if r.scissor_test_enable {
                warn(
                    at,
                    "ScissorTestEnable",
                    format!("{pass}: wgpu has no scissor switch; a runtime sets the scissor rectangle for every draw"),
                    "set the scissor rectangle when drawing; the state says nothing more on wgpu",
                );
            }
            if r.depth_bias != 0.0 || r.slope_scale_depth_bias != 0.0 {
                let key = if r.depth_bias != 0.0 {
                    "DepthBias"
                } else {
                    "SlopeScaleDepthBias"
                };
                warn(
                    at,
                    key,
                    format!("{pass}: wgpu refuses depth bias for line and point topologies"),
                    "draw this pass with triangles on wgpu, or give lines and points a pass without bias",
                );
            }
        }
    }
    out
}

fn sampler(
    state: &SamplerState,
    name: &str,
    at: usize,
    warn: &mut impl FnMut(usize, &str, String, &str),
) {
    let border =
        [state.address_u, state.address_v, state.address_w].contains(&TextureAddressMode::Border);
    if border {
        let c = state.border_color;
        let standard = [[0, 0, 0, 0], [0, 0, 0, 255], [255, 255, 255, 255]].contains(&c);
        if standard {
            warn(
                at,
                "Border",
                format!("sampler `{name}`: border addressing needs wgpu's native-only ADDRESS_MODE_CLAMP_TO_BORDER feature (not on WebGPU)"),
                "clamp instead, or ask the device for the feature where it has it",
            );
        } else {
            warn(
                at,
                "BorderColor",
                format!("sampler `{name}`: wgpu's border colours are transparent black, opaque black and opaque white; {c:?} has no wgpu equivalent"),
                "use one of the three, or clamp and draw the border yourself",
            );
        }
    }
    if state.mip_lod_bias != 0.0 && state.mip_lod_bias != NO_MIPS_BIAS {
        warn(
            at,
            "MipMapLodBias",
            format!(
                "sampler `{name}`: wgpu's samplers have no LOD bias ({})",
                state.mip_lod_bias
            ),
            "bias in the shader (`tex2Dbias`), or leave it out for wgpu",
        );
    }
}

/// The first `key` (a state name, case-insensitive, whole word) in the block that starts after
/// `from`: up to its closing `}`.
fn key_range(text: &str, from: usize, key: &str) -> Option<Range<usize>> {
    let rest = text.get(from..)?;
    let end = rest.find('}').map_or(rest.len(), |e| e + 1);
    let block = rest[..end].to_ascii_lowercase();
    let want = key.to_ascii_lowercase();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while let Some(k) = block[i..].find(&want) {
        let s = i + k;
        let e = s + want.len();
        let before = s == 0 || !word(block.as_bytes()[s - 1]);
        let after = block.as_bytes().get(e).is_none_or(|&b| !word(b));
        if before && after {
            return Some(from + s..from + e);
        }
        i = e;
    }
    None
}
