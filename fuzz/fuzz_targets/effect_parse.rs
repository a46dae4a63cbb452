//! Arbitrary bytes as an `.fx` file's text, preprocessed, then through the effect parser.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shadowdusk_compiler::effect;
use shadowdusk_compiler::preprocess::{preprocess, Options};
use shadowdusk_compiler::source::SourceFiles;

fuzz_target!(|data: &[u8]| {
    let text = shadowdusk_fuzz::fx_text(data);
    let mut files = SourceFiles::new();
    let expanded = match preprocess(
        &shadowdusk_fuzz::fx_path(),
        Some(&text),
        &Options::default(),
        &mut files,
    ) {
        Ok(e) => e,
        Err(_) => return,
    };
    match effect::parse(&expanded) {
        Ok(parsed) => shadowdusk_fuzz::render(&files, &parsed.warnings),
        Err(diags) => shadowdusk_fuzz::render(&files, &diags),
    }
});
