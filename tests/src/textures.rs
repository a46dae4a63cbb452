//! Texture helpers for render tests: 2D (nearest or linear), cube (6 faces) and 3D, RGBA8,
//! one mip level, uploaded top row first (MonoGame's `Texture2D.SetData` order, which is what
//! makes texture coordinate (0,0) the top-left texel).

use glow::HasContext;
use shadowdusk::gl::{set_sampling, GlTexture};

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
    gl: &glow::Context,
    width: u32,
    height: u32,
    rgba: &[u8],
    f: Filter,
) -> Result<GlTexture, String> {
    GlTexture::from_rgba8(gl, width, height, rgba, f).map_err(|e| format!("texture_2d: {e}"))
}

/// A cube map from six `size*size` RGBA8 faces in GL order (+X, -X, +Y, -Y, +Z, -Z).
pub fn texture_cube(
    gl: &glow::Context,
    size: u32,
    faces: [&[u8]; 6],
    f: Filter,
) -> Result<GlTexture, String> {
    for face in faces {
        check_len("texture_cube face", face.len(), size * size)?;
    }
    // SAFETY: each slice holds exactly one face; unpack alignment 1.
    unsafe {
        let t = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_CUBE_MAP, Some(t));
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
        set_sampling(gl, glow::TEXTURE_CUBE_MAP, f);
        gl.bind_texture(glow::TEXTURE_CUBE_MAP, None);
        Ok(GlTexture {
            texture: t,
            target: glow::TEXTURE_CUBE_MAP,
        })
    }
}

/// A 3D texture from `width*height*depth` RGBA8 texels (slice by slice, rows top first).
pub fn texture_3d(
    gl: &glow::Context,
    width: u32,
    height: u32,
    depth: u32,
    rgba: &[u8],
    f: Filter,
) -> Result<GlTexture, String> {
    check_len("texture_3d", rgba.len(), width * height * depth)?;
    // SAFETY: the slice holds exactly the texels described; unpack alignment 1.
    unsafe {
        let t = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_3D, Some(t));
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
        set_sampling(gl, glow::TEXTURE_3D, f);
        gl.bind_texture(glow::TEXTURE_3D, None);
        Ok(GlTexture {
            texture: t,
            target: glow::TEXTURE_3D,
        })
    }
}

/// Deletes a texture made by these helpers.
pub fn delete_texture(gl: &glow::Context, t: GlTexture) {
    t.delete(gl);
}
