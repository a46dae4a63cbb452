// Passes and texture slots come from generated code only: safe code cannot make one up, since
// the constructors are `unsafe` (their contract: the index names a pass or texture parameter
// the effect really has).
shadowdusk::include_effect!("shaders/tint.fx", in_process);

use shadowdusk::{Pass, TextureSlot};

fn main() {
    let pass: Pass<tint::Effect> = Pass::__new(0, 7);
    let slot: TextureSlot<tint::Effect> = TextureSlot::__new(0);
    let _ = (pass, slot);
}
