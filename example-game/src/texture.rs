//! The game's only picture, generated in code (no downloaded assets).
//!
//! The picture is made of flat regions so that the screenshot test can read a known colour at a
//! known place: a red marker band along the top edge (which tells "up" on the cube's faces), and
//! below it four quadrants in two shades of a checker, inside a dark frame.

/// Width and height of [`sprite_texel`]'s picture.
pub const SIZE: u32 = 64;

/// Texture rows `0..MARKER_ROWS` are the marker band.
pub const MARKER_ROWS: u32 = 8;

/// The marker band's colour.
pub const MARKER: [u8; 4] = [230, 40, 40, 255];

/// The frame around the picture.
pub const FRAME: [u8; 4] = [24, 24, 32, 255];

/// Quadrant base colours below the band: top-left, top-right, bottom-left, bottom-right.
pub const QUADRANTS: [[u8; 4]; 4] = [
    [224, 144, 64, 255],
    [64, 160, 224, 255],
    [240, 240, 232, 255],
    [96, 192, 96, 255],
];

/// Checker cells (in texels) inside each quadrant; odd cells are darkened to 3/4.
pub const CELL: u32 = 8;

/// The colour of texel (`x`, `y`), row 0 at the top.
pub fn sprite_texel(x: u32, y: u32) -> [u8; 4] {
    let edge = SIZE - 1;
    if x == 0 || x == edge || y == edge {
        return FRAME;
    }
    if y < MARKER_ROWS {
        return MARKER;
    }
    let right = x >= SIZE / 2;
    let lower = y >= MARKER_ROWS + (SIZE - MARKER_ROWS) / 2;
    let base = QUADRANTS[usize::from(lower) * 2 + usize::from(right)];
    if ((x / CELL) + (y - MARKER_ROWS) / CELL) % 2 == 1 {
        let dark = |c: u8| (u32::from(c) * 3 / 4) as u8;
        [dark(base[0]), dark(base[1]), dark(base[2]), base[3]]
    } else {
        base
    }
}

/// The whole picture, RGBA8, top row first.
pub fn sprite_pixels() -> Vec<u8> {
    (0..SIZE)
        .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
        .flat_map(|(x, y)| sprite_texel(x, y))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_band_is_on_top_and_the_quadrants_below() {
        assert_eq!(sprite_texel(10, 2), MARKER);
        assert_eq!(sprite_texel(2, 10), QUADRANTS[0]);
        assert_eq!(sprite_texel(33, 10), QUADRANTS[1]);
        assert_eq!(sprite_texel(2, 40), QUADRANTS[2]);
        assert_eq!(sprite_texel(33, 40), QUADRANTS[3]);
        assert_eq!(sprite_texel(0, 30), FRAME);
        assert_eq!(sprite_pixels().len(), (SIZE * SIZE * 4) as usize);
    }
}
