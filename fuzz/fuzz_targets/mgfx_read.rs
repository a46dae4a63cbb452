//! Arbitrary bytes through the MGFX reader; whatever it accepts must also write back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(effect) = shadowdusk_mgfx::read(data) {
        // Errors are fine (the reader accepts some models the writer refuses); panics are not.
        let _ = shadowdusk_mgfx::write(&effect);
    }
});
