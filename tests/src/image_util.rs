//! Image comparison and failure artefacts.

use std::path::PathBuf;

use image::RgbaImage;

/// Largest absolute difference of any channel of any pixel; 255 when the sizes differ.
pub fn max_channel_diff(a: &RgbaImage, b: &RgbaImage) -> u8 {
    if a.dimensions() != b.dimensions() {
        return 255;
    }
    a.as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0)
}

/// (largest channel difference, pixels differing by more than `tolerance`, the first such pixel
/// with its value in `a` and in `b`).
pub fn difference(a: &RgbaImage, b: &RgbaImage, tolerance: u8) -> (u8, usize, String) {
    let mut max = 0;
    let mut count = 0;
    let mut first = String::new();
    for (x, y, p) in a.enumerate_pixels() {
        let q = b.get_pixel(x, y);
        let d =
            p.0.iter()
                .zip(q.0)
                .map(|(u, v)| u.abs_diff(v))
                .max()
                .unwrap_or(0);
        max = max.max(d);
        if d > tolerance {
            if count == 0 {
                first = format!("first at ({x},{y}): {:?} against {:?}", p.0, q.0);
            }
            count += 1;
        }
    }
    (max, count, first)
}

/// Directory for failure artefacts: `<target dir>/test-output`.
pub fn output_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("test-output")
}

/// Saves `img` as `<target dir>/test-output/<name>` (a `.png` name) and returns the path, or the
/// reason it could not be written.
pub fn save_png(img: &RgbaImage, name: &str) -> Result<PathBuf, String> {
    let dir = output_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(name);
    img.save(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// An image of one colour.
pub fn solid(width: u32, height: u32, rgba: [u8; 4]) -> RgbaImage {
    RgbaImage::from_pixel(width, height, image::Rgba(rgba))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_finds_the_largest_channel_difference() {
        let a = solid(2, 2, [10, 20, 30, 40]);
        let mut b = a.clone();
        b.put_pixel(1, 1, image::Rgba([10, 25, 30, 33]));
        assert_eq!(max_channel_diff(&a, &b), 7);
        assert_eq!(max_channel_diff(&a, &solid(1, 2, [0; 4])), 255);
    }
}
