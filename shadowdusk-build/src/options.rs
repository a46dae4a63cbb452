//! The compiler options, built in one place: the build's, from the Builder's settings; each
//! effect's, which it is compiled with and its generated module records for hot reload
//! (`Effect::OPTIONS`); the cache key hashes the build's (`cache::key_base`).

use std::path::{Path, PathBuf};

use shadowdusk_compiler::{pipeline, preprocess};

use crate::Target;

/// The options every effect of a build shares (no v11 source name: that is each effect's).
pub(crate) fn for_build(
    target: Target,
    defines: &[(String, String)],
    include_dirs: &[PathBuf],
    warnings_as_errors: bool,
    mgfx_version: pipeline::MgfxVersion,
    wgpu: bool,
) -> pipeline::Options {
    let platform = match target {
        Target::OpenGL => preprocess::Platform::OpenGL,
    };
    pipeline::Options {
        preprocess: preprocess::Options {
            platform,
            defines: defines.to_vec(),
            include_dirs: include_dirs.to_vec(),
            debug: false,
        },
        warnings_as_errors,
        mgfx_version,
        source_name: None,
        wgpu,
    }
}

/// The options of the effect at `rel`: the build's, and v11 shader records naming the effect as
/// the crate sees it, the same on every machine.
pub(crate) fn for_effect(build: &pipeline::Options, rel: &Path) -> pipeline::Options {
    pipeline::Options {
        source_name: Some(rel.to_string_lossy().replace('\\', "/")),
        ..build.clone()
    }
}
