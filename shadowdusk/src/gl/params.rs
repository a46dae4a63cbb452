//! Parameter value writes, as MonoGame's `EffectParameter.SetValue` stores them
//! (mgfx-format.md §7.1): raw data order, matrices column by column.
//!
//! Refused: writes to structs or textures, a wrong number of values, `SetValue(Matrix)` on a
//! non-matrix or an unsupported shape (MonoGame throws in the same cases).

use super::GlError;
use crate::mgfx::{Parameter, ParameterClass, ParameterType};

/// Number of `f32` values a parameter holds (arrays: all elements concatenated); `None` for
/// structs, textures and other objects.
pub fn parameter_value_count(p: &Parameter) -> Option<usize> {
    if !p.elements.is_empty() {
        return p
            .elements
            .iter()
            .map(parameter_value_count)
            .sum::<Option<usize>>();
    }
    match p.ty {
        ParameterType::Single | ParameterType::Int32 | ParameterType::Bool
            if p.members.is_empty() && p.class != ParameterClass::Struct =>
        {
            Some(p.rows as usize * p.columns as usize)
        }
        _ => None,
    }
}

/// The data of `SetValue(Matrix)` for a `rows`×`columns` parameter: `data[c*rows + r] = m[r][c]`
/// where `m[r][c]` is XNA's `M(r+1, c+1)`. `None` for shapes MonoGame refuses.
pub fn matrix_data(rows: u8, columns: u8, m: [[f32; 4]; 4]) -> Option<Vec<f32>> {
    let supported = matches!(
        (rows, columns),
        (4, 4) | (4, 3) | (4, 2) | (3, 4) | (3, 3) | (3, 2)
    );
    if !supported {
        return None;
    }
    let (rows, columns) = (rows as usize, columns as usize);
    let mut data = vec![0.0; rows * columns];
    for c in 0..columns {
        for r in 0..rows {
            data[c * rows + r] = m[r][c];
        }
    }
    Some(data)
}

/// Stores `values` (raw data order, arrays concatenated) into `p`.
pub(crate) fn set_values(p: &mut Parameter, values: &[f32]) -> Result<(), GlError> {
    let Some(count) = parameter_value_count(p) else {
        return Err(GlError::ParameterShape {
            name: p.name.clone(),
            what: format!(
                "is a {:?} {:?} and holds no float values; use set_texture for textures",
                p.class, p.ty
            ),
        });
    };
    if values.len() != count {
        return Err(GlError::ParameterShape {
            name: p.name.clone(),
            what: format!("takes exactly {count} values, got {}", values.len()),
        });
    }
    store(p, values);
    Ok(())
}

fn store(p: &mut Parameter, values: &[f32]) -> usize {
    if p.elements.is_empty() {
        let n = p.rows as usize * p.columns as usize;
        p.data = Some(values[..n].iter().map(|v| v.to_bits()).collect());
        return n;
    }
    let mut used = 0;
    for e in &mut p.elements {
        used += store(e, &values[used..]);
    }
    used
}

/// `SetValue(Matrix)`.
pub(crate) fn set_matrix(p: &mut Parameter, m: [[f32; 4]; 4]) -> Result<(), GlError> {
    let shape_error = |what: String| GlError::ParameterShape {
        name: p.name.clone(),
        what,
    };
    if p.class != ParameterClass::Matrix || p.ty != ParameterType::Single || !p.elements.is_empty()
    {
        return Err(shape_error(format!(
            "set_matrix needs a single float matrix, this is a {:?} {:?}{}",
            p.class,
            p.ty,
            if p.elements.is_empty() { "" } else { " array" }
        )));
    }
    let data = matrix_data(p.rows, p.columns, m).ok_or_else(|| {
        shape_error(format!(
            "MonoGame's SetValue(Matrix) does not support {}x{} matrices",
            p.rows, p.columns
        ))
    })?;
    p.data = Some(data.iter().map(|v| v.to_bits()).collect());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(rows: u8, columns: u8) -> Parameter {
        Parameter::value(
            "M",
            ParameterClass::Matrix,
            ParameterType::Single,
            rows,
            columns,
        )
    }

    fn xna() -> [[f32; 4]; 4] {
        // m[r][c] = 10*(r+1) + (c+1), so M23 = 23.
        let mut m = [[0.0; 4]; 4];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = (10 * (r + 1) + c + 1) as f32;
            }
        }
        m
    }

    fn floats(p: &Parameter) -> Vec<f32> {
        p.data
            .iter()
            .flatten()
            .map(|b| f32::from_bits(*b))
            .collect()
    }

    #[test]
    fn set_matrix_4x4_stores_columns() {
        let mut p = matrix(4, 4);
        set_matrix(&mut p, xna()).unwrap();
        assert_eq!(
            floats(&p),
            vec![
                11.0, 21.0, 31.0, 41.0, 12.0, 22.0, 32.0, 42.0, 13.0, 23.0, 33.0, 43.0, 14.0, 24.0,
                34.0, 44.0
            ]
        );
    }

    #[test]
    fn set_matrix_4x3_stores_three_columns_of_four() {
        let mut p = matrix(4, 3);
        set_matrix(&mut p, xna()).unwrap();
        assert_eq!(
            floats(&p),
            vec![11.0, 21.0, 31.0, 41.0, 12.0, 22.0, 32.0, 42.0, 13.0, 23.0, 33.0, 43.0]
        );
    }

    #[test]
    fn set_matrix_refuses_2x2_and_vectors() {
        assert!(set_matrix(&mut matrix(2, 2), xna()).is_err());
        let mut v = matrix(1, 4);
        v.class = ParameterClass::Vector;
        assert!(set_matrix(&mut v, xna()).is_err());
    }

    #[test]
    fn set_values_checks_the_count_and_fills_array_elements() {
        let mut element = matrix(1, 2);
        element.class = ParameterClass::Vector;
        let mut arr = element.clone();
        arr.data = None;
        arr.elements = vec![element.clone(), element];
        assert_eq!(parameter_value_count(&arr), Some(4));
        assert!(set_values(&mut arr, &[1.0, 2.0, 3.0]).is_err());
        set_values(&mut arr, &[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(floats(&arr.elements[1]), vec![3.0, 4.0]);
    }

    #[test]
    fn set_values_refuses_textures() {
        let mut t = matrix(0, 0);
        t.class = ParameterClass::Object;
        t.ty = ParameterType::Texture2D;
        t.data = None;
        assert!(set_values(&mut t, &[]).is_err());
    }
}
