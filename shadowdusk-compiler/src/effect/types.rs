//! Recognising HLSL numeric type names (`float`, `float3`, `half4x4`, `int2`, `bool`, ...) and
//! the texture/sampler object keywords of the effect framework (fx-pipeline.md §3, §4.1).
//!
//! [`HlslType`] and [`Dim`], what those recognisers produce, are declared here rather than in
//! the syntax tree (which re-exports them), so this file depends on nothing else in the stage.

/// The HLSL type of a uniform, as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HlslType {
    /// Scalar base: `float`, `half`, `int`, `uint`, `bool`, `double`, or a struct name.
    pub base: String,
    /// Rows (1 for scalars and vectors).
    pub rows: u32,
    /// Columns (1 for scalars, N for vectors).
    pub columns: u32,
    /// `true` for `floatN` vectors (rows == 1), to tell `float1` from `float`.
    pub is_vector: bool,
    /// `true` for `floatRxC` matrices.
    pub is_matrix: bool,
    /// Array length, if an array.
    pub array: Option<u32>,
    /// `row_major` was written on the declaration.
    pub row_major: bool,
}

/// Dimension of a sampler or texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// Volume.
    D3,
    /// Cube.
    Cube,
}

const SCALARS: &[&str] = &[
    "float",
    "half",
    "int",
    "uint",
    "bool",
    "double",
    "dword",
    "min16float",
    "min10float",
    "min16int",
    "min12int",
    "min16uint",
];

/// Parses a numeric type name. `row_major`/arrays are filled in by the caller.
pub fn numeric(name: &str) -> Option<HlslType> {
    for base in SCALARS {
        let Some(rest) = name.strip_prefix(base) else {
            continue;
        };
        let digit = |s: &str| match s {
            "1" => Some(1u32),
            "2" => Some(2),
            "3" => Some(3),
            "4" => Some(4),
            _ => None,
        };
        let base = if *base == "dword" { "uint" } else { base };
        let ty = |rows, columns, is_vector, is_matrix| HlslType {
            base: base.to_string(),
            rows,
            columns,
            is_vector,
            is_matrix,
            array: None,
            row_major: false,
        };
        if rest.is_empty() {
            return Some(ty(1, 1, false, false));
        }
        if let Some(n) = digit(rest) {
            return Some(ty(1, n, true, false));
        }
        if let Some((r, c)) = rest.split_once('x') {
            if let (Some(r), Some(c)) = (digit(r), digit(c)) {
                return Some(ty(r, c, false, true));
            }
        }
    }
    None
}

/// Number of scalar components of one element of the type.
pub fn components(ty: &HlslType) -> usize {
    (ty.rows * ty.columns) as usize
}

/// Legacy sampler keywords (`sampler`, `sampler2D`, ...), case-insensitive as fxc treats them;
/// `Some(None)` for plain `sampler` / `sampler_state`-less forms whose dimension comes from use.
pub fn legacy_sampler(word: &str) -> Option<Option<Dim>> {
    match word.to_ascii_lowercase().as_str() {
        "sampler" => Some(None),
        "sampler1d" => Some(Some(Dim::D1)),
        "sampler2d" => Some(Some(Dim::D2)),
        "sampler3d" => Some(Some(Dim::D3)),
        "samplercube" => Some(Some(Dim::Cube)),
        _ => None,
    }
}

/// Texture keywords: effect-style (`texture`, `texture2D`, `textureCUBE`, case-insensitive) and
/// modern (`Texture2D`, `TextureCube`). Returns the dimension and whether it is the legacy
/// spelling DXC rejects (`texture`, `texture2D`, `textureCUBE`, `Texture`, ...).
pub fn texture_keyword(word: &str) -> Option<(Dim, bool)> {
    let modern = match word {
        "Texture1D" => Some(Dim::D1),
        "Texture2D" => Some(Dim::D2),
        "Texture3D" => Some(Dim::D3),
        "TextureCube" => Some(Dim::Cube),
        _ => None,
    };
    if let Some(d) = modern {
        return Some((d, false));
    }
    let d = match word.to_ascii_lowercase().as_str() {
        "texture" | "texture2d" => Dim::D2,
        "texture1d" => Dim::D1,
        "texture3d" => Dim::D3,
        "texturecube" => Dim::Cube,
        _ => return None,
    };
    Some((d, true))
}

/// The modern type name of a dimension.
pub fn texture_type(dim: Dim) -> &'static str {
    match dim {
        Dim::D1 => "Texture1D",
        Dim::D2 => "Texture2D",
        Dim::D3 => "Texture3D",
        Dim::Cube => "TextureCube",
    }
}

/// DXC's own spellings of the effect framework's non-texture object types: shaders, fragments,
/// state objects and views. Code can declare one (DXC ignores a local or a parameter of one) but
/// never read it; fxc compiles nothing for one. Textures are not here: they are lowered to
/// `Texture2D` & co. ([`texture_keyword`]).
pub const CODE_OBJECTS: &[&str] = &[
    "VertexShader",
    "vertexshader",
    "PixelShader",
    "pixelshader",
    "GeometryShader",
    "HullShader",
    "DomainShader",
    "ComputeShader",
    "pixelfragment",
    "vertexfragment",
    "BlendState",
    "DepthStencilState",
    "RasterizerState",
    "RenderTargetView",
    "DepthStencilView",
];

/// Whether `ty` (as written) is one of [`CODE_OBJECTS`].
pub fn code_object(ty: &str) -> bool {
    CODE_OBJECTS.contains(&ty.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_types() {
        let t = numeric("float3").unwrap();
        assert_eq!(
            (t.rows, t.columns, t.is_vector, t.is_matrix),
            (1, 3, true, false)
        );
        let t = numeric("float4x3").unwrap();
        assert_eq!(
            (t.rows, t.columns, t.is_vector, t.is_matrix),
            (4, 3, false, true)
        );
        assert_eq!(numeric("half").unwrap().base, "half");
        assert_eq!(numeric("uint2").unwrap().base, "uint");
        assert!(numeric("float5").is_none());
        assert!(numeric("floaty").is_none());
        assert!(numeric("VSOut").is_none());
        assert!(!numeric("float1").unwrap().is_matrix && numeric("float1").unwrap().is_vector);
    }

    #[test]
    fn object_keywords() {
        assert_eq!(legacy_sampler("samplerCUBE"), Some(Some(Dim::Cube)));
        assert_eq!(legacy_sampler("sampler"), Some(None));
        assert_eq!(legacy_sampler("SamplerState"), None);
        assert_eq!(texture_keyword("texture"), Some((Dim::D2, true)));
        assert_eq!(texture_keyword("Texture"), Some((Dim::D2, true)));
        assert_eq!(texture_keyword("textureCUBE"), Some((Dim::Cube, true)));
        assert_eq!(texture_keyword("TextureCube"), Some((Dim::Cube, false)));
        assert_eq!(texture_keyword("Texture2DArray"), None);
    }
}

