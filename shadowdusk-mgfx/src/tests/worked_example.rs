//! mgfx-format.md §14: TintShader rebuilt as an `Effect` and written byte by byte.

use super::fixtures::{golden_dir, tint_shader};
use crate::{body_key, effect_key, read, write};

/// The §14 table with `glsl` at offsets 52.., key bytes left zero (filled by the caller).
fn table_bytes(glsl: &[u8]) -> Vec<u8> {
    let mut b: Vec<u8> = vec![0x4D, 0x47, 0x46, 0x58, 0x0A, 0x00, 0, 0, 0, 0];
    b.extend_from_slice(&[1, 0, 0, 0, 0x10]);
    b.extend_from_slice(b"ps_uniforms_vec4");
    b.extend_from_slice(&[0x10, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    b.extend_from_slice(&[1, 0, 0, 0, 0x00]);
    b.extend_from_slice(&(glsl.len() as i32).to_le_bytes());
    b.extend_from_slice(glsl);
    b.extend_from_slice(&[0x01, 0x00, 0x00, 0x00, 0x00, 0x05]);
    b.extend_from_slice(b"ps_s0");
    b.extend_from_slice(&[0x01, 0x01, 0x00, 0x00]);
    b.extend_from_slice(&[2, 0, 0, 0, 0x01, 0x03, 0x09]);
    b.extend_from_slice(b"TintColor");
    b.extend_from_slice(&[0x00, 0, 0, 0, 0, 0x01, 0x04, 0, 0, 0, 0, 0, 0, 0, 0]);
    b.extend_from_slice(&[0; 16]);
    b.extend_from_slice(&[0x03, 0x07, 0x0D]);
    b.extend_from_slice(b"SpriteTexture");
    b.extend_from_slice(&[0x00, 0, 0, 0, 0, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
    b.extend_from_slice(&[1, 0, 0, 0, 0x13]);
    b.extend_from_slice(b"TintedSpriteDrawing");
    b.extend_from_slice(&[0, 0, 0, 0, 1, 0, 0, 0, 0x02, 0x50, 0x30, 0, 0, 0, 0]);
    b.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0x00, 0x00, 0x00]);
    b.extend_from_slice(b"MGFX");
    b
}

#[test]
fn tint_shader_matches_the_table_with_any_glsl() {
    let glsl = b"void main() { gl_FragColor = vec4(1.0); }\r\n";
    let written = write(&tint_shader(glsl)).expect("TintShader is valid");
    let mut expected = table_bytes(glsl);
    let key = effect_key(&expected[10..expected.len() - 4]);
    expected[6..10].copy_from_slice(&key.to_le_bytes());
    assert_eq!(written, expected);
    assert_eq!(body_key(&written), Some(key));
    // With a 430-byte payload the offsets line up with the table's: footer at 625.
    let long = vec![b'x'; 430];
    let written = write(&tint_shader(&long)).expect("valid");
    assert_eq!(written.len(), 629);
    assert_eq!(
        &written[482..497],
        &[1, 0, 0, 0, 0, 5, b'p', b's', b'_', b's', b'0', 1, 1, 0, 0]
    );
    assert_eq!(&written[614..622], &[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]);
}

#[test]
fn tint_shader_with_golden_glsl_is_the_golden_file() {
    let Some(dir) = golden_dir() else { return };
    let golden =
        std::fs::read(dir.join("shadowdusk-opengl/TintShader.mgfx")).expect("TintShader golden");
    assert_eq!(golden.len(), 629);
    // The GLSL is taken straight from the table's offsets, not through the reader.
    let glsl = &golden[52..482];
    let written = write(&tint_shader(glsl)).expect("valid");
    assert_eq!(&written[6..10], &[0xE5, 0x3B, 0xE0, 0xA0]);
    assert_eq!(effect_key(&golden[10..625]), 0xA0E0_3BE5_u32 as i32);
    assert_eq!(written, golden);
    let mut expected = tint_shader(glsl);
    expected.key = 0xA0E0_3BE5_u32 as i32;
    assert_eq!(read(&golden), Ok(expected));
}
