//! Which shaders an effect needs, in the order mgfxc creates them (mgfx-format.md §12.1):
//! techniques and passes in source order, the pixel shader of a pass before its vertex shader,
//! a shader reused when an earlier one has the same stage, entry point, profile and `compile`
//! arguments. (mgfxc compares only entry and profile; ShadowDusk also compares the literal
//! arguments, because `PS(true)` and `PS(false)` are different programs.)

use crate::effect::{EffectAst, ShaderRef};
use crate::layout::PassShaders;
use crate::lower::Stage;

/// One shader to compile.
#[derive(Clone, Debug)]
pub struct ShaderJob {
    /// Stage.
    pub stage: Stage,
    /// The `compile` statement that first asked for it.
    pub shader: ShaderRef,
}

/// The shader list and each pass's indices into it.
#[derive(Clone, Debug, Default)]
pub struct ShaderPlan {
    /// Shaders in MGFX order.
    pub shaders: Vec<ShaderJob>,
    /// `passes[t][p]`, parallel to the AST's techniques and passes.
    pub passes: Vec<Vec<PassShaders>>,
}

/// Plans the shaders of `ast`.
pub fn shaders(ast: &EffectAst) -> ShaderPlan {
    let mut plan = ShaderPlan::default();
    for tech in &ast.techniques {
        let mut passes = Vec::with_capacity(tech.passes.len());
        for pass in &tech.passes {
            let pixel = pass
                .pixel_shader
                .as_ref()
                .map_or(-1, |s| plan.index_of(Stage::Pixel, s));
            let vertex = pass
                .vertex_shader
                .as_ref()
                .map_or(-1, |s| plan.index_of(Stage::Vertex, s));
            passes.push(PassShaders { vertex, pixel });
        }
        plan.passes.push(passes);
    }
    plan
}

impl ShaderPlan {
    fn index_of(&mut self, stage: Stage, shader: &ShaderRef) -> i32 {
        let same = |j: &ShaderJob| {
            j.stage == stage
                && j.shader.entry == shader.entry
                && j.shader.profile == shader.profile
                && j.shader.args == shader.args
        };
        let i = match self.shaders.iter().position(same) {
            Some(i) => i,
            None => {
                self.shaders.push(ShaderJob {
                    stage,
                    shader: shader.clone(),
                });
                self.shaders.len() - 1
            }
        };
        i as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{self, expanded_from_plain};
    use crate::source::SourceFiles;

    fn plan(src: &str) -> ShaderPlan {
        let mut files = SourceFiles::new();
        let e = expanded_from_plain(&mut files, "t.fx", src);
        shaders(&effect::parse(&e).expect("parses").ast)
    }

    #[test]
    fn pixel_before_vertex_and_reuse_by_entry_profile_and_args() {
        let p = plan(
            "float4 VS(float4 p : POSITION0) : POSITION0 { return p; }\n\
             float4 PS(uniform bool b) : COLOR0 { return b; }\n\
             technique A { pass P0 { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(true); }\n\
                           pass P1 { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(false); } }\n\
             technique B { pass { PixelShader = compile ps_3_0 PS(true); } }\n",
        );
        let order: Vec<(Stage, Vec<String>)> = p
            .shaders
            .iter()
            .map(|j| (j.stage, j.shader.args.clone()))
            .collect();
        assert_eq!(
            order,
            vec![
                (Stage::Pixel, vec!["true".to_string()]),
                (Stage::Vertex, vec![]),
                (Stage::Pixel, vec!["false".to_string()]),
            ]
        );
        assert_eq!(
            p.passes,
            vec![
                vec![
                    PassShaders {
                        vertex: 1,
                        pixel: 0
                    },
                    PassShaders {
                        vertex: 1,
                        pixel: 2
                    }
                ],
                vec![PassShaders {
                    vertex: -1,
                    pixel: 0
                }],
            ]
        );
    }
}
