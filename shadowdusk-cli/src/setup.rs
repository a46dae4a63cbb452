//! `shadowdusk setup`: make sure DXC loads, fetching the pinned DXC 1.8 into the per-user cache
//! when it is nowhere else, and print where it is. Builds do the same on first need; this is
//! for doing it on purpose (a CI step that fills the cache, a machine about to go offline).

use std::process::ExitCode;

pub fn run() -> ExitCode {
    match shadowdusk_compiler::dxc::setup() {
        Ok((Some(path), sha256)) => {
            println!("{}", path.display());
            if let Some(sha) = sha256 {
                eprintln!("DXC loads from {} (sha256 {sha})", path.display());
            }
            ExitCode::SUCCESS
        }
        Ok((None, _)) => {
            println!("{}", shadowdusk_compiler::dxc::pins::library_file_name());
            eprintln!("DXC loads from the system library path");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error SD0103: {e}");
            ExitCode::from(1)
        }
    }
}
