//! Stage interface (glsl-dialect.md §5): which GLSL name each HLSL semantic becomes.
//!
//! Input: the reflected [`StageVar`]s. Output: a [`Binding`] per variable (the replacement name,
//! its declaration line, whether reads/writes need a width swizzle) plus the vertex attribute
//! records. Varyings of D3D9 usages other than COLOR0/1 and TEXCOORDn take MojoShader's
//! `io_<usage>_<index>` names. Refused: PS inputs and VS outputs that are not a D3D9 usage
//! (SD0216); VS inputs without a `VertexElementUsage` (SD0213); builtins GLSL 1.10 lacks
//! (SD0219); non-vector interface variables (SD0219).

use shadowdusk_mgfx::{Attribute, VertexElementUsage};

use super::DialectError;
use crate::cross::StageVar;
use crate::diag::Code;

/// How one reflected stage variable is spelled in the dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Name in SPIRV-Cross's text.
    pub from: String,
    /// Replacement identifier (`vTexCoord0`, `vs_v1`, `gl_Position`).
    pub to: String,
    /// Components of the HLSL variable; bare uses get a swizzle when < `declared`.
    pub components: u32,
    /// Components of the GLSL declaration (4 for varyings/attributes, 1 for `vFogFragCoord`).
    pub declared: u32,
    /// Declaration line to emit, if any (`varying vec4 vTexCoord0;`).
    pub declaration: Option<String>,
}

/// Splits `TEXCOORD12` into (`TEXCOORD`, 12); no digits → index 0.
pub fn split_semantic(sem: &str) -> (&str, u32) {
    let digits = sem.len() - sem.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (name, idx) = sem.split_at(digits);
    (name, idx.parse().unwrap_or(0))
}

/// MonoGame's `VertexElementUsage` for a D3D9 usage name (`TEXCOORD`).
pub(crate) fn usage_of(name: &str) -> Option<VertexElementUsage> {
    VertexElementUsage::from_d3d9(name)
}

/// MojoShader's number for a D3D9 usage (`MOJOSHADER_usage`, D3D9's `D3DDECLUSAGE` order),
/// which names the varyings of usages GLSL has no built-in for; the wgpu target orders
/// locations by it.
pub(crate) fn mojoshader_usage(name: &str) -> Option<u32> {
    Some(match name {
        "POSITION" => 0,
        "BLENDWEIGHT" => 1,
        "BLENDINDICES" => 2,
        "NORMAL" => 3,
        "PSIZE" => 4,
        "TEXCOORD" => 5,
        "TANGENT" => 6,
        "BINORMAL" => 7,
        "TESSFACTOR" => 8,
        "POSITIONT" => 9,
        "COLOR" => 10,
        "FOG" => 11,
        "DEPTH" => 12,
        "SAMPLE" => 13,
        _ => return None,
    })
}

/// The shared VS-output / PS-input varying name for a semantic, if it has one.
///
/// COLOR0/1 and TEXCOORDn are MonoGame's names (its MojoShader fork renamed GLSL's built-ins).
/// Any other D3D9 usage (`NORMAL0`, `TANGENT0`, `COLOR2`, ...) is spelled as MojoShader's GLSL
/// profile spells a usage without a built-in, `io_<MOJOSHADER_usage>_<index>` (NORMAL0 →
/// `io_3_0`). MonoGame's fork drops such a vertex output into a plain global and declares
/// nothing for such a pixel input (the GL compile then fails on `ps_v<n>`, MonoGame issues
/// 1021 and 4896), so no mgfxc shader can link with these on either side; upstream MojoShader's
/// spelling at least links with itself and with FNA's.
fn varying_name(sem: &str) -> Option<(String, u32)> {
    let (name, idx) = split_semantic(sem);
    match (name, idx) {
        ("COLOR", 0) => Some(("vFrontColor".into(), 4)),
        ("COLOR", 1) => Some(("vFrontSecondaryColor".into(), 4)),
        ("TEXCOORD", n) => Some((format!("vTexCoord{n}"), 4)),
        // The vertex side writes FOG0 as MonoGame's `vFogFragCoord`.
        ("FOG", 0) => Some(("vFogFragCoord".into(), 1)),
        (usage, n) => mojoshader_usage(usage).map(|u| (format!("io_{u}_{n}"), 4)),
    }
}

/// The declaration line of a varying named by [`varying_name`].
fn varying_declaration(name: &str, declared: u32) -> String {
    match declared {
        1 => format!("varying float {name};"),
        _ => format!("varying vec4 {name};"),
    }
}

fn shape_check(v: &StageVar) -> Result<(), DialectError> {
    if v.components == 0 {
        return Err(DialectError::new(
            Code::SD0219,
            format!("the stage variable with semantic {} is an array, matrix or struct", v.semantic),
            "give every input and output its own scalar or vector semantic (e.g. TEXCOORD0, TEXCOORD1)",
            Some(v.semantic.clone()),
        ));
    }
    Ok(())
}

fn unsupported_builtin(v: &StageVar) -> DialectError {
    DialectError::new(
        Code::SD0219,
        format!(
            "system value {} has no GLSL 1.10 / GLSL ES 1.00 equivalent",
            v.semantic
        ),
        "MonoGame's OpenGL profile targets GLSL 1.10; remove this system value",
        Some(v.semantic.clone()),
    )
}

/// Bindings for a pixel shader's inputs.
pub fn pixel_inputs(inputs: &[StageVar]) -> Result<Vec<Binding>, DialectError> {
    let mut out = Vec::new();
    for v in inputs {
        if v.builtin {
            match v.glsl_name.as_str() {
                "gl_FragCoord" | "gl_FrontFacing" => continue,
                _ => return Err(unsupported_builtin(v)),
            }
        }
        shape_check(v)?;
        let Some((name, declared)) = varying_name(&v.semantic) else {
            return Err(DialectError::new(
                Code::SD0216,
                format!("pixel shader input semantic {} is not written by any MonoGame vertex shader", v.semantic),
                "use COLOR0, COLOR1, TEXCOORDn or another D3D9 usage (NORMAL0, TANGENT0, ...): MonoGame links \
                 shaders by varying name, and SpriteBatch's vertex shader writes only COLOR0 (vFrontColor) \
                 and TEXCOORD0 (vTexCoord0)",
                Some(v.semantic.clone()),
            ));
        };
        if v.components > declared {
            return Err(DialectError::new(
                Code::SD0219,
                format!(
                    "input {} has {} components, its GLSL varying only {declared}",
                    v.semantic, v.components
                ),
                "read a scalar from this semantic",
                Some(v.semantic.clone()),
            ));
        }
        out.push(Binding {
            from: v.glsl_name.clone(),
            declaration: Some(varying_declaration(&name, declared)),
            to: name,
            components: v.components,
            declared,
        });
    }
    Ok(out)
}

/// Bindings and attribute records for a vertex shader's inputs (`vs_v<k>`, k in declaration
/// order).
pub fn vertex_inputs(inputs: &[StageVar]) -> Result<(Vec<Binding>, Vec<Attribute>), DialectError> {
    let mut out = Vec::new();
    let mut attrs = Vec::new();
    for v in inputs {
        if v.builtin {
            return Err(unsupported_builtin(v));
        }
        shape_check(v)?;
        let (name, idx) = split_semantic(&v.semantic);
        let Some(usage) = usage_of(name) else {
            return Err(DialectError::new(
                Code::SD0213,
                format!("vertex input semantic {} has no MonoGame VertexElementUsage", v.semantic),
                "use POSITION, COLOR, TEXCOORD, NORMAL, BINORMAL, TANGENT, BLENDINDICES, BLENDWEIGHT, DEPTH, \
                 FOG, PSIZE, SAMPLE or TESSFACTOR (with an index), matching your VertexDeclaration",
                Some(v.semantic.clone()),
            ));
        };
        let Ok(index) = u8::try_from(idx) else {
            return Err(DialectError::new(
                Code::SD0213,
                format!(
                    "vertex input semantic {} has an index above 255",
                    v.semantic
                ),
                "use a semantic index between 0 and 255",
                Some(v.semantic.clone()),
            ));
        };
        let glsl = format!("vs_v{}", out.len());
        attrs.push(Attribute {
            name: glsl.clone(),
            usage,
            index,
            location: 0,
        });
        out.push(Binding {
            from: v.glsl_name.clone(),
            declaration: Some(format!("attribute vec4 {glsl};")),
            to: glsl,
            components: v.components,
            declared: 4,
        });
    }
    Ok((out, attrs))
}

/// Bindings for a vertex shader's outputs.
pub fn vertex_outputs(outputs: &[StageVar]) -> Result<Vec<Binding>, DialectError> {
    let mut out = Vec::new();
    let mut seen_position = false;
    for v in outputs {
        if v.builtin {
            match v.glsl_name.as_str() {
                "gl_Position" | "gl_PointSize" => {
                    seen_position |= v.glsl_name == "gl_Position";
                    continue;
                }
                _ => return Err(unsupported_builtin(v)),
            }
        }
        shape_check(v)?;
        let (name, idx) = split_semantic(&v.semantic);
        let (to, declared, declaration) = match (name, idx) {
            // DXC treats POSITION as a plain varying; D3D9 (and MonoGame's templates) mean the
            // clip position (glsl-dialect.md §5.4).
            ("POSITION", 0) => {
                if seen_position || outputs.iter().any(|o| o.builtin && o.glsl_name == "gl_Position") {
                    return Err(DialectError::new(
                        Code::SD0219,
                        "the vertex shader writes both POSITION and SV_Position",
                        "keep only one position output",
                        Some(v.semantic.clone()),
                    ));
                }
                seen_position = true;
                ("gl_Position".to_string(), 4, None)
            }
            ("PSIZE", 0) => ("gl_PointSize".to_string(), 1, None),
            _ => match varying_name(&v.semantic) {
                Some((n, d)) => (n.clone(), d, Some(varying_declaration(&n, d))),
                None => {
                    return Err(DialectError::new(
                        Code::SD0216,
                        format!("vertex shader output semantic {} has no MonoGame varying name", v.semantic),
                        "write COLOR0, COLOR1, TEXCOORDn or another D3D9 usage (NORMAL0, TANGENT0, ...), and \
                         SV_Position: MonoGame links vertex and pixel shaders by these names",
                        Some(v.semantic.clone()),
                    ))
                }
            },
        };
        if v.components > declared {
            return Err(DialectError::new(
                Code::SD0219,
                format!(
                    "output {} has {} components, its GLSL target only {declared}",
                    v.semantic, v.components
                ),
                "write a scalar to this semantic",
                Some(v.semantic.clone()),
            ));
        }
        out.push(Binding {
            from: v.glsl_name.clone(),
            to,
            components: v.components,
            declared,
            declaration,
        });
    }
    Ok(out)
}

/// Pixel outputs: `(location, is_depth)` of each; errors for anything but SV_Target/SV_Depth.
pub fn pixel_outputs(outputs: &[StageVar]) -> Result<Vec<u32>, DialectError> {
    let mut targets = Vec::new();
    for v in outputs {
        if v.builtin {
            if v.glsl_name == "gl_FragDepth" {
                continue;
            }
            return Err(unsupported_builtin(v));
        }
        let (name, idx) = split_semantic(&v.semantic);
        if name != "SV_TARGET" {
            return Err(DialectError::new(
                Code::SD0219,
                format!(
                    "pixel shader output semantic {} is not a render target",
                    v.semantic
                ),
                "pixel shaders may only write SV_Target0..7 (COLOR0..7) and SV_Depth (DEPTH)",
                Some(v.semantic.clone()),
            ));
        }
        targets.push(v.location.unwrap_or(idx));
    }
    targets.sort_unstable();
    Ok(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(sem: &str, comps: u32) -> StageVar {
        StageVar {
            glsl_name: format!("sd_in_{sem}"),
            semantic: sem.into(),
            components: comps,
            location: None,
            builtin: false,
        }
    }

    #[test]
    fn semantic_split() {
        assert_eq!(split_semantic("TEXCOORD12"), ("TEXCOORD", 12));
        assert_eq!(split_semantic("COLOR"), ("COLOR", 0));
    }

    #[test]
    fn usage_table_and_declaration_order() {
        let (b, a) = vertex_inputs(&[
            var("POSITION0", 3),
            var("BLENDWEIGHT0", 4),
            var("TEXCOORD3", 2),
        ])
        .unwrap();
        assert_eq!(
            b.iter().map(|b| b.to.as_str()).collect::<Vec<_>>(),
            ["vs_v0", "vs_v1", "vs_v2"]
        );
        assert_eq!(a[1].usage, VertexElementUsage::BlendWeight);
        assert_eq!(
            (a[2].usage, a[2].index),
            (VertexElementUsage::TextureCoordinate, 3)
        );
        let e = vertex_inputs(&[var("MYSEM0", 4)]).unwrap_err();
        assert_eq!(e.code, Code::SD0213);
    }

    #[test]
    fn pixel_inputs_map_to_spritebatch_varyings() {
        let b = pixel_inputs(&[var("COLOR", 4), var("COLOR1", 3), var("TEXCOORD2", 2)]).unwrap();
        assert_eq!(
            b.iter().map(|b| b.to.as_str()).collect::<Vec<_>>(),
            ["vFrontColor", "vFrontSecondaryColor", "vTexCoord2"]
        );
        let e = pixel_inputs(&[var("MYSEM0", 3)]).unwrap_err();
        assert_eq!(
            (e.code, e.subject.as_deref()),
            (Code::SD0216, Some("MYSEM0"))
        );
    }

    #[test]
    fn other_usages_take_mojoshader_io_names_on_both_sides() {
        let sems = [
            ("NORMAL0", "io_3_0"),
            ("TANGENT1", "io_6_1"),
            ("BINORMAL0", "io_7_0"),
            ("BLENDWEIGHT0", "io_1_0"),
            ("COLOR2", "io_10_2"),
            ("POSITION1", "io_0_1"),
        ];
        let vars: Vec<StageVar> = sems.iter().map(|(s, _)| var(s, 3)).collect();
        let ps = pixel_inputs(&vars).unwrap();
        let vs = vertex_outputs(&vars).unwrap();
        for ((_, want), (p, v)) in sems.iter().zip(ps.iter().zip(&vs)) {
            assert_eq!((p.to.as_str(), v.to.as_str()), (*want, *want));
            let decl = format!("varying vec4 {want};");
            assert_eq!(p.declaration.as_deref(), Some(decl.as_str()));
            assert_eq!(v.declaration.as_deref(), Some(decl.as_str()));
        }
        // FOG0 is MonoGame's float varying on both sides; a wider read is refused.
        let fog = pixel_inputs(&[var("FOG", 1)]).unwrap();
        assert_eq!(
            fog[0].declaration.as_deref(),
            Some("varying float vFogFragCoord;")
        );
        assert_eq!(
            pixel_inputs(&[var("FOG0", 2)]).unwrap_err().code,
            Code::SD0219
        );
    }
}
