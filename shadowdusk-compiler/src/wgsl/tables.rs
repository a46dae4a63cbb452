//! The two fixed location tables. Vertex inputs are placed by their D3D9 usage and index, as
//! MonoGame's vertex declarations name them, so a runtime maps a `VertexDeclaration` onto
//! `@location`s without reading the shader; varyings by one semantic table, so every vertex
//! and pixel shader of a technique (and any pair from different effects) agree. Both fit in
//! 16 locations, wgpu's default `max_vertex_attributes` and WebGPU's inter-stage variables.

/// `(usage, index range, first location)`.
const VERTEX_INPUTS: &[(&str, u32, u32)] = &[
    ("POSITION", 1, 0),
    ("NORMAL", 1, 1),
    ("COLOR", 2, 2),
    ("TEXCOORD", 8, 4),
    ("TANGENT", 1, 12),
    ("BINORMAL", 1, 13),
    ("BLENDINDICES", 1, 14),
    ("BLENDWEIGHT", 1, 15),
];

const VARYINGS: &[(&str, u32, u32)] = &[
    ("COLOR", 2, 0),
    ("TEXCOORD", 10, 2),
    ("NORMAL", 1, 12),
    ("TANGENT", 1, 13),
    ("BINORMAL", 1, 14),
    ("FOG", 1, 15),
];

fn find(table: &[(&str, u32, u32)], usage: &str, index: u32) -> Option<u32> {
    table
        .iter()
        .find(|(u, n, _)| *u == usage && index < *n)
        .map(|(_, _, first)| first + index)
}

/// The `@location` of a vertex input of D3D9 usage `usage` (upper case) and index `index`.
pub fn vertex_input_location(usage: &str, index: u32) -> Option<u32> {
    find(VERTEX_INPUTS, usage, index)
}

/// The `@location` of a varying (vertex output, pixel input) of semantic `usage` + `index`.
pub fn varying_location(usage: &str, index: u32) -> Option<u32> {
    find(VARYINGS, usage, index)
}

/// What the tables hold, for error messages.
pub fn describe(vertex: bool) -> String {
    let table = if vertex { VERTEX_INPUTS } else { VARYINGS };
    table
        .iter()
        .map(|(u, n, _)| {
            if *n == 1 {
                format!("{u}0")
            } else {
                format!("{u}0–{u}{}", n - 1)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_location_is_taken_once_and_below_16() {
        for table in [VERTEX_INPUTS, VARYINGS] {
            let mut seen = Vec::new();
            for (_, n, first) in table {
                seen.extend(*first..first + n);
            }
            seen.sort();
            assert_eq!(seen, (0..16).collect::<Vec<_>>());
        }
        assert_eq!(vertex_input_location("TEXCOORD", 0), Some(4));
        assert_eq!(vertex_input_location("TEXCOORD", 8), None);
        assert_eq!(varying_location("COLOR", 1), Some(1));
    }
}
