//! OpenGL loader (feature `gl`).
