//! Runtime support for the typed parameter modules that `shadowdusk-compiler` generates.
//!
//! A generated module holds a `#[repr(C)] Params` struct whose fields are exactly the MGFX
//! constant-buffer records of the effect, as arrays of 16-byte registers, and typed setters that
//! write those registers the way MonoGame's `EffectParameter.SetValue` followed by
//! `ConstantBuffer.SetParameter` would (mgfx-format.md §7.1–§7.3). This module holds what that
//! code needs at run time:
//!
//! - [`EffectParams`], the trait a GL loader uses to upload `Params` record by record (the same
//!   unit MonoGame uploads with `glUniform4fv`);
//! - [`Matrix`], MonoGame's (XNA's) 4×4 matrix in its own convention, with conversions;
//! - [`Mat`], an HLSL `floatRxC` value, which every generated matrix setter takes (from arrays,
//!   [`Matrix`], glam and mint types) and writes as MonoGame's register image;
//! - [`write_matrix`] / [`read_matrix`], the same register rule for a [`Matrix`] of any shape;
//! - [`IndexOutOfRange`], returned by the element setters of array parameters.
//!
//! With the `bytemuck` feature, generated `Params` are `Pod` and `Zeroable` (through the hidden
//! `__impl_pod!` macro, so the user crate needs no feature of its own). With the `mint` feature,
//! [`Matrix`] converts from `mint::RowMatrix4<f32>` and `mint::ColumnMatrix4<f32>`, and [`Mat`]
//! from mint's row matrices; with the `glam` feature both convert from `glam::Mat4`, `Mat3` and
//! `Affine3A` (the same transform, as MonoGame's matrix would describe it).
//!
//! # glam, mint and HLSL's `mul`
//!
//! Vector setters take `impl Into<[f32; N]>`, which glam's `Vec2`/`Vec3`/`Vec4` and mint's
//! vectors already are: `params.set_tint(glam::Vec4::new(1.0, 0.5, 0.5, 1.0))`.
//!
//! Matrix setters take `impl Into<Mat<R, C>>`. glam multiplies column vectors (`m * v`), while
//! MonoGame's shaders multiply row vectors, `mul(v, M)`: the conversion from a glam matrix
//! transposes it, so that the shader computes the **same transform** glam would.
//!
//! | the shader writes | set it from a glam `m` | the shader then computes |
//! |---|---|---|
//! | `mul(v, World)` (MonoGame's convention: `BasicEffect`, `SpriteEffect`, XNA samples) | `set_world(m)` | `m * v` (`m.transform_point3`) |
//! | `mul(World, v)` (column vectors, as in GLSL-minded HLSL) | `set_world(m.transpose())` | `m * v` |
//!
//! A product keeps glam's order: `set_world_view_projection(projection * view * world)` gives
//! the shader what `mul(mul(mul(v, World), View), Projection)` gives with `World`, `View` and
//! `Projection` each set from its glam matrix. MonoGame's own [`Matrix`] (row vectors, the
//! translation in row 4) needs no transpose for `mul(v, M)`; mint's `RowMatrix` types are taken
//! as the HLSL rows and its `ColumnMatrix4` as a column-vector matrix, like glam.

use core::fmt;

use shadowdusk_mgfx::packing::matrix_slot;

/// A generated `Params` struct: the register image of every constant-buffer record of one
/// effect, indexed like the MGFX constant-buffer list.
///
/// Which effect a `Params` belongs to is told by the type system instead
/// ([`Effect::Params`](crate::Effect::Params)); this trait only hands out the registers.
pub trait EffectParams {
    /// The registers of constant-buffer record `record` (index into the MGFX constant-buffer
    /// list), `size / 16` of them, ready for `glUniform4fv(location(name), len, data)`; `None` when
    /// the effect has no such record.
    fn constant_buffer(&self, record: usize) -> Option<&[[f32; 4]]>;

    /// How many constant-buffer records the effect has.
    fn constant_buffer_count(&self) -> usize;
}

/// An element index past the end of an array parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexOutOfRange {
    /// The index asked for.
    pub index: usize,
    /// The array length declared in the shader.
    pub len: usize,
}

impl fmt::Display for IndexOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "element {} is out of range: the shader declares {} elements",
            self.index, self.len
        )
    }
}

impl std::error::Error for IndexOutOfRange {}

/// A 4×4 matrix in MonoGame's (XNA's) convention: row vectors (`v' = v * M`), stored row by
/// row, `rows[r][c]` = `M(r+1, c+1)`; the translation is in `rows[3]`.
///
/// This is the value `EffectParameter.SetValue(Matrix)` takes. A column-vector library (glam,
/// nalgebra, cgmath) describes the same transform with the transposed matrix, whose
/// column-major memory is identical to this struct's row-major memory: convert such a matrix
/// through [`Matrix::from_columns`] (or, with the `mint` feature, from
/// `mint::ColumnMatrix4<f32>`) to get the same transform.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[repr(C)]
pub struct Matrix {
    /// The four rows: `rows[r][c]` = `M(r+1, c+1)`.
    pub rows: [[f32; 4]; 4],
}

impl Matrix {
    /// The identity.
    pub const IDENTITY: Matrix = Matrix {
        rows: [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
    };

    /// All zeros.
    pub const ZERO: Matrix = Matrix {
        rows: [[0.0; 4]; 4],
    };

    /// From XNA rows (`rows[r][c]` = `M(r+1, c+1)`).
    pub const fn from_rows(rows: [[f32; 4]; 4]) -> Matrix {
        Matrix { rows }
    }

    /// From a column-vector library's matrix for the same transform, given as its four columns
    /// (glam's `Mat4::to_cols_array_2d`, nalgebra's column-major storage): the XNA matrix is its
    /// transpose, so column `i` becomes row `i`.
    pub const fn from_columns(columns: [[f32; 4]; 4]) -> Matrix {
        Matrix { rows: columns }
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        let mut out = Matrix::ZERO;
        for (r, row) in self.rows.iter().enumerate() {
            for (c, value) in row.iter().enumerate() {
                out.rows[c][r] = *value;
            }
        }
        out
    }

    /// Column `c` (0-based) of the XNA matrix: `[M(1,c+1), M(2,c+1), M(3,c+1), M(4,c+1)]`.
    /// Returns zeros for `c >= 4`.
    pub fn column(&self, c: usize) -> [f32; 4] {
        if c >= 4 {
            return [0.0; 4];
        }
        [
            self.rows[0][c],
            self.rows[1][c],
            self.rows[2][c],
            self.rows[3][c],
        ]
    }
}

impl From<[[f32; 4]; 4]> for Matrix {
    /// The array is taken as XNA rows (`m[r][c]` = `M(r+1, c+1)`), as [`Matrix::from_rows`].
    fn from(rows: [[f32; 4]; 4]) -> Matrix {
        Matrix { rows }
    }
}

impl From<Matrix> for [[f32; 4]; 4] {
    /// The XNA rows.
    fn from(m: Matrix) -> [[f32; 4]; 4] {
        m.rows
    }
}

#[cfg(feature = "mint")]
impl From<mint::RowMatrix4<f32>> for Matrix {
    /// A row-major matrix is taken as the XNA matrix itself: its rows are `M`'s rows. Use this
    /// for matrices that already follow the row-vector convention (`v' = v * M`).
    fn from(m: mint::RowMatrix4<f32>) -> Matrix {
        Matrix {
            rows: [m.x.into(), m.y.into(), m.z.into(), m.w.into()],
        }
    }
}

#[cfg(feature = "mint")]
impl From<mint::ColumnMatrix4<f32>> for Matrix {
    /// A column-major matrix is taken as a column-vector library's matrix (`v' = M * v`: glam,
    /// nalgebra, cgmath) and converted to the XNA matrix of the **same transform**, its
    /// transpose: column `i` becomes row `i`. A glam `Mat4` passed through `mint` therefore
    /// reaches the shader exactly as the equivalent MonoGame `Matrix` would.
    fn from(m: mint::ColumnMatrix4<f32>) -> Matrix {
        Matrix {
            rows: [m.x.into(), m.y.into(), m.z.into(), m.w.into()],
        }
    }
}

/// An HLSL `float{R}x{C}` value as the shader sees it: `rows[r][c]` is `_m{r}{c}` (row `r`,
/// column `c`, as HLSL indexes `m[r][c]`). The setters generated for matrix parameters take
/// anything that converts into it:
///
/// - `[[f32; C]; R]`: the rows;
/// - `[f32; R*C]`: the same values row after row (`[f32; 12]` for a `float4x3`);
/// - [`Matrix`], MonoGame's matrix: its top-left R×C block, which is what
///   `EffectParameter.SetValue(Matrix)` gives the shader (a `float4x3 World` set from a 4×4
///   world matrix drops the last column);
/// - with the `glam` feature, `glam::Mat4`, `Mat3` and `Affine3A` as the **same transform**
///   (glam multiplies column vectors, HLSL's `mul(v, M)` row vectors, so the HLSL matrix is the
///   transpose: row `i` is glam's column `i`; an `Affine3A` bone is a `float4x3` whose last row
///   is the translation);
/// - with the `mint` feature, `mint::RowMatrix{R}x{C}` (the rows) and the conversions into
///   [`Matrix`].
///
/// MonoGame stores the value column by column (register `k` holds column `k`, `R` lanes);
/// [`Mat::write_registers`] writes exactly that image.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Mat<const R: usize, const C: usize> {
    /// `rows[r][c]` = `_m{r}{c}`.
    pub rows: [[f32; C]; R],
}

impl<const R: usize, const C: usize> Default for Mat<R, C> {
    fn default() -> Self {
        Mat {
            rows: [[0.0; C]; R],
        }
    }
}

impl<const R: usize, const C: usize> Mat<R, C> {
    /// From the rows (`rows[r][c]` = `_m{r}{c}`).
    pub const fn from_rows(rows: [[f32; C]; R]) -> Self {
        Mat { rows }
    }

    /// Column `c` (`R` values); zeros past the last column.
    pub fn column(&self, c: usize) -> [f32; R] {
        let mut out = [0.0; R];
        if c < C {
            for (o, row) in out.iter_mut().zip(&self.rows) {
                *o = row[c];
            }
        }
        out
    }

    /// Writes the register image MonoGame uploads: register `k` receives column `k` in its first
    /// `R` lanes (mgfx-format.md §7.2); later lanes keep their values. Registers past `C`, or past
    /// the slice, are left alone.
    pub fn write_registers(&self, registers: &mut [[f32; 4]]) {
        for (r, row) in self.rows.iter().enumerate().take(4) {
            for (c, value) in row.iter().enumerate().take(4) {
                let (k, lane) = matrix_slot(r, c);
                if let Some(register) = registers.get_mut(k) {
                    register[lane] = *value;
                }
            }
        }
    }

    /// Reads back what [`Mat::write_registers`] wrote (missing registers read as zero).
    pub fn from_registers(registers: &[[f32; 4]]) -> Self {
        let mut m = Mat::default();
        for (r, row) in m.rows.iter_mut().enumerate().take(4) {
            for (c, value) in row.iter_mut().enumerate().take(4) {
                let (k, lane) = matrix_slot(r, c);
                if let Some(register) = registers.get(k) {
                    *value = register[lane];
                }
            }
        }
        m
    }
}

impl<const R: usize, const C: usize> From<[[f32; C]; R]> for Mat<R, C> {
    /// The rows.
    fn from(rows: [[f32; C]; R]) -> Self {
        Mat { rows }
    }
}

impl<const R: usize, const C: usize> From<Mat<R, C>> for [[f32; C]; R] {
    /// The rows.
    fn from(m: Mat<R, C>) -> Self {
        m.rows
    }
}

impl<const R: usize, const C: usize> From<Matrix> for Mat<R, C> {
    /// The top-left R×C block of MonoGame's matrix: what `SetValue(Matrix)` gives the shader.
    fn from(m: Matrix) -> Self {
        let mut out = Mat::default();
        for (r, row) in out.rows.iter_mut().enumerate().take(4) {
            for (c, value) in row.iter_mut().enumerate().take(4) {
                *value = m.rows[r][c];
            }
        }
        out
    }
}

impl<const R: usize, const C: usize> From<Mat<R, C>> for Matrix {
    /// The value in the top-left block of a MonoGame matrix, zeros elsewhere.
    fn from(m: Mat<R, C>) -> Matrix {
        let mut out = Matrix::ZERO;
        for (r, row) in m.rows.iter().enumerate().take(4) {
            for (c, value) in row.iter().enumerate().take(4) {
                out.rows[r][c] = *value;
            }
        }
        out
    }
}

/// `From<[f32; R*C]>` per shape (stable const generics cannot multiply).
macro_rules! flat_arrays {
    ($(($r:literal, $c:literal, $n:literal)),* $(,)?) => {$(
        impl From<[f32; $n]> for Mat<$r, $c> {
            /// The values row after row.
            fn from(values: [f32; $n]) -> Self {
                let mut m = Mat::<$r, $c>::default();
                for (row, chunk) in m.rows.iter_mut().zip(values.chunks_exact($c)) {
                    row.copy_from_slice(chunk);
                }
                m
            }
        }
    )*};
}

flat_arrays!(
    (1, 2, 2),
    (1, 3, 3),
    (1, 4, 4),
    (2, 1, 2),
    (2, 2, 4),
    (2, 3, 6),
    (2, 4, 8),
    (3, 1, 3),
    (3, 2, 6),
    (3, 3, 9),
    (3, 4, 12),
    (4, 1, 4),
    (4, 2, 8),
    (4, 3, 12),
    (4, 4, 16),
);

#[cfg(feature = "glam")]
mod glam_conversions {
    use super::{Mat, Matrix};

    impl From<glam::Mat4> for Matrix {
        /// The same transform in MonoGame's row-vector convention: the transpose, row `i` being
        /// glam's column `i` (the translation ends up in row 4, where XNA keeps it).
        fn from(m: glam::Mat4) -> Matrix {
            Matrix::from_columns(m.to_cols_array_2d())
        }
    }

    impl From<glam::Affine3A> for Matrix {
        /// As `glam::Mat4::from(affine)`.
        fn from(a: glam::Affine3A) -> Matrix {
            glam::Mat4::from(a).into()
        }
    }

    impl From<glam::Mat3> for Matrix {
        /// As `glam::Mat4::from_mat3(m)`.
        fn from(m: glam::Mat3) -> Matrix {
            glam::Mat4::from_mat3(m).into()
        }
    }

    impl<const R: usize, const C: usize> From<glam::Mat4> for Mat<R, C> {
        /// The same transform as HLSL's `mul(v, M)` sees it (see [`Mat`]).
        fn from(m: glam::Mat4) -> Self {
            Matrix::from(m).into()
        }
    }

    impl<const R: usize, const C: usize> From<glam::Affine3A> for Mat<R, C> {
        /// The same transform; for a `float4x3` the rows are the three axes and the translation.
        fn from(a: glam::Affine3A) -> Self {
            Matrix::from(a).into()
        }
    }

    impl<const R: usize, const C: usize> From<glam::Mat3> for Mat<R, C> {
        /// The same linear transform.
        fn from(m: glam::Mat3) -> Self {
            Matrix::from(m).into()
        }
    }
}

#[cfg(feature = "mint")]
mod mint_conversions {
    use super::Mat;

    /// `mint::RowMatrix{R}x{C}` → `Mat<R, C>`: mint's rows are the HLSL rows.
    macro_rules! row_matrices {
        ($(($t:ident, $r:literal, $c:literal, [$($f:ident),*])),* $(,)?) => {$(
            impl From<mint::$t<f32>> for Mat<$r, $c> {
                /// The rows.
                fn from(m: mint::$t<f32>) -> Self {
                    Mat { rows: [$(m.$f.into()),*] }
                }
            }
        )*};
    }

    row_matrices!(
        (RowMatrix2, 2, 2, [x, y]),
        (RowMatrix2x3, 2, 3, [x, y]),
        (RowMatrix2x4, 2, 4, [x, y]),
        (RowMatrix3x2, 3, 2, [x, y, z]),
        (RowMatrix3, 3, 3, [x, y, z]),
        (RowMatrix3x4, 3, 4, [x, y, z]),
        (RowMatrix4x2, 4, 2, [x, y, z, w]),
        (RowMatrix4x3, 4, 3, [x, y, z, w]),
        (RowMatrix4, 4, 4, [x, y, z, w]),
    );
}

/// Writes `m` as an HLSL `float{rows}x{columns}` the way MonoGame does: register `k` receives the
/// first `rows` entries of column `k` of `m` (`SetValue(Matrix)` stores
/// `data[k*rows + r] = M(r+1, k+1)`, and the constant buffer copies `rows` floats per register,
/// mgfx-format.md §7.1–§7.2). Lanes at and past `rows` keep their values. Registers past
/// `columns` or past the slice, and sizes over 4, are ignored.
pub fn write_matrix(registers: &mut [[f32; 4]], m: &Matrix, rows: usize, columns: usize) {
    for r in 0..rows.min(4) {
        for c in 0..columns.min(4) {
            let (k, lane) = matrix_slot(r, c);
            if let Some(register) = registers.get_mut(k) {
                register[lane] = m.rows[r][c];
            }
        }
    }
}

/// Reads back what [`write_matrix`] wrote: entries outside the `rows`×`columns` block are zero.
pub fn read_matrix(registers: &[[f32; 4]], rows: usize, columns: usize) -> Matrix {
    let mut m = Matrix::ZERO;
    for r in 0..rows.min(4) {
        for c in 0..columns.min(4) {
            let (k, lane) = matrix_slot(r, c);
            if let Some(register) = registers.get(k) {
                m.rows[r][c] = register[lane];
            }
        }
    }
    m
}

#[cfg(feature = "bytemuck")]
#[doc(hidden)]
pub use bytemuck as __bytemuck;

/// Implements `bytemuck::Pod` and `Zeroable` for a generated `Params` struct when this crate's
/// `bytemuck` feature is on, and nothing otherwise. Generated code calls it so that the `cfg` is
/// evaluated here, not in the user's crate.
///
/// An unsafe macro: the invocation must start with `unsafe` and list the struct's fields, each
/// of type `[[f32; 4]; N]` (the only form the pattern accepts). The caller promises that the
/// struct is `#[repr(C)]` with exactly those fields; the macro checks at compile time that they
/// fill it without padding. A struct of `f32` arrays without padding has no invalid bit pattern.
#[cfg(feature = "bytemuck")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_pod {
    (unsafe $t:ident { $($field:ident : [[f32; 4]; $n:literal]),* $(,)? }) => {
        const _: () = ::core::assert!(
            ::core::mem::size_of::<$t>() == 0 $(+ 16 * $n)*,
            "the fields listed do not fill the struct"
        );
        const _: fn(&$t) = |p| {
            // Every field named has the type given (a wrong list fails to compile).
            $(let _: &[[f32; 4]; $n] = &p.$field;)*
        };
        // SAFETY: the invocation's `unsafe` promises a `#[repr(C)]` struct of exactly these
        // `[[f32; 4]; N]` fields; the assertions above check the list against the struct. No
        // padding, and every bit pattern is a valid value.
        unsafe impl $crate::params::__bytemuck::Zeroable for $t {}
        // SAFETY: as above; the type is also `Copy + 'static`.
        unsafe impl $crate::params::__bytemuck::Pod for $t {}
    };
}

/// Without the `bytemuck` feature: expands to nothing (the same unsafe form is required).
#[cfg(not(feature = "bytemuck"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_pod {
    (unsafe $t:ident { $($field:ident : [[f32; 4]; $n:literal]),* $(,)? }) => {};
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered() -> Matrix {
        // M(r+1, c+1) = 10*(r+1) + (c+1), so every entry names its position.
        let mut m = Matrix::ZERO;
        for r in 0..4 {
            for c in 0..4 {
                m.rows[r][c] = (10 * (r + 1) + (c + 1)) as f32;
            }
        }
        m
    }

    #[test]
    fn four_by_three_writes_three_registers_of_four_rows() {
        let mut regs = [[-1.0f32; 4]; 4];
        write_matrix(&mut regs, &numbered(), 4, 3);
        assert_eq!(regs[0], [11.0, 21.0, 31.0, 41.0]);
        assert_eq!(regs[1], [12.0, 22.0, 32.0, 42.0]);
        assert_eq!(regs[2], [13.0, 23.0, 33.0, 43.0]);
        assert_eq!(regs[3], [-1.0; 4], "a 4x3 matrix uses 3 registers");
    }

    #[test]
    fn three_by_three_leaves_the_fourth_lane() {
        let mut regs = [[-1.0f32; 4]; 3];
        write_matrix(&mut regs, &numbered(), 3, 3);
        assert_eq!(regs[0], [11.0, 21.0, 31.0, -1.0]);
        assert_eq!(regs[2], [13.0, 23.0, 33.0, -1.0]);
    }

    #[test]
    fn read_inverts_write_inside_the_block() {
        let mut regs = [[0.0f32; 4]; 3];
        write_matrix(&mut regs, &numbered(), 4, 3);
        let back = read_matrix(&regs, 4, 3);
        for r in 0..4 {
            for c in 0..4 {
                let want = if c < 3 { numbered().rows[r][c] } else { 0.0 };
                assert_eq!(back.rows[r][c], want, "M({},{})", r + 1, c + 1);
            }
        }
    }

    #[test]
    fn short_slices_and_big_shapes_do_not_panic() {
        let mut regs = [[0.0f32; 4]; 1];
        write_matrix(&mut regs, &numbered(), 9, 9);
        assert_eq!(regs[0], [11.0, 21.0, 31.0, 41.0]);
        assert_eq!(read_matrix(&regs, 9, 9).rows[0][0], 11.0);
        assert_eq!(numbered().column(7), [0.0; 4]);
    }

    #[test]
    fn transpose_and_columns() {
        let m = numbered();
        assert_eq!(m.transpose().rows[0], m.column(0));
        assert_eq!(Matrix::from_columns(m.rows).rows, m.rows);
        let rows: [[f32; 4]; 4] = Matrix::from(m.rows).into();
        assert_eq!(rows, m.rows);
    }

    #[test]
    fn mat_writes_columns_and_converts_from_every_form() {
        // float4x3 rows r = (10r+1, 10r+2, 10r+3).
        let rows: [[f32; 3]; 4] =
            std::array::from_fn(|r| std::array::from_fn(|c| (10 * r + c + 1) as f32));
        let m = Mat::from(rows);
        let flat: [f32; 12] = std::array::from_fn(|i| rows[i / 3][i % 3]);
        assert_eq!(Mat::<4, 3>::from(flat), m);
        let mut regs = [[-1.0f32; 4]; 4];
        m.write_registers(&mut regs);
        assert_eq!(regs[0], [1.0, 11.0, 21.0, 31.0]);
        assert_eq!(regs[2], [3.0, 13.0, 23.0, 33.0]);
        assert_eq!(regs[3], [-1.0; 4], "a float4x3 uses three registers");
        assert_eq!(Mat::<4, 3>::from_registers(&regs), m);
        // MonoGame's SetValue(Matrix): the top-left block, and the same registers as write_matrix.
        let big = numbered();
        let mut expect = [[0.0f32; 4]; 3];
        write_matrix(&mut expect, &big, 4, 3);
        let mut got = [[0.0f32; 4]; 3];
        Mat::<4, 3>::from(big).write_registers(&mut got);
        assert_eq!(got, expect);
        let three_by_two = Mat::<3, 2>::from(big);
        assert_eq!(
            three_by_two.rows,
            [[11.0, 12.0], [21.0, 22.0], [31.0, 32.0]]
        );
        assert_eq!(Matrix::from(three_by_two).rows[2], [31.0, 32.0, 0.0, 0.0]);
    }

    #[cfg(feature = "glam")]
    #[test]
    fn glam_is_the_same_transform() {
        let t = glam::Mat4::from_translation(glam::Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(Matrix::from(t).rows[3], [1.0, 2.0, 3.0, 1.0]);
        let bone = glam::Affine3A::from_rotation_z(0.5)
            * glam::Affine3A::from_translation(glam::Vec3::new(4.0, 0.0, 0.0));
        let m = Mat::<4, 3>::from(bone);
        // HLSL mul(float4(p, 1), m) equals glam's bone.transform_point3(p).
        let p = glam::Vec3::new(0.3, -0.7, 0.2);
        let hlsl: Vec<f32> = (0..3)
            .map(|c| p.x * m.rows[0][c] + p.y * m.rows[1][c] + p.z * m.rows[2][c] + m.rows[3][c])
            .collect();
        let want = bone.transform_point3(p);
        for (a, b) in hlsl.iter().zip(want.to_array()) {
            assert!((a - b).abs() < 1e-5, "{hlsl:?} vs {want:?}");
        }
    }

    #[test]
    fn index_error_names_both_numbers() {
        let e = IndexOutOfRange { index: 5, len: 4 };
        assert_eq!(
            e.to_string(),
            "element 5 is out of range: the shader declares 4 elements"
        );
    }

    #[cfg(feature = "mint")]
    #[test]
    fn mint_column_matrix_is_the_same_transform() {
        // A column-vector translation by (1, 2, 3): last column holds the translation.
        let col = mint::ColumnMatrix4::<f32>::from([
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [1.0, 2.0, 3.0, 1.0],
        ]);
        let m = Matrix::from(col);
        // XNA keeps the translation in row 4.
        assert_eq!(m.rows[3], [1.0, 2.0, 3.0, 1.0]);
        let row = mint::RowMatrix4::<f32>::from(m.rows);
        assert_eq!(Matrix::from(row), m);
    }
}
