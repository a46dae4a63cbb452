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
            let value = Value::from_tokens(self.src, &self.toks[vstart..self.i]);
            let vrange = self.span(vstart, self.i - 1);
            self.expect_semicolon()?;
            if let Err(e) = render_states::apply(&mut states, self.text(key), &value) {
                return Err(self.state_error(Code::SD0011, "render state", key, vrange, e));
            }
        }
        pass.blend = states.blend;
        pass.depth_stencil = states.depth_stencil;
        pass.rasterizer = states.rasterizer;
        Ok(pass)
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
