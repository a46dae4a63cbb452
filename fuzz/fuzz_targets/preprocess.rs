//! Arbitrary bytes as an `.fx` file's text, through the preprocessor only.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shadowdusk_compiler::preprocess::{preprocess, Options};
use shadowdusk_compiler::source::SourceFiles;

fuzz_target!(|data: &[u8]| {
    let text = shadowdusk_fuzz::fx_text(data);
    let mut files = SourceFiles::new();
    match preprocess(
        &shadowdusk_fuzz::fx_path(),
        Some(&text),
        &Options::default(),
        &mut files,
    ) {
        Ok(expanded) => shadowdusk_fuzz::render(&files, &expanded.warnings),
        Err(diags) => shadowdusk_fuzz::render(&files, &diags),
    }
});
