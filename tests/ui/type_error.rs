shadowdusk::include_effect!("shaders/type_error.fx", in_process);

fn main() {}
