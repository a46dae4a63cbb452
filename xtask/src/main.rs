//! Project automation: `cargo xtask setup | test | demo | bench | fuzz`.

mod bench;
mod bench_build;
mod bench_hostile;
mod bench_hot;
mod bench_targets;
mod demo;
mod fuzz;
mod naga_cli;
mod setup;
mod system_packages;
mod test;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::run(),
        Some("test") => test::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("demo") => demo::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask <setup|test|demo|bench|fuzz>");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}
