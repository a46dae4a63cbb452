//! Stage 5: SPIRV-Cross. SPIR-V → GLSL plus the reflection the dialect rewrite needs.
