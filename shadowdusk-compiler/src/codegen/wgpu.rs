//! The `wgsl` part of a generated module, when the build compiled the effect for wgpu:
//! `EFFECT` (a `shadowdusk::wgsl::WgslEffect`): each shader's WGSL, entry point, bind-group
//! layout entries, vertex inputs and varyings, and each pass's shaders and render states as
//! plain data, so a runtime builds its pipelines without parsing anything.
//!
//! Input: the MGFX effect (passes, their states, each shader's sampler states) and the
//! compiler's [`WgpuEffect`] (one WGSL shader per MGFX shader, in the same order). Output:
//! tokens of `pub mod wgsl { … }`; `Params` is the same type for both targets. (Not `wgpu`: a
//! module of that name, brought in by `use tint::*`, would make the `wgpu` crate's paths
//! ambiguous in the user's code.)

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};
use shadowdusk_mgfx::{BlendState, DepthStencilState, Effect, RasterizerState, SamplerState};

use super::CodegenError;
use crate::wgsl::{WgpuBindingKind, WgpuEffect, WgpuShader};

/// `pub mod wgsl { pub static EFFECT: … }` for `effect`, whose wgpu translation is `wgpu`.
pub fn module(
    k: &TokenStream,
    effect: &Effect,
    wgpu: &WgpuEffect,
) -> Result<TokenStream, CodegenError> {
    if wgpu.shaders.len() != effect.shaders.len() {
        return Err(CodegenError::ReflectionMismatch(format!(
            "the wgpu output has {} shaders, the effect {}",
            wgpu.shaders.len(),
            effect.shaders.len()
        )));
    }
    let shaders = wgpu
        .shaders
        .iter()
        .zip(&effect.shaders)
        .map(|(w, m)| shader(k, w, m))
        .collect::<Result<Vec<_>, _>>()?;
    let techniques = effect.techniques.iter().map(|t| {
        let passes = t.passes.iter().map(|p| {
            let name = &p.name;
            let index = |i: i32| match usize::try_from(i) {
                Ok(i) => quote!(::core::option::Option::Some(#i)),
                Err(_) => quote!(::core::option::Option::None),
            };
            let (vertex, pixel) = (index(p.vertex_shader), index(p.pixel_shader));
            let blend = option(p.blend.as_ref().map(|b| blend(k, b)));
            let depth = option(p.depth_stencil.as_ref().map(|d| depth_stencil(k, d)));
            let raster = option(p.rasterizer.as_ref().map(|r| rasterizer(k, r)));
            quote! {
                #k::wgsl::WgslPass {
                    name: #name,
                    vertex: #vertex,
                    pixel: #pixel,
                    blend: #blend,
                    depth_stencil: #depth,
                    rasterizer: #raster,
                }
            }
        });
        quote!(&[#(#passes),*])
    });
    Ok(quote! {
        /// The effect compiled for wgpu: WGSL validated by naga at build time, the bind-group
        /// layout entries (group 0 vertex, group 1 pixel; binding 0 the stage's registers, the
        /// texture of slot N at 1 + 2N and its sampler at 2 + 2N), vertex inputs, varyings, and
        /// each pass's render states. `Params` is the same for OpenGL and wgpu.
        pub mod wgsl {
            /// Every shader and pass of the effect, for wgpu.
            pub static EFFECT: #k::wgsl::WgslEffect = #k::wgsl::WgslEffect {
                shaders: &[#(#shaders),*],
                techniques: &[#(#techniques),*],
            };
        }
    })
}

fn shader(
    k: &TokenStream,
    w: &WgpuShader,
    mgfx: &shadowdusk_mgfx::Shader,
) -> Result<TokenStream, CodegenError> {
    let (samplers, cbuffers) = (&mgfx.samplers, mgfx.cbuffers.as_slice());
    let stage = match w.stage.as_str() {
        "vertex" => quote!(#k::wgsl::Stage::Vertex),
        "pixel" => quote!(#k::wgsl::Stage::Pixel),
        other => {
            return Err(CodegenError::Malformed(format!(
                "a wgpu shader of stage `{other}`"
            )))
        }
    };
    let wgsl = raw_string(&w.wgsl);
    let entry = &w.entry;
    let mut bindings = Vec::new();
    for b in &w.bindings {
        let (binding, name) = (b.binding, &b.name);
        let slot = b.slot.unwrap_or(0);
        let kind = match &b.kind {
            WgpuBindingKind::Uniform { size } => {
                let record = match cbuffers {
                    [r] => usize::from(*r),
                    _ => {
                        return Err(CodegenError::Malformed(format!(
                            "a shader with uniforms reads {} constant-buffer records, not one",
                            cbuffers.len()
                        )))
                    }
                };
                quote!(#k::wgsl::BindingKind::Uniform { record: #record, size: #size })
            }
            WgpuBindingKind::Texture { dimension } => {
                let d = match dimension.as_str() {
                    "1d" => quote!(D1),
                    "2d" => quote!(D2),
                    "3d" => quote!(D3),
                    "cube" => quote!(Cube),
                    other => {
                        return Err(CodegenError::Malformed(format!(
                            "texture `{name}` of dimension `{other}`"
                        )))
                    }
                };
                quote!(#k::wgsl::BindingKind::Texture { slot: #slot, dimension: #k::wgsl::TextureDimension::#d })
            }
            WgpuBindingKind::Sampler => {
                let state = samplers
                    .iter()
                    .find(|s| u32::from(s.sampler_slot) == slot)
                    .and_then(|s| s.state.as_ref());
                let state = option(state.map(|s| sampler_state(k, s)));
                quote!(#k::wgsl::BindingKind::Sampler { slot: #slot, state: #state })
            }
        };
        bindings.push(quote!(#k::wgsl::Binding { binding: #binding, name: #name, kind: #kind }));
    }
    let mut inputs = Vec::new();
    for v in &w.vertex_inputs {
        let usage = crate::dialect::interface::usage_of(&v.usage)
            .ok_or_else(|| CodegenError::Malformed(format!("vertex input usage `{}`", v.usage)))?;
        let usage = format_ident!("{usage:?}");
        let format = format_ident!("{}", v.format);
        let (index, location) = (v.index, v.location);
        inputs.push(quote! {
            #k::wgsl::VertexInput {
                usage: #k::mgfx::VertexElementUsage::#usage,
                index: #index,
                location: #location,
                format: #k::wgsl::VertexFormat::#format,
            }
        });
    }
    let varyings = w.varyings.iter().map(|v| {
        let (semantic, location, flat) = (&v.semantic, v.location, v.flat);
        let at = option(v.location_at.map(|at| quote!(#at)));
        quote!(#k::wgsl::Varying { semantic: #semantic, location: #location, flat: #flat, location_at: #at })
    });
    Ok(quote! {
        #k::wgsl::WgslShader {
            stage: #stage,
            wgsl: #wgsl,
            entry: #entry,
            bindings: &[#(#bindings),*],
            vertex_inputs: &[#(#inputs),*],
            varyings: &[#(#varyings),*],
        }
    })
}

/// `text` as a raw string literal, so the generated module shows the WGSL as it is, line by
/// line.
fn raw_string(text: &str) -> TokenStream {
    let mut hashes = "#".to_string();
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .unwrap_or_else(|_| Literal::string(text).into_token_stream())
}

fn option(t: Option<TokenStream>) -> TokenStream {
    match t {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    }
}

/// An enum value of the MGFX model, by its variant's name.
fn variant(k: &TokenStream, ty: &str, value: impl std::fmt::Debug) -> TokenStream {
    let ty = format_ident!("{ty}");
    let v = format_ident!("{}", format!("{value:?}"));
    quote!(#k::mgfx::#ty::#v)
}

fn f32_lit(v: f32) -> Literal {
    Literal::f32_suffixed(v)
}

fn blend(k: &TokenStream, b: &BlendState) -> TokenStream {
    let f = |v| variant(k, "BlendFunction", v);
    let x = |v| variant(k, "Blend", v);
    let (abf, adb, asb) = (
        f(b.alpha_blend_function),
        x(b.alpha_destination_blend),
        x(b.alpha_source_blend),
    );
    let (cbf, cdb, csb) = (
        f(b.color_blend_function),
        x(b.color_destination_blend),
        x(b.color_source_blend),
    );
    let (factor, channels, mask) = (b.blend_factor, b.color_write_channels, b.multi_sample_mask);
    quote! {
        #k::mgfx::BlendState {
            alpha_blend_function: #abf,
            alpha_destination_blend: #adb,
            alpha_source_blend: #asb,
            blend_factor: [#(#factor),*],
            color_blend_function: #cbf,
            color_destination_blend: #cdb,
            color_source_blend: #csb,
            color_write_channels: [#(#channels),*],
            multi_sample_mask: #mask,
        }
    }
}

fn depth_stencil(k: &TokenStream, d: &DepthStencilState) -> TokenStream {
    let op = |v| variant(k, "StencilOperation", v);
    let cmp = |v| variant(k, "CompareFunction", v);
    let (ccw_dbf, ccw_fail, ccw_fn, ccw_pass) = (
        op(d.ccw_stencil_depth_buffer_fail),
        op(d.ccw_stencil_fail),
        cmp(d.ccw_stencil_function),
        op(d.ccw_stencil_pass),
    );
    let (dbf, fail, func, pass) = (
        op(d.stencil_depth_buffer_fail),
        op(d.stencil_fail),
        cmp(d.stencil_function),
        op(d.stencil_pass),
    );
    let depth_fn = cmp(d.depth_buffer_function);
    let (enable, write, reference) = (
        d.depth_buffer_enable,
        d.depth_buffer_write_enable,
        d.reference_stencil,
    );
    let (stencil, mask, write_mask, two_sided) = (
        d.stencil_enable,
        d.stencil_mask,
        d.stencil_write_mask,
        d.two_sided_stencil_mode,
    );
    quote! {
        #k::mgfx::DepthStencilState {
            ccw_stencil_depth_buffer_fail: #ccw_dbf,
            ccw_stencil_fail: #ccw_fail,
            ccw_stencil_function: #ccw_fn,
            ccw_stencil_pass: #ccw_pass,
            depth_buffer_enable: #enable,
            depth_buffer_function: #depth_fn,
            depth_buffer_write_enable: #write,
            reference_stencil: #reference,
            stencil_depth_buffer_fail: #dbf,
            stencil_enable: #stencil,
            stencil_fail: #fail,
            stencil_function: #func,
            stencil_mask: #mask,
            stencil_pass: #pass,
            stencil_write_mask: #write_mask,
            two_sided_stencil_mode: #two_sided,
        }
    }
}

fn rasterizer(k: &TokenStream, r: &RasterizerState) -> TokenStream {
    let cull = variant(k, "CullMode", r.cull_mode);
    let fill = variant(k, "FillMode", r.fill_mode);
    let (bias, slope) = (f32_lit(r.depth_bias), f32_lit(r.slope_scale_depth_bias));
    let (msaa, scissor) = (r.multi_sample_anti_alias, r.scissor_test_enable);
    quote! {
        #k::mgfx::RasterizerState {
            cull_mode: #cull,
            depth_bias: #bias,
            fill_mode: #fill,
            multi_sample_anti_alias: #msaa,
            scissor_test_enable: #scissor,
            slope_scale_depth_bias: #slope,
        }
    }
}

fn sampler_state(k: &TokenStream, s: &SamplerState) -> TokenStream {
    let address = |v| variant(k, "TextureAddressMode", v);
    let (u, v, w) = (
        address(s.address_u),
        address(s.address_v),
        address(s.address_w),
    );
    let filter = variant(k, "TextureFilter", s.filter);
    let border = s.border_color;
    let (aniso, max_mip, bias) = (s.max_anisotropy, s.max_mip_level, f32_lit(s.mip_lod_bias));
    quote! {
        #k::mgfx::SamplerState {
            address_u: #u,
            address_v: #v,
            address_w: #w,
            border_color: [#(#border),*],
            filter: #filter,
            max_anisotropy: #aniso,
            max_mip_level: #max_mip,
            mip_lod_bias: #bias,
        }
    }
}
