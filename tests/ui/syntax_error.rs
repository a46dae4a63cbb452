shadowdusk::include_effect!("shaders/syntax_error.fx", in_process);

fn main() {}
