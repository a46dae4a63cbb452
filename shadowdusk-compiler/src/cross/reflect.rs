//! Reflection of SPIR-V resources for the dialect rewrite, and the renames and offset re-packing
//! that make SPIRV-Cross's output predictable (see the module doc of [`super`]).

use spirv_cross2::reflect::{ArrayDimension, DecorationValue, ImageClass, ScalarKind, TypeInner};
use spirv_cross2::spirv;
use spirv_cross2::spirv::Decoration;
use spirv_cross2::targets::Glsl;
use spirv_cross2::Compiler;
use std::collections::BTreeMap;

use super::{BlockMember, CombinedSampler, MemberKind, StageVar, UniformBlock};
use crate::effect::Dim;

type C = Compiler<Glsl>;

fn err(what: &str) -> impl Fn(spirv_cross2::SpirvCrossError) -> String + '_ {
    move |e| format!("SPIRV-Cross reflection ({what}): {e}")
}

fn name_of<I: spirv_cross2::handle::Id>(c: &C, h: spirv_cross2::handle::Handle<I>) -> String {
    c.name(h)
        .ok()
        .flatten()
        .map(|s| s.to_string())
        .unwrap_or_default()
}

/// Names every combined sampler `sd_cs<k>` and records its texture, sampler and dimension.
pub(super) fn combined_samplers(c: &mut C) -> Result<Vec<CombinedSampler>, String> {
    let list: Vec<_> = c
        .combined_image_samplers()
        .map_err(err("combined samplers"))?
        .collect();
    let mut out = Vec::with_capacity(list.len());
    for (k, cis) in list.iter().enumerate() {
        let texture = name_of(c, cis.image_id);
        let sampler = name_of(c, cis.sampler_id);
        let ty = c
            .variable_type(cis.combined_id)
            .map_err(err("sampler type"))?;
        let (dim, exotic) = image_shape(c, ty)?;
        let glsl_name = format!("sd_cs{k}");
        c.set_name(cis.combined_id, glsl_name.as_str())
            .map_err(err("rename sampler"))?;
        out.push(CombinedSampler {
            glsl_name,
            texture,
            sampler,
            dim,
            exotic,
        });
    }
    Ok(out)
}

fn image_shape(
    c: &C,
    mut ty: spirv_cross2::handle::Handle<spirv_cross2::handle::TypeId>,
) -> Result<(Dim, bool), String> {
    let mut arrayed_var = false;
    loop {
        let t = c.type_description(ty).map_err(err("image type"))?;
        match t.inner {
            TypeInner::Pointer { base, .. } => ty = base,
            TypeInner::Array { base, .. } => {
                arrayed_var = true;
                ty = base
            }
            TypeInner::Image(img) => {
                let dim = match img.dimension {
                    spirv::Dim::Dim1D => Dim::D1,
                    spirv::Dim::Dim2D => Dim::D2,
                    spirv::Dim::Dim3D => Dim::D3,
                    spirv::Dim::DimCube => Dim::Cube,
                    _ => return Ok((Dim::D2, true)),
                };
                let exotic = arrayed_var
                    || match img.class {
                        ImageClass::Sampled {
                            depth,
                            multisampled,
                            arrayed,
                        } => depth || multisampled || arrayed,
                        ImageClass::Texture {
                            multisampled,
                            arrayed,
                        } => multisampled || arrayed,
                        ImageClass::Storage { .. } => true,
                    };
                return Ok((dim, exotic));
            }
            _ => return Ok((Dim::D2, true)),
        }
    }
}

/// Reflects every uniform block, re-packs member offsets to one register per member, renames
/// the block type `sd_ub<k>` and flattens it when SPIRV-Cross can.
pub(super) fn uniform_blocks(
    c: &mut C,
    explicit: &BTreeMap<String, u32>,
) -> Result<Vec<UniformBlock>, String> {
    let res = c.shader_resources().map_err(err("resources"))?;
    let all = res.all_resources().map_err(err("resources"))?;
    let mut ubos: Vec<_> = all
        .uniform_buffers
        .iter()
        .map(|r| (r.id, r.base_type_id, name_of(c, r.id)))
        .collect();
    // Declaration order = SPIR-V id order (DXC declares cbuffers in source order).
    ubos.sort_by_key(|(id, _, _)| id.id());
    let mut out = Vec::new();
    for (k, (var, base_ty, instance)) in ubos.into_iter().enumerate() {
        let t = c.type_description(base_ty).map_err(err("block type"))?;
        let type_name = t.name.as_ref().map(|s| s.to_string()).unwrap_or_default();
        let TypeInner::Struct(st) = t.inner else {
            return Err(format!("uniform buffer `{instance}` is not a struct"));
        };
        let handles: Vec<_> = st
            .members
            .iter()
            .map(|m| (m.struct_type, m.index as u32))
            .collect();
        let smembers = st.members.clone();
        // fxc gives registers only to the uniforms a stage reads, packed in declaration order;
        // MonoGame's records (and so the parameter order mgfxc writes) follow from that.
        let active: std::collections::BTreeSet<u32> = c
            .active_buffer_ranges(var)
            .map_err(err("active ranges"))?
            .iter()
            .map(|r| r.index)
            .collect();
        let mut members = Vec::new();
        let mut flattenable = true;
        let mut placed = vec![0u32; smembers.len()];
        let mut unused = Vec::new();
        // (member index, registers, D3D register fxc would give it) of the members read.
        let mut used: Vec<(usize, u32)> = Vec::new();
        for (i, m) in smembers.iter().enumerate() {
            let name = m.name.as_ref().map(|s| s.to_string()).unwrap_or_default();
            let spirv_row_major = c
                .member_decoration(m, Decoration::RowMajor)
                .map_err(err("RowMajor"))?
                .is_some();
            let (kind, glsl_type, array, elem_stride) = member_shape(c, m.id)?;
            let per_elem = member_registers(kind, !spirv_row_major);
            let registers = match (array, elem_stride) {
                (Some(n), Some(stride)) if stride % 16 == 0 && stride / 16 >= per_elem => {
                    n * (stride / 16)
                }
                (Some(n), _) => n * per_elem.max(1),
                (None, _) => per_elem.max(1),
            };
            if !matches!(kind, MemberKind::Float { .. } | MemberKind::Matrix { .. }) {
                flattenable = false;
            }
            if !active.contains(&(i as u32)) {
                unused.push((i, registers));
                continue;
            }
            used.push((i, registers));
            members.push(BlockMember {
                name,
                glsl_type,
                offset: m.offset,
                array,
                row_major: matches!(kind, MemberKind::Matrix { .. }) && !spirv_row_major,
                kind,
                register: 0,
                registers,
            });
        }
        // fxc's placement: `register(cN)` members at N, the others on the lowest free
        // registers in declaration order; mgfxc's record then lists them by register, packed.
        let d3d = d3d_registers(&members, explicit);
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&k| (d3d[k], k));
        let mut next = 0u32;
        for k in order {
            members[k].register = next;
            placed[used[k].0] = next;
            next += used[k].1;
        }
        members.sort_by_key(|m| m.register);
        // Members this stage never reads still need an offset; past the used ones they cannot
        // alias anything, and no code indexes them.
        let mut tail = next;
        for (i, registers) in unused {
            placed[i] = tail;
            tail += registers;
        }
        let block_name = format!("sd_ub{k}");
        let mut flattened_name = None;
        if flattenable {
            drop(smembers);
            for ((st, idx), register) in handles.iter().zip(&placed) {
                c.set_member_decoration_by_handle(
                    *st,
                    *idx,
                    Decoration::Offset,
                    Some(DecorationValue::Literal(register * 16)),
                )
                .map_err(err("Offset"))?;
            }
            c.set_name(base_ty, block_name.as_str())
                .map_err(err("rename block"))?;
            c.set_name(var, block_name.as_str())
                .map_err(err("rename block"))?;
            c.flatten_buffer_block(var).map_err(err("flatten"))?;
            flattened_name = Some(block_name);
        }
        out.push(UniformBlock {
            type_name,
            instance,
            members,
            flattened_name,
            registers: next,
        });
    }
    Ok(out)
}

/// The D3D constant register fxc gives each member: its explicit `register(cN)` when it has one,
/// else the lowest run of free registers, in declaration order.
fn d3d_registers(members: &[BlockMember], explicit: &BTreeMap<String, u32>) -> Vec<u32> {
    let mut taken: Vec<(u32, u32)> = members
        .iter()
        .filter_map(|m| explicit.get(&m.name).map(|&r| (r, r + m.registers)))
        .collect();
    members
        .iter()
        .map(|m| {
            if let Some(&r) = explicit.get(&m.name) {
                return r;
            }
            let mut start = 0;
            while let Some(&(_, end)) = taken
                .iter()
                .find(|&&(a, b)| start < b && a < start + m.registers)
            {
                start = end;
            }
            taken.push((start, start + m.registers));
            start
        })
        .collect()
}

/// Registers one element of `kind` occupies: 1 for scalars/vectors; for a matrix the number of
/// 16-byte vectors in memory — HLSL columns under `column_major` (MonoGame's register k =
/// column k), HLSL rows under `row_major`.
pub fn member_registers(kind: MemberKind, hlsl_row_major: bool) -> u32 {
    match kind {
        MemberKind::Float { .. } => 1,
        MemberKind::Matrix { rows, columns } => {
            if hlsl_row_major {
                rows
            } else {
                columns
            }
        }
        _ => 1,
    }
}

type TypeH = spirv_cross2::handle::Handle<spirv_cross2::handle::TypeId>;

/// (kind, GLSL spelling, array count, array stride).
fn member_shape(
    c: &C,
    ty: TypeH,
) -> Result<(MemberKind, String, Option<u32>, Option<u32>), String> {
    let t = c.type_description(ty).map_err(err("member type"))?;
    match t.inner {
        TypeInner::Array {
            base,
            dimensions,
            stride,
            ..
        } => {
            let (kind, glsl, inner_array, _) = member_shape(c, base)?;
            match (dimensions.as_slice(), inner_array) {
                ([ArrayDimension::Literal(n)], None) => Ok((kind, glsl, Some(*n), stride)),
                _ => Ok((MemberKind::Other, format!("{glsl}[][]"), Some(0), stride)),
            }
        }
        TypeInner::Scalar(s) if s.kind == ScalarKind::Float && s.size.byte_size() == 4 => Ok((
            MemberKind::Float { components: 1 },
            "float".into(),
            None,
            None,
        )),
        TypeInner::Vector { width, scalar }
            if scalar.kind == ScalarKind::Float && scalar.size.byte_size() == 4 =>
        {
            Ok((
                MemberKind::Float { components: width },
                format!("vec{width}"),
                None,
                None,
            ))
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } if scalar.kind == ScalarKind::Float && scalar.size.byte_size() == 4 => {
            // DXC's SPIR-V matrix is the transpose of the HLSL one: SPIR-V columns are HLSL rows.
            let glsl = if columns == rows {
                format!("mat{columns}")
            } else {
                format!("mat{columns}x{rows}")
            };
            Ok((
                MemberKind::Matrix {
                    rows: columns,
                    columns: rows,
                },
                glsl,
                None,
                None,
            ))
        }
        TypeInner::Scalar(s) => Ok((MemberKind::NonFloat, scalar_name(s.kind).into(), None, None)),
        TypeInner::Vector { width, scalar } => Ok((
            MemberKind::NonFloat,
            format!("{}{width}", vector_prefix(scalar.kind)),
            None,
            None,
        )),
        TypeInner::Struct(_) => Ok((MemberKind::Struct, "struct".into(), None, None)),
        _ => Ok((MemberKind::Other, "unknown".into(), None, None)),
    }
}

fn scalar_name(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::Int => "int",
        ScalarKind::Uint => "uint",
        ScalarKind::Bool => "bool",
        ScalarKind::Float => "double",
    }
}

fn vector_prefix(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::Int => "ivec",
        ScalarKind::Uint => "uvec",
        ScalarKind::Bool => "bvec",
        ScalarKind::Float => "dvec",
    }
}

/// Renames user-semantic stage variables `sd_in_<SEM>` / `sd_out_<SEM>` and reflects builtins.
pub(super) fn stage_vars(c: &mut C) -> Result<(Vec<StageVar>, Vec<StageVar>), String> {
    let res = c.shader_resources().map_err(err("resources"))?;
    let all = res.all_resources().map_err(err("resources"))?;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for (list, prefix, dxc_prefix, out) in [
        (&all.stage_inputs, "sd_in_", "in.var.", &mut inputs),
        (&all.stage_outputs, "sd_out_", "out.var.", &mut outputs),
    ] {
        let mut vars = Vec::new();
        for r in list.iter() {
            let raw = r.name.to_string();
            let semantic = raw
                .strip_prefix(dxc_prefix)
                .unwrap_or(&raw)
                .to_ascii_uppercase();
            let location = c
                .decoration(r.id, Decoration::Location)
                .map_err(err("Location"))?
                .and_then(|v| v.as_literal());
            let components = components_of(c, r.type_id)?;
            let glsl_name = format!("{prefix}{}", sanitize(&semantic));
            c.set_name(r.id, glsl_name.as_str())
                .map_err(err("rename stage var"))?;
            vars.push(StageVar {
                glsl_name,
                semantic,
                components,
                location,
                builtin: false,
            });
        }
        vars.sort_by_key(|v| (v.location.unwrap_or(u32::MAX), v.semantic.clone()));
        out.extend(vars);
    }
    for (list, out) in [
        (&all.builtin_inputs, &mut inputs),
        (&all.builtin_outputs, &mut outputs),
    ] {
        for b in list.iter() {
            let (glsl, sem) = builtin_names(b.builtin);
            let components = components_of(c, b.value_type_id)?;
            out.push(StageVar {
                glsl_name: glsl.into(),
                semantic: sem,
                components,
                location: None,
                builtin: true,
            });
        }
    }
    Ok((inputs, outputs))
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
        .collect()
}

fn components_of(c: &C, ty: TypeH) -> Result<u32, String> {
    let t = c.type_description(ty).map_err(err("stage var type"))?;
    Ok(match t.inner {
        TypeInner::Pointer { base, .. } => components_of(c, base)?,
        TypeInner::Scalar(_) => 1,
        TypeInner::Vector { width, .. } => width,
        _ => 0,
    })
}

fn builtin_names(b: spirv::BuiltIn) -> (&'static str, String) {
    use spirv::BuiltIn as B;
    let (g, s) = match b {
        B::Position => ("gl_Position", "SV_POSITION"),
        B::FragCoord => ("gl_FragCoord", "SV_POSITION"),
        B::FrontFacing => ("gl_FrontFacing", "SV_ISFRONTFACE"),
        B::FragDepth => ("gl_FragDepth", "SV_DEPTH"),
        B::PointSize => ("gl_PointSize", "PSIZE"),
        B::VertexIndex | B::VertexId => ("gl_VertexID", "SV_VERTEXID"),
        B::InstanceIndex | B::InstanceId => ("gl_InstanceID", "SV_INSTANCEID"),
        B::SampleId => ("gl_SampleID", "SV_SAMPLEINDEX"),
        B::SampleMask => ("gl_SampleMask", "SV_COVERAGE"),
        B::PrimitiveId => ("gl_PrimitiveID", "SV_PRIMITIVEID"),
        B::ClipDistance => ("gl_ClipDistance", "SV_CLIPDISTANCE"),
        B::CullDistance => ("gl_CullDistance", "SV_CULLDISTANCE"),
        _ => ("gl_unknown", "SV_UNKNOWN"),
    };
    (g, s.to_string())
}
