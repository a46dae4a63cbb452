//! Uploads, render targets and read-backs on OpenGL ES 2.0 ask only for what ES 2.0 allows.
//!
//! Mesa accepts more than ES 2.0 even in a context it makes ES 2.0 (`GL_RGBA8` with
//! `GL_RGBA`, for one), so its errors prove nothing. Instead the runtime runs on a real ES 2.0
//! context (`MESA_GLES_VERSION_OVERRIDE=2.0`, set by the workspace's `.cargo/config.toml`)
//! whose GL functions go through recording shims, and every recorded call is checked against
//! the ES 2.0 specification's tables; the pixels are checked too.

#![cfg(feature = "headless")]

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use glow::HasContext;
use khronos_egl as egl;
use shadowdusk::gl::headless::{Api, HeadlessGl};
use shadowdusk::gl::{GlContext, GlRenderTarget, GlTexture, RenderTarget, TexelFilter};

/// One GL call the runtime made, with the arguments that matter here.
#[derive(Clone, Debug, PartialEq)]
enum Call {
    TexImage2D {
        target: u32,
        internal: i32,
        format: u32,
        ty: u32,
    },
    ReadPixels {
        format: u32,
        ty: u32,
    },
    RenderbufferStorage {
        internal: u32,
    },
    FramebufferRenderbuffer {
        target: u32,
        attachment: u32,
    },
    FramebufferTexture2D {
        target: u32,
        attachment: u32,
    },
    BindFramebuffer {
        target: u32,
    },
    CheckFramebufferStatus {
        target: u32,
    },
    GetIntegerv {
        pname: u32,
    },
    PixelStorei {
        pname: u32,
    },
    TexParameteri {
        pname: u32,
    },
}

static CALLS: Mutex<Vec<Call>> = Mutex::new(Vec::new());
static RECORDING: AtomicBool = AtomicBool::new(false);

fn record(call: Call) {
    if RECORDING.load(Ordering::SeqCst) {
        CALLS.lock().unwrap().push(call);
    }
}

/// A shim per function: records the call, then calls the driver's entry point (kept in
/// `$real` by the loader).
macro_rules! shim {
    ($name:ident, $real:ident, ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?, $call:expr) => {
        static $real: AtomicUsize = AtomicUsize::new(0);
        extern "system" fn $name($($arg: $ty),*) $(-> $ret)? {
            record($call);
            let real = $real.load(Ordering::SeqCst);
            assert_ne!(real, 0, concat!(stringify!($name), " was not loaded"));
            // SAFETY: `real` is the driver's entry point of this very function (same
            // signature), from eglGetProcAddress; called on the thread the test runs on.
            unsafe {
                let f: extern "system" fn($($ty),*) $(-> $ret)? = std::mem::transmute(real);
                f($($arg),*)
            }
        }
    };
}

shim!(tex_image_2d, REAL_TEX_IMAGE_2D,
    (target: u32, level: i32, internal: i32, w: i32, h: i32, border: i32, format: u32, ty: u32, data: *const c_void),
    { let _ = (level, w, h, border, data); Call::TexImage2D { target, internal, format, ty } });
shim!(read_pixels, REAL_READ_PIXELS,
    (x: i32, y: i32, w: i32, h: i32, format: u32, ty: u32, data: *mut c_void),
    { let _ = (x, y, w, h, data); Call::ReadPixels { format, ty } });
shim!(renderbuffer_storage, REAL_RENDERBUFFER_STORAGE,
    (target: u32, internal: u32, w: i32, h: i32),
    { let _ = (target, w, h); Call::RenderbufferStorage { internal } });
shim!(framebuffer_renderbuffer, REAL_FRAMEBUFFER_RENDERBUFFER,
    (target: u32, attachment: u32, rb_target: u32, rb: u32),
    { let _ = (rb_target, rb); Call::FramebufferRenderbuffer { target, attachment } });
shim!(framebuffer_texture_2d, REAL_FRAMEBUFFER_TEXTURE_2D,
    (target: u32, attachment: u32, tex_target: u32, texture: u32, level: i32),
    { let _ = (tex_target, texture, level); Call::FramebufferTexture2D { target, attachment } });
shim!(bind_framebuffer, REAL_BIND_FRAMEBUFFER,
    (target: u32, framebuffer: u32),
    { let _ = framebuffer; Call::BindFramebuffer { target } });
shim!(check_framebuffer_status, REAL_CHECK_FRAMEBUFFER_STATUS,
    (target: u32) -> u32,
    Call::CheckFramebufferStatus { target });
shim!(get_integerv, REAL_GET_INTEGERV,
    (pname: u32, data: *mut i32),
    { let _ = data; Call::GetIntegerv { pname } });
shim!(pixel_storei, REAL_PIXEL_STOREI,
    (pname: u32, param: i32),
    { let _ = param; Call::PixelStorei { pname } });
shim!(tex_parameteri, REAL_TEX_PARAMETERI,
    (target: u32, pname: u32, param: i32),
    { let _ = (target, param); Call::TexParameteri { pname } });

/// The shim for a GL function name, and where its real entry point goes.
fn shim_for(name: &str) -> Option<(*const c_void, &'static AtomicUsize)> {
    let (shim, real): (*const c_void, &'static AtomicUsize) = match name {
        "glTexImage2D" => (tex_image_2d as *const c_void, &REAL_TEX_IMAGE_2D),
        "glReadPixels" => (read_pixels as *const c_void, &REAL_READ_PIXELS),
        "glRenderbufferStorage" => (
            renderbuffer_storage as *const c_void,
            &REAL_RENDERBUFFER_STORAGE,
        ),
        "glFramebufferRenderbuffer" => (
            framebuffer_renderbuffer as *const c_void,
            &REAL_FRAMEBUFFER_RENDERBUFFER,
        ),
        "glFramebufferTexture2D" => (
            framebuffer_texture_2d as *const c_void,
            &REAL_FRAMEBUFFER_TEXTURE_2D,
        ),
        "glBindFramebuffer" => (bind_framebuffer as *const c_void, &REAL_BIND_FRAMEBUFFER),
        "glCheckFramebufferStatus" => (
            check_framebuffer_status as *const c_void,
            &REAL_CHECK_FRAMEBUFFER_STATUS,
        ),
        "glGetIntegerv" => (get_integerv as *const c_void, &REAL_GET_INTEGERV),
        "glPixelStorei" => (pixel_storei as *const c_void, &REAL_PIXEL_STOREI),
        "glTexParameteri" => (tex_parameteri as *const c_void, &REAL_TEX_PARAMETERI),
        _ => return None,
    };
    Some((shim, real))
}

/// A glow context on the current EGL context whose functions above go through the shims.
fn recording_glow() -> glow::Context {
    // SAFETY: loads the system EGL library (already loaded by `HeadlessGl`).
    let lib =
        unsafe { egl::DynamicInstance::<egl::EGL1_5>::load_required_from_filename("libEGL.so.1") }
            .expect("libEGL");
    // SAFETY: the headless context is current on this thread; every entry point comes from
    // eglGetProcAddress, wrapped by a shim of the same signature for the recorded ones.
    unsafe {
        glow::Context::from_loader_function(|name| {
            let real = lib
                .get_proc_address(name)
                .map_or(std::ptr::null(), |p| p as *const c_void);
            match shim_for(name) {
                Some((shim, slot)) if !real.is_null() => {
                    slot.store(real as usize, Ordering::SeqCst);
                    shim
                }
                _ => real,
            }
        })
    }
}

/// ES 2.0 table 3.4: the `format`/`type` pairs of texture images (`internalformat` must equal
/// `format`).
const TEXTURE_PAIRS: &[(u32, u32)] = &[
    (glow::RGBA, glow::UNSIGNED_BYTE),
    (glow::RGB, glow::UNSIGNED_BYTE),
    (glow::RGBA, glow::UNSIGNED_SHORT_4_4_4_4),
    (glow::RGBA, glow::UNSIGNED_SHORT_5_5_5_1),
    (glow::RGB, glow::UNSIGNED_SHORT_5_6_5),
    (glow::LUMINANCE_ALPHA, glow::UNSIGNED_BYTE),
    (glow::LUMINANCE, glow::UNSIGNED_BYTE),
    (glow::ALPHA, glow::UNSIGNED_BYTE),
];

/// Whether ES 2.0 (with the context's `extensions`) allows `call`; `Err` says why not.
fn es2_allows(call: &Call, extensions: &dyn Fn(&str) -> bool) -> Result<(), String> {
    const DEPTH24_STENCIL8_OES: u32 = 0x88F0;
    const DEPTH_COMPONENT24_OES: u32 = 0x81A6;
    const RGBA8_OES: u32 = 0x8058;
    let ok = match *call {
        Call::TexImage2D {
            target,
            internal,
            format,
            ty,
        } => {
            let faces = glow::TEXTURE_CUBE_MAP_POSITIVE_X..=glow::TEXTURE_CUBE_MAP_NEGATIVE_Z;
            (target == glow::TEXTURE_2D || faces.contains(&target))
                && internal as u32 == format
                && TEXTURE_PAIRS.contains(&(format, ty))
        }
        // §4.3.1: RGBA/UNSIGNED_BYTE always; the other pair is the implementation's choice.
        Call::ReadPixels { format, ty } => (format, ty) == (glow::RGBA, glow::UNSIGNED_BYTE),
        // Table 4.5, and the formats the context's extensions add.
        Call::RenderbufferStorage { internal } => {
            [
                glow::RGBA4,
                glow::RGB5_A1,
                glow::RGB565,
                glow::DEPTH_COMPONENT16,
                glow::STENCIL_INDEX8,
            ]
            .contains(&internal)
                || internal == DEPTH24_STENCIL8_OES && extensions("GL_OES_packed_depth_stencil")
                || internal == DEPTH_COMPONENT24_OES && extensions("GL_OES_depth24")
                || internal == RGBA8_OES && extensions("GL_OES_rgb8_rgba8")
        }
        Call::FramebufferRenderbuffer { target, attachment }
        | Call::FramebufferTexture2D { target, attachment } => {
            target == glow::FRAMEBUFFER
                && [
                    glow::COLOR_ATTACHMENT0,
                    glow::DEPTH_ATTACHMENT,
                    glow::STENCIL_ATTACHMENT,
                ]
                .contains(&attachment)
        }
        Call::BindFramebuffer { target } | Call::CheckFramebufferStatus { target } => {
            target == glow::FRAMEBUFFER
        }
        // Table 6.x entries the runtime's uploads and read-backs need.
        Call::GetIntegerv { pname } => [
            glow::FRAMEBUFFER_BINDING,
            glow::RENDERBUFFER_BINDING,
            glow::TEXTURE_BINDING_2D,
            glow::UNPACK_ALIGNMENT,
            glow::PACK_ALIGNMENT,
            glow::MAX_TEXTURE_SIZE,
            glow::MAX_RENDERBUFFER_SIZE,
        ]
        .contains(&pname),
        Call::PixelStorei { pname } => {
            [glow::UNPACK_ALIGNMENT, glow::PACK_ALIGNMENT].contains(&pname)
        }
        Call::TexParameteri { pname } => [
            glow::TEXTURE_MIN_FILTER,
            glow::TEXTURE_MAG_FILTER,
            glow::TEXTURE_WRAP_S,
            glow::TEXTURE_WRAP_T,
        ]
        .contains(&pname),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{call:x?} is not OpenGL ES 2.0"))
    }
}

/// Reads `texture` (RGBA, `size`×`size`) back through a framebuffer, with the test's own
/// (unrecorded) GL calls: ES 2.0 cannot read a texture directly.
fn texture_pixels(gl: &glow::Context, texture: &GlTexture, size: i32) -> Vec<u8> {
    let mut pixels = vec![0; (size * size * 4) as usize];
    // SAFETY: plain GL calls on the current context; the framebuffer is deleted again.
    unsafe {
        let fbo = gl.create_framebuffer().unwrap();
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(texture.raw()),
            0,
        );
        assert_eq!(
            gl.check_framebuffer_status(glow::FRAMEBUFFER),
            glow::FRAMEBUFFER_COMPLETE
        );
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        gl.read_pixels(
            0,
            0,
            size,
            size,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.delete_framebuffer(fbo);
    }
    pixels
}

#[test]
fn uploads_targets_and_read_backs_ask_only_for_what_es2_allows() {
    let headless = match HeadlessGl::with_api(4, 4, Api::Gles2) {
        Ok(h) => h,
        Err(e) => {
            shadowdusk_testkit::skip(
                "uploads_targets_and_read_backs_ask_only_for_what_es2_allows",
                &format!("headless OpenGL ES 2.0 unavailable: {e}"),
            );
            return;
        }
    };
    let raw = headless.gl();
    // SAFETY: a query on the current context.
    let version = unsafe { raw.get_parameter_string(glow::VERSION) };
    assert!(
        version.starts_with("OpenGL ES 2.0"),
        "asked for OpenGL ES 2.0, got `{version}`: run the tests through cargo, whose \
         .cargo/config.toml sets MESA_GLES_VERSION_OVERRIDE=2.0"
    );
    // SAFETY: the headless context is current on this thread until the end of the test, and
    // `ctx` and everything made from it is dropped before `headless`.
    let ctx = unsafe { GlContext::from_glow(recording_glow()) };
    let extensions = raw.supported_extensions().clone();
    let has = |name: &str| extensions.contains(name);

    RECORDING.store(true, Ordering::SeqCst);
    // Upload: 2×2 texels, top row first.
    let texels: Vec<u8> = (0..16).map(|i| (i * 16 + 3) as u8).collect();
    let texture = GlTexture::from_rgba8(&ctx, 2, 2, &texels, TexelFilter::Nearest).unwrap();
    // A render target, cleared (by the test) and read back by the runtime.
    let target = GlRenderTarget::new(&ctx, 3, 2).unwrap();
    target.bind();
    // SAFETY: plain GL calls on the current context.
    unsafe {
        raw.clear_color(1.0, 0.0, 1.0, 1.0);
        raw.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
    }
    GlRenderTarget::unbind(&ctx, 4, 4);
    let target_pixels = target.read_rgba8().unwrap();
    // SAFETY: as above.
    unsafe {
        raw.clear_color(0.0, 1.0, 0.0, 1.0);
        raw.clear(glow::COLOR_BUFFER_BIT);
    }
    let screen = RenderTarget::backbuffer(4, 4).read_rgba8(&ctx).unwrap();
    RECORDING.store(false, Ordering::SeqCst);

    let calls = std::mem::take(&mut *CALLS.lock().unwrap());
    let refused: Vec<String> = calls
        .iter()
        .filter_map(|c| es2_allows(c, &has).err())
        .collect();
    assert!(refused.is_empty(), "{}", refused.join("\n"));
    // The shims saw what they check: the runtime's texture images, depth and stencil, reads.
    let seen = |pred: &dyn Fn(&Call) -> bool| calls.iter().filter(|c| pred(c)).count();
    assert_eq!(
        seen(&|c| matches!(c, Call::TexImage2D { .. })),
        2,
        "{calls:x?}"
    );
    assert!(seen(&|c| matches!(c, Call::RenderbufferStorage { .. })) >= 1);
    assert_eq!(seen(&|c| matches!(c, Call::ReadPixels { .. })), 2);
    for attachment in [glow::DEPTH_ATTACHMENT, glow::STENCIL_ATTACHMENT] {
        assert!(
            calls.iter().any(|c| matches!(c,
                Call::FramebufferRenderbuffer { attachment: a, .. } if *a == attachment)),
            "no renderbuffer at 0x{attachment:04X}: {calls:x?}"
        );
    }

    // And the pixels are what was asked for.
    // GL's row 0 is the first row uploaded, and the first glReadPixels returns.
    assert_eq!(texture_pixels(raw, &texture, 2), texels);
    assert_eq!(target_pixels, [255, 0, 255, 255].repeat(6));
    assert_eq!(screen, [0, 255, 0, 255].repeat(16));
    // SAFETY: a query on the current context.
    assert_eq!(unsafe { raw.get_error() }, glow::NO_ERROR);
    drop((texture, target, ctx));
}
