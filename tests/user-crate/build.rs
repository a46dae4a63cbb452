fn main() {
    shadowdusk_build::Builder::new().dir("shaders").compile();
}
