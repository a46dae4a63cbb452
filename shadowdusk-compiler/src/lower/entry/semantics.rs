//! The semantic tables: which D3D9 semantics DXC refuses on an entry's interface, and what each
//! becomes for the stage being compiled.

use crate::lower::Stage;

/// What `VFACE` becomes outside the entry point being compiled.
pub(super) const NEUTRAL_VFACE: &str = "SD_VFACE";

/// The new semantic for an output of `stage`, if it must change.
pub(super) fn output_semantic(stage: Stage, sem: &str) -> Option<String> {
    let up = sem.to_ascii_uppercase();
    let index = |prefix: &str| -> Option<String> {
        let rest = up.strip_prefix(prefix)?;
        rest.chars()
            .all(|c| c.is_ascii_digit())
            .then(|| rest.to_string())
    };
    match stage {
        Stage::Pixel => {
            if let Some(n) = index("COLOR") {
                return Some(format!("SV_Target{n}"));
            }
            index("DEPTH").map(|_| "SV_Depth".to_string())
        }
        Stage::Vertex => index("POSITION").map(|_| "SV_Position".to_string()),
    }
}

/// The new semantic for a pixel-shader input, if it must change (`VFACE` is handled apart).
pub(super) fn pixel_input_semantic(sem: &str) -> Option<String> {
    let up = sem.to_ascii_uppercase();
    let rest = up
        .strip_prefix("VPOS")
        .or_else(|| up.strip_prefix("POSITION"))?;
    rest.chars()
        .all(|c| c.is_ascii_digit())
        .then(|| "SV_Position".to_string())
}

/// The new semantic for a vertex-shader input: `SV_Position` read as a vertex attribute is
/// MonoGame's `Position0` (SpriteBatch's vertex declaration feeds it).
pub(super) fn vertex_input_semantic(sem: &str) -> Option<String> {
    let up = sem.to_ascii_uppercase();
    matches!(up.as_str(), "SV_POSITION" | "SV_POSITION0").then(|| "POSITION0".to_string())
}

/// The new semantic for an input of `stage`, if it must change.
pub(super) fn input_semantic(stage: Stage, sem: &str) -> Option<String> {
    match stage {
        Stage::Pixel => pixel_input_semantic(sem),
        Stage::Vertex => vertex_input_semantic(sem),
    }
}

/// `sem` as an output of `stage`: rewritten, or as written.
pub(super) fn output_or_same(stage: Stage, sem: &str) -> String {
    output_semantic(stage, sem).unwrap_or_else(|| sem.to_string())
}

/// `sem` as an input of `stage`: rewritten, or as written.
pub(super) fn input_or_same(stage: Stage, sem: &str) -> String {
    input_semantic(stage, sem).unwrap_or_else(|| sem.to_string())
}

/// Whether `sem` must be spelled differently on the input and the output side, so that one
/// declaration cannot carry both (the case the wrapper splits).
pub(super) fn sides_differ(stage: Stage, sem: &str) -> bool {
    !output_or_same(stage, sem).eq_ignore_ascii_case(&input_or_same(stage, sem))
}

pub(super) fn is_vface(sem: &str) -> bool {
    sem.eq_ignore_ascii_case("VFACE")
}

pub(super) fn is_matrix(ty: &str) -> bool {
    crate::effect::types::numeric(ty.trim()).is_some_and(|t| t.is_matrix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantic_tables() {
        assert_eq!(
            output_semantic(Stage::Pixel, "COLOR").as_deref(),
            Some("SV_Target")
        );
        assert_eq!(
            output_semantic(Stage::Pixel, "color1").as_deref(),
            Some("SV_Target1")
        );
        assert_eq!(
            output_semantic(Stage::Pixel, "DEPTH0").as_deref(),
            Some("SV_Depth")
        );
        assert_eq!(output_semantic(Stage::Pixel, "COLORFUL"), None);
        assert_eq!(output_semantic(Stage::Pixel, "SV_Target"), None);
        assert_eq!(
            output_semantic(Stage::Vertex, "POSITION0").as_deref(),
            Some("SV_Position")
        );
        assert_eq!(output_semantic(Stage::Vertex, "COLOR0"), None);
        assert_eq!(pixel_input_semantic("VPOS").as_deref(), Some("SV_Position"));
        assert_eq!(
            pixel_input_semantic("POSITION").as_deref(),
            Some("SV_Position")
        );
        assert_eq!(pixel_input_semantic("TEXCOORD0"), None);
    }
}
