//! The versions of the crates whose code shapes the compiler's output besides its own (the DXC
//! binding and SPIRV-Cross, whose C++ is compiled into the `-sys` crate), read from this
//! crate's own `Cargo.toml`, where each is required at exactly one version (`=x.y.z`): the
//! requirement *is* the version Cargo resolves, so neither the lock file nor a rerun of this
//! script on every change to it is needed. (A build script sees no dependency's version
//! otherwise: these crates declare no `links` this crate could read, and export no version
//! constant.)

/// The crates whose versions are part of the compiler's build id.
pub const CRATES: &[&str] = &["hassle-rs", "spirv-cross-sys", "spirv-cross2"];

/// `name requirement` of each of [`CRATES`] in `manifest` (a `Cargo.toml`'s text), in that
/// order, comma-separated; `name unpinned` for one the manifest does not require.
pub fn requirements(manifest: &str) -> String {
    CRATES
        .iter()
        .map(|name| {
            let req = requirement(manifest, name).unwrap_or_else(|| "unpinned".into());
            format!("{name} {req}")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The version requirement of dependency `name` in `manifest`, written inline
/// (`name = "=1.2.3"`, `name = { version = "=1.2.3", … }`) or as its own table
/// (`[dependencies.name]` then `version = "=1.2.3"`, as `cargo package` writes it), in
/// `[dependencies]` or a `[target.….dependencies]`.
pub fn requirement(manifest: &str, name: &str) -> Option<String> {
    let mut section = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            section = header.trim_end_matches(']').replace(['"', ' '], "");
            continue;
        }
        let deps = section == "dependencies" || section.ends_with(".dependencies");
        let own_table = section == format!("dependencies.{name}")
            || section.ends_with(&format!(".dependencies.{name}"));
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim().trim_matches('"'), value.trim());
        if own_table && key == "version" {
            return quoted(value);
        }
        if deps && key == name {
            if value.starts_with('"') {
                return quoted(value);
            }
            let inner = value.trim_start_matches('{');
            return inner.split(',').find_map(|part| {
                let (k, v) = part.split_once('=')?;
                (k.trim() == "version").then(|| quoted(v.trim()))?
            });
        }
    }
    None
}

/// The text of a TOML basic string at the start of `value`.
fn quoted(value: &str) -> Option<String> {
    let rest = value.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}
