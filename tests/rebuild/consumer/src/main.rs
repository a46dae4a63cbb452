//! Prints its OUT_DIR and one line per effect (size and default registers), so a test can tell
//! which version of each shader the binary was built from.

#![deny(warnings)]

mod effects {
    include!(concat!(env!("OUT_DIR"), "/effects.rs"));
}

fn main() {
    println!("out_dir={}", env!("OUT_DIR"));
    for line in effects::describe() {
        println!("{line}");
    }
}
