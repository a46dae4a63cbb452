//! A device without a window, for tests, screenshots and CI (Mesa's lavapipe on Vulkan, or
//! llvmpipe through wgpu's GL back end).

use super::WgpuError;

/// The optional features a device for MonoGame's effects asks for where the adapter has them
/// (`adapter.features() & WANTED_FEATURES`): border colours (`TextureAddressMode.Border`),
/// `FillMode.WireFrame`, filtering of 32-bit float textures (as a D3D11 device filters
/// `SurfaceFormat.Single` and `Vector4`), 16-bit unorm textures (`Rg32`, `Rgba64`), and the
/// block-compressed formats (`Dxt1`–`Dxt5`, ETC2, ASTC) sampled as they are stored. Without
/// one, the runtime does what the device allows: see [`WgpuTexture::new`](super::WgpuTexture::new).
pub const WANTED_FEATURES: wgpu::Features = wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER
    .union(wgpu::Features::POLYGON_MODE_LINE)
    .union(wgpu::Features::FLOAT32_FILTERABLE)
    .union(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM)
    .union(wgpu::Features::TEXTURE_COMPRESSION_BC)
    .union(wgpu::Features::TEXTURE_COMPRESSION_BC_SLICED_3D)
    .union(wgpu::Features::TEXTURE_COMPRESSION_ETC2)
    .union(wgpu::Features::TEXTURE_COMPRESSION_ASTC)
    .union(wgpu::Features::TEXTURE_COMPRESSION_ASTC_SLICED_3D);

/// A wgpu device and queue with no surface.
#[derive(Debug)]
pub struct HeadlessWgpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
}

impl HeadlessWgpu {
    /// Picks an adapter (`WGPU_BACKEND` chooses the back end; otherwise Vulkan, then GL) and
    /// opens a device with the [`WANTED_FEATURES`] the adapter has.
    pub fn new() -> Result<HeadlessWgpu, WgpuError> {
        HeadlessWgpu::with_features(WANTED_FEATURES)
    }

    /// As [`new`](HeadlessWgpu::new), with only those of `features` the adapter has: how a
    /// plainer device (a phone's, a browser's) draws can be tried on this one.
    pub fn with_features(features: wgpu::Features) -> Result<HeadlessWgpu, WgpuError> {
        // One instance per back end, tried in turn: with both in one instance wgpu ranks the
        // adapters itself, and could pick llvmpipe through GL over lavapipe, while GL is only
        // the way out when there is no Vulkan driver at all (and under the workspace's
        // MESA_GLES_VERSION_OVERRIDE=2.0 it finds no GLES 3 context).
        let order = match wgpu::Backends::from_env() {
            Some(chosen) => vec![chosen],
            None => vec![wgpu::Backends::VULKAN, wgpu::Backends::GL],
        };
        let mut tried = Vec::new();
        for backends in order {
            match open(backends, features) {
                Ok(headless) => return Ok(headless),
                Err(why) => tried.push(format!("{}: {why}", backend_names(backends))),
            }
        }
        Err(WgpuError::NoDevice(format!(
            "tried {} (WGPU_BACKEND chooses; on Debian/Ubuntu Mesa's software Vulkan driver is \
             `mesa-vulkan-drivers libvulkan1`)",
            tried.join("; ")
        )))
    }

    /// The device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Its queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Which adapter it runs on.
    pub fn info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }
}

/// An adapter and device on `backends`, or why there is none.
fn open(backends: wgpu::Backends, features: wgpu::Features) -> Result<HeadlessWgpu, String> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        flags: wgpu::InstanceFlags::from_build_config().with_env(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    // Not `force_fallback_adapter`: a real GPU is welcome, and without one wgpu still returns
    // a CPU adapter such as lavapipe.
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: None,
        apply_limit_buckets: false,
    }))
    .map_err(|e| e.to_string())?;
    let info = adapter.get_info();
    let limits = device_limits(&adapter.limits())
        .ok_or_else(|| format!("{} falls short of wgpu's downlevel limits", info.name))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("shadowdusk headless"),
        required_features: adapter.features() & features,
        required_limits: limits,
        ..Default::default()
    }))
    .map_err(|e| format!("{} ({:?}) refused a device: {e}", info.name, info.backend))?;
    Ok(HeadlessWgpu {
        device,
        queue,
        info,
    })
}

/// wgpu's default limits, or the first downlevel tier `adapter` meets (GL and older GPUs).
fn device_limits(adapter: &wgpu::Limits) -> Option<wgpu::Limits> {
    [
        wgpu::Limits::defaults(),
        wgpu::Limits::downlevel_defaults(),
        wgpu::Limits::downlevel_webgl2_defaults(),
    ]
    .into_iter()
    .find(|tier| tier.check_limits(adapter))
}

/// "Vulkan", "GL", or the set as wgpu prints it.
fn backend_names(backends: wgpu::Backends) -> String {
    if backends == wgpu::Backends::VULKAN {
        "Vulkan".into()
    } else if backends == wgpu::Backends::GL {
        "GL".into()
    } else {
        format!("{backends:?} (WGPU_BACKEND)")
    }
}

/// The headless device for a test, or `None` after a loud `!!! SKIPPED … no wgpu adapter: …`
/// line (a failure under `SHADOWDUSK_REQUIRE_ALL=1`).
#[cfg(test)]
pub(crate) fn for_test(test: &str) -> Option<HeadlessWgpu> {
    match HeadlessWgpu::new() {
        Ok(headless) => Some(headless),
        Err(e) => {
            let why = match e {
                WgpuError::NoDevice(tried) => tried,
                other => other.to_string(),
            };
            shadowdusk_testkit::skip(test, &format!("no wgpu adapter: {why}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_headless_device_comes_up_with_only_features_the_adapter_has() {
        let Some(wgpu) = for_test("headless device") else {
            return;
        };
        let features = wgpu.device().features();
        assert!(
            WANTED_FEATURES.contains(features),
            "{features:?} asks for more than {WANTED_FEATURES:?}"
        );
        assert!(wgpu.device().limits().max_texture_dimension_2d >= 2048);
        assert!(!wgpu.info().name.is_empty());
        if std::env::var_os("WGPU_BACKEND").is_none() {
            // Vulkan first: lavapipe where Mesa's Vulkan driver is installed.
            let vulkan = open(wgpu::Backends::VULKAN, WANTED_FEATURES).is_ok();
            assert_eq!(wgpu.info().backend == wgpu::Backend::Vulkan, vulkan);
        }
    }

    #[test]
    fn only_vulkan_and_gl_are_named_plainly() {
        assert_eq!(backend_names(wgpu::Backends::VULKAN), "Vulkan");
        assert_eq!(backend_names(wgpu::Backends::GL), "GL");
        assert!(backend_names(wgpu::Backends::METAL).ends_with("(WGPU_BACKEND)"));
    }

    #[test]
    fn limits_fall_back_to_a_downlevel_tier_the_adapter_meets() {
        assert_eq!(
            device_limits(&wgpu::Limits::defaults()),
            Some(wgpu::Limits::defaults())
        );
        // No storage buffers or compute, as on GLES 3.
        assert_eq!(
            device_limits(&wgpu::Limits::downlevel_webgl2_defaults()),
            Some(wgpu::Limits::downlevel_webgl2_defaults())
        );
        let tiny = wgpu::Limits {
            max_texture_dimension_2d: 16,
            ..wgpu::Limits::downlevel_webgl2_defaults()
        };
        assert_eq!(device_limits(&tiny), None);
    }
}
