shadowdusk::include_effect!("shaders/missing_include.fx");

fn main() {}
