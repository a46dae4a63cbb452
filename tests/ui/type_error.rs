shadowdusk::include_effect!("shaders/type_error.fx");

fn main() {}
