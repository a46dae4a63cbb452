//! `DynEffect::new` on damaged input: truncated files, flipped bytes, another profile, another
//! version. Every case returns `Ok` or an `Err` that says what is wrong — never a panic, and
//! never a half-built effect (an `Err` leaves no GL objects behind; `Ok` means every pass linked).

use shadowdusk::gl::{DynEffect, GlError};
use shadowdusk::mgfx::{self, Profile};
use shadowdusk_compiler::pipeline::{compile_file, Options};
use shadowdusk_tests::corpus::corpus_dir;
use shadowdusk_tests::Headless;

/// A pixel-only effect and one with a custom vertex shader, a texture and matrices.
const EFFECTS: [&str; 2] = ["template_tint.fx", "vs_wvp_chain.fx"];

fn compiled(test: &str) -> Option<Vec<(String, Vec<u8>)>> {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_tests::skip(test, "DXC is not available (run `cargo xtask setup`)");
        return None;
    }
    Some(
        EFFECTS
            .iter()
            .map(|f| {
                let c = compile_file(&corpus_dir().join(f), &Options::default())
                    .unwrap_or_else(|e| panic!("{f}:\n{}", e.render(false)));
                (f.to_string(), c.bytes)
            })
            .collect(),
    )
}

/// Loads and drops (which deletes every GL object it made).
fn load(h: &Headless, bytes: &[u8]) -> Result<(), GlError> {
    DynEffect::new(h.ctx(), bytes).map(drop)
}

#[test]
fn every_truncation_is_refused() {
    let test = "every_truncation_is_refused";
    let Some(effects) = compiled(test) else {
        return;
    };
    let Some(h) = Headless::or_skip(test, 4, 4) else {
        return;
    };
    for (name, bytes) in effects {
        load(&h, &bytes).unwrap_or_else(|e| panic!("{name}: the intact file must load: {e}"));
        for len in 0..bytes.len() {
            match load(&h, &bytes[..len]) {
                Err(GlError::Read(_)) => {}
                Err(e) => panic!("{name} cut to {len} bytes: expected a read error, got {e}"),
                Ok(()) => panic!("{name} cut to {len} of {} bytes loaded", bytes.len()),
            }
        }
    }
}

#[test]
fn flipped_bytes_load_or_fail_cleanly() {
    let test = "flipped_bytes_load_or_fail_cleanly";
    let Some(effects) = compiled(test) else {
        return;
    };
    let Some(h) = Headless::or_skip(test, 4, 4) else {
        return;
    };
    let mut outcomes = [0usize; 2];
    for (name, bytes) in effects {
        // Every byte of the header and tables, a sample of the GLSL text.
        for pos in 0..bytes.len() {
            if pos > 64 && pos % 5 != 0 {
                continue;
            }
            for mask in [0x01u8, 0x80, 0xFF] {
                let mut damaged = bytes.clone();
                damaged[pos] ^= mask;
                let result = std::panic::catch_unwind(|| load(&h, &damaged));
                match result {
                    Ok(Ok(())) => outcomes[0] += 1,
                    Ok(Err(e)) => {
                        assert!(!e.to_string().is_empty(), "{name}: empty error");
                        outcomes[1] += 1;
                    }
                    Err(_) => panic!("{name}: flipping byte {pos} with {mask:#04x} panicked"),
                }
            }
        }
    }
    eprintln!(
        "{test}: {} damaged files loaded (a flip that leaves a valid effect), {} refused",
        outcomes[0], outcomes[1]
    );
    assert!(outcomes[1] > 0);
}

#[test]
fn another_profile_or_version_is_refused() {
    let test = "another_profile_or_version_is_refused";
    let Some(effects) = compiled(test) else {
        return;
    };
    let Some(h) = Headless::or_skip(test, 4, 4) else {
        return;
    };
    let (name, bytes) = &effects[0];
    // Header: "MGFX", version byte, profile byte (mgfx-format.md §3).
    assert_eq!(&bytes[..4], b"MGFX", "{name}");
    let mut dx = bytes.clone();
    dx[5] = 1;
    assert_eq!(mgfx::read(&dx).map(|e| e.profile), Ok(Profile::DirectX11));
    match load(&h, &dx) {
        Err(e @ GlError::WrongProfile(Profile::DirectX11)) => {
            assert!(e.to_string().contains("OpenGL"), "{e}")
        }
        other => panic!("a DirectX 11 effect must be refused, got {other:?}"),
    }
    for version in [0u8, 8, 9, 12, 255] {
        let mut v = bytes.clone();
        v[4] = version;
        assert!(
            matches!(load(&h, &v), Err(GlError::Read(_))),
            "version {version} must be refused"
        );
    }
    let mut sig = bytes.clone();
    sig[0] = b'X';
    assert!(matches!(load(&h, &sig), Err(GlError::Read(_))));
}
