//! The token-level rewrite of SPIRV-Cross's text and the assembly of the final shader.
//!
//! Input: a [`Plan`] (SPIRV-Cross text, the allocation, sampler names, stage-variable bindings,
//! render targets). Output: the complete dialect text. Every replacement is driven by names the
//! cross stage chose (`sd_ub<k>`, `sd_cs<k>`, `sd_in_*`, `sd_out_*`) or by fixed GLSL builtins;
//! identifiers are only ever replaced whole.

use std::collections::BTreeMap;

use super::header;
use super::interface::Binding;
use super::samplers::glsl_type;
use super::tokens::{matching, next_significant, tokenize, Kind, Token};
use super::uniforms::Allocation;
use super::{DialectError, DialectSampler};
use crate::cross::CrossGlsl;
use crate::diag::Code;
use crate::effect::Dim;
use crate::lower::Stage;

/// Everything the rewrite needs.
pub struct Plan<'a> {
    pub cross: &'a CrossGlsl,
    pub stage: Stage,
    pub alloc: &'a Allocation,
    pub samplers: &'a [DialectSampler],
    pub inputs: &'a [Binding],
    pub outputs: &'a [Binding],
    /// Pixel render-target indices, sorted.
    pub targets: &'a [u32],
}

/// Extensions SPIRV-Cross may request that the dialect's own headers replace.
/// `GL_EXT_gpu_shader4` is what SPIRV-Cross asks for when it spells `round` or a `uint(...)`
/// index cast; both are rewritten below, and [`super::validate`] refuses any other
/// gpu_shader4 feature that survives.
const REPLACED_EXTENSIONS: &[&str] = &[
    "GL_EXT_gpu_shader4",
    "GL_ARB_shader_texture_lod",
    "GL_EXT_shader_texture_lod",
    "GL_OES_standard_derivatives",
    "GL_EXT_frag_depth",
];

const LOD_FUNCTIONS: &[&str] = &[
    "texture2DLod",
    "textureCubeLod",
    "texture3DLod",
    "texture2DGrad",
    "textureCubeGrad",
    "texture3DGrad",
    "texture2DProjGrad",
    "texture3DProjGrad",
    "texture2DProjLod",
    "texture3DProjLod",
    "texture2DProj",
    "texture3DProj",
];

const NO_LEGACY_SPELLING: &[&str] = &[
    "textureCubeProj",
    "textureCubeProjLod",
];

#[derive(Default)]
struct Flags {
    derivatives: bool,
    lod: bool,
    depth: bool,
    fixups: u32,
}

/// Rewrites the body and assembles the shader.
pub fn emit(p: &Plan<'_>) -> Result<String, DialectError> {
    let text = super::arrays::expand(&p.cross.text);
    let toks = tokenize(&text);
    check_collisions(&toks)?;
    super::validate::bit_operator(&toks)?;
    let mut w = Rewrite::new(p, &toks);
    let mut i = 0;
    while i < toks.len() {
        if let Some(s) = w.close_insert.remove(&i) {
            w.out.push_str(s);
        }
        i = w.token(i)?;
    }
    if !w.main_prologue.is_empty() {
        return Err(internal("constant arrays but no main()"));
    }
    let writes_position = check_position(p, &w.flags)?;
    Ok(assemble(p, &w.flags, writes_position, w.array, &w.out))
}

/// One walk over SPIRV-Cross's tokens: the name lookups, built once from the plan, and the
/// context (brace depth, open brackets, statement start) that each replacement depends on.
struct Rewrite<'a> {
    p: &'a Plan<'a>,
    toks: &'a [Token<'a>],
    array: &'static str,
    block_base: BTreeMap<&'a str, u32>,
    sampler_names: BTreeMap<&'a str, &'a DialectSampler>,
    bindings: BTreeMap<&'a str, &'a Binding>,
    out: String,
    /// Text owed just before a token index: the close of a bracket the rewrite opened.
    close_insert: BTreeMap<usize, &'static str>,
    flags: Flags,
    depth: i32,
    /// Open `(`/`[` brackets, to know when a `uint(...)` cast is an array index.
    brackets: Vec<&'a str>,
    statement_start: bool,
    /// Element assignments of global constant arrays, owed at the top of `main()`.
    main_prologue: String,
}

impl<'a> Rewrite<'a> {
    /// Builds the name lookups once, so a token costs a map probe rather than a scan of the plan.
    fn new(p: &'a Plan<'a>, toks: &'a [Token<'a>]) -> Self {
        let array = match p.stage {
            Stage::Vertex => "vs_uniforms_vec4",
            Stage::Pixel => "ps_uniforms_vec4",
        };
        let mut block_base = BTreeMap::new();
        for (b, base) in p.cross.blocks.iter().zip(&p.alloc.block_base) {
            if let Some(n) = &b.flattened_name {
                block_base.insert(n.as_str(), *base);
            }
        }
        let mut sampler_names = BTreeMap::new();
        for (c, s) in p.cross.combined.iter().zip(p.samplers) {
            sampler_names.insert(c.glsl_name.as_str(), s);
        }
        let mut bindings = BTreeMap::new();
        for b in p.inputs.iter().chain(p.outputs) {
            bindings.insert(b.from.as_str(), b);
        }
        Rewrite {
            p,
            toks,
            array,
            block_base,
            sampler_names,
            bindings,
            out: String::with_capacity(p.cross.text.len() + 256),
            close_insert: BTreeMap::new(),
            flags: Flags::default(),
            depth: 0,
            brackets: Vec::new(),
            statement_start: true,
            main_prologue: String::new(),
        }
    }

    /// Rewrites the token at `i`; returns the index of the next token to visit.
    fn token(&mut self, i: usize) -> Result<usize, DialectError> {
        let t = self.toks[i];
        match t.kind {
            Kind::Preproc => self.preproc(i),
            Kind::Ident
                if self.depth == 0
                    && self.statement_start
                    && matches!(t.text, "uniform" | "attribute" | "varying") =>
            {
                self.global_declaration(i)
            }
            Kind::Ident if self.statement_start => match array_initializer(self.toks, i) {
                Some(init) => Ok(self.array_constructor(init)),
                None => self.ident(i),
            },
            Kind::Ident => self.ident(i),
            Kind::Punct => Ok(self.punct(i)),
            Kind::Space | Kind::Comment => {
                self.out.push_str(t.text);
                Ok(i + 1)
            }
            _ => {
                self.statement_start = false;
                self.out.push_str(t.text);
                Ok(i + 1)
            }
        }
    }

    /// Drops `#version` and the extension lines the dialect's own headers replace.
    fn preproc(&mut self, i: usize) -> Result<usize, DialectError> {
        let t = self.toks[i];
        let line = t.text.trim_start_matches('#').trim_start();
        if line.starts_with("version") {
            return Ok(skip_line_end(self.toks, i + 1));
        }
        if let Some(ext) = line.strip_prefix("extension") {
            check_extension(self.toks, ext)?;
            return Ok(skip_line_end(self.toks, i + 1));
        }
        self.out.push_str(t.text);
        Ok(i + 1)
    }

    /// Drops a global `uniform`/`attribute`/`varying`: the header re-declares each under its
    /// MonoGame name, which only works for the `sd_` names the cross stage chose.
    fn global_declaration(&mut self, i: usize) -> Result<usize, DialectError> {
        let toks = self.toks;
        let end = (i..toks.len())
            .find(|&j| toks[j].text == ";")
            .ok_or_else(|| internal("unterminated declaration"))?;
        let name = declared_name(&toks[i..end]);
        if !name.starts_with("sd_") {
            return Err(DialectError::new(
                Code::SD0219,
                format!("SPIRV-Cross declared a global `{} {name}` the dialect cannot map", toks[i].text),
                "this construct has no MonoGame OpenGL equivalent; simplify the shader's globals",
                Some(name.to_string()),
            ));
        }
        self.statement_start = true;
        Ok(skip_line_end(toks, end + 1))
    }

    /// GLSL 1.10 has no array constructors: declares the array, then assigns each element
    /// (at the top of main() for globals, where statements are not allowed).
    fn array_constructor(&mut self, init: ArrayInit) -> usize {
        self.out.push_str(&init.declaration);
        let target = if self.depth == 0 {
            &mut self.main_prologue
        } else {
            &mut self.out
        };
        for (k, e) in init.elements.iter().enumerate() {
            target.push_str(&format!("\n    {}[{k}] = {e};", init.name));
        }
        init.end
    }

    /// Gives an identifier its dialect spelling: uniform blocks, samplers, stage variables and
    /// builtins take the names MonoGame expects; anything else passes through.
    fn ident(&mut self, i: usize) -> Result<usize, DialectError> {
        let t = self.toks[i];
        self.statement_start = false;
        if let Some(&base) = self.block_base.get(t.text) {
            return self.uniform_element(i, base);
        }
        if let Some(&s) = self.sampler_names.get(t.text) {
            self.out.push_str(&s.glsl_name);
        } else if let Some(&b) = self.bindings.get(t.text) {
            self.stage_variable(i, b);
        } else if t.text == "gl_FragData" && self.p.stage == Stage::Pixel {
            return self.frag_data(i);
        } else if t.text == "gl_FragDepth" {
            self.flags.depth = true;
            self.out.push_str("ps_oDepth");
        } else if matches!(t.text, "round" | "roundEven") && next_is(self.toks, i, "(") {
            return self.round_call(i);
        } else if t.text == "uint"
            && next_is(self.toks, i, "(")
            && self.brackets.last() == Some(&"[")
        {
            // SPIRV-Cross casts dynamic indices to uint; GLSL 1.10 indexes with int.
            self.out.push_str("int");
        } else if self.p.stage == Stage::Vertex && t.text == "gl_Position" {
            return Ok(self.position(i));
        } else {
            self.library_name(i)?;
        }
        Ok(i + 1)
    }

    /// Flattened uniform blocks live in the dialect's one vec4 array: an element becomes its
    /// slot there, folded into one number when the index is a literal.
    fn uniform_element(&mut self, i: usize, base: u32) -> Result<usize, DialectError> {
        let toks = self.toks;
        let open = next_significant(toks, i)
            .filter(|&j| toks[j].text == "[")
            .ok_or_else(|| {
                DialectError::new(
                    Code::SD0210,
                    "a uniform array is used as a whole (without an index)",
                    "index uniform arrays element by element",
                    None,
                )
            })?;
        let close = matching(toks, open).ok_or_else(|| internal("unbalanced ["))?;
        let inner: Vec<&Token<'_>> = toks[open + 1..close]
            .iter()
            .filter(|t| !matches!(t.kind, Kind::Space | Kind::Comment))
            .collect();
        let literal = match inner.as_slice() {
            [n] if n.kind == Kind::Number => n.text.parse::<u32>().ok(),
            _ => None,
        };
        let array = self.array;
        if let Some(n) = literal {
            self.out.push_str(&format!("{array}[{}]", base + n));
            return Ok(close + 1);
        }
        if base == 0 {
            self.out.push_str(array);
            self.out.push('[');
        } else {
            self.out.push_str(&format!("{array}[{base} + ("));
            self.close_insert.insert(close, ")");
        }
        self.brackets.push("[");
        Ok(open + 1)
    }

    /// A stage variable takes its MonoGame name; a narrower-than-declared one used whole is
    /// swizzled down so its type still matches.
    fn stage_variable(&mut self, i: usize, b: &Binding) {
        self.out.push_str(&b.to);
        let next = next_significant(self.toks, i).map(|j| self.toks[j].text);
        if b.components < b.declared && !matches!(next, Some(".") | Some("[")) {
            self.out.push('.');
            self.out.push_str(&"xyzw"[..b.components as usize]);
        }
    }

    /// `gl_FragData[n]` becomes the `ps_oC<n>` name the header defines for that target.
    fn frag_data(&mut self, i: usize) -> Result<usize, DialectError> {
        let (n, after) = fragdata_index(self.toks, i)?;
        if !self.p.targets.contains(&n) {
            return Err(internal(&format!(
                "gl_FragData[{n}] without a matching output"
            )));
        }
        self.out.push_str(&format!("ps_oC{n}"));
        Ok(after)
    }

    /// GLSL ES 1.00 has no round(); MojoShader's spelling (§6.4).
    fn round_call(&mut self, i: usize) -> Result<usize, DialectError> {
        let open = next_significant(self.toks, i).unwrap_or(i);
        let close = matching(self.toks, open).ok_or_else(|| internal("unbalanced ("))?;
        self.out.push_str("floor((");
        self.close_insert.insert(close, ") + 0.5");
        self.brackets.push("(");
        Ok(open + 1)
    }

    /// SPIRV-Cross's depth fix-up is where MonoGame's posFixup lines go.
    fn position(&mut self, i: usize) -> usize {
        if let Some(after) = depth_fixup_at(self.toks, i) {
            self.out
                .push_str(&header::pos_fixup(indent_before(self.toks, i)));
            self.flags.fixups += 1;
            return after;
        }
        self.out.push_str(self.toks[i].text);
        i + 1
    }

    /// Texture functions take their legacy spelling, and note the headers they need.
    fn library_name(&mut self, i: usize) -> Result<(), DialectError> {
        let name = texture_function(self.toks[i].text);
        if NO_LEGACY_SPELLING.contains(&name) {
            return Err(no_legacy(self.toks, i, name, &self.sampler_names));
        }
        if LOD_FUNCTIONS.contains(&name) {
            self.flags.lod = true;
        }
        if matches!(name, "dFdx" | "dFdy" | "fwidth") {
            self.flags.derivatives = true;
        }
        self.out.push_str(name);
        Ok(())
    }

    /// Tracks braces, brackets and statement starts; opening main() emits the owed prologue.
    fn punct(&mut self, i: usize) -> usize {
        let t = self.toks[i];
        if t.text == "{"
            && self.depth == 0
            && !self.main_prologue.is_empty()
            && opens_main(self.toks, i)
        {
            self.out.push('{');
            self.out.push_str(&std::mem::take(&mut self.main_prologue));
            self.depth += 1;
            self.statement_start = true;
            return i + 1;
        }
        match t.text {
            "{" => self.depth += 1,
            "}" => self.depth -= 1,
            "(" | "[" => self.brackets.push(t.text),
            ")" | "]" => {
                self.brackets.pop();
            }
            _ => {}
        }
        self.statement_start = matches!(t.text, ";" | "{" | "}");
        self.out.push_str(t.text);
        i + 1
    }
}

/// MonoGame's OpenGL profile cannot rely on extensions, so only those the dialect's headers
/// replace may stay; gpu_shader4 only when what asked for it (round, uint casts) is rewritten.
fn check_extension(toks: &[Token<'_>], ext: &str) -> Result<(), DialectError> {
    let name = ext.split(':').next().unwrap_or("").trim();
    let gpu4_explained = name != "GL_EXT_gpu_shader4"
        || toks.iter().any(|t| {
            t.kind == Kind::Ident && matches!(t.text, "round" | "roundEven" | "uint")
        });
    if !REPLACED_EXTENSIONS.contains(&name) || !gpu4_explained {
        return Err(DialectError::new(
            Code::SD0219,
            format!("the shader needs the GLSL extension {name}, which MonoGame's OpenGL profile cannot rely on"),
            "avoid Shader Model 4+ features (integer math, texel fetches, ...) in OpenGL shaders",
            Some(name.to_string()),
        ));
    }
    Ok(())
}

/// posFixup needs a position to fix and a place to go: refuses a vertex shader without either,
/// and returns whether the shader writes a position (which decides the posFixup uniform).
fn check_position(p: &Plan<'_>, flags: &Flags) -> Result<bool, DialectError> {
    let writes_position = flags.fixups > 0 || p.outputs.iter().any(|b| b.to == "gl_Position");
    // SPIRV-Cross writes its depth fix-up whether or not the shader has a position, so the
    // position counts only when something else mentions it (or a `POSITION` output maps to it).
    let mentions_position = p.outputs.iter().any(|b| b.to == "gl_Position")
        || p.cross
            .text
            .replace("gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;", "")
            .contains("gl_Position");
    if p.stage == Stage::Vertex && !mentions_position {
        // fxc refuses this too: the rasterizer would have no position to draw.
        return Err(DialectError::new(
            Code::SD0217,
            "the vertex shader writes no position",
            "return the clip-space position with the POSITION (or SV_Position) semantic, e.g. a `float4 Position : POSITION0;` member of the output struct",
            None,
        ));
    }
    if p.stage == Stage::Vertex && writes_position && flags.fixups == 0 {
        return Err(DialectError::new(
            Code::SD0219,
            "no place to insert MonoGame's posFixup lines (SPIRV-Cross emitted no depth fixup)",
            "write the clip position to SV_Position (or POSITION) on every path of the vertex shader",
            None,
        ));
    }
    Ok(writes_position)
}

fn assemble(p: &Plan<'_>, flags: &Flags, writes_position: bool, array: &str, body: &str) -> String {
    // Every block that may hold an `#extension` line comes before the precision statements:
    // GLSL ES 1.00 allows `#extension` only before the first non-preprocessor token (GLES2
    // drivers refuse it later). mgfxc likewise puts its derivatives extension first.
    let mut s = String::new();
    if flags.derivatives {
        s.push_str(header::DERIVATIVES);
    }
    if flags.lod {
        s.push_str(header::LOD);
    }
    if flags.depth {
        s.push_str(header::DEPTH);
    }
    let volume = p.samplers.iter().any(|smp| smp.dim == Dim::D3);
    if volume {
        s.push_str(header::TEXTURE_3D);
    }
    if p.targets.iter().any(|&n| n > 0) {
        s.push_str(header::DRAW_BUFFERS);
    }
    s.push_str(&header::precision(p.stage, volume));
    s.push('\n');
    if p.alloc.count > 0 {
        s.push_str(&format!("uniform vec4 {array}[{}];\n", p.alloc.count));
    }
    if p.stage == Stage::Vertex && writes_position {
        s.push_str("uniform vec4 posFixup;\n");
    }
    for smp in p.samplers {
        s.push_str(&format!(
            "uniform {} {};\n",
            glsl_type(smp.dim),
            smp.glsl_name
        ));
    }
    let mut declared: Vec<&str> = Vec::new();
    for b in p.inputs.iter().chain(p.outputs) {
        if let Some(d) = &b.declaration {
            if !declared.contains(&d.as_str()) {
                declared.push(d);
                s.push_str(d);
                s.push('\n');
            }
        }
    }
    // mgfxc: one target → gl_FragColor; several → every target through gl_FragData (§5.2).
    let single = p.targets.len() == 1 && p.targets[0] == 0;
    for n in p.targets {
        if single {
            s.push_str("#define ps_oC0 gl_FragColor\n");
        } else {
            s.push_str(&format!("#define ps_oC{n} gl_FragData[{n}]\n"));
        }
    }
    s.push('\n');
    s.push_str(body.trim_start_matches(['\n', '\r', ' ', '\t']).trim_end());
    s.push('\n');
    s
}

fn internal(what: &str) -> DialectError {
    DialectError::new(
        Code::SD0219,
        format!("internal: unexpected SPIRV-Cross output ({what})"),
        "please report this shader to the ShadowDusk maintainers",
        None,
    )
}

/// The declared identifier of `uniform T name[N]` / `varying T name`.
fn declared_name<'a>(stmt: &[Token<'a>]) -> &'a str {
    let mut last = "";
    for t in stmt {
        if t.text == "[" {
            break;
        }
        if t.kind == Kind::Ident {
            last = t.text;
        }
    }
    last
}

/// Skips from `i` past the rest of the line (one newline), so dropped lines leave no gap.
fn skip_line_end(toks: &[Token<'_>], i: usize) -> usize {
    match toks.get(i) {
        Some(t) if t.kind == Kind::Space && t.text.contains('\n') => i + 1,
        _ => i,
    }
}

fn next_is(toks: &[Token<'_>], i: usize, text: &str) -> bool {
    next_significant(toks, i).is_some_and(|j| toks[j].text == text)
}

/// `gl_FragData [ N ]` at `i` → (N, index after `]`).
fn fragdata_index(toks: &[Token<'_>], i: usize) -> Result<(u32, usize), DialectError> {
    let open = next_significant(toks, i)
        .filter(|&j| toks[j].text == "[")
        .ok_or_else(|| internal("gl_FragData without index"))?;
    let n = next_significant(toks, open).ok_or_else(|| internal("gl_FragData index"))?;
    let close = next_significant(toks, n)
        .filter(|&j| toks[j].text == "]")
        .ok_or_else(|| internal("dynamic gl_FragData index"))?;
    let v = toks[n]
        .text
        .parse::<u32>()
        .map_err(|_| internal("dynamic gl_FragData index"))?;
    Ok((v, close + 1))
}

/// Matches SPIRV-Cross's `gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;` at `i`;
/// returns the index after the `;`.
fn depth_fixup_at(toks: &[Token<'_>], i: usize) -> Option<usize> {
    const PATTERN: [&str; 14] = [
        "gl_Position",
        ".",
        "z",
        "=",
        "2.0",
        "*",
        "gl_Position",
        ".",
        "z",
        "-",
        "gl_Position",
        ".",
        "w",
        ";",
    ];
    let mut j = i;
    for (k, want) in PATTERN.iter().enumerate() {
        if k > 0 {
            j = next_significant(toks, j)?;
        }
        if toks[j].text != *want {
            return None;
        }
    }
    Some(j + 1)
}

fn indent_before<'a>(toks: &[Token<'a>], i: usize) -> &'a str {
    match i.checked_sub(1).map(|j| toks[j]) {
        Some(t) if t.kind == Kind::Space => t.text.rsplit('\n').next().unwrap_or(""),
        _ => "",
    }
}

/// Normalises SPIRV-Cross's extension-suffixed texture functions to the legacy names the LOD
/// header maps (§6.3).
fn texture_function(name: &str) -> &str {
    match name {
        "texture2DLodARB" | "texture2DLodEXT" => "texture2DLod",
        "textureCubeLodARB" | "textureCubeLodEXT" => "textureCubeLod",
        "texture2DGradARB" | "texture2DGradEXT" => "texture2DGrad",
        "texture2DProjLodARB" | "texture2DProjLodEXT" => "texture2DProjLod",
        "texture2DProjGradARB" | "texture2DProjGradEXT" => "texture2DProjGrad",
        "textureCubeGradARB" | "textureCubeGradEXT" => "textureCubeGrad",
        "texture3DGradARB" | "texture3DGradEXT" => "texture3DGrad",
        "texture3DProjGradARB" => "texture3DProjGrad",
        other => other,
    }
}

fn no_legacy(
    toks: &[Token<'_>],
    i: usize,
    name: &str,
    samplers: &BTreeMap<&str, &DialectSampler>,
) -> DialectError {
    let sampler = next_significant(toks, i)
        .and_then(|open| next_significant(toks, open))
        .and_then(|j| samplers.get(toks[j].text))
        .map(|s| (s.texture.clone(), s.dim));
    let what = match sampler.as_ref().map(|s| s.1) {
        Some(Dim::Cube) => "a cube texture",
        Some(Dim::D3) => "a volume texture",
        _ => "this texture",
    };
    DialectError::new(
        Code::SD0214,
        format!("gradient or projected sampling ({name}) on {what} has no GLSL 1.10 / GLSL ES 1.00 spelling"),
        "sample a cube texture without projection (Sample, SampleLevel, SampleGrad): GLSL 1.10 has no projected cube lookup",
        sampler.map(|s| s.0),
    )
}

/// Refuses user identifiers that equal a name the dialect generates (§9, fragile points).
fn check_collisions(toks: &[Token<'_>]) -> Result<(), DialectError> {
    const FIXED: &[&str] = &[
        "posFixup",
        "vs_uniforms_vec4",
        "ps_uniforms_vec4",
        "vFrontColor",
        "vFrontSecondaryColor",
        "vFogFragCoord",
        "ps_oDepth",
    ];
    const NUMBERED: &[&str] = &["vTexCoord", "ps_oC", "ps_s", "vs_v"];
    for t in toks.iter().filter(|t| t.kind == Kind::Ident) {
        let numbered = NUMBERED.iter().any(|p| {
            t.text
                .strip_prefix(p)
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        });
        if numbered || FIXED.contains(&t.text) {
            return Err(DialectError::new(
                Code::SD0215,
                format!("the identifier `{}` collides with a name MonoGame's GL dialect reserves", t.text),
                "rename it: posFixup, vs_uniforms_vec4, ps_uniforms_vec4, vFrontColor, vFrontSecondaryColor, \
                 vTexCoordN, ps_oCN, ps_sN and vs_vN are generated names",
                Some(t.text.to_string()),
            ));
        }
    }
    Ok(())
}

/// `[const] T name[N] = T[](a, b, ...);` split into a plain declaration and its elements.
struct ArrayInit {
    declaration: String,
    name: String,
    elements: Vec<String>,
    /// Token index after the `;`.
    end: usize,
}

fn array_initializer(toks: &[Token<'_>], i: usize) -> Option<ArrayInit> {
    let semi = (i..toks.len())
        .find(|&j| toks[j].kind == Kind::Punct && matches!(toks[j].text, ";" | "{" | "}"))?;
    if toks[semi].text != ";" {
        return None;
    }
    let eq = (i..semi).find(|&j| toks[j].text == "=")?;
    let ctor = next_significant(toks, eq)?;
    let lb = next_significant(toks, ctor)?;
    let rb = next_significant(toks, lb)?;
    let open = next_significant(toks, rb)?;
    if toks[ctor].kind != Kind::Ident
        || toks[lb].text != "["
        || toks[rb].text != "]"
        || toks[open].text != "("
    {
        return None;
    }
    let close = matching(toks, open)?;
    if next_significant(toks, close) != Some(semi) {
        return None;
    }
    let lhs: Vec<&Token<'_>> = toks[i..eq]
        .iter()
        .filter(|t| !(t.kind == Kind::Ident && t.text == "const"))
        .collect();
    let name = declared_name(&toks[i..eq]).to_string();
    let declaration = format!("{};", lhs.iter().map(|t| t.text).collect::<String>().trim());
    let mut elements = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for t in &toks[open + 1..close] {
        match t.text {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            "," if depth == 0 && t.kind == Kind::Punct => {
                elements.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push_str(t.text);
    }
    elements.push(current.trim().to_string());
    Some(ArrayInit {
        declaration,
        name,
        elements,
        end: semi + 1,
    })
}

/// Whether the `{` at `i` opens `void main()`.
fn opens_main(toks: &[Token<'_>], i: usize) -> bool {
    let sig: Vec<&str> = toks[..i]
        .iter()
        .rev()
        .filter(|t| !matches!(t.kind, Kind::Space | Kind::Comment))
        .take(3)
        .map(|t| t.text)
        .collect();
    sig == [")", "(", "main"]
}
