//! `include_effect!(…, in_process)` as rustc expands it, as a process of its own, for the tests
//! that hold an expansion at a chosen point (`tests/edits_during_a_build.rs`).
//!
//! `sd_expand ROOT EFFECT CACHE`: expands `include_effect!("EFFECT", in_process)` for the crate
//! at `ROOT`, with its expansions cached in `CACHE`, and prints the tokens.

use std::path::PathBuf;
use std::process::ExitCode;

use shadowdusk_compiler::include_effect::{expand, MacroEnv};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, effect, cache] = args.as_slice() else {
        eprintln!("usage: sd_expand ROOT EFFECT CACHE");
        return ExitCode::from(2);
    };
    let mut env = MacroEnv::new(root);
    env.expansion_cache = Some(PathBuf::from(cache));
    let input = format!("{effect:?}, in_process");
    let tokens = match input.parse() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    println!("{}", expand(tokens, &env));
    ExitCode::SUCCESS
}
