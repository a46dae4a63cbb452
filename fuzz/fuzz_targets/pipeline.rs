//! Arbitrary bytes as an `.fx` file's text, through the whole compiler: preprocess, effect parse,
//! lowering, DXC, SPIRV-Cross, dialect rewrite, layout and the MGFX writer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shadowdusk_compiler::pipeline::{compile_source, Options};

fuzz_target!(
    init: {
        // Without DXC every input would stop at the same "DXC not found" error.
        if let Err(e) = shadowdusk_compiler::dxc::load() {
            eprintln!("pipeline fuzz target: DXC cannot be loaded (set SHADOWDUSK_DXC): {e}");
            std::process::exit(2);
        }
    },
    |data: &[u8]| {
        let text = shadowdusk_fuzz::fx_text(data);
        match compile_source(&shadowdusk_fuzz::fx_path(), &text, &Options::default()) {
            Ok(compiled) => shadowdusk_fuzz::render(&compiled.files, &compiled.warnings),
            Err(e) => {
                std::hint::black_box((e.render(false), e.render_mgfxc()));
                shadowdusk_fuzz::keep_dxc_crash(data, &e);
            }
        }
    }
);
