//! Register allocation across all uniform blocks of a stage (glsl-dialect.md §3,
//! fx-pipeline.md §9.2).
//!
//! Input: the reflected blocks (members already re-packed one register per member by the cross
//! stage). Output: [`RegisterAlloc`]s in allocation order and each block's base register in the
//! merged `{vs,ps}_uniforms_vec4` array. Refused (SD0210): int/uint/bool members, structs,
//! non-square matrices, nested arrays, and any block SPIRV-Cross could not flatten.

use super::{DialectError, RegisterAlloc};
use crate::cross::{MemberKind, UniformBlock};
use crate::diag::Code;

#[derive(Debug)]
/// Allocation plus, per block, its base register (indexed like `blocks`).
pub struct Allocation {
    /// Members in allocation order.
    pub registers: Vec<RegisterAlloc>,
    /// Base register of each block.
    pub block_base: Vec<u32>,
    /// Total registers.
    pub count: u32,
}

/// Checks every member and merges the blocks in declaration order.
pub fn allocate(blocks: &[UniformBlock]) -> Result<Allocation, DialectError> {
    let mut registers = Vec::new();
    let mut block_base = Vec::with_capacity(blocks.len());
    let mut next = 0u32;
    for b in blocks {
        for m in &b.members {
            check_member(&m.name, &m.glsl_type, m.kind)?;
        }
        if b.flattened_name.is_none() {
            return Err(DialectError::new(
                Code::SD0210,
                format!(
                    "uniform block `{}` could not be flattened into a register array",
                    b.instance
                ),
                "use only float, floatN and square floatNxN uniforms",
                Some(b.instance.clone()),
            ));
        }
        block_base.push(next);
        for m in &b.members {
            registers.push(RegisterAlloc {
                name: m.name.clone(),
                block: b.instance.clone(),
                base: next + m.register,
                count: m.registers,
                glsl_type: m.glsl_type.clone(),
                array: m.array,
            });
        }
        next += b.registers;
    }
    Ok(Allocation {
        registers,
        block_base,
        count: next,
    })
}

fn check_member(name: &str, glsl_type: &str, kind: MemberKind) -> Result<(), DialectError> {
    let refuse = |message: String, help: &str| {
        Err(DialectError::new(
            Code::SD0210,
            message,
            help,
            Some(name.to_string()),
        ))
    };
    match kind {
        MemberKind::Float { .. } => Ok(()),
        MemberKind::Matrix { rows, columns } if rows == columns => Ok(()),
        MemberKind::Matrix { rows, columns } => refuse(
            format!("uniform `{name}` is a float{rows}x{columns} matrix, which ShadowDusk cannot yet express in MonoGame's GLSL 1.10 / GLSL ES 1.00 (they have no non-square matrices)"),
            "declare it float4x4 and keep the components you need (`mul(pos, World).xyz`); MonoGame's `SetValue(Matrix)` works unchanged, at the cost of one more register per matrix",
        ),
        MemberKind::NonFloat => refuse(
            format!("uniform `{name}` has type {glsl_type}; MonoGame's OpenGL runtime uploads every uniform as floats"),
            "declare it as float/floatN and convert in the shader",
        ),
        MemberKind::Struct => refuse(
            format!("uniform `{name}` is a struct"),
            "MonoGame's GL runtime never uploads struct parameters; split it into separate uniforms",
        ),
        MemberKind::Other => refuse(
            format!("uniform `{name}` has a type the OpenGL profile cannot express ({glsl_type})"),
            "use float, floatN, square floatNxN, or one-dimensional arrays of them",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cross::BlockMember;

    fn member(name: &str, kind: MemberKind, register: u32, registers: u32) -> BlockMember {
        BlockMember {
            name: name.into(),
            glsl_type: "x".into(),
            offset: 0,
            array: None,
            row_major: false,
            kind,
            register,
            registers,
        }
    }

    fn block(name: &str, members: Vec<BlockMember>) -> UniformBlock {
        let registers = members.iter().map(|m| m.registers).sum();
        UniformBlock {
            type_name: format!("type_{name}"),
            instance: name.into(),
            members,
            flattened_name: Some("sd_ub".into()),
            registers,
        }
    }

    #[test]
    fn blocks_merge_in_order() {
        let a = block(
            "A",
            vec![
                member("TintA", MemberKind::Float { components: 4 }, 0, 1),
                member(
                    "M",
                    MemberKind::Matrix {
                        rows: 4,
                        columns: 4,
                    },
                    1,
                    4,
                ),
            ],
        );
        let b = block(
            "B",
            vec![member(
                "MixAmount",
                MemberKind::Float { components: 1 },
                0,
                1,
            )],
        );
        let r = allocate(&[a, b]).unwrap();
        assert_eq!(r.count, 6);
        assert_eq!(r.block_base, [0, 5]);
        assert_eq!(
            r.registers
                .iter()
                .map(|r| (r.name.as_str(), r.base, r.count))
                .collect::<Vec<_>>(),
            [("TintA", 0, 1), ("M", 1, 4), ("MixAmount", 5, 1)]
        );
    }

    #[test]
    fn refuses_non_square_and_structs() {
        let a = block(
            "A",
            vec![member(
                "W",
                MemberKind::Matrix {
                    rows: 4,
                    columns: 3,
                },
                0,
                3,
            )],
        );
        let e = allocate(&[a]).unwrap_err();
        assert_eq!((e.code, e.subject.as_deref()), (Code::SD0210, Some("W")));
        assert!(e.message.contains("non-square") && e.help.contains("float4x4"));
        let s = block("S", vec![member("L", MemberKind::Struct, 0, 1)]);
        assert!(allocate(&[s]).unwrap_err().help.contains("struct"));
    }
}
