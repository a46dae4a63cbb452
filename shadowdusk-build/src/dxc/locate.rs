//! Finding `libdxcompiler.so`: `SHADOWDUSK_DXC`, then the workspace-local copy made by
//! `cargo xtask setup` (`.tools/dxc/libdxcompiler.so` in an ancestor directory), then the system
//! loader path.
