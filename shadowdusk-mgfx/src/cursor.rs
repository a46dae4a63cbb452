//! Bounds-checked reading primitives for the MGFX reader (mgfx-format.md §1).
//!
//! Every read checks the remaining length first and reports the offset where the field starts,
//! so no input can make the reader index out of bounds or allocate more than the input holds.

use super::ReadError;

pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, pos: 0 }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn error_at(&self, offset: usize, what: impl Into<String>) -> ReadError {
        ReadError {
            offset,
            what: what.into(),
        }
    }

    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ReadError> {
        if n > self.remaining() {
            return Err(self.error_at(
                self.pos,
                format!(
                    "truncated {what}: need {n} bytes, {} left",
                    self.remaining()
                ),
            ));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ReadError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, ReadError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// .NET `ReadBoolean`: any non-zero byte is true.
    pub(crate) fn bool(&mut self, what: &str) -> Result<bool, ReadError> {
        Ok(self.u8(what)? != 0)
    }

    pub(crate) fn i16(&mut self, what: &str) -> Result<i16, ReadError> {
        Ok(i16::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn u16(&mut self, what: &str) -> Result<u16, ReadError> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn i32(&mut self, what: &str) -> Result<i32, ReadError> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, ReadError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn f32(&mut self, what: &str) -> Result<f32, ReadError> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }

    /// A byte that must be a known enum value; the error names the value and its offset.
    pub(crate) fn enum_u8<T: TryFrom<u8, Error = u8>>(
        &mut self,
        what: &str,
    ) -> Result<T, ReadError> {
        let at = self.pos;
        let b = self.u8(what)?;
        T::try_from(b).map_err(|b| self.error_at(at, format!("unknown {what} value {b}")))
    }

    /// .NET `Read7BitEncodedInt` (mgfx-format.md §1.1), refusing prefixes over 5 bytes and values
    /// that do not fit an `i32` (the runtime would throw on them).
    pub(crate) fn len7(&mut self, what: &str) -> Result<u32, ReadError> {
        let start = self.pos;
        let mut value: u64 = 0;
        for i in 0..5 {
            let b = self.u8(what)?;
            value |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return u32::try_from(value)
                    .ok()
                    .filter(|&v| v <= i32::MAX as u32)
                    .ok_or_else(|| {
                        self.error_at(start, format!("{what} {value} does not fit an i32"))
                    });
            }
        }
        Err(self.error_at(
            start,
            format!("{what} has a 7-bit length prefix longer than 5 bytes"),
        ))
    }

    /// A length-prefixed UTF-8 string.
    pub(crate) fn string(&mut self, what: &str) -> Result<String, ReadError> {
        let len = self.len7(&format!("{what} length"))? as usize;
        let at = self.pos;
        let raw = self.take(len, what)?;
        String::from_utf8(raw.to_vec())
            .map_err(|_| self.error_at(at, format!("{what} is not valid UTF-8")))
    }

    /// An `i32` element count, refused when negative or when `count` records of at least
    /// `min_record` bytes each cannot fit in what is left of the input.
    pub(crate) fn count(&mut self, what: &str, min_record: usize) -> Result<usize, ReadError> {
        let at = self.pos;
        let n = self.i32(what)?;
        let n =
            usize::try_from(n).map_err(|_| self.error_at(at, format!("negative {what} {n}")))?;
        if n.saturating_mul(min_record) > self.remaining() {
            return Err(self.error_at(
                at,
                format!(
                    "{what} {n} cannot fit in the {} bytes left",
                    self.remaining()
                ),
            ));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len7(bytes: &[u8]) -> Result<u32, ReadError> {
        Cursor::new(bytes).len7("test")
    }

    #[test]
    fn decodes_spec_table() {
        assert_eq!(len7(&[0x00]), Ok(0));
        assert_eq!(len7(&[0x05]), Ok(5));
        assert_eq!(len7(&[0x7F]), Ok(127));
        assert_eq!(len7(&[0x80, 0x01]), Ok(128));
        assert_eq!(len7(&[0xC8, 0x01]), Ok(200));
        assert_eq!(len7(&[0x80, 0x80, 0x01]), Ok(16384));
    }

    #[test]
    fn refuses_long_prefix_and_overflow() {
        let e = len7(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).unwrap_err();
        assert!(e.what.contains("longer than 5"), "{e}");
        let e = len7(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]).unwrap_err();
        assert!(e.what.contains("does not fit"), "{e}");
        assert_eq!(len7(&[0xFF, 0xFF, 0xFF, 0xFF, 0x07]), Ok(i32::MAX as u32));
        let e = len7(&[0x80]).unwrap_err();
        assert_eq!(e.offset, 1);
    }

    #[test]
    fn string_longer_than_input_is_refused_before_allocating() {
        let e = Cursor::new(&[0xFF, 0xFF, 0xFF, 0xFF, 0x07, b'a'])
            .string("name")
            .unwrap_err();
        assert_eq!(e.offset, 5);
        assert!(e.what.contains("truncated name"), "{e}");
    }

    #[test]
    fn count_is_bounded_by_remaining_bytes() {
        let mut bytes = 3i32.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 6]);
        assert_eq!(Cursor::new(&bytes).count("things", 2), Ok(3));
        assert!(Cursor::new(&bytes).count("things", 3).is_err());
        let neg = (-1i32).to_le_bytes();
        assert!(Cursor::new(&neg)
            .count("things", 1)
            .unwrap_err()
            .what
            .contains("negative"));
    }
}
