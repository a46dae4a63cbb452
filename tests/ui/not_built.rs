shadowdusk::include_effect!("shaders/syntax_error.fx");

fn main() {}
