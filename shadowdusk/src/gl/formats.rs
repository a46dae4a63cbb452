//! What the runtime asks of OpenGL for texels, render targets and read-back, chosen by the
//! context's version: OpenGL ES 2.0 (and WebGL 1, which is ES 2.0) takes less than desktop GL
//! and ES 3, and a driver that holds to it refuses the rest. Mesa does not (it takes `GL_RGBA8`
//! in a context it made ES 2.0), so the choice is a function of the version, tested for each.
//!
//! - Texture images: ES 2.0 requires the internal format to equal the format (unsized
//!   `GL_RGBA` with `GL_RGBA`/`GL_UNSIGNED_BYTE`, its table 3.4); desktop GL and ES 3 take the
//!   sized `GL_RGBA8` (ES 3.0 table 3.2), what MonoGame's `SurfaceFormat.Color` is.
//! - Depth and stencil of a render target: ES 2.0 has neither `GL_DEPTH24_STENCIL8` nor
//!   `GL_DEPTH_STENCIL_ATTACHMENT`. With `GL_OES_packed_depth_stencil` one packed buffer is
//!   attached as depth and as stencil; without it, as MonoGame does, a `GL_DEPTH_COMPONENT16`
//!   buffer (`GL_DEPTH_COMPONENT24_OES` with `GL_OES_depth24`) and a `GL_STENCIL_INDEX8` one.
//! - Read-back: `GL_RGBA`/`GL_UNSIGNED_BYTE`, the pair every version accepts for a normalized
//!   colour buffer. ES 2.0 has one framebuffer binding (`GL_FRAMEBUFFER`), no read binding.

use glow::HasContext;

/// The kind of OpenGL a context implements, as far as these formats go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Api {
    /// Desktop OpenGL, any version.
    Desktop,
    /// OpenGL ES 2.0 (and WebGL 1).
    Es2,
    /// OpenGL ES 3.0 and later (and WebGL 2).
    Es3,
}

impl Api {
    /// The kind of `version` (`glow::Context::version`).
    pub(crate) fn of(version: &glow::Version) -> Api {
        match (version.is_embedded, version.major) {
            (false, _) => Api::Desktop,
            (true, ..=2) => Api::Es2,
            (true, _) => Api::Es3,
        }
    }

    /// The kind of `gl`'s context.
    pub(crate) fn current(gl: &glow::Context) -> Api {
        Api::of(gl.version())
    }
}

/// The `internalformat`, `format` and `type` of a texture image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TexelFormat {
    /// `internalformat` (a `GLint` in `glTexImage2D`).
    pub internal: i32,
    /// `format`.
    pub format: u32,
    /// `type`.
    pub ty: u32,
}

/// How a texture of RGBA8 texels (uploaded or rendered to) is specified.
pub(crate) fn rgba8_texture(api: Api) -> TexelFormat {
    let internal = match api {
        Api::Es2 => glow::RGBA,
        Api::Desktop | Api::Es3 => glow::RGBA8,
    };
    TexelFormat {
        internal: internal as i32,
        format: glow::RGBA,
        ty: glow::UNSIGNED_BYTE,
    }
}

/// `format` and `type` of `glReadPixels` from an RGBA8 colour buffer.
pub(crate) const READ_BACK: (u32, u32) = (glow::RGBA, glow::UNSIGNED_BYTE);

/// The framebuffer target a read-back binds, and the query of what is bound there.
pub(crate) fn read_binding(api: Api) -> (u32, u32) {
    match api {
        Api::Es2 => (glow::FRAMEBUFFER, glow::FRAMEBUFFER_BINDING),
        Api::Desktop | Api::Es3 => (glow::READ_FRAMEBUFFER, glow::READ_FRAMEBUFFER_BINDING),
    }
}

/// The renderbuffers behind a render target's depth and stencil.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DepthStencil {
    /// One buffer of `internal` format, attached at each of `attachments`.
    Packed {
        /// Renderbuffer storage format.
        internal: u32,
        /// Where it is attached.
        attachments: &'static [u32],
    },
    /// A depth buffer and a stencil buffer.
    Separate {
        /// Depth renderbuffer format (attached at `GL_DEPTH_ATTACHMENT`).
        depth: u32,
        /// Stencil renderbuffer format (attached at `GL_STENCIL_ATTACHMENT`).
        stencil: u32,
    },
}

/// `GL_DEPTH24_STENCIL8` (`GL_DEPTH24_STENCIL8_OES` has the same value).
const DEPTH24_STENCIL8: u32 = glow::DEPTH24_STENCIL8;
/// `GL_DEPTH_COMPONENT24_OES` (`GL_OES_depth24`), the value of desktop `GL_DEPTH_COMPONENT24`.
const DEPTH_COMPONENT24_OES: u32 = glow::DEPTH_COMPONENT24;

/// MonoGame's `DepthFormat.Depth24Stencil8` for `api`; `has` says whether the context lists an
/// extension.
pub(crate) fn depth_stencil(api: Api, has: &dyn Fn(&str) -> bool) -> DepthStencil {
    match api {
        Api::Desktop | Api::Es3 => DepthStencil::Packed {
            internal: DEPTH24_STENCIL8,
            attachments: &[glow::DEPTH_STENCIL_ATTACHMENT],
        },
        Api::Es2 if has("GL_OES_packed_depth_stencil") => DepthStencil::Packed {
            internal: DEPTH24_STENCIL8,
            attachments: &[glow::DEPTH_ATTACHMENT, glow::STENCIL_ATTACHMENT],
        },
        Api::Es2 => DepthStencil::Separate {
            depth: if has("GL_OES_depth24") {
                DEPTH_COMPONENT24_OES
            } else {
                glow::DEPTH_COMPONENT16
            },
            stencil: glow::STENCIL_INDEX8,
        },
    }
}

/// [`depth_stencil`] for `gl`'s context.
pub(crate) fn depth_stencil_of(gl: &glow::Context) -> DepthStencil {
    let extensions = gl.supported_extensions();
    depth_stencil(Api::current(gl), &|name| extensions.contains(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(is_embedded: bool, major: u32, minor: u32) -> glow::Version {
        glow::Version {
            major,
            minor,
            is_embedded,
            revision: None,
            vendor_info: String::new(),
        }
    }

    /// ES 2.0 table 3.4: the `format`/`type` pairs `glTexImage2D` takes; `internalformat` must
    /// equal `format`.
    const ES2_TEXTURE_PAIRS: &[(u32, u32)] = &[
        (glow::RGBA, glow::UNSIGNED_BYTE),
        (glow::RGB, glow::UNSIGNED_BYTE),
        (glow::RGBA, glow::UNSIGNED_SHORT_4_4_4_4),
        (glow::RGBA, glow::UNSIGNED_SHORT_5_5_5_1),
        (glow::RGB, glow::UNSIGNED_SHORT_5_6_5),
        (glow::LUMINANCE_ALPHA, glow::UNSIGNED_BYTE),
        (glow::LUMINANCE, glow::UNSIGNED_BYTE),
        (glow::ALPHA, glow::UNSIGNED_BYTE),
    ];

    #[test]
    fn each_context_version_gets_formats_it_accepts() {
        let es2 = [version(true, 2, 0)];
        let es3 = [version(true, 3, 0), version(true, 3, 2)];
        let desktop = [
            version(false, 2, 1),
            version(false, 3, 3),
            version(false, 4, 6),
        ];
        for v in &es2 {
            assert_eq!(Api::of(v), Api::Es2);
            let t = rgba8_texture(Api::of(v));
            assert_eq!(
                t.internal as u32, t.format,
                "ES 2.0: internalformat == format"
            );
            assert!(ES2_TEXTURE_PAIRS.contains(&(t.format, t.ty)));
            assert!(ES2_TEXTURE_PAIRS.contains(&READ_BACK));
            assert_eq!(
                read_binding(Api::of(v)),
                (glow::FRAMEBUFFER, glow::FRAMEBUFFER_BINDING)
            );
        }
        for v in es3.iter().chain(&desktop) {
            let api = Api::of(v);
            assert_ne!(api, Api::Es2, "{v:?}");
            // ES 3.0 table 3.2 (and desktop GL): RGBA8 from RGBA/UNSIGNED_BYTE.
            assert_eq!(
                rgba8_texture(api),
                TexelFormat {
                    internal: glow::RGBA8 as i32,
                    format: glow::RGBA,
                    ty: glow::UNSIGNED_BYTE
                }
            );
            assert_eq!(read_binding(api).0, glow::READ_FRAMEBUFFER);
        }
        assert!(es3.iter().all(|v| Api::of(v) == Api::Es3));
        assert!(desktop.iter().all(|v| Api::of(v) == Api::Desktop));
    }

    #[test]
    fn es2_depth_and_stencil_follow_its_extensions() {
        let none = |_: &str| false;
        let packed = |e: &str| e == "GL_OES_packed_depth_stencil";
        let depth24 = |e: &str| e == "GL_OES_depth24";
        for api in [Api::Desktop, Api::Es3] {
            assert_eq!(
                depth_stencil(api, &none),
                DepthStencil::Packed {
                    internal: glow::DEPTH24_STENCIL8,
                    attachments: &[glow::DEPTH_STENCIL_ATTACHMENT],
                }
            );
        }
        // ES 2.0 has no DEPTH_STENCIL_ATTACHMENT: the packed buffer goes to both points.
        assert_eq!(
            depth_stencil(Api::Es2, &packed),
            DepthStencil::Packed {
                internal: 0x88F0, // GL_DEPTH24_STENCIL8_OES
                attachments: &[glow::DEPTH_ATTACHMENT, glow::STENCIL_ATTACHMENT],
            }
        );
        // Core ES 2.0 renderbuffer formats (its table 4.5), or the extension's.
        assert_eq!(
            depth_stencil(Api::Es2, &none),
            DepthStencil::Separate {
                depth: glow::DEPTH_COMPONENT16,
                stencil: glow::STENCIL_INDEX8,
            }
        );
        assert_eq!(
            depth_stencil(Api::Es2, &depth24),
            DepthStencil::Separate {
                depth: 0x81A6, // GL_DEPTH_COMPONENT24_OES
                stencil: glow::STENCIL_INDEX8,
            }
        );
    }
}
