//! States the wgpu target cannot give as MonoGame does, said at build time at the state in the
//! user's file (warnings: the effect still compiles, for GL and for wgpu).
//!
//! Input: the parsed effect (its baked pass and sampler states, and where each was written).
//! Output: one warning per pass or sampler and kind:
//!
//! - SD0310, a sampler that clamps to its border: a native-only wgpu feature
//!   (`ADDRESS_MODE_CLAMP_TO_BORDER`), and a `BorderColor` other than the three wgpu has
//!   (transparent black, opaque black, opaque white) becomes the nearest of them;
//! - SD0311, a nonzero `MipMapLodBias`: wgpu's sampler has no LOD bias;
//! - SD0312, `FillMode = WireFrame`: wgpu draws lines for polygons only with a native-only
//!   feature (`POLYGON_MODE_LINE`);
//! - SD0313, `ScissorTestEnable = true`: wgpu has no switch; a render pass always clips to the
//!   scissor rectangle its owner sets;
//! - SD0314, a depth bias: wgpu refuses a pipeline with depth bias unless it draws triangles.
//!
//! A state a pass sets through an object (`SetRasterizerState(Wire)`) is reported at the key in
//! the object's block; a state that is not written anywhere (a default) is never reported.

use shadowdusk_mgfx::wgpu::WgpuBorder;
use shadowdusk_mgfx::{FillMode, RasterizerState, SamplerState, TextureAddressMode};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::effect::{ParsedEffect, StateSite};
use crate::preprocess::Expanded;

/// The warnings for `parsed` when it is compiled for wgpu.
pub fn check(expanded: &Expanded, parsed: &ParsedEffect) -> Diagnostics {
    let mut out = Diagnostics::new();
    let sites = Sites(&parsed.sites.states, parsed);
    let warn = |code: Code, site: &StateSite, message: String, help: &str| {
        Diagnostic::warning(code, message)
            .at_opt(expanded.map.span(site.range.clone()))
            .with_help(help)
    };
    for technique in &parsed.ast.techniques {
        for pass in &technique.passes {
            if let Some(r) = &pass.rasterizer {
                for d in rasterizer(r, pass.range.start, &sites, &warn) {
                    out.push(d);
                }
            }
        }
    }
    for sampler in &parsed.ast.samplers {
        if let Some(s) = &sampler.state {
            for d in sampler_state(s, &sampler.name, sampler.range.start, &sites, &warn) {
                out.push(d);
            }
        }
    }
    out
}

type Warn<'a> = dyn Fn(Code, &StateSite, String, &str) -> Diagnostic + 'a;

fn rasterizer(
    r: &RasterizerState,
    owner: usize,
    sites: &Sites<'_>,
    warn: &Warn<'_>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if r.fill_mode == FillMode::WireFrame {
        if let Some(site) = sites.pass_state(owner, &["fillmode"]) {
            out.push(warn(
                Code::SD0312,
                site,
                "wireframe needs wgpu's native-only `POLYGON_MODE_LINE` feature (not on WebGPU or WebGL)".into(),
                "on wgpu this pass needs a device with that feature; for a portable outline draw the edges as a line list",
            ));
        }
    }
    if r.scissor_test_enable {
        if let Some(site) = sites.pass_state(owner, &["scissortestenable", "scissorenable"]) {
            out.push(warn(
                Code::SD0313,
                site,
                "wgpu has no scissor switch: a render pass always clips to its scissor rectangle".into(),
                "on wgpu, set the rectangle on the render pass (`set_scissor_rect`); without one it is the whole target, as if the test were off",
            ));
        }
    }
    if r.depth_bias != 0.0 || r.slope_scale_depth_bias != 0.0 {
        let keys = ["depthbias", "slopescaledepthbias", "slopescaleddepthbias"];
        if let Some(site) = sites.pass_state(owner, &keys) {
            out.push(warn(
                Code::SD0314,
                site,
                "wgpu applies depth bias to triangles only: a pipeline drawing lines or points with it is refused".into(),
                "draw lines and points with a pass without depth bias",
            ));
        }
    }
    out
}

fn sampler_state(
    s: &SamplerState,
    name: &str,
    owner: usize,
    sites: &Sites<'_>,
    warn: &Warn<'_>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let modes = [s.address_u, s.address_v, s.address_w];
    let bordered = modes.contains(&TextureAddressMode::Border);
    if bordered {
        let site = sites
            .own(owner, &["bordercolor"])
            .or_else(|| sites.own(owner, &["addressu", "addressv", "addressw"]));
        if let Some(site) = site {
            let [r, g, b, a] = s.border_color;
            let nearest = WgpuBorder::nearest(s.border_color).name();
            let feature = "wgpu clamps to a border only on devices with its native-only \
                           `ADDRESS_MODE_CLAMP_TO_BORDER` feature (not on WebGPU)";
            out.push(if WgpuBorder::exact(s.border_color).is_some() {
                warn(
                    Code::SD0310,
                    site,
                    format!("`{name}` clamps to its border: {feature}"),
                    "elsewhere clamp to the edge (`Clamp`), or draw the border in the shader",
                )
            } else {
                warn(
                    Code::SD0310,
                    site,
                    format!(
                        "`{name}`'s border colour 0x{r:02X}{g:02X}{b:02X}{a:02X}: wgpu samplers have only transparent black, opaque black and opaque white borders, and {feature}"
                    ),
                    &format!("on wgpu the border is `SamplerBorderColor::{nearest}`, the nearest; use one of the three for the same result on both"),
                )
            });
        }
    }
    // MipFilter = None bakes as bias -16 with MaxMipLevel 0 (mgfxc); wgpu gets no mips there.
    let no_mips = s.mip_lod_bias == -16.0 && s.max_mip_level == 0;
    if s.mip_lod_bias != 0.0 && !no_mips {
        if let Some(site) = sites.own(owner, &["mipmaplodbias", "miplodbias"]) {
            out.push(warn(
                Code::SD0311,
                site,
                format!("`{name}` has a mip LOD bias: wgpu samplers have none, so wgpu samples without it"),
                "for the same result on both, bias in the shader (`tex2Dbias`) or drop the bias",
            ));
        }
    }
    out
}

/// Where states were written.
struct Sites<'a>(&'a [StateSite], &'a ParsedEffect);

impl<'a> Sites<'a> {
    /// The last assignment of one of `keys` in the block whose name starts at `owner`.
    fn own(&self, owner: usize, keys: &[&str]) -> Option<&'a StateSite> {
        self.0
            .iter()
            .rev()
            .find(|s| s.owner == owner && keys.contains(&s.key.as_str()))
    }

    /// For a pass's rasterizer: its own last assignment of one of `keys`, or, when the pass took
    /// its rasterizer from an object after that, the object's assignment (or the call itself).
    fn pass_state(&self, pass: usize, keys: &[&str]) -> Option<&'a StateSite> {
        let last = self.0.iter().rev().find(|s| {
            s.owner == pass && (keys.contains(&s.key.as_str()) || s.key == "setrasterizerstate")
        })?;
        if last.key != "setrasterizerstate" {
            return Some(last);
        }
        let object = self
            .1
            .ast
            .state_objects
            .iter()
            .find(|o| o.name == last.value);
        Some(
            object
                .and_then(|o| self.own(o.range.start, keys))
                .unwrap_or(last),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;
    use crate::effect::{expanded_from_plain, parse};
    use crate::source::SourceFiles;

    const SHADERS: &str = "float4 VS(float4 p : POSITION0) : POSITION0 { return p; }\n\
        float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }\n";

    /// Code, line and column of each warning for `text`.
    fn warnings(text: &str) -> Vec<(Code, usize, usize)> {
        let mut files = SourceFiles::default();
        let expanded = expanded_from_plain(&mut files, "effect.fx", text);
        let parsed = parse(&expanded).expect("parses");
        check(&expanded, &parsed)
            .0
            .iter()
            .map(|d| {
                assert_eq!(d.severity, Severity::Warning);
                let span = d.primary.as_ref().expect("a place").span;
                let (line, col) = files.get(span.file).line_col(span.start);
                (d.code, line as usize, col as usize)
            })
            .collect()
    }

    fn effect(sampler: &str, pass: &str) -> String {
        format!(
            "texture T;\nsampler2D S = sampler_state {{ Texture = <T>; {sampler} }};\n{SHADERS}\
             technique Main {{ pass P {{ {pass}\n VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); }} }}\n"
        )
    }

    #[test]
    fn each_state_wgpu_lacks_is_a_warning_at_its_key() {
        let w = warnings(&effect(
            "AddressU = Border; BorderColor = 0xFF0000; MipMapLodBias = -1;",
            "FillMode = WireFrame; ScissorTestEnable = true; DepthBias = 0.001;",
        ));
        assert_eq!(
            w,
            vec![
                (Code::SD0312, 5, 27),
                (Code::SD0313, 5, 49),
                (Code::SD0314, 5, 75),
                (Code::SD0310, 2, 65),
                (Code::SD0311, 2, 89),
            ]
        );
    }

    #[test]
    fn what_wgpu_has_is_not_reported() {
        let w = warnings(&effect(
            "AddressU = Clamp; BorderColor = 0x000000; MipFilter = None; MipMapLodBias = 0;",
            "FillMode = Solid; ScissorTestEnable = false; DepthBias = 0; CullMode = None;",
        ));
        assert_eq!(w, vec![]);
        // Border addressing with a colour wgpu has: the feature, at the address key.
        assert_eq!(
            warnings(&effect("AddressV = Border;", "")),
            vec![(Code::SD0310, 2, 46)]
        );
        // A custom colour on a sampler that never reaches its border is never seen.
        assert_eq!(
            warnings(&effect("AddressU = Clamp; BorderColor = 0x123456;", "")),
            vec![]
        );
        // MipFilter = None bakes as bias -16 (mgfxc): no bias the user wrote.
        assert_eq!(warnings(&effect("MipFilter = None;", "")), vec![]);
    }

    #[test]
    fn a_state_set_through_an_object_is_reported_in_the_object() {
        let text = format!(
            "RasterizerState Wire {{ FillMode = WIREFRAME; }};\ntexture T;\nsampler2D S = sampler_state {{ Texture = <T>; }};\n{SHADERS}\
             technique Main {{ pass P {{ SetRasterizerState(Wire);\n VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); }} }}\n"
        );
        assert_eq!(warnings(&text), vec![(Code::SD0312, 1, 24)]);
    }

    #[test]
    fn the_nearest_border_is_named() {
        assert_eq!(
            WgpuBorder::nearest([250, 250, 240, 255]).name(),
            "OpaqueWhite"
        );
        assert_eq!(WgpuBorder::nearest([10, 0, 0, 255]).name(), "OpaqueBlack");
        assert_eq!(
            WgpuBorder::nearest([10, 0, 0, 5]).name(),
            "TransparentBlack"
        );
    }
}
