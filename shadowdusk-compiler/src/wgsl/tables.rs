//! The canonical order locations are given in. Each shader numbers its own vertex inputs and
//! varyings 0, 1, 2, … in this order, from what it declares, so no semantic D3D9 allows is
//! left without a location; a runtime matches vertex inputs to a MonoGame vertex declaration by
//! usage and index, and a pass's pixel inputs to its vertex outputs by semantic.
//!
//! Vertex inputs follow D3D9's usage order (`D3DDECLUSAGE`, MojoShader's `MOJOSHADER_usage`:
//! POSITION, BLENDWEIGHT, BLENDINDICES, NORMAL, PSIZE, TEXCOORD, TANGENT, BINORMAL, TESSFACTOR,
//! POSITIONT, COLOR, FOG, DEPTH, SAMPLE), then the index. Varyings put COLOR first and TEXCOORD
//! second, then the other usages in that order: SpriteBatch's vertex shader writes COLOR0 and
//! TEXCOORD0, so the commonest pixel shaders read their inputs where it writes them.

use crate::dialect::interface::mojoshader_usage;

/// The sort key of a vertex input of D3D9 usage `usage` (upper case) and index `index`; `None`
/// when `usage` is no D3D9 usage.
pub fn vertex_input_order(usage: &str, index: u32) -> Option<(u32, u32)> {
    mojoshader_usage(usage).map(|u| (u, index))
}

/// The sort key of a varying (vertex output, pixel input) of semantic `usage` + `index`.
pub fn varying_order(usage: &str, index: u32) -> Option<(u32, u32)> {
    let rank = match usage {
        "COLOR" => 0,
        "TEXCOORD" => 1,
        other => 2 + mojoshader_usage(other)?,
    };
    Some((rank, index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usages_sort_in_d3d9_order_and_varyings_lead_with_color_and_texcoord() {
        let mut inputs = [
            ("COLOR", 0),
            ("TEXCOORD", 8),
            ("POSITION", 1),
            ("POSITION", 0),
        ];
        inputs.sort_by_key(|(u, i)| vertex_input_order(u, *i).unwrap());
        assert_eq!(
            inputs,
            [
                ("POSITION", 0),
                ("POSITION", 1),
                ("TEXCOORD", 8),
                ("COLOR", 0)
            ]
        );
        let mut varyings = [("NORMAL", 0), ("TEXCOORD", 11), ("COLOR", 1), ("FOG", 0)];
        varyings.sort_by_key(|(u, i)| varying_order(u, *i).unwrap());
        assert_eq!(
            varyings,
            [("COLOR", 1), ("TEXCOORD", 11), ("NORMAL", 0), ("FOG", 0)]
        );
        assert_eq!(vertex_input_order("SV_POSITION", 0), None);
        assert_eq!(varying_order("MYDATA", 0), None);
    }
}
