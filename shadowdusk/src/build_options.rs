//! [`BuildOptions`]: how the build compiled an effect, written into its generated module
//! (`Effect::OPTIONS`) so that shader hot reload compiles the edited source the same way.

/// The compiler options an effect was built with: `shadowdusk_build::Builder`'s settings, or
/// the defaults for `include_effect!(…, in_process)`. Generated code writes one per effect
/// ([`Effect::OPTIONS`](crate::Effect::OPTIONS)); `hot::HotEffect` recompiles with it, so a
/// reload writes the same MGFX version, fails on a warning under `/WX` as the build did, and
/// sees the same defines and include folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// The MGFX container version written (10 or 11; `Builder::mgfx_version`).
    pub mgfx_version: u8,
    /// Whether any warning failed the compile (`/WX`; `Builder::warnings_as_errors`).
    pub warnings_as_errors: bool,
    /// Whether `DEBUG` was defined, as mgfxc's `/Debug` does.
    pub debug: bool,
    /// The `(name, value)` defines, in order (`Builder::define`).
    pub defines: &'static [(&'static str, &'static str)],
    /// The include folders, absolute at build time (`Builder::include_dir`).
    pub include_dirs: &'static [&'static str],
    /// The effect's name in MGFX v11 shader records (the Builder writes the crate-relative
    /// path); `""` for the source path as given.
    pub source_name: &'static str,
}

impl BuildOptions {
    /// The compiler's defaults: MGFX v10, warnings allowed, no defines or include folders.
    pub const DEFAULT: BuildOptions = BuildOptions {
        mgfx_version: 10,
        warnings_as_errors: false,
        debug: false,
        defines: &[],
        include_dirs: &[],
        source_name: "",
    };
}

impl Default for BuildOptions {
    /// [`BuildOptions::DEFAULT`].
    fn default() -> BuildOptions {
        BuildOptions::DEFAULT
    }
}
