//! Builds [`EffectReflection`] from the parsed effect, the compiled shaders and the final model.

use std::path::Path;

use shadowdusk_mgfx::{Effect, ParameterClass};

use super::plan::ShaderPlan;
use crate::effect::ParsedEffect;
use crate::layout::ShaderInput;
use crate::preprocess::Expanded;
use crate::reflect::{
    EffectReflection, Location, ParameterInfo, PassInfo, ShaderInfo, TechniqueInfo,
};
use crate::source::SourceFiles;

/// Reflection parallel to `effect`.
pub fn build(
    path: &Path,
    expanded: &Expanded,
    parsed: &ParsedEffect,
    files: &SourceFiles,
    effect: &Effect,
    plan: &ShaderPlan,
    shaders: &[ShaderInput],
) -> EffectReflection {
    let ast = &parsed.ast;
    let location = |range: &std::ops::Range<usize>| {
        let (file, off) = expanded.map.lookup(range.start as u32)?;
        let f = files.get(file);
        let (line, column) = f.line_col(off);
        Some(Location {
            file: f.path.clone(),
            line,
            column,
        })
    };
    let source_line = |loc: &Option<Location>| {
        let loc = loc.as_ref()?;
        let id = files.find(&loc.file)?;
        let text = &files.get(id).text;
        let line = text.lines().nth(loc.line as usize - 1)?;
        Some(collapse(line.split("//").next().unwrap_or(line)))
    };

    let parameters = effect
        .parameters
        .iter()
        .map(|p| {
            let is_texture = p.class == ParameterClass::Object;
            let used = if is_texture {
                shaders
                    .iter()
                    .any(|s| s.samplers.iter().any(|x| x.parameter == p.name))
            } else {
                shaders
                    .iter()
                    .any(|s| s.registers.iter().any(|r| r.parameter == p.name))
            };
            let global = (!is_texture)
                .then(|| ast.globals.iter().position(|g| g.name == p.name))
                .flatten();
            if let Some(i) = global {
                let g = &ast.globals[i];
                let site = &parsed.sites.globals[i];
                let mut end = site
                    .init_range
                    .as_ref()
                    .map_or(g.range.end, |r| r.end.max(g.range.end));
                if site.init_range.is_none() && expanded.text[end..].trim_start().starts_with('[') {
                    if let Some(close) = expanded.text[end..].find(']') {
                        end += close + 1;
                    }
                }
                let start = site.ty_range.start.min(g.range.start);
                let loc = location(&g.range);
                return ParameterInfo {
                    name: p.name.clone(),
                    declaration: collapse(&expanded.text[start..end]),
                    location: loc,
                    cbuffer: g.cbuffer.clone(),
                    default: g.initializer.clone(),
                    used,
                };
            }
            let range = ast
                .textures
                .iter()
                .find(|t| t.name == p.name)
                .map(|t| t.range.clone())
                .or_else(|| {
                    ast.samplers
                        .iter()
                        .find(|s| s.name == p.name || s.texture.as_deref() == Some(&p.name))
                        .map(|s| s.range.clone())
                });
            if let Some(g) = ast.entry_uniform(&p.name) {
                return ParameterInfo {
                    name: p.name.clone(),
                    declaration: collapse(&expanded.text[g.range.clone()]),
                    location: location(&g.range),
                    cbuffer: None,
                    default: None,
                    used,
                };
            }
            let loc = range.as_ref().and_then(location);
            ParameterInfo {
                name: p.name.clone(),
                declaration: source_line(&loc).unwrap_or_else(|| p.name.clone()),
                location: loc,
                cbuffer: None,
                default: None,
                used,
            }
        })
        .collect();

    let entry = |i: i32| {
        usize::try_from(i)
            .ok()
            .and_then(|i| plan.shaders.get(i))
            .map(|j| j.shader.entry.clone())
    };
    let techniques = effect
        .techniques
        .iter()
        .map(|t| TechniqueInfo {
            name: t.name.clone(),
            passes: t
                .passes
                .iter()
                .map(|p| PassInfo {
                    name: p.name.clone(),
                    vertex_entry: entry(p.vertex_shader),
                    pixel_entry: entry(p.pixel_shader),
                })
                .collect(),
        })
        .collect();
    let shaders = plan
        .shaders
        .iter()
        .map(|j| ShaderInfo {
            entry: j.shader.entry.clone(),
            profile: j.shader.profile.clone(),
        })
        .collect();

    EffectReflection {
        source: path.to_path_buf(),
        files_read: expanded.deps.clone(),
        parameters,
        techniques,
        shaders,
    }
}

/// One line, single spaces, no trailing `;`.
fn collapse(s: &str) -> String {
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    joined.trim_end_matches(';').trim_end().to_string()
}
