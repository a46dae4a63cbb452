//! The `Builder` as a build script runs it, as a process of its own, for the tests that need
//! several builds at once or one killed half-way (`tests/build_faults.rs`).
//!
//! `sd_build ROOT OUT [--dir D]... [--include I]... [--cache C] [--jobs N]`: compiles the
//! effects under each `D` of crate root `ROOT` into `OUT`, prints one `origin relative-path`
//! line per effect, and on failure prints the error and exits 1.

use std::process::ExitCode;

use shadowdusk_build::Builder;
use shadowdusk_build::Origin;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(root), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: sd_build ROOT OUT [--dir D]... [--include I]... [--cache C] [--jobs N]");
        return ExitCode::from(2);
    };
    let mut b = Builder::new();
    b.manifest_dir(root)
        .out_dir(out)
        .no_cache_dir()
        .cargo_directives(false)
        .summary(false);
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        let Some(value) = rest.next() else {
            eprintln!("{flag} needs a value");
            return ExitCode::from(2);
        };
        match flag.as_str() {
            "--dir" => b.dir(value),
            "--include" => b.include_dir(value),
            "--cache" => b.cache_dir(value),
            "--jobs" => match value.parse() {
                Ok(n) => b.jobs(n),
                Err(_) => {
                    eprintln!("--jobs takes a number");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("unknown flag {other}");
                return ExitCode::from(2);
            }
        };
    }
    match b.try_compile() {
        Ok(a) => {
            for e in &a.effects {
                let origin = match e.origin {
                    Origin::Compiled => "compiled",
                    Origin::OutDir => "out-dir",
                    Origin::SharedCache => "shared-cache",
                };
                println!("{origin} {}", e.relative.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
