//! The reader on damaged input: every truncation and thousands of byte flips return `Ok` or
//! `Err`, never panic, and errors point inside the input.

use super::fixtures::{everything, golden_dir};
use crate::{read, write};

fn samples() -> Vec<Vec<u8>> {
    let mut out = vec![
        write(&everything(10)).expect("valid"),
        write(&everything(11)).expect("valid"),
    ];
    if let Some(dir) = golden_dir() {
        for name in [
            "shadowdusk-opengl/SamplerStatesFull.mgfx",
            "monogame-stock/SkinnedEffect.ogl.mgfxo",
        ] {
            out.push(std::fs::read(dir.join(name)).expect("golden present"));
        }
    }
    out
}

#[test]
fn every_truncation_is_an_error() {
    for bytes in samples() {
        assert!(read(&bytes).is_ok());
        for len in 0..bytes.len() {
            let err = read(&bytes[..len]).expect_err("a strict prefix cannot be a whole file");
            assert!(err.offset <= len, "offset {} past prefix {len}", err.offset);
        }
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = write(&everything(10)).expect("valid");
    bytes.push(0);
    let err = read(&bytes).expect_err("trailing byte");
    assert!(err.what.contains("1 trailing bytes"), "{err}");
}

#[test]
fn header_errors() {
    let bytes = write(&everything(10)).expect("valid");
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(read(&b).unwrap_err().offset, 0);
    let mut b = bytes.clone();
    b[4] = 9;
    let e = read(&b).unwrap_err();
    assert_eq!((e.offset, e.what.contains("version 9")), (4, true));
    let mut b = bytes;
    let n = b.len();
    b[n - 1] = b'Y';
    assert!(read(&b).unwrap_err().what.contains("footer"));
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_flips_never_panic() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut err) = (0, 0);
    for bytes in samples() {
        for _ in 0..1500 {
            let mut m = bytes.clone();
            for _ in 0..1 + rng.next() % 3 {
                let at = (rng.next() % m.len() as u64) as usize;
                m[at] = match rng.next() % 4 {
                    0 => 0xFF,
                    1 => 0x00,
                    2 => 0x80,
                    _ => rng.next() as u8,
                };
            }
            match read(&m) {
                Ok(e) => {
                    ok += 1;
                    // Writing whatever was read must not panic either (it may refuse).
                    let _ = write(&e);
                }
                Err(e) => {
                    err += 1;
                    assert!(e.offset <= m.len());
                }
            }
        }
    }
    // Both outcomes occur: the loop really exercised the error paths and the payload bytes.
    assert!(ok > 0 && err > 0, "ok {ok} err {err}");
}

/// TintShader written with a 430-byte payload, so the offsets of mgfx-format.md §14 apply.
fn tint_bytes() -> Vec<u8> {
    write(&super::fixtures::tint_shader(&[b'x'; 430])).expect("valid")
}

fn error_at(patch: &[(usize, u8)]) -> crate::ReadError {
    let mut b = tint_bytes();
    for &(at, v) in patch {
        b[at] = v;
    }
    read(&b).expect_err("patched file must be refused")
}

#[test]
fn errors_point_at_the_offending_field() {
    assert!(read(&tint_bytes()).is_ok());
    // (bytes to patch, expected error offset, expected text)
    type Case = (&'static [(usize, u8)], usize, &'static str);
    let cases: &[Case] = &[
        (
            &[(31, 0xFF), (32, 0xFF)],
            31,
            "negative constant buffer size -1",
        ),
        (
            &[(37, 5)],
            37,
            "constant buffer entry refers to parameter 5",
        ),
        (&[(483, 4)], 483, "unknown sampler type value 4"),
        (&[(493, 2)], 493, "sampler refers to parameter 2"),
        (&[(495, 1)], 495, "refers to constant buffer 1"),
        (&[(501, 9)], 501, "unknown parameter class value 9"),
        (&[(545, 4)], 545, "String parameters"),
        (&[(575, 0)], 575, "no techniques"),
        (
            &[(614, 0), (615, 0), (616, 0), (617, 0)],
            614,
            "other stage",
        ),
        (&[(618, 1)], 618, "neither -1 nor one of the 1 shaders"),
        (&[(517, 0x80)], 514, "negative annotation count"),
    ];
    for &(patch, offset, what) in cases {
        let e = error_at(patch);
        assert_eq!(e.offset, offset, "{e}");
        assert!(e.what.contains(what), "{e:?} lacks {what:?}");
    }
}

/// A file whose only parameter is a chain of `n` nested single-element arrays.
fn nested_file(n: usize) -> Vec<u8> {
    let mut b = b"MGFX\x0a\x00\x00\x00\x00\x00".to_vec();
    b.extend_from_slice(&[0; 8]); // no cbuffers, no shaders
    b.extend_from_slice(&1i32.to_le_bytes());
    for i in 0..n {
        // Void scalar: no data block. Its elements list holds the next level.
        b.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
        b.extend_from_slice(&i32::from(i + 1 < n).to_le_bytes());
    }
    for _ in 0..n {
        b.extend_from_slice(&0i32.to_le_bytes()); // members
    }
    b.extend_from_slice(&1i32.to_le_bytes());
    b.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0]); // "" technique, 0 annotations, 0 passes
    b.extend_from_slice(b"MGFX");
    b
}

#[test]
fn nesting_is_capped() {
    let ok = read(&nested_file(crate::MAX_DEPTH + 1)).expect("33 levels read");
    assert_eq!(ok.parameters.len(), 1);
    let e = read(&nested_file(crate::MAX_DEPTH + 2)).expect_err("34 levels");
    assert!(e.what.contains("nested deeper"), "{e}");
    // Far deeper input fails the same way instead of exhausting the stack.
    let e = read(&nested_file(100_000)).expect_err("deep");
    assert!(e.what.contains("nested deeper"), "{e}");
}
