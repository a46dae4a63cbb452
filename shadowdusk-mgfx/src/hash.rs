//! The effect key (mgfx-format.md §3.4).
//!
//! Input: the body bytes of an MGFX file (offset 10 up to, not including, the 4-byte footer).
//! Output: mgfxc's 32-bit key, a modified FNV-1a on a signed `i32` whose final avalanche uses
//! arithmetic right shifts. MonoGame caches effects by this key, so it must change whenever the
//! body does; matching mgfxc's exact algorithm is what makes our output golden-identical.

/// Length of the fixed header (signature, version, profile, key).
pub(crate) const HEADER_LEN: usize = 10;
/// Length of the trailing "MGFX" footer.
pub(crate) const FOOTER_LEN: usize = 4;

/// mgfxc's effect key over the body bytes (offset 10 up to, not including, the footer).
pub fn effect_key(body: &[u8]) -> i32 {
    const FNV_PRIME: i32 = 16_777_619;
    // 0x811C9DC5 reinterpreted as signed, as in MonoGame's `Hash.ComputeHash`.
    let mut h: i32 = 0x811C_9DC5_u32 as i32;
    for &b in body {
        h = (h ^ i32::from(b)).wrapping_mul(FNV_PRIME);
    }
    // `>>` on i32 is arithmetic in Rust, exactly like C#'s `>>` on int.
    h = h.wrapping_add(h << 13);
    h ^= h >> 7;
    h = h.wrapping_add(h << 3);
    h ^= h >> 17;
    h = h.wrapping_add(h << 5);
    h
}

/// The key mgfxc would store for a whole MGFX file: [`effect_key`] of its body.
///
/// Returns `None` when `bytes` is too short to hold a header and a footer. It neither parses nor
/// validates the body; compare it with [`super::Effect::key`] (as read) to check a file's key.
pub fn body_key(bytes: &[u8]) -> Option<i32> {
    let end = bytes.len().checked_sub(FOOTER_LEN)?;
    let body = bytes.get(HEADER_LEN..end)?;
    Some(effect_key(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_body_is_the_avalanched_offset_basis() {
        // Computed by hand from the spec's steps with 64-bit arithmetic then truncated.
        let mut h: i64 = -2128831035;
        let t = |x: i64| x as i32 as i64;
        h = t(h + t(h << 13));
        h ^= h >> 7;
        h = t(h + t(h << 3));
        h ^= h >> 17;
        h = t(h + t(h << 5));
        assert_eq!(effect_key(&[]), h as i32);
    }

    #[test]
    fn arithmetic_shift_matters() {
        // A body whose intermediate value is negative: a logical shift would give another key.
        let body = [0x80u8, 0xFF, 0x01];
        let logical = {
            let mut h: u32 = 0x811C_9DC5;
            for &b in &body {
                h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
            }
            h = h.wrapping_add(h << 13);
            h ^= h >> 7;
            h = h.wrapping_add(h << 3);
            h ^= h >> 17;
            h = h.wrapping_add(h << 5);
            h as i32
        };
        assert_ne!(effect_key(&body), logical);
    }

    #[test]
    fn body_key_skips_header_and_footer() {
        let mut file = b"MGFX\x0a\x00\x00\x00\x00\x00".to_vec();
        file.extend_from_slice(b"body");
        file.extend_from_slice(b"MGFX");
        assert_eq!(body_key(&file), Some(effect_key(b"body")));
        assert_eq!(body_key(&file[..13]), None);
        assert_eq!(
            body_key(b"MGFX\x0a\x00\x00\x00\x00\x00MGFX"),
            Some(effect_key(&[]))
        );
    }
}
