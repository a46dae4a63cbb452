//! Writing primitives (mgfx-format.md §1): little-endian integers and `str` with its .NET
//! 7-bit length prefix (§1.1). Reading counterparts live in `cursor.rs`.

/// Appends `value` as a .NET 7-bit encoded unsigned integer (1 to 5 bytes).
pub(crate) fn push_len7(out: &mut Vec<u8>, value: u32) {
    let mut v = value;
    while v >= 0x80 {
        out.push((v as u8 & 0x7F) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends a `str`: UTF-8 byte count (7-bit prefix) then the bytes, no terminator.
///
/// Callers validate that the length fits an `i32` first (`validate.rs`); this only writes.
pub(crate) fn push_str(out: &mut Vec<u8>, s: &str) {
    push_len7(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

pub(crate) fn push_bool(out: &mut Vec<u8>, b: bool) {
    out.push(u8::from(b));
}

pub(crate) fn push_i16(out: &mut Vec<u8>, v: i16) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn push_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn push_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn push_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn push_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: u32) -> Vec<u8> {
        let mut out = Vec::new();
        push_len7(&mut out, v);
        out
    }

    #[test]
    fn length_prefixes_match_spec_table() {
        // mgfx-format.md §1.1.
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(5), [0x05]);
        assert_eq!(enc(127), [0x7F]);
        assert_eq!(enc(128), [0x80, 0x01]);
        assert_eq!(enc(200), [0xC8, 0x01]);
        assert_eq!(enc(16384), [0x80, 0x80, 0x01]);
        assert_eq!(enc(u32::MAX), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    }

    #[test]
    fn strings_are_byte_counted() {
        let mut out = Vec::new();
        push_str(&mut out, "é");
        assert_eq!(out, [0x02, 0xC3, 0xA9]);
    }
}
