shadowdusk::include_effect!("shaders/missing_include.fx", in_process);

fn main() {}
