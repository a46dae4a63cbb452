// Reached only through the Builder's include folder (tests/build.rs).
#define GLOW_GREEN 1
