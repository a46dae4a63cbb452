//! Table entries of the effects about baked render and sampler states
//! (fx-pipeline.md §3.1, §3.2; mgfx-format.md §5.3, §8).

use super::math::sprite_pixel;
use super::textures::{Address, Pattern, TextureSpec};
use super::*;
use shadowdusk::mgfx::{
    Blend, BlendFunction, CompareFunction, CullMode, FillMode, SamplerType as ST, StencilOperation,
    TextureAddressMode as TA, TextureFilter,
};

const RECT: [f32; 4] = [8.0, 8.0, 48.0, 48.0];
const WHITE: [u8; 4] = [255, 255, 255, 255];

pub(super) fn entries() -> Vec<Entry> {
    vec![render_states(), sampler_states()]
}

const FLAT_COLOR: [f32; 4] = [0.8, 0.4, 0.2, 0.7];

fn render_states() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        // Technique AlphaBlended over the cleared (0, 0, 0, 0) target: SrcAlpha/InvSrcAlpha on
        // both channels, so colour = src * a and alpha = a * a.
        sprite_pixel(
            RECT,
            WHITE,
            |_, col| {
                let src: [f32; 4] = [0, 1, 2, 3].map(|i| FLAT_COLOR[i] * col[i]);
                let a = src[3];
                Some([0, 1, 2, 3].map(|i| src[i] * a + CLEAR[i] * (1.0 - a)))
            },
            x,
            y,
        )
    }
    // AlphaBlendEnable = true creates One/InvSrcAlpha, then SrcBlend/DestBlend override both
    // channels (ToAlpha keeps SrcAlpha/InvSrcAlpha), BlendOp sets only the alpha function.
    let alpha_blended = BlendState {
        color_source_blend: Blend::SourceAlpha,
        alpha_source_blend: Blend::SourceAlpha,
        color_destination_blend: Blend::InverseSourceAlpha,
        alpha_destination_blend: Blend::InverseSourceAlpha,
        ..BlendState::default()
    };
    let additive_max = BlendState {
        color_source_blend: Blend::One,
        alpha_source_blend: Blend::One,
        color_destination_blend: Blend::One,
        alpha_destination_blend: Blend::One,
        alpha_blend_function: BlendFunction::Max,
        color_blend_function: BlendFunction::Add,
        ..BlendState::default()
    };
    let no_depth = DepthStencilState {
        depth_buffer_enable: false,
        depth_buffer_write_enable: false,
        ..DepthStencilState::default()
    };
    let stencil = DepthStencilState {
        stencil_enable: true,
        stencil_function: CompareFunction::Equal,
        stencil_pass: StencilOperation::Replace,
        stencil_fail: StencilOperation::Zero,
        stencil_depth_buffer_fail: StencilOperation::Invert,
        reference_stencil: 3,
        stencil_mask: 255,
        stencil_write_mask: 15,
        depth_buffer_function: CompareFunction::Greater,
        ..DepthStencilState::default()
    };
    let wire = RasterizerState {
        cull_mode: CullMode::CullClockwiseFace,
        fill_mode: FillMode::WireFrame,
        depth_bias: -0.0005,
        slope_scale_depth_bias: 1.5,
        ..RasterizerState::default()
    };
    let pass = |name, f: &dyn Fn(PassSpec) -> PassSpec| f(ps_pass(name, vec![]));
    Entry {
        file: "render_states.fx",
        concern: "blend, depth/stencil and rasterizer states over several techniques and passes",
        techniques: vec![
            technique(
                "AlphaBlended",
                vec![pass("Blend", &|p| PassSpec {
                    blend: Some(alpha_blended),
                    ..p
                })],
            ),
            technique(
                "Additive",
                vec![
                    pass("Base", &|p| PassSpec {
                        depth_stencil: Some(no_depth),
                        ..p
                    }),
                    pass("Glow", &|p| PassSpec {
                        blend: Some(additive_max),
                        ..p
                    }),
                ],
            ),
            technique(
                "Stenciled",
                vec![pass("Mark", &|p| PassSpec {
                    depth_stencil: Some(stencil),
                    ..p
                })],
            ),
            technique(
                "Rasterized",
                vec![pass("Wire", &|p| PassSpec {
                    rasterizer: Some(wire),
                    ..p
                })],
            ),
        ],
        parameters: vec![p_vec("Color", 4)],
        render: Render {
            technique: "AlphaBlended",
            values: vec![("Color", vector(&FLAT_COLOR))],
            textures: vec![],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: WHITE,
            },
            render_targets: 1,
            check: Check::reference(reference).with_sensitivities(vec![Sensitivity {
                parameter: "Color",
                changed: vector(&[0.1, 0.9, 0.5, 0.4]),
                region: [8, 8, 48, 48],
                min_fraction: 0.9,
            }]),
        },
    }
}

const BORDER_TEX: TextureSpec = TextureSpec::d2(8, 8, 13);
const MIRROR_TEX: TextureSpec = TextureSpec::d2(8, 8, 14);
const ANISO_SOLID: [u8; 4] = [90, 160, 220, 255];
const ANISO_TEX: TextureSpec = TextureSpec::D2 {
    width: 4,
    height: 4,
    seed: 0,
    mips: false,
    pattern: Pattern::Solid(ANISO_SOLID),
};
const BORDER_COLOR: [u8; 4] = [255, 128, 64, 192];
const STATE_WEIGHTS: [f32; 3] = [0.5, 0.3, 0.2];

fn sampler_states() -> Entry {
    fn reference(x: u32, y: u32) -> Option<[f32; 4]> {
        sprite_pixel(
            RECT,
            WHITE,
            |uv, _| {
                let b = Address::Border(BORDER_COLOR);
                let border =
                    BORDER_TEX.sample_2d(0, uv[0] * 1.5 - 0.25, uv[1] * 1.5 - 0.25, b, b)?;
                let mirror = MIRROR_TEX.sample_2d(
                    0,
                    uv[0] * 2.0,
                    uv[1] * 2.0,
                    Address::Mirror,
                    Address::Clamp,
                )?;
                // A one-colour texture: any filter returns that colour.
                let aniso = super::textures::norm(ANISO_SOLID);
                let w = STATE_WEIGHTS;
                Some([0, 1, 2, 3].map(|i| border[i] * w[0] + mirror[i] * w[1] + aniso[i] * w[2]))
            },
            x,
            y,
        )
    }
    let border = SamplerState {
        address_u: TA::Border,
        address_v: TA::Border,
        border_color: BORDER_COLOR,
        filter: TextureFilter::Point,
        ..SamplerState::default()
    };
    let mirror = SamplerState {
        address_u: TA::Mirror,
        address_v: TA::Clamp,
        filter: TextureFilter::MinLinearMagPointMipPoint,
        max_anisotropy: 8,
        max_mip_level: 0,
        mip_lod_bias: -16.0,
        ..SamplerState::default()
    };
    let aniso = SamplerState {
        address_w: TA::Clamp,
        filter: TextureFilter::Anisotropic,
        max_anisotropy: 16,
        max_mip_level: 2,
        mip_lod_bias: 0.5,
        ..SamplerState::default()
    };
    Entry {
        file: "sampler_states.fx",
        concern: "Border + BorderColor, Mirror, MipFilter None, Anisotropic",
        techniques: vec![technique(
            "SamplerStates",
            vec![ps_pass(
                "P0",
                vec![
                    sampler(0, ST::Sampler2D, "BorderTexture").baked(border),
                    sampler(1, ST::Sampler2D, "MirrorTexture").baked(mirror),
                    sampler(2, ST::Sampler2D, "AnisoTexture").baked(aniso),
                ],
            )],
        )],
        parameters: vec![
            p_vec("Weights", 3),
            p_tex2d("BorderTexture"),
            p_tex2d("MirrorTexture"),
            p_tex2d("AnisoTexture"),
        ],
        render: Render {
            technique: "SamplerStates",
            values: vec![("Weights", vector(&STATE_WEIGHTS))],
            textures: vec![
                ("BorderTexture", BORDER_TEX),
                ("MirrorTexture", MIRROR_TEX),
                ("AnisoTexture", ANISO_TEX),
            ],
            geometry: Geometry::Sprite {
                rect: RECT,
                color: WHITE,
            },
            render_targets: 1,
            check: Check::reference(reference),
        },
    }
}
