//! Stage 6: the MojoShader-dialect rewrite of SPIRV-Cross GLSL (glsl-dialect.md).
