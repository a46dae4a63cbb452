//! Effect parameters: shapes from the HLSL declarations, defaults from their initializers
//! (fx-pipeline.md §9.4, mgfx-format.md §6).

use std::collections::BTreeMap;

use shadowdusk_mgfx::{Parameter, ParameterClass, ParameterType};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::effect::{Dim, EffectAst, GlobalVar};
use crate::preprocess::Expanded;

/// Builds the top-level parameter list in first-seen order.
pub(super) struct ParameterTable<'a> {
    expanded: &'a Expanded,
    ast: &'a EffectAst,
    list: Vec<Parameter>,
    index: BTreeMap<String, usize>,
}

impl<'a> ParameterTable<'a> {
    pub(super) fn new(expanded: &'a Expanded, ast: &'a EffectAst) -> Self {
        ParameterTable {
            expanded,
            ast,
            list: Vec::new(),
            index: BTreeMap::new(),
        }
    }

    /// Index of the value parameter for a uniform, appending it the first time.
    pub(super) fn value(&mut self, name: &str) -> Result<usize, Diagnostic> {
        if let Some(&i) = self.index.get(name) {
            if self.list[i].class == ParameterClass::Object {
                return Err(self.conflict(name, "a texture and a uniform value"));
            }
            return Ok(i);
        }
        let entry_uniform = self.ast.entry_uniform(name);
        let Some(global) = self
            .ast
            .globals
            .iter()
            .find(|g| g.name == name)
            .or(entry_uniform.as_ref())
        else {
            return Err(Diagnostic::error(
                Code::SD0012,
                format!("internal: the compiled shader reads uniform `{name}`, which has no declaration"),
            )
            .with_help("please report this as a ShadowDusk bug, with the effect file"));
        };
        let p = parameter_for(global).map_err(|msg| {
            Diagnostic::error(Code::SD0210, msg)
                .at_opt(self.expanded.map.span(global.range.clone()))
        })?;
        Ok(self.push(name, p))
    }

    /// Index of the texture parameter a sampler reads, appending it the first time.
    pub(super) fn texture(&mut self, name: &str, dim: Dim) -> Result<usize, Diagnostic> {
        let ty = match dim {
            Dim::D1 => ParameterType::Texture1D,
            Dim::D2 => ParameterType::Texture2D,
            Dim::D3 => ParameterType::Texture3D,
            Dim::Cube => ParameterType::TextureCube,
        };
        if let Some(&i) = self.index.get(name) {
            let p = &self.list[i];
            if p.class != ParameterClass::Object {
                return Err(self.conflict(name, "a texture and a uniform value"));
            }
            // Textures of two dimensions under one name (a plain `sampler` read as 2D by one
            // technique's entry and as a cube map by another's): mgfxc keeps the type the
            // first shader gave the parameter and binds the others' samplers to it unchecked,
            // and MonoGame's `SetValue(Texture)` accepts any texture, so the first one wins here.
            return Ok(i);
        }
        Ok(self.push(name, Parameter::texture(name, ty)))
    }

    /// Appends the declared uniforms no shader kept, then returns the list.
    pub(super) fn finish(mut self, _diags: &mut Diagnostics) -> Vec<Parameter> {
        let ast = self.ast;
        for g in &ast.globals {
            if self.index.contains_key(&g.name) {
                continue;
            }
            // An unused uniform of a type MonoGame cannot bind is not an error: nothing reads it.
            if let Ok(p) = parameter_for(g) {
                self.push(&g.name, p);
            }
        }
        self.list
    }

    fn push(&mut self, name: &str, p: Parameter) -> usize {
        self.list.push(p);
        self.index.insert(name.to_string(), self.list.len() - 1);
        self.list.len() - 1
    }

    fn conflict(&self, name: &str, what: &str) -> Diagnostic {
        let mut d = Diagnostic::error(
            Code::SD0014,
            format!("`{name}` is used as {what}; MonoGame parameter names must be unique"),
        )
        .with_help("rename one of them");
        if let Some(g) = self.ast.globals.iter().find(|g| g.name == name) {
            d = d.at_opt(self.expanded.map.span(g.range.clone()));
        }
        d
    }
}

/// The MGFX parameter for a uniform declaration, with its initializer baked into the data.
pub fn parameter_for(g: &GlobalVar) -> Result<Parameter, String> {
    let t = &g.ty;
    let ty = match t.base.as_str() {
        "float" | "half" | "double" | "min16float" | "min10float" => ParameterType::Single,
        "int" | "uint" | "dword" | "min16int" | "min16uint" => ParameterType::Int32,
        "bool" => ParameterType::Bool,
        other => {
            return Err(format!(
                "uniform `{}` has type `{other}`, which MonoGame's GL runtime never uploads (it skips struct parameters); split it into separate float/vector/matrix uniforms",
                g.name
            ))
        }
    };
    let (class, rows, columns) = if t.is_matrix {
        (ParameterClass::Matrix, t.rows, t.columns)
    } else if t.is_vector {
        (ParameterClass::Vector, 1, t.columns)
    } else {
        (ParameterClass::Scalar, 1, 1)
    };
    let (Ok(rows8), Ok(cols8)) = (u8::try_from(rows), u8::try_from(columns)) else {
        return Err(format!(
            "uniform `{}` has an impossible shape {rows}x{columns}",
            g.name
        ));
    };
    let per = (rows * columns) as usize;
    let init = g.initializer.as_deref().unwrap_or(&[]);
    let leaf = |values: &[f64]| -> Vec<u32> {
        // HLSL writes matrix initializers row by row; MonoGame keeps data column by column.
        let mut data = vec![0u32; per];
        let splat = values.len() == 1 && per > 1;
        for r in 0..rows as usize {
            for c in 0..columns as usize {
                let src = if splat { 0 } else { r * columns as usize + c };
                let v = values.get(src).copied().unwrap_or(0.0) as f32;
                data[c * rows as usize + r] = v.to_bits();
            }
        }
        data
    };
    let base = Parameter::value(g.name.clone(), class, ty, rows8, cols8);
    Ok(match t.array {
        Some(n) => {
            let elements = (0..n as usize)
                .map(|i| {
                    let start = (i * per).min(init.len());
                    let end = ((i + 1) * per).min(init.len());
                    Parameter {
                        name: String::new(),
                        data: Some(leaf(&init[start..end])),
                        ..base.clone()
                    }
                })
                .collect();
            Parameter {
                elements,
                data: None,
                ..base
            }
        }
        None => Parameter {
            data: Some(leaf(init)),
            ..base
        },
    })
}
