//! What the hot-reload tests of both runtimes share: the edited effect's source and saving the
//! way editors do.

use std::path::Path;

/// `hot/glow.fx` with `colour` as its constant and `extra` declarations: what the hot-reload
/// tests save over their copy.
pub fn glow_source(colour: &str, extra: &str) -> String {
    format!(
        "// A constant colour scaled by a uniform: the hot-reload test edits this file.\n\
         float4 Tint = float4(1, 1, 1, 1);\n\
         {extra}\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0\n\
         {{\n\
         \treturn Tint * float4({colour}, 1);\n\
         }}\n\
         technique T {{ pass P {{ PixelShader = compile ps_2_0 PS(); }} }}\n"
    )
}

/// Saves the way editors do: a new file renamed over the old one.
pub fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("fx.saving");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}
