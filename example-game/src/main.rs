//! `example-game [--wgpu] [--headless] [--frames N] [--screenshot OUT.png|DIR] [--scene NAME]
//! [--hot | --hot-dir DIR]`: see [`example_game::options::USAGE`].

use std::process::ExitCode;

use example_game::options::{self, USAGE};
use example_game::{run, wgpu_game, wgpu_window, window};

fn main() -> ExitCode {
    let options = match options::parse(std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("example-game: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match (options.wgpu, options.headless) {
        (false, true) => run::headless(&options),
        (false, false) => window::run(&options),
        (true, true) => wgpu_game::headless(&options),
        (true, false) => wgpu_window::run(&options),
    };
    match result {
        Ok(written) => {
            for path in written {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}
