//! The checked plan code generation works from: every constant-buffer record as registers, every
//! value parameter with its Rust shape and the registers it lands in, every texture with the units
//! it is bound to, and the default register image.
//!
//! Everything that could make generated code index out of bounds or misstate MonoGame's upload
//! is refused here (mgfx-format.md §4, §6, §7.2): non-OpenGL profiles, sizes or offsets that are
//! not whole registers, entries that overrun their record, dangling indices, struct parameters
//! (MonoGame uploads nothing for them), arrays of arrays, int/bool matrices, and data blocks of the
//! wrong length.

use std::collections::BTreeSet;

use shadowdusk_mgfx::{Effect, Parameter, ParameterClass, ParameterType, Profile, ShaderStage};

use super::CodegenError;

/// How a value is stored in a register lane (always an f32 on GL; this is the Rust-side type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    Float,
    Int,
    Bool,
}

/// The shape of one value (one array element for arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Scalar,
    /// `floatN`, N in 2..=4 (a `float1` is a vector of 1).
    Vector(usize),
    /// `floatRxC`: uses C registers, R lanes each.
    Matrix {
        rows: usize,
        columns: usize,
    },
}

impl Shape {
    /// Registers one value uses (§7.2).
    pub(crate) fn registers(self) -> usize {
        match self {
            Shape::Scalar | Shape::Vector(_) => 1,
            Shape::Matrix { columns, .. } => columns,
        }
    }
}

/// One record a parameter is written to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    /// Record index.
    pub record: usize,
    /// First register.
    pub register: usize,
}

/// A value (non-texture) parameter.
#[derive(Clone, Debug)]
pub(crate) struct ValueParam {
    /// Index in the MGFX parameter list.
    pub index: usize,
    pub name: String,
    pub scalar: Scalar,
    pub shape: Shape,
    /// Array length, `None` for a single value.
    pub array: Option<usize>,
    pub placements: Vec<Placement>,
    /// MGFX data of each element (one entry for a single value), as f32 bit patterns.
    pub data: Vec<Vec<u32>>,
}

impl ValueParam {
    /// Registers the whole parameter uses.
    pub(crate) fn registers(&self) -> usize {
        self.shape.registers() * self.array.unwrap_or(1)
    }
}

/// A texture parameter and where shaders sample it.
#[derive(Clone, Debug)]
pub(crate) struct TextureParam {
    pub index: usize,
    pub name: String,
    pub ty: ParameterType,
    /// (shader index, stage, sampler uniform name, texture unit).
    pub uses: Vec<(usize, ShaderStage, String, u8)>,
}

/// A constant-buffer record.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub name: String,
    pub registers: usize,
    /// Shaders that reference it, in order.
    pub shaders: Vec<(usize, ShaderStage)>,
    /// (first register, parameter index) of each entry, sorted by register.
    pub contents: Vec<(usize, usize)>,
    /// The register image MonoGame builds from the parameters' MGFX data (f32 bits).
    pub default: Vec<[u32; 4]>,
}

/// The whole plan.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub records: Vec<Record>,
    pub values: Vec<ValueParam>,
    pub textures: Vec<TextureParam>,
}

fn unsupported(p: &Parameter, reason: impl Into<String>) -> CodegenError {
    CodegenError::UnsupportedParameter {
        name: p.name.clone(),
        reason: reason.into(),
    }
}

fn scalar_of(p: &Parameter) -> Result<Scalar, CodegenError> {
    match p.ty {
        ParameterType::Single => Ok(Scalar::Float),
        ParameterType::Int32 => Ok(Scalar::Int),
        ParameterType::Bool => Ok(Scalar::Bool),
        other => Err(unsupported(
            p,
            format!(
                "a {:?} value of type {other:?} has no register form",
                p.class
            ),
        )),
    }
}

fn shape_of(p: &Parameter, scalar: Scalar) -> Result<Shape, CodegenError> {
    let (rows, columns) = (usize::from(p.rows), usize::from(p.columns));
    match p.class {
        ParameterClass::Scalar if rows == 1 && columns == 1 => Ok(Shape::Scalar),
        ParameterClass::Vector if rows == 1 && (1..=4).contains(&columns) => {
            Ok(Shape::Vector(columns))
        }
        ParameterClass::Matrix if (1..=4).contains(&rows) && (1..=4).contains(&columns) => {
            if scalar != Scalar::Float {
                return Err(unsupported(
                    p,
                    "MonoGame's SetValue(Matrix) only accepts float matrices; declare it as a \
                     float matrix",
                ));
            }
            Ok(Shape::Matrix { rows, columns })
        }
        _ => Err(unsupported(
            p,
            format!("{:?} with {rows} rows and {columns} columns", p.class),
        )),
    }
}

/// Checks a data block and returns it (zeros when absent: MonoGame allocates zeroed storage).
fn data_of(p: &Parameter, shape: Shape) -> Result<Vec<u32>, CodegenError> {
    let want = match shape {
        Shape::Scalar => 1,
        Shape::Vector(n) => n,
        Shape::Matrix { rows, columns } => rows * columns,
    };
    match &p.data {
        None => Ok(vec![0; want]),
        Some(d) if d.len() == want => Ok(d.clone()),
        Some(d) => Err(unsupported(
            p,
            format!(
                "its data block holds {} values, its type needs {want}",
                d.len()
            ),
        )),
    }
}

fn is_texture(ty: ParameterType) -> bool {
    matches!(
        ty,
        ParameterType::Texture
            | ParameterType::Texture1D
            | ParameterType::Texture2D
            | ParameterType::Texture3D
            | ParameterType::TextureCube
    )
}

/// Builds the value-parameter plan of one top-level parameter (placements filled later).
fn value_param(index: usize, p: &Parameter) -> Result<ValueParam, CodegenError> {
    if !p.members.is_empty() || p.class == ParameterClass::Struct {
        return Err(unsupported(
            p,
            "struct parameters are never uploaded by MonoGame (mgfx-format.md §6.1); use \
             separate parameters",
        ));
    }
    let scalar = scalar_of(p)?;
    let shape = shape_of(p, scalar)?;
    let (array, data) = if p.elements.is_empty() {
        (None, vec![data_of(p, shape)?])
    } else {
        let mut data = Vec::with_capacity(p.elements.len());
        for e in &p.elements {
            if !e.elements.is_empty() || !e.members.is_empty() {
                return Err(unsupported(
                    p,
                    "arrays of arrays or of structs have no typed accessors; flatten the array",
                ));
            }
            if (e.class, e.ty, e.rows, e.columns) != (p.class, p.ty, p.rows, p.columns) {
                return Err(unsupported(
                    p,
                    "its elements' type differs from the array's",
                ));
            }
            data.push(data_of(e, shape)?);
        }
        (Some(p.elements.len()), data)
    };
    Ok(ValueParam {
        index,
        name: p.name.clone(),
        scalar,
        shape,
        array,
        placements: Vec::new(),
        data,
    })
}

/// Writes one value's data into a register image the way §7.2 copies it.
fn write_default(image: &mut [[u32; 4]], first: usize, shape: Shape, data: &[u32]) {
    match shape {
        Shape::Scalar | Shape::Vector(_) => {
            if let Some(reg) = image.get_mut(first) {
                for (lane, v) in reg.iter_mut().zip(data) {
                    *lane = *v;
                }
            }
        }
        Shape::Matrix { rows, columns } => {
            // MGFX data is MonoGame's `SetValue` order: element (r, c) at `c * rows + r`.
            for c in 0..columns {
                for r in 0..rows {
                    let (k, lane) = shadowdusk_mgfx::packing::matrix_slot(r, c);
                    let (Some(reg), Some(v)) = (image.get_mut(first + k), data.get(c * rows + r))
                    else {
                        continue;
                    };
                    reg[lane] = *v;
                }
            }
        }
    }
}

/// Checks the effect and builds the plan.
pub(crate) fn plan(effect: &Effect) -> Result<Plan, CodegenError> {
    if effect.profile != Profile::OpenGL {
        return Err(CodegenError::UnsupportedProfile(effect.profile));
    }
    if effect.techniques.is_empty() {
        return Err(CodegenError::Malformed(
            "the effect has no techniques (MGFX requires at least one)".into(),
        ));
    }

    let mut values: Vec<ValueParam> = Vec::new();
    let mut value_slot: Vec<Option<usize>> = vec![None; effect.parameters.len()];
    let mut textures = Vec::new();
    for (i, p) in effect.parameters.iter().enumerate() {
        if p.class == ParameterClass::Object || is_texture(p.ty) {
            if !is_texture(p.ty) {
                return Err(unsupported(
                    p,
                    format!("object parameters of type {:?}", p.ty),
                ));
            }
            textures.push(TextureParam {
                index: i,
                name: p.name.clone(),
                ty: p.ty,
                uses: Vec::new(),
            });
        } else {
            value_slot[i] = Some(values.len());
            values.push(value_param(i, p)?);
        }
    }

    let mut records = Vec::with_capacity(effect.constant_buffers.len());
    for (ri, cb) in effect.constant_buffers.iter().enumerate() {
        if cb.size % 16 != 0 {
            return Err(CodegenError::Malformed(format!(
                "constant buffer {ri} `{}` is {} bytes, not a whole number of 16-byte registers",
                cb.name, cb.size
            )));
        }
        let registers = usize::from(cb.size) / 16;
        let mut image = vec![[0u32; 4]; registers];
        let mut contents = Vec::new();
        let mut occupied = BTreeSet::new();
        for entry in &cb.entries {
            let slot = usize::try_from(entry.parameter)
                .ok()
                .and_then(|pi| value_slot.get(pi).copied());
            let Some(Some(vi)) = slot else {
                return Err(CodegenError::Malformed(format!(
                    "constant buffer {ri} `{}` has an entry for parameter {}, which is not a \
                     value parameter of the effect",
                    cb.name, entry.parameter
                )));
            };
            let v = &mut values[vi];
            if entry.offset % 16 != 0 {
                return Err(CodegenError::Malformed(format!(
                    "`{}` sits at byte {} of constant buffer {ri}: OpenGL offsets are whole \
                     registers",
                    v.name, entry.offset
                )));
            }
            let first = usize::from(entry.offset) / 16;
            let end = first + v.registers();
            if end > registers {
                return Err(CodegenError::Malformed(format!(
                    "`{}` needs registers {first}..{end} of constant buffer {ri} `{}`, which has \
                     {registers}",
                    v.name, cb.name
                )));
            }
            for r in first..end {
                if !occupied.insert(r) {
                    return Err(CodegenError::Malformed(format!(
                        "register {r} of constant buffer {ri} `{}` holds two parameters",
                        cb.name
                    )));
                }
            }
            let per = v.shape.registers();
            for (e, data) in v.data.iter().enumerate() {
                write_default(&mut image, first + e * per, v.shape, data);
            }
            if v.placements.iter().any(|p| p.record == ri) {
                return Err(CodegenError::Malformed(format!(
                    "`{}` appears twice in constant buffer {ri}",
                    v.name
                )));
            }
            v.placements.push(Placement {
                record: ri,
                register: first,
            });
            contents.push((first, v.index));
        }
        contents.sort();
        records.push(Record {
            name: cb.name.clone(),
            registers,
            shaders: Vec::new(),
            contents,
            default: image,
        });
    }

    for (si, sh) in effect.shaders.iter().enumerate() {
        for &cb in &sh.cbuffers {
            match records.get_mut(usize::from(cb)) {
                Some(r) => r.shaders.push((si, sh.stage)),
                None => {
                    return Err(CodegenError::Malformed(format!(
                        "shader {si} references constant buffer {cb}, which does not exist"
                    )))
                }
            }
        }
        for s in &sh.samplers {
            let Some(t) = textures
                .iter_mut()
                .find(|t| t.index == usize::from(s.parameter))
            else {
                return Err(CodegenError::Malformed(format!(
                    "sampler `{}` of shader {si} names parameter {}, which is not a texture",
                    s.name, s.parameter
                )));
            };
            t.uses.push((si, sh.stage, s.name.clone(), s.texture_slot));
        }
    }

    Ok(Plan {
        records,
        values,
        textures,
    })
}
