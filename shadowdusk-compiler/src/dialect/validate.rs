//! The final check over the emitted dialect (glsl-dialect.md §2.1, §8): anything GLSL 1.10 /
//! GLSL ES 1.00 lacks that is still in the text is refused (SD0219) instead of shipping a shader
//! that fails to compile on the player's machine.

use super::tokens::{tokenize, Kind};
use super::DialectError;
use crate::diag::Code;

/// Identifiers that must not survive: newer builtins, types and qualifiers.
const FORBIDDEN: &[&str] = &[
    "round",
    "roundEven",
    "transpose",
    "inverse",
    "determinant",
    "texelFetch",
    "texelFetchOffset",
    "texelFetch1D",
    "texelFetch2D",
    "texelFetch3D",
    "texelFetch2DRect",
    "textureSize",
    "textureQueryLod",
    "textureOffset",
    "textureLodOffset",
    "textureGather",
    "texture",
    "textureLod",
    "textureGrad",
    "textureProj",
    "textureProjLod",
    "textureProjGrad",
    "uint",
    "uvec2",
    "uvec3",
    "uvec4",
    "mat2x3",
    "mat2x4",
    "mat3x2",
    "mat3x4",
    "mat4x2",
    "mat4x3",
    "layout",
    "flat",
    "noperspective",
    "centroid",
    "switch",
    "case",
    "default",
    "sampler1D",
    "sampler2DShadow",
    "samplerCubeShadow",
    "sampler2DArray",
    "isampler2D",
    "usampler2D",
    "gl_VertexID",
    "gl_InstanceID",
    "gl_SampleID",
    "gl_SampleMask",
    "gl_PrimitiveID",
    "gl_ClipDistance",
    "gl_CullDistance",
    "floatBitsToInt",
    "floatBitsToUint",
    "intBitsToFloat",
    "uintBitsToFloat",
    "packHalf2x16",
    "unpackHalf2x16",
    "trunc",
    "modf",
    "isnan",
    "isinf",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "bitfieldExtract",
    "bitCount",
    "findLSB",
    "findMSB",
    "texture1D",
    "texture1DLod",
];

/// Integer bit operators: SD0221, because they have an HLSL spelling the user can change.
const BIT_OPS: &[&str] = &[
    "<<", ">>", "<<=", ">>=", "&", "|", "^", "~", "&=", "|=", "^=",
];

/// Operators GLSL 1.10 reserves; integer `%` is rewritten before SPIRV-Cross (`cross::integers`),
/// so one left here comes from something else.
const RESERVED_OPS: &[&str] = &["%", "%="];

/// SD0221 for the first integer bit operator in `tokens`. Shader Model 2/3 have no integer
/// registers, so fxc refuses these for ps_/vs_2_0 and 3_0 ("bitwise operations not supported on
/// legacy targets"); GLSL 1.10 has no bit operators at all. Checked before anything else in the
/// shader is judged, so the user hears about the operator and not a GLSL extension it needs.
pub fn bit_operator(tokens: &[super::tokens::Token<'_>]) -> Result<(), DialectError> {
    match tokens
        .iter()
        .find(|t| t.kind == Kind::Punct && BIT_OPS.contains(&t.text))
    {
        Some(t) => Err(DialectError::new(
            Code::SD0221,
            format!(
                "the integer bit operator `{}`, which Shader Model 2/3 (and so fxc for these \
                 profiles) and GLSL 1.10 / GLSL ES 1.00 lack",
                t.text
            ),
            "write the arithmetic it stands for: `x << n` is `x * 2^n`, `x >> n` is `x / 2^n` \
             (x >= 0), `x & (2^n - 1)` is `x % 2^n`, bit n is set when `(x / 2^n) % 2 == 1`",
            Some(t.text.to_string()),
        )),
        None => Ok(()),
    }
}

/// Validates the final text; `allowed_extensions` are the `#extension` lines this module wrote.
pub fn check(glsl: &str) -> Result<(), DialectError> {
    if let Some(c) = glsl.chars().find(|c| !c.is_ascii()) {
        return Err(fail(
            format!("the generated GLSL contains the non-ASCII character {c:?}"),
            None,
        ));
    }
    let tokens = tokenize(glsl);
    let mut depth = 0i32;
    let mut statement_start = true;
    for t in &tokens {
        match t.kind {
            Kind::Preproc => {
                let line = t.text.trim_start_matches('#').trim_start();
                if line.starts_with("version") {
                    return Err(fail(
                        "the generated GLSL still has a #version line".into(),
                        None,
                    ));
                }
                if let Some(ext) = line.strip_prefix("extension") {
                    let name = ext.split(':').next().unwrap_or("").trim();
                    if !matches!(
                        name,
                        "GL_OES_standard_derivatives"
                            | "GL_ARB_shader_texture_lod"
                            | "GL_EXT_gpu_shader4"
                            | "GL_EXT_frag_depth"
                            | "GL_OES_texture_3D"
                            | "GL_EXT_draw_buffers"
                    ) {
                        return Err(fail(
                            format!("the generated GLSL needs the extension {name}"),
                            Some(name),
                        ));
                    }
                }
            }
            Kind::Ident => {
                if FORBIDDEN.contains(&t.text) && is_non_square(t.text) {
                    // DXC maps HLSL rows to SPIR-V (and GLSL) columns: GLSL matAxB is HLSL floatAxB.
                    let b = t.text.as_bytes();
                    let (r, c) = (b[3] as char, b[5] as char);
                    return Err(DialectError::new(
                        Code::SD0210,
                        format!("a float{r}x{c} matrix is used in a way ShadowDusk cannot yet express in GLSL 1.10 / GLSL ES 1.00, which have no non-square matrices"),
                        "non-square matrices may be multiplied with vectors and matrices, scaled, summed, cast, transposed and read at constant rows and elements (uniform rows also at run time); for other uses declare the matrix float4x4 and use the components you need",
                        None,
                    ));
                }
                if t.text.starts_with("shadow1D") || t.text.starts_with("shadow2D") {
                    return Err(DialectError::new(
                        Code::SD0212,
                        "a comparison sample (`SampleCmp`, `tex2D` on a shadow sampler), which MonoGame's OpenGL runtime cannot bind: it has no shadow samplers",
                        "sample the depth texture with `Sample`/`tex2D` and compare in the shader (`depth.r < reference ? 1 : 0`)",
                        Some(t.text.to_string()),
                    ));
                }
                if FORBIDDEN.contains(&t.text) {
                    return Err(fail(
                        format!(
                            "the generated GLSL uses `{}`, which GLSL 1.10 / GLSL ES 1.00 lacks",
                            t.text
                        ),
                        Some(t.text),
                    ));
                }
                if t.text.starts_with("sd_") {
                    return Err(fail(
                        format!("internal: `{}` was not renamed", t.text),
                        Some(t.text),
                    ));
                }
                if depth == 0 && statement_start && matches!(t.text, "in" | "out" | "inout") {
                    return Err(fail(
                        format!("the generated GLSL declares a global `{}` variable", t.text),
                        Some(t.text),
                    ));
                }
                statement_start = false;
            }
            Kind::Number => {
                if t.text.ends_with(['u', 'U']) && !t.text.starts_with("0x")
                    || t.text.starts_with("0x") && t.text.ends_with(['u', 'U'])
                {
                    return Err(fail(
                        format!("the generated GLSL uses the unsigned literal {}", t.text),
                        None,
                    ));
                }
                statement_start = false;
            }
            Kind::Punct => {
                if BIT_OPS.contains(&t.text) {
                    bit_operator(std::slice::from_ref(t))?;
                }
                if RESERVED_OPS.contains(&t.text) {
                    return Err(fail(
                        format!("the generated GLSL uses the integer operator `{}`", t.text),
                        Some(t.text),
                    ));
                }
                match t.text {
                    "{" => depth += 1,
                    "}" => depth -= 1,
                    _ => {}
                }
                statement_start = matches!(t.text, ";" | "{" | "}");
            }
            Kind::Other => {
                return Err(fail(
                    format!("unexpected character {:?} in the generated GLSL", t.text),
                    None,
                ))
            }
            Kind::Space | Kind::Comment => {}
        }
    }
    Ok(())
}

/// `mat2x3`, `mat4x3`, … (not `mat4x4`).
fn is_non_square(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 6 && name.starts_with("mat") && b[4] == b'x' && b[3] != b[5]
}

fn fail(message: String, subject: Option<&str>) -> DialectError {
    DialectError::new(
        Code::SD0219,
        message,
        "MonoGame's OpenGL profile is GLSL 1.10 / GLSL ES 1.00: avoid \
         Load/GetDimensions/texel fetches, switch statements and other Shader Model 4+ features",
        subject.map(str::to_string),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_legacy_and_refuses_modern() {
        check("uniform vec4 a[2];\nvoid f(out vec4 x) { x = a[1]; }\nvoid main() { gl_FragColor = texture2D(s, v.xy); }\n").unwrap();
        for bad in [
            "void main() { gl_FragColor = vec4(round(1.5)); }",
            "in vec4 x;\nvoid main() {}",
            "void main() { gl_FragColor = texture(s, v.xy); }",
            "layout(location = 0) out vec4 o;",
            "void main() { uint x = 1u; }",
            "#version 110\nvoid main() {}",
            "void main() { float caf\u{e9} = 1.0; }",
        ] {
            assert_eq!(check(bad).unwrap_err().code, Code::SD0219, "{bad}");
        }
        for bad in [
            "void main() { int a = 1 << 2; }",
            "void main() { int a = b & 3; }",
            "void main() { int a = ~b; }",
        ] {
            assert_eq!(check(bad).unwrap_err().code, Code::SD0221, "{bad}");
        }
        check("void main() { bool a = b && c || d; }").unwrap();
    }
}
