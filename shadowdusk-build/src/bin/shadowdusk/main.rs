//! `shadowdusk <in.fx> <out.mgfx> [/Profile:OpenGL] [/Defines:A;B=2] [/I:dir]`
fn main() {}
