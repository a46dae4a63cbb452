//! [`GlTexture`], an owned texture object, and 2D textures from RGBA8 pixels as MonoGame's
//! `Texture2D` + `SetData` make them.

use std::fmt;
use std::rc::Rc;

use glow::HasContext;

use super::error::creating;
use super::formats::{self, Api};
use super::pixel_store::{Direction, PackedRows};
use super::{GlContext, GlError};

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

/// A texture object, deleted when the last handle to it is dropped.
///
/// Cloning shares the object (a reference count): an effect given a texture keeps a handle,
/// so the texture stays alive while the effect may still sample it.
#[derive(Clone)]
pub struct GlTexture {
    object: Rc<TextureObject>,
}

struct TextureObject {
    ctx: GlContext,
    texture: glow::Texture,
    target: u32,
}

impl Drop for TextureObject {
    fn drop(&mut self) {
        // SAFETY: the texture was made on this context, which `GlContext`'s contract keeps
        // current while anything made from it is dropped; no handle uses it afterwards.
        unsafe { self.ctx.glow().delete_texture(self.texture) }
    }
}

impl GlTexture {
    /// A 2D texture of `width`×`height` RGBA8 texels given top row first, as MonoGame's
    /// `Texture2D.SetData` takes them, so texture coordinate (0, 0) is the first texel.
    ///
    /// One mip level (no mipmaps, so a mipmapped minification filter cannot sample black),
    /// clamped to the edge. The texture is left unbound. The pixel-store state is set for the
    /// upload (packed rows, no pixel buffer) and the caller's restored afterwards, so state
    /// other code left behind cannot make GL read past `rgba`. Its internal format is the one
    /// the context's version takes (`GL_RGBA8`; unsized `GL_RGBA` on OpenGL ES 2.0).
    pub fn from_rgba8(
        ctx: &GlContext,
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
        let gl = ctx.glow();
        check_size(gl, width, height, glow::MAX_TEXTURE_SIZE)?;
        // SAFETY: the context is current (`GlContext`).
        let texture = unsafe { gl.create_texture() }.map_err(creating("a texture"))?;
        // Owned from here on: an error below deletes it.
        let made = GlTexture::from_raw(ctx, texture, glow::TEXTURE_2D);
        let texels = formats::rgba8_texture(Api::current(gl));
        // SAFETY: the context is current (`GlContext`); with the pixel-store state set for
        // packed rows and no unpack buffer, GL reads exactly the `width * height * 4` bytes
        // of the slice.
        unsafe {
            let _packed = PackedRows::set(gl, Direction::Unpack);
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                texels.internal,
                w,
                h,
                0,
                texels.format,
                texels.ty,
                glow::PixelUnpackData::Slice(Some(rgba)),
            );
        }
        set_sampling(ctx, glow::TEXTURE_2D, filter);
        // SAFETY: as above.
        unsafe { gl.bind_texture(glow::TEXTURE_2D, None) };
        Ok(made)
    }

    /// Takes ownership of a texture object made some other way (a cube map, a volume, one with
    /// mipmaps): it is deleted when the last handle is dropped. `target` is the target it was
    /// created with (`glow::TEXTURE_2D`, `TEXTURE_CUBE_MAP`, `TEXTURE_3D`, `TEXTURE_1D`); a pass
    /// refuses it for a sampler of another type ([`GlError::TextureTarget`]).
    ///
    /// `texture` must be a texture of `ctx` that nothing else deletes.
    pub fn from_raw(ctx: &GlContext, texture: glow::Texture, target: u32) -> GlTexture {
        GlTexture {
            object: Rc::new(TextureObject {
                ctx: ctx.clone(),
                texture,
                target,
            }),
        }
    }

    /// The GL texture object (valid while a handle lives).
    pub fn raw(&self) -> glow::Texture {
        self.object.texture
    }

    /// Its target (`glow::TEXTURE_2D`, …).
    pub fn target(&self) -> u32 {
        self.object.target
    }

    /// The context it belongs to.
    pub fn context(&self) -> &GlContext {
        &self.object.ctx
    }
}

impl PartialEq for GlTexture {
    /// Handles are equal when they name the same texture object.
    fn eq(&self, other: &GlTexture) -> bool {
        Rc::ptr_eq(&self.object, &other.object)
    }
}

impl Eq for GlTexture {}

impl fmt::Debug for GlTexture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GlTexture")
            .field("texture", &self.object.texture)
            .field("target", &format_args!("0x{:04X}", self.object.target))
            .finish()
    }
}

/// [`GlError::TooLarge`] unless `width`×`height` is within the driver's `limit` (a
/// `GL_MAX_*_SIZE` query).
///
/// The size is checked up front instead of asking `glGetError` afterwards: that would return,
/// and clear, an error the caller's own calls left pending, and blame it on the upload. Nothing
/// else in an upload of checked size fails on a working context; running out of memory is left
/// pending for the caller's `glGetError`, as for any GL call.
pub(super) fn check_size(
    gl: &glow::Context,
    width: u32,
    height: u32,
    limit: u32,
) -> Result<(), GlError> {
    // SAFETY: a query on the caller's current context.
    let max = u32::try_from(unsafe { gl.get_parameter_i32(limit) }).unwrap_or(0);
    if width > max || height > max {
        return Err(GlError::TooLarge { width, height, max });
    }
    Ok(())
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
/// `target` (`TEXTURE_2D`, `TEXTURE_CUBE_MAP`, `TEXTURE_3D`) of the active texture unit, as
/// [`GlTexture::from_rgba8`] does; for textures made some other way.
///
/// The single level keeps a texture without mipmaps complete when an effect's sampler state
/// asks for a mipmapped minification filter (it would sample black otherwise). OpenGL ES 2 has
/// neither `TEXTURE_MAX_LEVEL` nor `TEXTURE_WRAP_R`, so there only filter and S/T wrapping are
/// set.
pub fn set_sampling(ctx: &GlContext, target: u32, filter: TexelFilter) {
    let gl = ctx.glow();
    let es2 = Api::current(gl) == Api::Es2;
    let r = (!es2 && target != glow::TEXTURE_2D).then_some(glow::TEXTURE_WRAP_R);
    // SAFETY: the context is current (`GlContext`); parameter calls on whatever texture is
    // bound (the default texture object when none is).
    unsafe {
        gl.tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, filter.gl());
        gl.tex_parameter_i32(target, glow::TEXTURE_MAG_FILTER, filter.gl());
        for wrap in [Some(glow::TEXTURE_WRAP_S), Some(glow::TEXTURE_WRAP_T), r]
            .into_iter()
            .flatten()
        {
            gl.tex_parameter_i32(target, wrap, glow::CLAMP_TO_EDGE as i32);
        }
        if !es2 {
            gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, 0);
        }
    }
}
