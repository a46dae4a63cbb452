//! The game's effects, compiled from `shaders/` at build time, each as a typed module:
//! `MGFX` bytes, the `Effect` type, a `Params` register image with typed setters, `Technique`,
//! `passes`, `textures`.

shadowdusk::include_effect!("shaders/tint.fx");
shadowdusk::include_effect!("shaders/sepia.fx");
shadowdusk::include_effect!("shaders/grayscale.fx");
shadowdusk::include_effect!("shaders/wave.fx");
shadowdusk::include_effect!("shaders/cube.fx");
shadowdusk::include_effect!("shaders/skinned.fx");
