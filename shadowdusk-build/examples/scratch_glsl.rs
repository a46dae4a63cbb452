// Scratch (not committed): prints lowered HLSL and SPIRV-Cross GLSL for one entry.
use shadowdusk_build::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let path = std::path::Path::new(&a[1]);
    let entry = &a[2];
    let stage = if a[3] == "vs" {
        lower::Stage::Vertex
    } else {
        lower::Stage::Pixel
    };
    let mut files = source::SourceFiles::new();
    let ex = preprocess::preprocess(path, None, &Default::default(), &mut files).unwrap();
    let parsed = effect::parse(&ex).unwrap();
    let sh = parsed
        .ast
        .techniques
        .iter()
        .flat_map(|t| &t.passes)
        .flat_map(|p| [p.vertex_shader.as_ref(), p.pixel_shader.as_ref()])
        .flatten()
        .find(|s| &s.entry == entry)
        .unwrap()
        .clone();
    let low = lower::lower(&ex, &parsed, &sh, stage).unwrap();
    if a.len() > 4 {
        println!("{}", low.text);
    }
    let spv = dxc::compile(&low.text, &low.entry, stage).unwrap();
    if a.len() > 5 {
        std::fs::write(
            "/tmp/out.spv",
            spv.words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
    }
    let c = cross::to_glsl(&spv, stage).unwrap();
    println!("{}", c.text);
}
