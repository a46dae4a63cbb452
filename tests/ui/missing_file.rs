shadowdusk::include_effect!("shaders/does_not_exist.fx", in_process);

fn main() {}
