//! An effect's own vertex shader on a Bevy `Mesh2d`: its inputs fed from the mesh's attributes
//! by MonoGame usage, its registers moved into the material's bind group, and its depth turned
//! into Bevy's.
//!
//! The shader computes positions from the matrices in `Params`, in Direct3D's clip space, which
//! is wgpu's, except for depth: Bevy's depth buffers are reverse-Z (cleared to 0, near is 1,
//! compared `GreaterEqual`), Direct3D's are not (near is 0). Every position the entry point
//! returns is rewritten to `(x, y, w − z, w)`, so z/w becomes 1 − z/w: the same order, in
//! Bevy's direction, and the meshes depth-test against each other and against Bevy's own as
//! they would in MonoGame. The rewrite is made on naga's IR of the compiler's WGSL, not its
//! text.

use bevy::mesh::{Mesh, MeshVertexAttribute};
use naga::{
    BinaryOperator, Binding, Block, BuiltIn, Expression, Handle, ResourceBinding, Span, Statement,
    Type, TypeInner,
};
use shadowdusk::mgfx::VertexElementUsage;
use shadowdusk::wgsl::{BindingKind, VertexFormat, VertexInput, WgslShader};

/// The material's binding of the vertex shader's registers, past SpriteBatch's colour.
pub(crate) const REGISTERS_BINDING: u32 = 65;

/// The Bevy mesh attribute that feeds `input` (Bevy's attributes by the MonoGame usage and
/// index they stand for), if any; only float inputs take one (Bevy's joint indices are
/// integers, MonoGame's `BLENDINDICES` reach a shader as floats).
pub(crate) fn mesh_attribute(input: &VertexInput) -> Option<MeshVertexAttribute> {
    use VertexElementUsage as U;
    let float = matches!(
        input.format,
        VertexFormat::Float32
            | VertexFormat::Float32x2
            | VertexFormat::Float32x3
            | VertexFormat::Float32x4
    );
    if !float {
        return None;
    }
    Some(match (input.usage, input.index) {
        (U::Position, 0) => Mesh::ATTRIBUTE_POSITION,
        (U::Normal, 0) => Mesh::ATTRIBUTE_NORMAL,
        (U::TextureCoordinate, 0) => Mesh::ATTRIBUTE_UV_0,
        (U::TextureCoordinate, 1) => Mesh::ATTRIBUTE_UV_1,
        (U::Tangent, 0) => Mesh::ATTRIBUTE_TANGENT,
        (U::Color, 0) => Mesh::ATTRIBUTE_COLOR,
        (U::BlendWeight, 0) => Mesh::ATTRIBUTE_JOINT_WEIGHT,
        _ => return None,
    })
}

/// Why a vertex shader cannot run on a Bevy mesh, if it cannot: an input no Bevy attribute
/// feeds (`Err(Some(usage and index))`), or textures (`Err(None)`).
pub(crate) fn check(vs: &WgslShader) -> Result<(), Option<String>> {
    if vs
        .bindings
        .iter()
        .any(|b| !matches!(b.kind, BindingKind::Uniform { .. }))
    {
        return Err(None);
    }
    match vs
        .vertex_inputs
        .iter()
        .find(|i| mesh_attribute(i).is_none())
    {
        Some(input) => Err(Some(format!("{:?}{}", input.usage, input.index))),
        None => Ok(()),
    }
}

/// A vertex shader's WGSL (entry point `entry`) for a Bevy 2D material: its registers at
/// `REGISTERS_BINDING` of bind group `group`, and every position it returns in reverse-Z.
pub(crate) fn adapt(wgsl: &str, entry: &str, group: u32) -> Result<String, String> {
    let mut module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    for (_, global) in module.global_variables.iter_mut() {
        if let Some(binding) = global.binding.as_mut() {
            *binding = ResourceBinding {
                group,
                binding: REGISTERS_BINDING + binding.binding,
            };
        }
    }
    let entry = module
        .entry_points
        .iter_mut()
        .find(|e| e.name == entry)
        .ok_or_else(|| format!("no entry point `{entry}`"))?;
    let output = Output::of(&entry.function, &module.types)?;
    let body = std::mem::take(&mut entry.function.body);
    entry.function.body = reverse_z(body, &mut entry.function.expressions, &output);
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| format!("{e:?}"))?;
    naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
        .map_err(|e| e.to_string())
}

/// Where the entry point's position is in what it returns.
enum Output {
    /// The return value is the position.
    Position(Handle<Type>),
    /// Member `index` of a struct of `count` members (`ty`) is the position (`vec4`).
    Member {
        ty: Handle<Type>,
        count: usize,
        index: u32,
        vec4: Handle<Type>,
    },
}

impl Output {
    fn of(function: &naga::Function, types: &naga::UniqueArena<Type>) -> Result<Output, String> {
        let is_position =
            |b: &Option<Binding>| matches!(b, Some(Binding::BuiltIn(BuiltIn::Position { .. })));
        let result = function
            .result
            .as_ref()
            .ok_or("the vertex shader returns nothing")?;
        if is_position(&result.binding) {
            return Ok(Output::Position(result.ty));
        }
        let TypeInner::Struct { members, .. } = &types[result.ty].inner else {
            return Err("the vertex shader returns no position".into());
        };
        let index = members
            .iter()
            .position(|m| is_position(&m.binding))
            .ok_or("the vertex shader returns no position")?;
        Ok(Output::Member {
            ty: result.ty,
            count: members.len(),
            index: index as u32,
            vec4: members[index].ty,
        })
    }
}

/// `block` with every `return v` replaced by `return v` with its position in reverse-Z.
fn reverse_z(block: Block, exprs: &mut naga::Arena<Expression>, output: &Output) -> Block {
    let mut out = Block::new();
    for (statement, span) in block.span_into_iter() {
        let statement = match statement {
            Statement::Return { value: Some(value) } => {
                let (first, last, value) = flipped(exprs, value, output, span);
                out.push(
                    Statement::Emit(naga::Range::new_from_bounds(first, last)),
                    span,
                );
                Statement::Return { value: Some(value) }
            }
            Statement::Block(b) => Statement::Block(reverse_z(b, exprs, output)),
            Statement::If {
                condition,
                accept,
                reject,
            } => Statement::If {
                condition,
                accept: reverse_z(accept, exprs, output),
                reject: reverse_z(reject, exprs, output),
            },
            Statement::Switch { selector, cases } => Statement::Switch {
                selector,
                cases: cases
                    .into_iter()
                    .map(|c| naga::SwitchCase {
                        body: reverse_z(c.body, exprs, output),
                        ..c
                    })
                    .collect(),
            },
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => Statement::Loop {
                body: reverse_z(body, exprs, output),
                continuing,
                break_if,
            },
            other => other,
        };
        out.push(statement, span);
    }
    out
}

/// Expressions computing `value` with its position's z replaced by w − z: (first, last, the
/// new value).
fn flipped(
    exprs: &mut naga::Arena<Expression>,
    value: Handle<Expression>,
    output: &Output,
    span: Span,
) -> (Handle<Expression>, Handle<Expression>, Handle<Expression>) {
    let mut first = None;
    let mut add = |exprs: &mut naga::Arena<Expression>, e: Expression| {
        let h = exprs.append(e, span);
        first.get_or_insert(h);
        h
    };
    let (position, vec4) = match *output {
        Output::Position(ty) => (value, ty),
        Output::Member { index, vec4, .. } => (
            add(exprs, Expression::AccessIndex { base: value, index }),
            vec4,
        ),
    };
    let [x, y, z, w] = [0, 1, 2, 3].map(|index| {
        add(
            exprs,
            Expression::AccessIndex {
                base: position,
                index,
            },
        )
    });
    let depth = add(
        exprs,
        Expression::Binary {
            op: BinaryOperator::Subtract,
            left: w,
            right: z,
        },
    );
    let position = add(
        exprs,
        Expression::Compose {
            ty: vec4,
            components: vec![x, y, depth, w],
        },
    );
    let result = match *output {
        Output::Position(_) => position,
        Output::Member {
            ty, count, index, ..
        } => {
            let components = (0..count as u32)
                .map(|i| {
                    if i == index {
                        position
                    } else {
                        add(
                            exprs,
                            Expression::AccessIndex {
                                base: value,
                                index: i,
                            },
                        )
                    }
                })
                .collect();
            add(exprs, Expression::Compose { ty, components })
        }
    };
    (first.unwrap_or(result), result, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRUCT_VS: &str = "struct registers { m: vec4<f32> }
@group(0) @binding(0) var<uniform> vs_uniforms: registers;
struct Out { @builtin(position) p: vec4<f32>, @location(0) uv: vec4<f32> }
@vertex
fn main(@location(0) pos: vec4<f32>) -> Out {
    if pos.x > 100.0 { return Out(vs_uniforms.m, pos); }
    return Out(pos, pos);
}
";

    #[test]
    fn every_return_is_reverse_z_and_the_registers_move_to_the_material_group() {
        let text = adapt(STRUCT_VS, "main", 2).expect("adapts");
        assert!(text.contains("@group(2) @binding(65)"), "{text}");
        // Both returns: two subtractions of z from w.
        assert_eq!(text.matches(".w - ").count(), 2, "{text}");
        // A direct position result too.
        let direct = adapt(
            "@vertex fn main(@location(0) pos: vec4<f32>) -> @builtin(position) vec4<f32> { return pos; }",
            "main",
            2,
        )
        .expect("adapts");
        assert_eq!(direct.matches(".w - ").count(), 1, "{direct}");
    }
}
