//! The `shadowdusk` command: an mgfxc-compatible effect compiler.
//!
//! ```text
//! shadowdusk <in.fx> <out.mgfx> [/Profile:OpenGL] [/Defines:A;B=2] [/I:dir] [/Debug] [/WX] [--pretty]
//! shadowdusk <in.fx> --dump            # reflection and GLSL as JSON on stdout
//! shadowdusk --explain SD0210          # what an error code means, an example, a fix
//! shadowdusk setup                     # fetch DXC into the per-user cache if needed; print its path
//! shadowdusk --version                 # `shadowdusk 0.1.0`
//! ```
//!
//! Exit codes follow mgfxc: 0 on success, 1 on any failure (bad arguments, unreadable input,
//! shader errors). Errors go to stderr as `file(line,col): error CODE: message`, warnings as
//! `file(line,col): warning CODE: message` (a compile with warnings still exits 0, unless `/WX`).
//!
//! With `/Profile:Wgpu`, an effect the wgpu target cannot translate (SD0300–SD0304) still
//! compiles for OpenGL: its errors are printed, the MGFX is written beside the output asked for
//! (`out.json` → `out.mgfx`; `--dump` prints the OpenGL dump), and the exit code is 1, as the
//! output asked for was not made.

mod args;
mod dump;
mod explain;
mod setup;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shadowdusk_compiler::pipeline;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv == ["setup"] {
        return setup::run();
    }
    let cli = match args::parse(&argv) {
        Ok(args::Parsed::Help) => {
            print!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(args::Parsed::Version) => {
            println!("shadowdusk {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Ok(args::Parsed::Explain(code)) => {
            return match explain::section(explain::INDEX, &code) {
                Some(text) => {
                    println!("{text}");
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!("{}", explain::unknown_code(&code));
                    ExitCode::from(1)
                }
            };
        }
        Ok(args::Parsed::Run(cli)) => cli,
        Err(msg) => {
            eprintln!("{msg}\n\n{}", args::USAGE);
            return ExitCode::from(1);
        }
    };
    let options = pipeline::Options {
        preprocess: cli.preprocess.clone(),
        warnings_as_errors: cli.warnings_as_errors,
        mgfx_version: cli.mgfx_version,
        source_name: None,
        wgpu: cli.wgpu,
    };
    let compiled = match pipeline::compile_file(&cli.input, &options) {
        Ok(c) => c,
        Err(e) => {
            if cli.pretty {
                eprint!(
                    "{}",
                    e.render(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                );
            } else {
                eprint!("{}", e.render_mgfxc());
            }
            return ExitCode::from(1);
        }
    };
    if !compiled.warnings.is_empty() {
        eprint!(
            "{}",
            shadowdusk_compiler::diag::render_mgfxc(&compiled.files, &compiled.warnings.0)
        );
    }
    // The wgpu target's failure costs only its own output: the OpenGL one is still written.
    let wgpu_failure = compiled.wgpu_failure();
    if let Some(e) = &wgpu_failure {
        if cli.pretty {
            eprint!(
                "{}",
                e.render(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            );
        } else {
            eprint!("{}", e.render_mgfxc());
        }
    }
    if cli.dump {
        match serde_json::to_string_pretty(&dump::dump(&compiled)) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error SD0031: cannot serialize the dump: {e}");
                return ExitCode::from(1);
            }
        }
    }
    if let Some(out) = &cli.output {
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!(
                    "{}: error SD0031: cannot create the output folder: {e}",
                    dir.display()
                );
                return ExitCode::from(1);
            }
        }
        // With the wgpu output, the MGFX goes beside it (the file names it); without it
        // (the target failed), the MGFX goes there alone.
        let beside = mgfx_beside(out);
        let gl_only = wgpu_failure.is_some().then(|| beside.clone());
        let mut writes: Vec<(PathBuf, Vec<u8>)> = Vec::new();
        let name = beside
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match (&gl_only, dump::wgpu(&compiled, &name)) {
            (None, Some(v)) => match serde_json::to_string_pretty(&v) {
                Ok(s) => {
                    writes.push((out.clone(), s.into_bytes()));
                    writes.push((beside.clone(), compiled.bytes.clone()));
                }
                Err(e) => {
                    eprintln!("error SD0031: cannot serialize the wgpu output: {e}");
                    return ExitCode::from(1);
                }
            },
            (Some(mgfx), _) => writes.push((mgfx.clone(), compiled.bytes.clone())),
            (None, None) => writes.push((out.clone(), compiled.bytes.clone())),
        }
        for (path, bytes) in &writes {
            if let Err(e) = shadowdusk_compiler::plumbing::write_atomic(path, bytes) {
                eprintln!(
                    "{}: error SD0031: cannot write the output: {e}",
                    path.display()
                );
                return ExitCode::from(1);
            }
        }
        let out = &writes[0].0;
        if gl_only.is_some() {
            eprintln!(
                "Compiled '{}' to '{}' for OpenGL only: the wgpu target failed (above).",
                cli.input.display(),
                out.display()
            );
        } else if !cli.dump {
            match writes.get(1) {
                Some((mgfx, _)) => println!(
                    "Compiled '{}' to '{}' (and its MGFX, '{}').",
                    cli.input.display(),
                    out.display(),
                    mgfx.display()
                ),
                None => println!("Compiled '{}' to '{}'.", cli.input.display(), out.display()),
            }
        }
    }
    if wgpu_failure.is_some() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Where the MGFX goes beside a `/Profile:Wgpu` output `out`: `out` with the extension `mgfx`
/// (`tint.json` → `tint.mgfx`), or with `.mgfx` added when that is `out` itself.
fn mgfx_beside(out: &Path) -> PathBuf {
    let beside = out.with_extension("mgfx");
    if beside == out {
        let mut name = out.as_os_str().to_owned();
        name.push(".mgfx");
        return PathBuf::from(name);
    }
    beside
}
