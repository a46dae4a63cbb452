//! 2D textures from RGBA8 pixels, as MonoGame's `Texture2D` + `SetData` make them.

use glow::HasContext;

use super::error::{check_gl, creating};
use super::{GlError, GlTexture};

/// Filtering left on a texture; an effect's sampler state, when it has one, replaces it while
/// a pass is applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TexelFilter {
    /// `GL_NEAREST`: texels stay sharp (pixel art, exact test images).
    #[default]
    Nearest,
    /// `GL_LINEAR`.
    Linear,
}

impl TexelFilter {
    fn gl(self) -> i32 {
        match self {
            TexelFilter::Nearest => glow::NEAREST as i32,
            TexelFilter::Linear => glow::LINEAR as i32,
        }
    }
}

/// Bytes `width`×`height` RGBA8 texels take, or `None` past `usize`.
fn rgba8_len(width: u32, height: u32) -> Option<usize> {
    (width as usize)
        .checked_mul(height as usize)?
        .checked_mul(4)
}

impl GlTexture {
    /// A 2D texture of `width`×`height` RGBA8 texels given top row first, as MonoGame's
    /// `Texture2D.SetData` takes them, so texture coordinate (0, 0) is the first texel.
    ///
    /// One mip level (no mipmaps, so a mipmapped minification filter cannot sample black),
    /// clamped to the edge. The texture is left unbound. Free it with [`GlTexture::delete`].
    pub fn from_rgba8(
        gl: &glow::Context,
        width: u32,
        height: u32,
        rgba: &[u8],
        filter: TexelFilter,
    ) -> Result<GlTexture, GlError> {
        let needed = rgba8_len(width, height).unwrap_or(usize::MAX);
        let (Ok(w), Ok(h)) = (i32::try_from(width), i32::try_from(height)) else {
            return Err(pixel_data(width, height, needed, rgba.len()));
        };
        if rgba.len() != needed {
            return Err(pixel_data(width, height, needed, rgba.len()));
        }
        // SAFETY: plain GL calls on the current context; the slice holds exactly the texels
        // described, read with unpack alignment 1.
        unsafe {
            let texture = gl.create_texture().map_err(creating("a texture"))?;
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                w,
                h,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(rgba)),
            );
            set_sampling(gl, glow::TEXTURE_2D, filter);
            gl.bind_texture(glow::TEXTURE_2D, None);
            let made = GlTexture {
                texture,
                target: glow::TEXTURE_2D,
            };
            if let Err(e) = check_gl(gl, &format!("uploading a {width}x{height} texture")) {
                made.delete(gl);
                return Err(e);
            }
            Ok(made)
        }
    }

    /// Deletes the texture object.
    pub fn delete(self, gl: &glow::Context) {
        // SAFETY: the caller's texture on its current context.
        unsafe { gl.delete_texture(self.texture) }
    }
}

fn pixel_data(width: u32, height: u32, needed: usize, got: usize) -> GlError {
    GlError::PixelData {
        width,
        height,
        needed,
        got,
    }
}

/// Sets `filter`, clamp-to-edge wrapping and a single mip level on the texture bound to
/// `target` (`TEXTURE_2D`, `TEXTURE_CUBE_MAP`, `TEXTURE_3D`), as [`GlTexture::from_rgba8`] does;
/// for textures made some other way.
///
/// The single level keeps a texture without mipmaps complete when an effect's sampler state
/// asks for a mipmapped minification filter (it would sample black otherwise). OpenGL ES 2 has
/// neither `TEXTURE_MAX_LEVEL` nor `TEXTURE_WRAP_R`, so there only filter and S/T wrapping are
/// set.
///
/// # Safety
/// `gl` must be current, with a texture bound to `target`.
pub unsafe fn set_sampling(gl: &glow::Context, target: u32, filter: TexelFilter) {
    let version = gl.version();
    let es2 = version.is_embedded && version.major < 3;
    let mut wraps = vec![glow::TEXTURE_WRAP_S, glow::TEXTURE_WRAP_T];
    if !es2 && target != glow::TEXTURE_2D {
        wraps.push(glow::TEXTURE_WRAP_R);
    }
    // SAFETY: forwarded from the caller.
    unsafe {
        gl.tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, filter.gl());
        gl.tex_parameter_i32(target, glow::TEXTURE_MAG_FILTER, filter.gl());
        for wrap in wraps {
            gl.tex_parameter_i32(target, wrap, glow::CLAMP_TO_EDGE as i32);
        }
        if !es2 {
            gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, 0);
        }
    }
}
