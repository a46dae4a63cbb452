//! Interface structs and matrices as GLSL 1.10 varyings can carry them: one vector per register,
//! on consecutive semantic indices, as fxc packs them.

use super::semantics::is_vface;
use crate::effect::{HlslType, StructDecl, StructMember};

/// The wrapper parameter a flattened pixel input takes the face from.
pub(super) const FACE_PARAM: &str = "bool __sd_face : SV_IsFrontFace";

/// (registers, components of each) of a matrix on an interface: fxc gives it one register per
/// column, the column's rows in x, y, z, w (HLSL's default packing); one per row under
/// `row_major`. A vertex input is fed the same way (hardware instancing's
/// `float4x4 World : TEXCOORD1`), and a vertex output and pixel input must agree.
pub(super) fn matrix_registers(t: &HlslType, row_major: bool) -> (u32, u32) {
    if row_major {
        (t.rows, t.columns)
    } else {
        (t.columns, t.rows)
    }
}

/// Splits `TEXCOORD2` into (`TEXCOORD`, 2); no digits → index 0.
pub(super) fn split_index(sem: &str) -> (&str, u32) {
    let digits = sem.len() - sem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, first) = sem.split_at(sem.len() - digits);
    (base, first.parse().unwrap_or(0))
}

/// Which side of the entry a flattened struct is on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    In,
    Out,
}

/// A copy of an interface struct with every member a GLSL 1.10 varying can carry: arrays split
/// into one member per element and matrices into one vector per register, on consecutive
/// semantic indices; a pixel input's `VFACE` member left out (it comes from `SV_IsFrontFace`).
pub(super) struct FlatStruct {
    pub(super) name: String,
    pub(super) declaration: String,
    /// Statements copying between the user's struct (`{U}`) and the copy (`{F}`) in the
    /// direction of the data: `{U}.Taps[2] = {F}.Taps_2;` for an input.
    pub(super) copies: Vec<String>,
    /// The copy needs the wrapper's `SV_IsFrontFace` parameter.
    pub(super) face: bool,
}

/// The flat copy of `decl` for one side of the entry; `semantic` spells a member's semantic for
/// that side.
pub(super) fn flat_struct(
    decl: &StructDecl,
    semantic: &dyn Fn(&str) -> String,
    direction: Direction,
) -> FlatStruct {
    let prefix = match direction {
        Direction::In => "in",
        Direction::Out => "out",
    };
    let name = format!("__sd_{prefix}_{}", decl.name);
    let mut members = Members {
        direction,
        fields: String::new(),
        copies: Vec::new(),
    };
    let mut face = false;
    for m in &decl.members {
        let Some((sem, _)) = &m.semantic else {
            continue;
        };
        if direction == Direction::In && is_vface(sem) {
            face = true;
            members.copy(m.name.clone(), "(__sd_face ? 1.0 : -1.0)".to_string());
            continue;
        }
        members.member(m, &semantic(sem));
    }
    FlatStruct {
        declaration: format!("struct {name} {{{} }};\n", members.fields),
        name,
        copies: members.copies,
        face,
    }
}

/// The flattened copy's members as they are built, with the statements that copy them.
struct Members {
    direction: Direction,
    fields: String,
    copies: Vec<String>,
}

/// One element of a member: (access in the user's struct, member name in the copy, first
/// semantic index).
type Element = (String, String, u32);

impl Members {
    /// `user` is a member access in the user's struct, `flat` an expression of the copy's
    /// members; the statement goes in the direction of the data.
    fn copy(&mut self, user: String, flat: String) {
        self.copies.push(match self.direction {
            Direction::In => format!("{{U}}.{user} = {flat};"),
            Direction::Out => format!("{flat} = {{U}}.{user};"),
        });
    }

    /// Flattens one member carried on `sem` (already rewritten for its side).
    fn member(&mut self, m: &StructMember, sem: &str) {
        let (base, first) = split_index(sem);
        let matrix = crate::effect::types::numeric(m.ty.trim()).filter(|t| t.is_matrix);
        // Array elements (matrices too) take consecutive registers.
        let registers = match &matrix {
            Some(t) => matrix_registers(t, m.row_major).0,
            None => 1,
        };
        let elements: Vec<Element> = match m.array {
            Some(n) => (0..n)
                .map(|k| {
                    (
                        format!("{}[{k}]", m.name),
                        format!("{}_{k}", m.name),
                        first + k * registers,
                    )
                })
                .collect(),
            None => vec![(m.name.clone(), m.name.clone(), first)],
        };
        for (user, field, index) in elements {
            let Some(t) = &matrix else {
                let sem = if m.array.is_some() {
                    format!("{base}{index}")
                } else {
                    sem.to_string()
                };
                self.fields.push_str(&format!(" {} {field} : {sem};", m.ty));
                self.copy(user, format!("{{F}}.{field}"));
                continue;
            };
            self.matrix(m, t, (user, field, index), base);
        }
    }

    /// A matrix element travels as one vector member per register, rebuilt (or taken apart)
    /// in the copy statements.
    fn matrix(&mut self, m: &StructMember, t: &HlslType, element: Element, base: &str) {
        let (user, field, index) = element;
        let (registers, width) = matrix_registers(t, m.row_major);
        let vectors: Vec<String> = (0..registers)
            .map(|k| format!("{{F}}.{field}_{k}"))
            .collect();
        for k in 0..registers {
            self.fields.push_str(&format!(
                " {}{width} {field}_{k} : {base}{};",
                t.base,
                index + k
            ));
        }
        match self.direction {
            Direction::In => {
                // `floatRxC(v0, v1, ...)` takes rows.
                let built = format!("{}{registers}x{width}({})", t.base, vectors.join(", "));
                let built = if m.row_major {
                    built
                } else {
                    format!("transpose({built})")
                };
                self.copy(user, built);
            }
            Direction::Out => {
                for (k, v) in vectors.iter().enumerate() {
                    let read = if m.row_major {
                        format!("{{U}}.{user}[{k}]")
                    } else {
                        format!("transpose({{U}}.{user})[{k}]")
                    };
                    self.copies.push(format!("{v} = {read};"));
                }
            }
        }
    }
}
