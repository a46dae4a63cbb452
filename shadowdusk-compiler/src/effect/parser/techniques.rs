//! Technique and pass blocks: `technique Name <annotations> { pass P { VertexShader = compile
//! vs_3_0 VS(); AlphaBlendEnable = true; } }` (fx-pipeline.md §3, §3.1, §5).
//!
//! The whole block (and its trailing `;`) is recorded for blanking. Render states go through
//! [`render_states`] in source order. Refused: FX0001, FX0002 (end of text inside the block),
//! FX0003 (malformed `compile`), FX0008, SD0011 (unknown state key or value), SD0013 (profile of
//! the wrong stage, or unknown).

use std::ops::Range;

use super::{Parser, R};
use crate::diag::{Code, Diagnostic};
use crate::effect::ast::*;
use crate::effect::render_states::{self, PassStates};
use crate::effect::state_objects::ObjectState;
use crate::effect::StateSite;
use crate::effect::values::{Value, ValueError};

impl Parser<'_> {
    pub(super) fn technique(&mut self) -> R<()> {
        let kw = self.i;
        self.i += 1;
        let mut name = String::new();
        let mut range = self.range(kw);
        if self.is_ident(self.i) && !self.text(self.i).eq_ignore_ascii_case("pass") {
            name = self.text(self.i).to_string();
            range = self.range(self.i);
            self.i += 1;
        }
        let annotations = self.maybe_annotations()?;
        if !self.is(self.i, "{") {
            return Err(self.eof_or(self.i, Code::FX0002, "`{` after the technique name"));
        }
        self.i += 1;
        let mut passes = Vec::new();
        loop {
            if self.i >= self.toks.len() {
                return Err(self.err(
                    Code::FX0002,
                    self.range(kw),
                    "end of file inside this technique",
                    "close the technique with `}`",
                ));
            }
            if self.is(self.i, "}") {
                self.i += 1;
                break;
            }
            if self.text(self.i).eq_ignore_ascii_case("pass") {
                passes.push(self.pass()?);
            } else {
                return Err(self.unexpected(self.i, "`pass` or `}`"));
            }
        }
        let mut end = self.range(self.i - 1).end;
        if self.is(self.i, ";") {
            end = self.range(self.i).end;
            self.i += 1;
        }
        self.blank.push(self.range(kw).start..end);
        self.ast.techniques.push(Technique {
            name,
            range,
            annotations,
            passes,
        });
        Ok(())
    }

    pub(super) fn eof_or(&self, i: usize, eof_code: Code, expected: &str) -> Box<Diagnostic> {
        if i >= self.toks.len() {
            self.err(
                eof_code,
                self.range(i),
                format!("end of file, expected {expected}"),
                "close the block",
            )
        } else {
            self.unexpected(i, expected)
        }
    }

    pub(super) fn pass(&mut self) -> R<Pass> {
        let kw = self.i;
        self.i += 1;
        let mut name = String::new();
        let mut range = self.range(kw);
        if self.is_ident(self.i) {
            name = self.text(self.i).to_string();
            range = self.range(self.i);
            self.i += 1;
        }
        let annotations = self.maybe_annotations()?;
        if !self.is(self.i, "{") {
            return Err(self.eof_or(self.i, Code::FX0002, "`{` after the pass name"));
        }
        self.i += 1;
        let mut pass = Pass {
            name,
            range,
            annotations,
            vertex_shader: None,
            pixel_shader: None,
            blend: None,
            depth_stencil: None,
            rasterizer: None,
        };
        let mut states = PassStates::default();
        loop {
            if self.i >= self.toks.len() {
                return Err(self.err(
                    Code::FX0002,
                    self.range(kw),
                    "end of file inside this pass",
                    "close the pass with `}`",
                ));
            }
            if self.is(self.i, "}") {
                self.i += 1;
                break;
            }
            let key = self.i;
            if !self.is_ident(key) {
                return Err(self.unexpected(key, "a state name or `}`"));
            }
            if self.is(key + 1, "(") {
                self.pass_call(&mut pass, &mut states)?;
                continue;
            }
            if !self.is(key + 1, "=") {
                return Err(self.eof_or(key + 1, Code::FX0002, "`=`"));
            }
            self.i = key + 2;
            let key_text = self.text(key).to_ascii_lowercase();
            if key_text == "vertexshader" || key_text == "pixelshader" {
                let vertex = key_text == "vertexshader";
                let shader = self.compile(vertex)?;
                if vertex {
                    pass.vertex_shader = Some(shader);
                } else {
                    pass.pixel_shader = Some(shader);
                }
                continue;
            }
            let vstart = self.i;
            while self.i < self.toks.len() && !self.is(self.i, ";") && !self.is(self.i, "}") {
                self.i += 1;
            }
            if self.i >= self.toks.len() {
                return Err(self.err(
                    Code::FX0002,
                    self.range(kw),
                    "end of file inside this pass",
                    "close the pass with `}`",
                ));
            }
            if vstart == self.i {
                return Err(self.unexpected(self.i, "a state value"));
            }
            self.value_runs_on(vstart, self.i)?;
            let value = Value::from_tokens(self.src, &self.toks[vstart..self.i]);
            let vrange = self.span(vstart, self.i - 1);
            self.expect_semicolon()?;
            // D3D10/11 effects clear the stages MonoGame does not have: `GeometryShader = NULL;`.
            if matches!(
                key_text.as_str(),
                "geometryshader" | "hullshader" | "domainshader" | "computeshader"
            ) {
                if !matches!(&value, Value::Ident(v) if v.eq_ignore_ascii_case("null"))
                    && !matches!(&value, Value::Number { value: v, .. } if *v == 0.0)
                {
                    return Err(self.err(
                        Code::SD0027,
                        self.range(key),
                        format!(
                            "`{}` with a shader: MonoGame has only vertex and pixel shaders",
                            self.text(key)
                        ),
                        "remove the assignment, or assign NULL",
                    ));
                }
                continue;
            }
            self.sites.states.push(StateSite {
                owner: pass.range.start,
                key: key_text.clone(),
                value: self.src[vrange.clone()].to_string(),
                range: self.range(key).start..vrange.end,
            });
            if let Err(e) = render_states::apply(&mut states, self.text(key), &value) {
                return Err(self.state_error(Code::SD0011, "render state", key, vrange, e));
            }
        }
        pass.blend = states.blend;
        pass.depth_stencil = states.depth_stencil;
        pass.rasterizer = states.rasterizer;
        Ok(pass)
    }

    /// A D3D10-style pass statement: `SetBlendState(Name, …);`, `SetDepthStencilState(Name, …);`,
    /// `SetRasterizerState(Name);`, `SetVertexShader(CompileShader(vs_4_0, VS()));`,
    /// `SetPixelShader(…)`, `SetGeometryShader(NULL);`.
    fn pass_call(&mut self, pass: &mut Pass, states: &mut PassStates) -> R<()> {
        let key = self.i;
        let open = key + 1;
        let close = self.skip_balanced(open, Code::FX0002, "the call's arguments")?;
        let func = self.text(key).to_ascii_lowercase();
        let first = open + 1;
        match func.as_str() {
            "setblendstate" | "setdepthstencilstate" | "setrasterizerstate" => {
                let name = self.text(first);
                self.sites.states.push(StateSite {
                    owner: pass.range.start,
                    key: func.clone(),
                    value: name.to_string(),
                    range: self.range(key).start..self.range(close).end,
                });
                let Some(obj) = self.ast.state_objects.iter().find(|o| o.name == name) else {
                    return Err(self.err(
                        Code::SD0027,
                        self.range(first),
                        format!("`{name}` is not a declared state object"),
                        &format!(
                            "declare it before the technique: `{} {name} {{ … }};`",
                            &self.text(key)[3..]
                        ),
                    ));
                };
                match (func.as_str(), obj.state) {
                    ("setblendstate", ObjectState::Blend(b)) => states.blend = Some(b),
                    ("setdepthstencilstate", ObjectState::DepthStencil(d)) => {
                        let mut d = d;
                        // The second argument is the stencil reference value.
                        let args = self.split_args(first, close - 1);
                        if let Some(r) = args.get(1).and_then(|a| a.parse::<f64>().ok()) {
                            d.reference_stencil = r as i32;
                        }
                        states.depth_stencil = Some(d)
                    }
                    ("setrasterizerstate", ObjectState::Rasterizer(r)) => states.rasterizer = Some(r),
                    _ => {
                        return Err(self.err(
                            Code::SD0027,
                            self.range(first),
                            format!("`{name}` is not the kind of state `{}` sets", self.text(key)),
                            "pass a BlendState to SetBlendState, a DepthStencilState to SetDepthStencilState, a RasterizerState to SetRasterizerState",
                        ))
                    }
                }
            }
            "setvertexshader" | "setpixelshader" => {
                let vertex = func == "setvertexshader";
                let shader = self.compile_shader_call(first, close - 1, vertex)?;
                if vertex {
                    pass.vertex_shader = shader;
                } else {
                    pass.pixel_shader = shader;
                }
            }
            "setgeometryshader" | "sethullshader" | "setdomainshader" | "setcomputeshader" => {
                let arg = self.text(first);
                if !(arg.eq_ignore_ascii_case("null") || arg == "0") || close != first + 2 {
                    return Err(self.err(
                        Code::SD0027,
                        self.range(key),
                        format!("`{}` with a shader: MonoGame has only vertex and pixel shaders", self.text(key)),
                        "remove the statement, or pass NULL",
                    ));
                }
            }
            _ => {
                return Err(self.err(
                    Code::SD0011,
                    self.range(key),
                    format!("unknown pass statement `{}`", self.text(key)),
                    "a pass sets render states (`ZEnable = false;`), shaders (`PixelShader = compile ps_3_0 PS();`) or state objects (`SetBlendState(Name, float4(0, 0, 0, 0), 0xFFFFFFFF);`)",
                ))
            }
        }
        self.i = close;
        self.expect_semicolon()
    }

    /// `CompileShader(profile, Entry(args))` (or `NULL`) in tokens `a..b`.
    fn compile_shader_call(&self, a: usize, b: usize, vertex: bool) -> R<Option<ShaderRef>> {
        if b == a + 1 && (self.text(a).eq_ignore_ascii_case("null") || self.text(a) == "0") {
            return Ok(None);
        }
        let bad = |i: usize| {
            self.err(
                Code::FX0003,
                self.range(i),
                "malformed `CompileShader` call",
                "write `CompileShader(ps_4_0, MainPS())`",
            )
        };
        if !self.text(a).eq_ignore_ascii_case("compileshader") || !self.is(a + 1, "(") {
            return Err(bad(a));
        }
        let (profile_i, entry_i) = (a + 2, a + 4);
        if !self.is_ident(profile_i)
            || !self.is(a + 3, ",")
            || !self.is_ident(entry_i)
            || !self.is(entry_i + 1, "(")
        {
            return Err(bad(a));
        }
        let args_close = self.skip_balanced(entry_i + 1, Code::FX0002, "the entry's arguments")?;
        let args = self.split_args(entry_i + 2, args_close - 1);
        self.shader_ref(vertex, profile_i, entry_i, args).map(Some)
    }

    pub(super) fn state_error(
        &self,
        code: Code,
        what: &str,
        key: usize,
        vrange: Range<usize>,
        e: ValueError,
    ) -> Box<Diagnostic> {
        match e {
            ValueError::UnknownKey { valid } => self.err(
                code,
                self.range(key),
                format!("unknown {what} `{}`", self.text(key)),
                &format!("valid {what}s: {valid}"),
            ),
            ValueError::BadValue { expected, valid } => self.err(
                code,
                vrange.clone(),
                format!(
                    "invalid value `{}` for {what} `{}`: expected {expected}",
                    &self.src[vrange],
                    self.text(key)
                ),
                &format!("valid values: {valid}"),
            ),
        }
    }

    /// `compile <profile> <entry>(<args>);` after `VertexShader =` / `PixelShader =`.
    pub(super) fn compile(&mut self, vertex: bool) -> R<ShaderRef> {
        let help = "write `compile <profile> <Entry>();`, e.g. `compile ps_3_0 MainPS();`";
        let bad = |p: &Self, i: usize| {
            p.err(
                Code::FX0003,
                p.range(i),
                "malformed `compile` statement",
                help,
            )
        };
        if !self.text(self.i).eq_ignore_ascii_case("compile") {
            return Err(bad(self, self.i));
        }
        let profile_i = self.i + 1;
        let entry_i = self.i + 2;
        if !self.is_ident(profile_i) || !self.is_ident(entry_i) || !self.is(entry_i + 1, "(") {
            let at = [profile_i, entry_i, entry_i + 1]
                .into_iter()
                .find(|&i| i >= self.toks.len() || !(self.is_ident(i) || self.is(i, "(")))
                .unwrap_or(profile_i);
            return Err(bad(self, at.min(self.toks.len())));
        }
        let close = self.skip_balanced(entry_i + 1, Code::FX0002, "the `compile` arguments")?;
        let args = self.split_args(entry_i + 2, close - 1);
        self.i = close;
        self.expect_semicolon()?;
        self.shader_ref(vertex, profile_i, entry_i, args)
    }

    /// Checks the profile of a `compile`/`CompileShader` and builds the reference.
    fn shader_ref(
        &self,
        vertex: bool,
        profile_i: usize,
        entry_i: usize,
        args: Vec<String>,
    ) -> R<ShaderRef> {
        let profile = self.text(profile_i).to_ascii_lowercase();
        let want = if vertex { "vs_" } else { "ps_" };
        if !profile.starts_with(want) {
            let stage = if vertex {
                "VertexShader"
            } else {
                "PixelShader"
            };
            return Err(self.err(
                Code::SD0013,
                self.range(profile_i),
                format!("profile `{profile}` does not fit `{stage}`"),
                &format!("use a `{want}*` profile for `{stage}`, e.g. `{want}3_0`"),
            ));
        }
        if !known_profile(&profile[3..]) {
            return Err(self.err(
                Code::SD0013,
                self.range(profile_i),
                format!("unknown shader profile `{profile}`"),
                &format!("use a profile fxc knows, e.g. `{want}2_0` or `{want}3_0` (MonoGame's OpenGL profile compiles any of them the same way)"),
            ));
        }
        Ok(ShaderRef {
            profile,
            entry: self.text(entry_i).to_string(),
            args,
            range: self.range(entry_i),
        })
    }

    /// Splits tokens `a..b` at depth-0 commas into trimmed source texts.
    pub(super) fn split_args(&self, a: usize, b: usize) -> Vec<String> {
        let mut out = Vec::new();
        if a >= b {
            return out;
        }
        let mut depth = 0;
        let mut start = a;
        for i in a..=b {
            let t = if i == b { "," } else { self.text(i) };
            match t {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => {
                    if start < i {
                        out.push(self.src[self.span(start, i - 1)].to_string());
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        out
    }
}

/// The part of a profile after `vs_`/`ps_` that fxc (or DXC) knows: shader models 1 to 6,
/// the SM2 variants, and the `4_0_level_9_x` feature levels MonoGame's templates use for
/// DirectX. ShadowDusk compiles every one of them alike for OpenGL (see the README).
fn known_profile(rest: &str) -> bool {
    matches!(
        rest,
        "1_1"
            | "1_2"
            | "1_3"
            | "1_4"
            | "2_0"
            | "2_a"
            | "2_b"
            | "2_sw"
            | "3_0"
            | "3_sw"
            | "4_0"
            | "4_1"
            | "5_0"
            | "5_1"
            | "4_0_level_9_1"
            | "4_0_level_9_2"
            | "4_0_level_9_3"
            | "6_0"
            | "6_1"
            | "6_2"
            | "6_3"
            | "6_4"
            | "6_5"
            | "6_6"
            | "6_7"
            | "6_8"
    )
}
