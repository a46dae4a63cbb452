//! Stage 7: tables. Compiled shaders + the effect AST → the MGFX [`shadowdusk::mgfx::Effect`].
