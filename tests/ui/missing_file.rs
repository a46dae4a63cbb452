shadowdusk::include_effect!("shaders/does_not_exist.fx");

fn main() {}
