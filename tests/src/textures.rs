//! Texture helpers for render tests: 2D (nearest or linear), cube (6 faces) and 3D, RGBA8,
//! one mip level, uploaded top row first (MonoGame's `Texture2D.SetData` order, which is what
//! makes texture coordinate (0,0) the top-left texel). Each is a `GlTexture`, deleted when its
//! last handle is dropped.

use glow::HasContext;
use shadowdusk::gl::{set_sampling, GlContext, GlTexture};

/// Filter left on a texture (an effect's baked sampler state may override it).
pub use shadowdusk::gl::TexelFilter as Filter;

fn check_len(what: &str, got: usize, texels: u32) -> Result<(), String> {
    let want = texels as usize * 4;
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: {got} bytes given, {want} needed (RGBA8)"))
    }
}

/// A 2D texture from `width*height` RGBA8 texels, top row first.
pub fn texture_2d(
    ctx: &GlContext,
    width: u32,
    height: u32,
    rgba: &[u8],
    f: Filter,
) -> Result<GlTexture, String> {
    GlTexture::from_rgba8(ctx, width, height, rgba, f).map_err(|e| format!("texture_2d: {e}"))
}

/// A cube map from six `size*size` RGBA8 faces in GL order (+X, -X, +Y, -Y, +Z, -Z).
pub fn texture_cube(
    ctx: &GlContext,
    size: u32,
    faces: [&[u8]; 6],
    f: Filter,
) -> Result<GlTexture, String> {
    for face in faces {
        check_len("texture_cube face", face.len(), size * size)?;
    }
    let gl = ctx.glow();
    // SAFETY: the context is current (`GlContext`); each slice holds exactly one face;
    // unpack alignment 1.
    unsafe {
        let t = GlTexture::from_raw(ctx, gl.create_texture()?, glow::TEXTURE_CUBE_MAP);
        gl.bind_texture(glow::TEXTURE_CUBE_MAP, Some(t.raw()));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        for (i, face) in faces.iter().enumerate() {
            gl.tex_image_2d(
                glow::TEXTURE_CUBE_MAP_POSITIVE_X + i as u32,
                0,
                glow::RGBA8 as i32,
                size as i32,
                size as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(face)),
            );
        }
        set_sampling(ctx, glow::TEXTURE_CUBE_MAP, f);
        gl.bind_texture(glow::TEXTURE_CUBE_MAP, None);
        Ok(t)
    }
}

/// A 3D texture from `width*height*depth` RGBA8 texels (slice by slice, rows top first).
pub fn texture_3d(
    ctx: &GlContext,
    width: u32,
    height: u32,
    depth: u32,
    rgba: &[u8],
    f: Filter,
) -> Result<GlTexture, String> {
    check_len("texture_3d", rgba.len(), width * height * depth)?;
    let gl = ctx.glow();
    // SAFETY: the context is current (`GlContext`); the slice holds exactly the texels
    // described; unpack alignment 1.
    unsafe {
        let t = GlTexture::from_raw(ctx, gl.create_texture()?, glow::TEXTURE_3D);
        gl.bind_texture(glow::TEXTURE_3D, Some(t.raw()));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.tex_image_3d(
            glow::TEXTURE_3D,
            0,
            glow::RGBA8 as i32,
            width as i32,
            height as i32,
            depth as i32,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(Some(rgba)),
        );
        set_sampling(ctx, glow::TEXTURE_3D, f);
        gl.bind_texture(glow::TEXTURE_3D, None);
        Ok(t)
    }
}
