//! The pixel-store state an upload or read-back depends on, set to tightly packed rows for the
//! duration of one call and given back afterwards.
//!
//! `glTexImage2D` and `glReadPixels` do not take a length: how many bytes they read or write
//! from the pointer follows from the size and from context state (`GL_UNPACK_ALIGNMENT`,
//! `GL_UNPACK_ROW_LENGTH`, the `SKIP_*` offsets, a buffer bound to `GL_PIXEL_UNPACK_BUFFER`,
//! and the `PACK_*` counterparts). Code outside the runtime (a UI library, a video decoder)
//! may leave any of them changed, and a slice sized for packed rows would then be read or
//! written past its end. So every upload and read-back that passes a slice sets all of them,
//! and restores the caller's values when done, as the read-back restores the caller's read
//! framebuffer: the runtime does not change state it has no reason to own.

use glow::HasContext;

/// `GL_PACK_INVERT_MESA` (`GL_MESA_pack_invert`): reads rows top to bottom when set.
const PACK_INVERT_MESA: u32 = 0x8758;

/// Unpack parameters and the values that describe tightly packed rows (alignment 1), per API:
/// desktop GL has them all, OpenGL ES 3 the offsets and row length, OpenGL ES 2 only the
/// alignment (querying one it lacks would raise `GL_INVALID_ENUM`).
const UNPACK: [(u32, i32); 8] = [
    (glow::UNPACK_ALIGNMENT, 1),
    (glow::UNPACK_ROW_LENGTH, 0),
    (glow::UNPACK_SKIP_ROWS, 0),
    (glow::UNPACK_SKIP_PIXELS, 0),
    (glow::UNPACK_IMAGE_HEIGHT, 0),
    (glow::UNPACK_SKIP_IMAGES, 0),
    (glow::UNPACK_SWAP_BYTES, 0),
    (glow::UNPACK_LSB_FIRST, 0),
];

/// As [`UNPACK`], for read-back.
const PACK: [(u32, i32); 8] = [
    (glow::PACK_ALIGNMENT, 1),
    (glow::PACK_ROW_LENGTH, 0),
    (glow::PACK_SKIP_ROWS, 0),
    (glow::PACK_SKIP_PIXELS, 0),
    (glow::PACK_IMAGE_HEIGHT, 0),
    (glow::PACK_SKIP_IMAGES, 0),
    (glow::PACK_SWAP_BYTES, 0),
    (glow::PACK_LSB_FIRST, 0),
];

/// Which way pixels move.
#[derive(Clone, Copy)]
pub(super) enum Direction {
    /// Client memory to GL (`glTexImage2D`).
    Unpack,
    /// GL to client memory (`glReadPixels`).
    Pack,
}

/// Pixel-store state set for packed RGBA8 rows in client memory; the caller's is restored on
/// drop.
pub(super) struct PackedRows<'a> {
    gl: &'a glow::Context,
    direction: Direction,
    /// The caller's values of the parameters changed (the first `len` entries).
    saved: [(u32, i32); PACK.len() + 1],
    len: usize,
    /// The caller's pixel buffer binding, when the API has pixel buffers.
    buffer: Option<Option<glow::Buffer>>,
}

impl<'a> PackedRows<'a> {
    /// Saves the caller's state for `direction` and sets packed rows with no pixel buffer
    /// bound, so a pointer passed to GL is client memory of exactly `width * height * 4`
    /// bytes.
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub(super) unsafe fn set(gl: &'a glow::Context, direction: Direction) -> PackedRows<'a> {
        let version = gl.version();
        let (es, major) = (version.is_embedded, version.major);
        let count = match (es, major) {
            (false, _) => UNPACK.len(),
            (true, 3..) => 6,
            (true, _) => 1,
        };
        let (table, binding, buffer_target) = match direction {
            Direction::Unpack => (
                &UNPACK[..count],
                glow::PIXEL_UNPACK_BUFFER_BINDING,
                glow::PIXEL_UNPACK_BUFFER,
            ),
            // ES 3 has no PACK_IMAGE_HEIGHT / PACK_SKIP_IMAGES.
            Direction::Pack => (
                &PACK[..if es && count == 6 { 4 } else { count }],
                glow::PIXEL_PACK_BUFFER_BINDING,
                glow::PIXEL_PACK_BUFFER,
            ),
        };
        let mut state = PackedRows {
            gl,
            direction,
            saved: [(0, 0); PACK.len() + 1],
            len: 0,
            buffer: None,
        };
        let invert = matches!(direction, Direction::Pack)
            && gl.supported_extensions().contains("GL_MESA_pack_invert");
        let extra = invert.then_some((PACK_INVERT_MESA, 0));
        for &(parameter, packed) in table.iter().chain(&extra) {
            // SAFETY: the caller's context is current; each parameter exists in this API.
            unsafe {
                state.saved[state.len] = (parameter, gl.get_parameter_i32(parameter));
                gl.pixel_store_i32(parameter, packed);
            }
            state.len += 1;
        }
        // Pixel buffers are core from GL 2.1 and OpenGL ES 3.
        let has_buffers = if es {
            major >= 3
        } else {
            (major, version.minor) >= (2, 1)
        };
        if has_buffers {
            // SAFETY: as above.
            unsafe {
                state.buffer = Some(gl.get_parameter_buffer(binding));
                gl.bind_buffer(buffer_target, None);
            }
        }
        state
    }
}

impl Drop for PackedRows<'_> {
    fn drop(&mut self) {
        let target = match self.direction {
            Direction::Unpack => glow::PIXEL_UNPACK_BUFFER,
            Direction::Pack => glow::PIXEL_PACK_BUFFER,
        };
        // SAFETY: the same current context `set` was given (the guard borrows it and cannot
        // leave the call that made it); every value was read from this parameter.
        unsafe {
            for &(parameter, value) in &self.saved[..self.len] {
                self.gl.pixel_store_i32(parameter, value);
            }
            if let Some(buffer) = self.buffer {
                self.gl.bind_buffer(target, buffer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_directions_pack_rows_tightly_and_cover_the_same_parameters() {
        for table in [UNPACK, PACK] {
            assert_eq!(table[0].1, 1, "alignment 1: rows of RGBA8 are never padded");
            assert!(table[1..].iter().all(|&(_, v)| v == 0));
        }
        // The ES 3 prefix (6 unpack, 4 pack entries) is what ES 3 has.
        assert_eq!(UNPACK[5].0, glow::UNPACK_SKIP_IMAGES);
        assert_eq!(PACK[3].0, glow::PACK_SKIP_PIXELS);
    }
}
