//! One shader through lower → DXC → SPIRV-Cross → dialect rewrite, errors turned into
//! diagnostics spanned in the user's files.

use std::collections::BTreeMap;
use std::time::Instant;

use super::plan::ShaderJob;
use super::{dxc_guard, dxc_messages, StageTimings};
use crate::cross::{self, CombinedSampler};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::dialect::{self, DialectError};
use crate::dxc::{self, DxcError};
use crate::effect::ParsedEffect;
use crate::layout::{RegisterInput, SamplerInput, ShaderInput};
use crate::lower::{self, Lowered, SamplerBinding, Stage};
use crate::preprocess::Expanded;
use crate::source::Span;
use crate::wgsl::{WgpuShader, WgslError};

/// Compiles one planned shader; its warnings are added to `warnings`, and the DXC that compiled
/// it to `dxc` ([`note_dxc`]). With `wgpu`, the WGSL translation comes back beside the GL
/// shader as a result of its own: a shader the wgpu target refuses is still a GL shader.
pub fn compile(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    job: &ShaderJob,
    timings: &mut StageTimings,
    warnings: &mut Diagnostics,
    dxc: &mut Option<String>,
    wgpu: bool,
) -> Result<(ShaderInput, Option<Result<WgpuShader, Diagnostics>>), Diagnostics> {
    let at = expanded.map.span(job.shader.range.clone());
    let what = format!(
        "{} shader `{}` ({})",
        match job.stage {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
        },
        job.shader.entry,
        job.shader.profile
    );

    let t = Instant::now();
    let lowered = lower::lower(expanded, parsed, &job.shader, job.stage)?;
    timings.lower += t.elapsed();
    dxc_guard::check(expanded, &lowered, at)?;

    let t = Instant::now();
    let spirv = dxc::compile(&lowered.text, &lowered.entry, job.stage);
    timings.dxc += t.elapsed();
    let spirv = match spirv {
        Ok(s) => s,
        Err(DxcError::Unavailable(m)) => {
            return Err(Diagnostic::error(Code::SD0103, m)
                .with_help(
                    "ShadowDusk fetches a pinned DXC 1.8 into the per-user cache on first use \
                     (`shadowdusk setup` does it on purpose); or set SHADOWDUSK_DXC to a DXC 1.8 \
                     libdxcompiler.so",
                )
                .into())
        }
        Err(DxcError::Crashed(m)) => return Err(Diagnostic::error(
            Code::SD0104,
            format!("{m} while compiling {what}"),
        )
        .at_opt(at)
        .with_help(
            "this shader trips a bug in DXC 1.8 (it ran in a worker process, so only this \
                     effect failed); change the code near your last edit, and please report the \
                     effect so ShadowDusk can refuse it with a clear error",
        )
        .into()),
        Err(DxcError::Compile { messages, raw }) => {
            warnings.extend(dxc_messages::warnings(expanded, &lowered, at, &messages));
            let mut errors =
                dxc_messages::diagnostics(expanded, &lowered, at, &what, &messages, &raw);
            errors.extend(dxc_messages::missing_returns(
                expanded, parsed, &lowered, at, &what, &messages,
            ));
            return Err(errors);
        }
    };
    note_dxc(dxc, &spirv.dxc);
    warnings.extend(dxc_messages::warnings(
        expanded,
        &lowered,
        at,
        &spirv.warnings,
    ));
    // fxc's X3507, which DXC only warns about.
    let missing =
        dxc_messages::missing_returns(expanded, parsed, &lowered, at, &what, &spirv.warnings);
    if !missing.is_empty() {
        return Err(missing);
    }

    let mut explicit = explicit_registers(parsed, job.stage);
    // A retyped uniform (an int carried as float, a non-square matrix kept as registers) keeps
    // its placement under the carrier's name, which is what the SPIR-V holds.
    for r in &lowered.retyped {
        if let Some(&n) = explicit.get(&r.name) {
            explicit.insert(r.carrier.clone(), n);
        }
    }
    let t = Instant::now();
    let cross = cross::rewritten(&spirv).and_then(|words| {
        Ok((
            cross::to_glsl_with_registers(&words, job.stage, &explicit)?,
            words,
        ))
    });
    timings.cross += t.elapsed();
    let (cross, words) = cross.map_err(|m| {
        Diagnostic::error(Code::SD0101, format!("{what}: {m}"))
            .at_opt(at)
            .with_help("this is a ShadowDusk bug if DXC accepted the shader; please report it with the effect")
    })?;

    let t = Instant::now();
    let slots = assign_slots(&lowered.samplers, &cross.combined);
    let slot_of = |c: &CombinedSampler| slots.get(&(c.texture.clone(), c.sampler.clone())).copied();
    let rewritten = dialect::rewrite(&cross, job.stage, &slot_of);
    timings.rewrite += t.elapsed();
    let d = rewritten.map_err(|e| dialect_diagnostic(expanded, parsed, &e, at, &what))?;
    check_register_limit(expanded, parsed, &d, job, at, &what, warnings)?;

    let wgsl = if wgpu {
        let t = Instant::now();
        let gl = crate::wgsl::GlLayout {
            registers: &d.registers,
            samplers: &d.samplers,
        };
        let w = translate(&words, job.stage, &gl);
        timings.wgsl += t.elapsed();
        Some(w.map_err(|e| wgsl_diagnostic(expanded, parsed, &e, at, &what)))
    } else {
        None
    };
    Ok((shader_input(job.stage, d, &lowered), wgsl))
}

#[cfg(feature = "wgsl")]
fn translate(
    words: &[u32],
    stage: Stage,
    gl: &crate::wgsl::GlLayout<'_>,
) -> Result<WgpuShader, WgslError> {
    crate::wgsl::translate(words, stage, gl)
}

#[cfg(not(feature = "wgsl"))]
fn translate(
    _words: &[u32],
    _stage: Stage,
    _gl: &crate::wgsl::GlLayout<'_>,
) -> Result<WgpuShader, WgslError> {
    Err(WgslError {
        code: Code::SD0304,
        subject: None,
        message: "the wgpu target needs shadowdusk-compiler's feature `wgsl`, which this build \
                  does not have"
            .into(),
        help: "enable feature `wgsl` of shadowdusk-compiler (or shadowdusk-cli), or turn the \
               wgpu target off"
            .into(),
    })
}

/// A wgpu-target error at the declaration it names (a uniform, texture or semantic), else at
/// the `compile` statement.
fn wgsl_diagnostic(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    e: &WgslError,
    at: Option<Span>,
    what: &str,
) -> Diagnostics {
    let ast = &parsed.ast;
    let range = e.subject.as_deref().and_then(|s| {
        let s = lower::user_name(s);
        ast.declaration(s).or_else(|| {
            ast.functions.iter().flat_map(|f| &f.params).find_map(|p| {
                let sem = p.semantic.as_deref().unwrap_or("");
                (p.name == s || sem.eq_ignore_ascii_case(s)).then(|| p.range.clone())
            })
        })
    });
    let range = range.or_else(|| {
        e.subject
            .as_deref()
            .and_then(|s| semantic_use(&parsed.stripped, s))
    });
    let span = range.and_then(|r| expanded.map.span(r)).or(at);
    Diagnostic::error(e.code, lower::user_text(&e.message))
        .at_opt(span)
        .with_note(format!("while translating {what} for wgpu (WGSL)"))
        .with_help(e.help.clone())
        .into()
}

/// Adds `used` to the DXC identity of an effect's shaders (`Compiled::dxc`): the one DXC that
/// compiled them all, or, when a DXC was replaced between two of its shaders, both, joined as no
/// DXC's identity is, so the effect matches no cache key.
fn note_dxc(dxc: &mut Option<String>, used: &str) {
    match dxc {
        None => *dxc = Some(used.to_string()),
        Some(d) if d.split(" & ").any(|one| one == used) => {}
        Some(d) => *d = format!("{d} & {used}"),
    }
}

/// The constant registers fxc lets a Shader Model 1–3 profile address; `None` for the profiles
/// ShadowDusk compiles without that limit (SM4 and later under OpenGL, whose GLSL has no such
/// bound on MonoGame's targets).
///
/// Why vertex profiles are not held to 256: their register file is as large as the device's
/// `MaxVertexShaderConst` cap ("at least 256"), so fxc only stops where D3D9 bytecode can no
/// longer name a register: `c#` plus the `CONST2`–`CONST4` files, 2048 each. MonoGame PBR
/// effects with a `float4x3 Bones[128]` palette (396 registers, vs_3_0) compile with mgfxc.
/// Pixel profiles have fixed files: 32 for ps_2_0/ps_2_x, 224 for ps_3_0.
fn register_limit(profile: &str) -> Option<u32> {
    match profile.to_ascii_lowercase().as_str() {
        "vs_1_1" | "vs_2_0" | "vs_2_x" | "vs_3_0" => Some(8192),
        "ps_2_0" | "ps_2_x" => Some(32),
        "ps_3_0" => Some(224),
        _ => None,
    }
}

/// The vec4 uniforms every OpenGL ES 2.0 driver must offer (`GL_MAX_VERTEX_UNIFORM_VECTORS`,
/// `GL_MAX_FRAGMENT_UNIFORM_VECTORS`; desktop GL 2.0's 512/64 components are the same); past
/// them the shader compiles but may fail to link on a small GPU.
fn portable_registers(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => 128,
        Stage::Pixel => 16,
    }
}

/// The first uniform that reaches past `limit` registers, and where the user declared it.
fn first_past(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    d: &dialect::DialectShader,
    limit: u32,
    at: Option<Span>,
) -> (String, Option<Span>) {
    let over = d
        .registers
        .iter()
        .find(|r| r.base.saturating_add(r.count) > limit)
        .map(|r| lower::user_name(&r.name).to_string());
    let decl = over.as_deref().and_then(|n| parsed.ast.declaration(n));
    let span = decl.and_then(|r| expanded.map.span(r)).or(at);
    let name = over.map_or_else(|| "the uniforms".to_string(), |n| format!("`{n}`"));
    (name, span)
}

/// SD0218 at the first uniform that does not fit in the profile's constant registers; SD0220
/// (a warning) at the first one past what GLES 2 guarantees when the profile allows it.
fn check_register_limit(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    d: &dialect::DialectShader,
    job: &ShaderJob,
    at: Option<Span>,
    what: &str,
    warnings: &mut Diagnostics,
) -> Result<(), Diagnostics> {
    let (stage, profile) = (job.stage, job.shader.profile.as_str());
    let Some(limit) = register_limit(profile) else {
        return Ok(());
    };
    if d.register_count > limit {
        let (name, span) = first_past(expanded, parsed, d, limit, at);
        return Err(Diagnostic::error(
            Code::SD0218,
            format!(
                "{name} does not fit: the shader reads {} constant registers, and {profile} has {limit}",
                d.register_count
            ),
        )
        .at_opt(span)
        .with_note(format!("while compiling {what}"))
        .with_help(format!(
            "use fewer or smaller uniforms (an array element is one register, a float4x4 four), or a \
             profile with more registers ({})",
            if profile.starts_with("ps_2") { "ps_3_0 has 224" } else { "split the work across passes" }
        ))
        .into());
    }
    let portable = portable_registers(stage);
    if d.register_count > portable {
        let (name, span) = first_past(expanded, parsed, d, portable, at);
        let kind = match stage {
            Stage::Vertex => "vertex",
            Stage::Pixel => "fragment",
        };
        warnings.push(
            Diagnostic::warning(
                Code::SD0220,
                format!(
                    "{name} reaches past register {portable}: the shader reads {} constant \
                     registers, more than the {portable} {kind} uniform vectors OpenGL ES 2.0 \
                     guarantees",
                    d.register_count
                ),
            )
            .at_opt(span)
            .with_note(format!("while compiling {what}"))
            .with_help(
                "desktop GL and most GPUs offer more, so this is fine where you have tested it; \
                 to run everywhere, use fewer uniforms (a smaller bone palette, data in a texture)",
            ),
        );
    }
    Ok(())
}

/// The uniforms with an explicit constant register for `stage`: `register(c4)` for both
/// stages, `register(vs, c4)` / `register(ps, c4)` for that one (MonoGame's `_vs()`/`_ps()`).
fn explicit_registers(parsed: &ParsedEffect, stage: Stage) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    for g in &parsed.ast.globals {
        let Some(reg) = &g.register else { continue };
        let parts: Vec<&str> = reg.split(',').map(str::trim).collect();
        let (for_stage, slot) = match parts.as_slice() {
            [slot] => (true, *slot),
            [target, slot] => (
                match target.to_ascii_lowercase().as_str() {
                    "vs" => stage == Stage::Vertex,
                    "ps" => stage == Stage::Pixel,
                    _ => true,
                },
                *slot,
            ),
            _ => continue,
        };
        let number = slot
            .strip_prefix(['c', 'C'])
            .and_then(|n| n.parse::<u32>().ok());
        if let (true, Some(n)) = (for_stage, number) {
            out.insert(g.name.clone(), n);
        }
    }
    out
}

/// fxc's sampler allocation, which MonoGame users rely on when they bind `Textures[n]`: explicit
/// `register(sN)` first, then the other used samplers in declaration order, each on the lowest
/// free slot.
fn assign_slots(
    bindings: &[SamplerBinding],
    combined: &[CombinedSampler],
) -> BTreeMap<(String, String), u32> {
    let find = |c: &CombinedSampler| {
        bindings
            .iter()
            .find(|b| b.texture == c.texture && b.sampler == c.sampler)
    };
    let mut used: Vec<(usize, usize, Option<u32>)> = combined
        .iter()
        .enumerate()
        .map(|(i, c)| match find(c) {
            Some(b) => (b.order, i, b.register),
            None => (usize::MAX, i, None),
        })
        .collect();
    used.sort();
    let mut taken: Vec<u32> = used.iter().filter_map(|u| u.2).collect();
    let mut slots = BTreeMap::new();
    for (_, i, register) in used {
        let slot = match register {
            Some(r) => r,
            None => {
                let free = (0..).find(|s| !taken.contains(s)).unwrap_or(0);
                taken.push(free);
                free
            }
        };
        let c = &combined[i];
        slots.insert((c.texture.clone(), c.sampler.clone()), slot);
    }
    slots
}

fn shader_input(stage: Stage, d: dialect::DialectShader, lowered: &Lowered) -> ShaderInput {
    let parameter_of_register = |name: &str| {
        lowered
            .retyped
            .iter()
            .find(|r| r.carrier == name)
            .map_or_else(|| name.to_string(), |r| r.name.clone())
    };
    let registers = d
        .registers
        .iter()
        .map(|r| RegisterInput {
            parameter: parameter_of_register(&r.name),
            base: r.base,
            count: r.count,
        })
        .collect();
    // mgfxc writes the sampler records by register (slot), whatever order the code uses them in.
    let mut by_slot: Vec<&dialect::DialectSampler> = d.samplers.iter().collect();
    by_slot.sort_by_key(|s| s.slot);
    let samplers = by_slot
        .into_iter()
        .map(|s| {
            let binding = lowered
                .samplers
                .iter()
                .find(|b| b.texture == s.texture && b.sampler == s.sampler);
            SamplerInput {
                glsl_name: s.glsl_name.clone(),
                slot: s.slot,
                dim: s.dim,
                parameter: binding.map_or_else(
                    || lower::user_name(&s.texture).to_string(),
                    |b| b.parameter.clone(),
                ),
                state: binding.and_then(|b| b.state),
            }
        })
        .collect();
    ShaderInput {
        stage,
        glsl: d.glsl,
        registers,
        register_count: d.register_count,
        samplers,
        attributes: d.attributes,
    }
}

/// Points a dialect error at the declaration it names, else at the `compile` statement.
fn dialect_diagnostic(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    e: &DialectError,
    at: Option<Span>,
    what: &str,
) -> Diagnostics {
    if e.code == Code::SD0210 && e.subject.is_none() {
        if let Some(pick) = super::non_square_hint::find(parsed) {
            return Diagnostic::error(
                Code::SD0210,
                format!(
                    "`{}` is a {} local whose row is picked at run time; GLSL 1.10 / GLSL ES 1.00 have no non-square matrices to index",
                    pick.name, pick.ty
                ),
            )
            .at_opt(expanded.map.span(pick.range).or(at))
            .with_note(format!("while translating {what} to MonoGame's GLSL dialect"))
            .with_help(format!(
                "pick rows of `{}` with constant indices (an `[unroll]` loop counter counts), index the uniform it came from (`M[i]` on a uniform works), or declare it float4x4 and use the components you need",
                pick.name
            ))
            .into();
        }
    }
    let subject = e.subject.as_deref().map(lower::user_name);
    let ast = &parsed.ast;
    let range = subject.and_then(|s| {
        ast.declaration(s).or_else(|| {
            ast.functions.iter().flat_map(|f| &f.params).find_map(|p| {
                let sem = p.semantic.as_deref().unwrap_or("");
                (p.name == s || sem.eq_ignore_ascii_case(s)).then(|| p.range.clone())
            })
        })
    });
    // A construct the GLSL check refused, or a declaration not found above (a struct name):
    // point at it in the source when it can be found there.
    let range = range.or_else(|| {
        let searchable = matches!(
            e.code,
            Code::SD0212 | Code::SD0215 | Code::SD0219 | Code::SD0221
        );
        e.subject
            .as_deref()
            .filter(|_| searchable)
            .and_then(|s| super::construct_hint::find(parsed, s))
    });
    let span = range.and_then(|r| expanded.map.span(r)).or(at);
    // Generated names mean nothing to the user; the declaration they come from is spanned.
    let message = lower::user_text(&e.message);
    Diagnostic::error(e.code, message)
        .at_opt(span)
        .with_note(format!(
            "while translating {what} to MonoGame's GLSL dialect"
        ))
        .with_help(e.help.clone())
        .into()
}

/// The first `: SEMANTIC` in the effect's text (a struct member's or a parameter's).
fn semantic_use(text: &str, semantic: &str) -> Option<std::ops::Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let want = semantic.to_ascii_lowercase();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(k) = lower[from..].find(&want) {
        let start = from + k;
        let end = start + want.len();
        from = end;
        let after_ok = lower.as_bytes().get(end).is_none_or(|&b| !word(b));
        let before = lower[..start].trim_end();
        if after_ok && before.ends_with(':') {
            return Some(start..end);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::note_dxc;

    #[test]
    fn an_effect_compiled_by_two_dxcs_is_named_as_neither() {
        let mut dxc = None;
        note_dxc(&mut dxc, "dxcompiler:a:-O3");
        note_dxc(&mut dxc, "dxcompiler:a:-O3");
        assert_eq!(dxc.as_deref(), Some("dxcompiler:a:-O3"));
        note_dxc(&mut dxc, "dxcompiler:b:-O3");
        note_dxc(&mut dxc, "dxcompiler:a:-O3");
        assert_eq!(dxc.as_deref(), Some("dxcompiler:a:-O3 & dxcompiler:b:-O3"));
    }
}
