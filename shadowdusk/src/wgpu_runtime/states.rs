//! MonoGame's render states as wgpu pipeline state, mapped as MonoGame's DirectX 11 runtime maps
//! them (wgpu shares its conventions: clockwise front faces, D3D clip space).
//! A pass that sets no block gets the device's (`DeviceStates`: the last pass's block, or what
//! was set); the device's initial states (`BlendState.Opaque`, `DepthStencilState.Default`,
//! `RasterizerState.CullCounterClockwise`) are the mgfx blocks' `Default`s.
//!
//! Where MonoGame's two runtimes agree and wgpu could do more, they are followed, so that a pass
//! renders as the GL runtime draws it:
//! * blending is off when the four factors are One/Zero, whatever the functions (MonoGame's
//!   test on both backends);
//! * `MultiSampleMask` is not applied (the DX11 runtime passes SharpDX's default mask, all
//!   samples; the GL runtime never sets one);
//! * the float `DepthBias` becomes depth-format units through MonoGame's multiplier, whose C#
//!   precedence makes it `1 << 15` for 16-bit depth and `1 << 23` otherwise (the GL runtime's
//!   `depth_bias_scale`; 32-bit float depth is what the GL runtime assumes for 32 bits too).

use crate::mgfx::{CompareFunction, DepthStencilState, RasterizerState, StencilOperation};

pub(crate) use super::monogame_states::{blend_constant, color_target, primitive};

/// The sample mask of every pipeline: all samples, whatever a pass's
/// `BlendState.MultiSampleMask` says. MonoGame's DX11 runtime never passes the mask to
/// `OMSetBlendState` (SharpDX's default, 0xFFFFFFFF, goes instead) and its GL runtime sets no
/// sample mask, so honouring it would draw what neither draws.
pub(crate) const SAMPLE_MASK: u64 = !0;

/// `ToComparison` / `GetDepthFunction`.
fn compare(f: CompareFunction) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as C;
    match f {
        CompareFunction::Always => C::Always,
        CompareFunction::Never => C::Never,
        CompareFunction::Less => C::Less,
        CompareFunction::LessEqual => C::LessEqual,
        CompareFunction::Equal => C::Equal,
        CompareFunction::GreaterEqual => C::GreaterEqual,
        CompareFunction::Greater => C::Greater,
        CompareFunction::NotEqual => C::NotEqual,
    }
}

/// `GetStencilOp` (DX11): Increment is `D3D11_STENCIL_OP_INCR`, which wraps, and
/// IncrementSaturation is `INCR_SAT`, which clamps (the GL runtime pairs them the same way).
fn stencil_op(op: StencilOperation) -> wgpu::StencilOperation {
    use wgpu::StencilOperation as S;
    match op {
        StencilOperation::Keep => S::Keep,
        StencilOperation::Zero => S::Zero,
        StencilOperation::Replace => S::Replace,
        StencilOperation::Increment => S::IncrementWrap,
        StencilOperation::Decrement => S::DecrementWrap,
        StencilOperation::IncrementSaturation => S::IncrementClamp,
        StencilOperation::DecrementSaturation => S::DecrementClamp,
        StencilOperation::Invert => S::Invert,
    }
}

/// Stencil as `DepthStencilState.DirectX.cs` builds it: the front (clockwise) face takes the
/// plain ops; the back face takes the counter-clockwise ops in two-sided mode and the plain
/// ones otherwise. Off when the state has it off or the format has no stencil (D3D ignores
/// stencil on such a view; wgpu refuses it).
fn stencil(d: &DepthStencilState, format: wgpu::TextureFormat) -> wgpu::StencilState {
    if !d.stencil_enable || !format.has_stencil_aspect() {
        return wgpu::StencilState::default();
    }
    let front = wgpu::StencilFaceState {
        compare: compare(d.stencil_function),
        fail_op: stencil_op(d.stencil_fail),
        depth_fail_op: stencil_op(d.stencil_depth_buffer_fail),
        pass_op: stencil_op(d.stencil_pass),
    };
    let back = if d.two_sided_stencil_mode {
        wgpu::StencilFaceState {
            compare: compare(d.ccw_stencil_function),
            fail_op: stencil_op(d.ccw_stencil_fail),
            depth_fail_op: stencil_op(d.ccw_stencil_depth_buffer_fail),
            pass_op: stencil_op(d.ccw_stencil_pass),
        }
    } else {
        front
    };
    wgpu::StencilState {
        front,
        back,
        // Two's complement: -1 is every bit; wgpu, like D3D's byte masks, uses the low 8.
        read_mask: d.stencil_mask as u32,
        write_mask: d.stencil_write_mask as u32,
    }
}

/// MonoGame's depth-bias multiplier for a depth format (`RasterizerState.DirectX.cs`:
/// `1 << 16 - 1` is `1 << 15` by C# precedence, `1 << 24 - 1` is `1 << 23`). MonoGame has no
/// float depth format; 32-bit float depth takes the 24-bit multiplier, as the GL runtime's
/// `depth_bias_scale` does for 32 depth bits (and D3D's float-depth bias unit is
/// `2^(exponent - 23)`, so the result is about `DepthBias` in depth units there).
fn depth_bias_scale(format: wgpu::TextureFormat) -> f32 {
    use wgpu::TextureFormat as T;
    match format {
        T::Depth16Unorm => (1u32 << 15) as f32,
        f if f.has_depth_aspect() => (1u32 << 23) as f32,
        _ => 0.0,
    }
}

/// Depth, stencil and depth bias for a target whose depth attachment has `format` (`None`: no
/// depth attachment, no depth-stencil state).
///
/// Depth off is compare Always without writes (D3D's `DepthEnable = FALSE` also stops writes).
/// The bias is `(int)(DepthBias * multiplier)` with no clamp (MonoGame sets `DepthBiasClamp`
/// 0), and none for line and point topologies, which wgpu refuses to bias.
pub(crate) fn depth_stencil(
    depth_stencil: Option<&DepthStencilState>,
    rasterizer: Option<&RasterizerState>,
    format: Option<wgpu::TextureFormat>,
    topology: wgpu::PrimitiveTopology,
) -> Option<wgpu::DepthStencilState> {
    let format = format?;
    let d = depth_stencil.copied().unwrap_or_default();
    let r = rasterizer.copied().unwrap_or_default();
    let has_depth = format.has_depth_aspect();
    let (depth_write_enabled, depth_compare) = if !has_depth {
        // A stencil-only attachment: wgpu wants no depth state at all.
        (None, None)
    } else if d.depth_buffer_enable {
        (
            Some(d.depth_buffer_write_enable),
            Some(compare(d.depth_buffer_function)),
        )
    } else {
        (Some(false), Some(wgpu::CompareFunction::Always))
    };
    let bias = if has_depth && topology.is_triangles() {
        wgpu::DepthBiasState {
            // `as` truncates toward zero like C#'s `(int)` cast (and saturates, not wraps).
            constant: (r.depth_bias * depth_bias_scale(format)) as i32,
            slope_scale: r.slope_scale_depth_bias,
            clamp: 0.0,
        }
    } else {
        wgpu::DepthBiasState::default()
    };
    Some(wgpu::DepthStencilState {
        format,
        depth_write_enabled,
        depth_compare,
        stencil: stencil(&d, format),
        bias,
    })
}

/// `DepthStencilState.ReferenceStencil` (D3D's `StencilRef` is a UINT; two's complement).
pub(crate) fn stencil_reference(depth_stencil: Option<&DepthStencilState>) -> u32 {
    depth_stencil.map_or(0, |d| d.reference_stencil as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mgfx::{Blend, BlendFunction, BlendState, CullMode, FillMode};
    use wgpu::{PrimitiveTopology as Topology, TextureFormat as Format};

    const RGBA8: Format = Format::Rgba8Unorm;

    fn alpha_blend() -> BlendState {
        // MonoGame's BlendState.AlphaBlend (premultiplied).
        BlendState {
            color_source_blend: Blend::One,
            color_destination_blend: Blend::InverseSourceAlpha,
            alpha_source_blend: Blend::One,
            alpha_destination_blend: Blend::InverseSourceAlpha,
            ..BlendState::default()
        }
    }

    #[test]
    fn absent_blocks_are_monogames_initial_device_state() {
        let target = color_target(None, RGBA8).unwrap();
        assert_eq!(target.blend, None);
        assert_eq!(target.write_mask, wgpu::ColorWrites::ALL);
        assert_eq!(
            blend_constant(None),
            wgpu::Color {
                r: 1.0,
                g: 1.0,
                b: 1.0,
                a: 1.0
            }
        );
        let p = primitive(None, Topology::TriangleList);
        assert_eq!(p.front_face, wgpu::FrontFace::Cw);
        assert_eq!(p.cull_mode, Some(wgpu::Face::Back));
        assert_eq!(p.polygon_mode, wgpu::PolygonMode::Fill);
        let ds = depth_stencil(
            None,
            None,
            Some(Format::Depth24Plus),
            Topology::TriangleList,
        )
        .unwrap();
        assert_eq!(ds.depth_write_enabled, Some(true));
        assert_eq!(ds.depth_compare, Some(wgpu::CompareFunction::LessEqual));
        assert!(!ds.stencil.is_enabled());
        assert!(!ds.bias.is_enabled());
        assert_eq!(stencil_reference(None), 0);
    }

    #[test]
    fn alpha_blend_maps_factors_per_component() {
        let b = BlendState {
            color_source_blend: Blend::SourceColor,
            alpha_source_blend: Blend::DestinationColor,
            alpha_destination_blend: Blend::InverseSourceColor,
            color_blend_function: BlendFunction::ReverseSubtract,
            ..alpha_blend()
        };
        let blend = color_target(Some(&b), RGBA8).unwrap().blend.unwrap();
        assert_eq!(
            blend.color,
            wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::Src,
                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                operation: wgpu::BlendOperation::ReverseSubtract,
            }
        );
        // Colour factors in the alpha slot become their alpha counterparts (GetBlendOption).
        assert_eq!(
            blend.alpha,
            wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::DstAlpha,
                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                operation: wgpu::BlendOperation::Add,
            }
        );
        assert_eq!(
            color_target(Some(&alpha_blend()), RGBA8)
                .unwrap()
                .blend
                .unwrap(),
            wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING
        );
    }

    #[test]
    fn min_and_max_take_one_for_both_factors() {
        let b = BlendState {
            color_blend_function: BlendFunction::Max,
            alpha_blend_function: BlendFunction::Min,
            color_source_blend: Blend::SourceAlpha,
            ..alpha_blend()
        };
        let blend = color_target(Some(&b), RGBA8).unwrap().blend.unwrap();
        for (c, op) in [
            (blend.color, wgpu::BlendOperation::Max),
            (blend.alpha, wgpu::BlendOperation::Min),
        ] {
            assert_eq!(c.operation, op);
            assert_eq!(c.src_factor, wgpu::BlendFactor::One);
            assert_eq!(c.dst_factor, wgpu::BlendFactor::One);
        }
    }

    #[test]
    fn one_zero_factors_do_not_blend_whatever_the_function() {
        let b = BlendState {
            color_blend_function: BlendFunction::ReverseSubtract,
            alpha_blend_function: BlendFunction::Max,
            color_write_channels: [1 | 8, 15, 15, 15],
            ..BlendState::default()
        };
        // Opaque draws into a format that cannot blend.
        let target = color_target(Some(&b), Format::Rgba32Float).unwrap();
        assert_eq!(target.blend, None);
        assert_eq!(
            target.write_mask,
            wgpu::ColorWrites::RED | wgpu::ColorWrites::ALPHA
        );
    }

    #[test]
    fn blending_into_an_unblendable_format_is_refused() {
        assert_eq!(
            color_target(Some(&alpha_blend()), Format::Rgba32Float),
            Err(())
        );
        assert_eq!(color_target(Some(&alpha_blend()), Format::R32Uint), Err(()));
        assert!(color_target(Some(&alpha_blend()), Format::Rgba16Float).is_ok());
        assert!(color_target(Some(&alpha_blend()), Format::Bgra8UnormSrgb).is_ok());
    }

    #[test]
    fn blend_constant_is_bytes_over_255() {
        let b = BlendState {
            blend_factor: [0, 51, 255, 102],
            multi_sample_mask: 0,
            ..BlendState::default()
        };
        let c = blend_constant(Some(&b));
        assert_eq!((c.r, c.g, c.b, c.a), (0.0, 0.2, 1.0, 0.4));
    }

    #[test]
    fn cull_modes_follow_dx11_with_clockwise_fronts() {
        let cull = |cull_mode| {
            let r = RasterizerState {
                cull_mode,
                ..RasterizerState::default()
            };
            primitive(Some(&r), Topology::TriangleStrip)
        };
        assert_eq!(cull(CullMode::None).cull_mode, None);
        assert_eq!(
            cull(CullMode::CullClockwiseFace).cull_mode,
            Some(wgpu::Face::Front)
        );
        assert_eq!(
            cull(CullMode::CullCounterClockwiseFace).cull_mode,
            Some(wgpu::Face::Back)
        );
        assert_eq!(
            cull(CullMode::CullClockwiseFace).topology,
            Topology::TriangleStrip
        );
        let wire = RasterizerState {
            fill_mode: FillMode::WireFrame,
            ..RasterizerState::default()
        };
        assert_eq!(
            primitive(Some(&wire), Topology::TriangleList).polygon_mode,
            wgpu::PolygonMode::Line
        );
    }

    #[test]
    fn no_depth_attachment_no_state_and_depth_off_is_always_without_writes() {
        assert_eq!(
            depth_stencil(None, None, None, Topology::TriangleList),
            None
        );
        let off = DepthStencilState {
            depth_buffer_enable: false,
            depth_buffer_function: CompareFunction::Greater,
            ..DepthStencilState::default()
        };
        let ds = depth_stencil(
            Some(&off),
            None,
            Some(Format::Depth32Float),
            Topology::TriangleList,
        )
        .unwrap();
        assert_eq!(ds.depth_write_enabled, Some(false));
        assert_eq!(ds.depth_compare, Some(wgpu::CompareFunction::Always));
        assert!(!ds.is_depth_enabled());
        let read = DepthStencilState {
            depth_buffer_write_enable: false,
            depth_buffer_function: CompareFunction::Less,
            ..DepthStencilState::default()
        };
        let ds = depth_stencil(
            Some(&read),
            None,
            Some(Format::Depth16Unorm),
            Topology::TriangleList,
        )
        .unwrap();
        assert_eq!(ds.depth_write_enabled, Some(false));
        assert_eq!(ds.depth_compare, Some(wgpu::CompareFunction::Less));
    }

    fn stencilled(two_sided: bool) -> DepthStencilState {
        DepthStencilState {
            stencil_enable: true,
            two_sided_stencil_mode: two_sided,
            stencil_function: CompareFunction::Equal,
            stencil_pass: StencilOperation::Increment,
            stencil_fail: StencilOperation::IncrementSaturation,
            stencil_depth_buffer_fail: StencilOperation::Decrement,
            ccw_stencil_function: CompareFunction::NotEqual,
            ccw_stencil_pass: StencilOperation::DecrementSaturation,
            ccw_stencil_fail: StencilOperation::Invert,
            ccw_stencil_depth_buffer_fail: StencilOperation::Replace,
            stencil_mask: -1,
            stencil_write_mask: 0x0F,
            reference_stencil: 3,
            ..DepthStencilState::default()
        }
    }

    #[test]
    fn stencil_front_is_clockwise_and_back_ccw_only_when_two_sided() {
        let format = Some(Format::Depth24PlusStencil8);
        let one = depth_stencil(
            Some(&stencilled(false)),
            None,
            format,
            Topology::TriangleList,
        )
        .unwrap()
        .stencil;
        let front = wgpu::StencilFaceState {
            compare: wgpu::CompareFunction::Equal,
            fail_op: wgpu::StencilOperation::IncrementClamp,
            depth_fail_op: wgpu::StencilOperation::DecrementWrap,
            pass_op: wgpu::StencilOperation::IncrementWrap,
        };
        assert_eq!(one.front, front);
        assert_eq!(one.back, front);
        assert_eq!((one.read_mask, one.write_mask), (0xFFFF_FFFF, 0x0F));
        let two = depth_stencil(
            Some(&stencilled(true)),
            None,
            format,
            Topology::TriangleList,
        )
        .unwrap()
        .stencil;
        assert_eq!(two.front, front);
        assert_eq!(
            two.back,
            wgpu::StencilFaceState {
                compare: wgpu::CompareFunction::NotEqual,
                fail_op: wgpu::StencilOperation::Invert,
                depth_fail_op: wgpu::StencilOperation::Replace,
                pass_op: wgpu::StencilOperation::DecrementClamp,
            }
        );
        assert_eq!(stencil_reference(Some(&stencilled(true))), 3);
    }

    #[test]
    fn stencil_is_off_without_a_stencil_aspect_and_depth_without_a_depth_aspect() {
        let s = stencilled(true);
        let depth_only = depth_stencil(
            Some(&s),
            None,
            Some(Format::Depth32Float),
            Topology::TriangleList,
        )
        .unwrap();
        assert!(!depth_only.stencil.is_enabled());
        let stencil_only = depth_stencil(
            Some(&s),
            None,
            Some(Format::Stencil8),
            Topology::TriangleList,
        )
        .unwrap();
        assert!(stencil_only.stencil.is_enabled());
        assert_eq!(stencil_only.depth_write_enabled, None);
        assert_eq!(stencil_only.depth_compare, None);
        assert!(!stencil_only.is_depth_enabled());
    }

    #[test]
    fn depth_bias_uses_monogames_multiplier_and_only_for_triangles() {
        let r = RasterizerState {
            depth_bias: 0.001,
            slope_scale_depth_bias: 2.0,
            ..RasterizerState::default()
        };
        let bias = |format, topology| {
            depth_stencil(None, Some(&r), Some(format), topology)
                .unwrap()
                .bias
        };
        let d24 = bias(Format::Depth24PlusStencil8, Topology::TriangleList);
        assert_eq!(d24.constant, 8388); // 0.001 * 2^23, truncated
        assert_eq!(d24.slope_scale, 2.0);
        assert_eq!(d24.clamp, 0.0);
        assert_eq!(
            bias(Format::Depth16Unorm, Topology::TriangleStrip).constant,
            32
        );
        assert_eq!(
            bias(Format::Depth32Float, Topology::TriangleList).constant,
            8388
        );
        for topology in [Topology::LineList, Topology::LineStrip, Topology::PointList] {
            assert!(!bias(Format::Depth24Plus, topology).is_enabled());
        }
        let negative = RasterizerState {
            depth_bias: -0.001,
            ..r
        };
        let ds = depth_stencil(
            None,
            Some(&negative),
            Some(Format::Depth24Plus),
            Topology::TriangleList,
        )
        .unwrap();
        assert_eq!(ds.bias.constant, -8388);
    }
}
