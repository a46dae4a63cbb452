//! Sampler and texture object declarations and their `register(...)` clauses
//! (fx-pipeline.md §3, §3.2).
//!
//! A sampler's `= sampler_state { ... }` or `{ ... }` block is recorded for blanking and baked
//! through [`SamplerBlock`]. Refused: sampler arrays (FX0001), end of text inside the block
//! (FX0009), unknown sampler-state key or value (SD0024), missing `;` (FX0008).

use super::{Parser, R};
use crate::diag::Code;
use crate::effect::ast::*;
use crate::effect::sampler_states::SamplerBlock;
use crate::effect::state_objects::{ObjectBlock, ObjectKind};
use crate::effect::values::Value;
use crate::effect::{SamplerSite, StateSite, TextureSite};

impl Parser<'_> {
    pub(super) fn registers(&mut self, letter: char) -> R<Option<u32>> {
        let mut reg = None;
        loop {
            // A semantic on an object (`texture ColorMap : Diffuse;`) is a hint for tools; fxc
            // ignores it, and so does MonoGame. It is blanked so DXC never sees it.
            if self.is(self.i, ":") && self.is_ident(self.i + 1) && !self.is(self.i + 1, "register")
            {
                let r = self.range(self.i).start..self.range(self.i + 1).end;
                self.blank.push(r);
                self.i += 2;
                continue;
            }
            if !(self.is(self.i, ":")
                && self.is(self.i + 1, "register")
                && self.is(self.i + 2, "("))
            {
                break;
            }
            let close = self.skip_balanced(self.i + 2, Code::FX0001, "a register")?;
            // The slot is the last argument: `register(s0)` or `register(ps, s0)`.
            let last = self.text(close - 2);
            if let Some(n) = last
                .strip_prefix(letter)
                .or_else(|| last.strip_prefix(letter.to_ascii_uppercase()))
                .and_then(|n| n.parse::<u32>().ok())
            {
                reg = Some(n);
            }
            self.i = close;
        }
        Ok(reg)
    }

    pub(super) fn sampler_decl(&mut self, kw: usize, dim: Option<Dim>, legacy: bool) -> R<()> {
        let name_i = self.i;
        self.i += 1;
        if self.is(self.i, "[") {
            return Err(self.err(
                Code::FX0001,
                self.range(self.i),
                "sampler arrays are not supported",
                "declare one sampler per texture",
            ));
        }
        let register = self.registers('s')?;
        self.maybe_annotations()?;
        let mut block = SamplerBlock::default();
        if self.is(self.i, "=") || self.is(self.i, "{") {
            let start = self.i;
            if self.is(self.i, "=") {
                if !self.text(self.i + 1).eq_ignore_ascii_case("sampler_state")
                    || !self.is(self.i + 2, "{")
                {
                    return Err(self.unexpected(self.i + 1, "`sampler_state {`"));
                }
                self.i += 2;
            }
            let open = self.i;
            self.i += 1;
            loop {
                if self.i >= self.toks.len() {
                    return Err(self.err(
                        Code::FX0009,
                        self.range(open),
                        "end of file inside this sampler state block",
                        "close the block with `}`",
                    ));
                }
                if self.is(self.i, "}") {
                    self.i += 1;
                    break;
                }
                let key = self.i;
                if !self.is_ident(key) || !self.is(key + 1, "=") {
                    if key + 1 >= self.toks.len() {
                        return Err(self.err(
                            Code::FX0009,
                            self.range(open),
                            "end of file inside this sampler state block",
                            "close the block with `}`",
                        ));
                    }
                    return Err(self.unexpected(
                        if self.is_ident(key) { key + 1 } else { key },
                        "`Key = Value;`",
                    ));
                }
                let vstart = key + 2;
                self.i = vstart;
                while self.i < self.toks.len() && !self.is(self.i, ";") && !self.is(self.i, "}") {
                    self.i += 1;
                }
                if self.i >= self.toks.len() {
                    return Err(self.err(
                        Code::FX0009,
                        self.range(open),
                        "end of file inside this sampler state block",
                        "close the block with `}`",
                    ));
                }
                if vstart == self.i {
                    return Err(self.unexpected(self.i, "a sampler state value"));
                }
                self.value_runs_on(vstart, self.i)?;
                let value = Value::from_tokens(self.src, &self.toks[vstart..self.i]);
                let vrange = self.span(vstart, self.i - 1);
                self.expect_semicolon()?;
                self.sites.states.push(StateSite {
                    owner: self.range(name_i).start,
                    key: self.text(key).to_ascii_lowercase(),
                    value: self.src[vrange.clone()].to_string(),
                    range: self.range(key).start..vrange.end,
                });
                if let Err(e) = block.apply(self.text(key), &value) {
                    return Err(self.state_error(Code::SD0024, "sampler state", key, vrange, e));
                }
            }
            self.blank.push(self.span(start, self.i - 1));
        }
        self.expect_semicolon()?;
        self.ast.samplers.push(SamplerDecl {
            name: self.text(name_i).to_string(),
            dim,
            legacy,
            texture: block.texture.clone(),
            state: block.bake(),
            register,
            range: self.range(name_i),
        });
        self.sites.samplers.push(SamplerSite {
            keyword_range: self.range(kw),
            stmt_end: self.range(self.i - 1).end,
        });
        Ok(())
    }

    pub(super) fn texture_decl(&mut self, kw: usize, dim: Dim, legacy: bool) -> R<()> {
        let name_i = self.i;
        self.i += 1;
        let array = self.is(self.i, "[");
        while self.is(self.i, "[") {
            self.i = self.skip_balanced(self.i, Code::FX0001, "an array size")?;
        }
        let register = self.registers('t')?;
        self.maybe_annotations()?;
        self.expect_semicolon()?;
        if array {
            // Texture arrays cannot be MGFX parameters; the dialect stage reports their use.
            return Ok(());
        }
        self.ast.textures.push(TextureDecl {
            name: self.text(name_i).to_string(),
            dim,
            register,
            range: self.range(name_i),
        });
        self.sites.textures.push(TextureSite {
            keyword_range: self.range(kw),
            legacy,
        });
        Ok(())
    }

    /// `BlendState Name { Key = Value; Key[n] = Value; … };` (also `= { … }`), blanked whole.
    pub(super) fn state_object_decl(&mut self, kw: usize, kind: ObjectKind) -> R<()> {
        let name_i = self.i;
        self.i += 1;
        if self.is(self.i, "=") {
            self.i += 1;
        }
        if !self.is(self.i, "{") {
            return Err(self.unexpected(self.i, "`{` opening the state block"));
        }
        let open = self.i;
        let close = self.skip_balanced(open, Code::FX0009, "a state block")?;
        self.i = open + 1;
        let mut block = ObjectBlock::new(kind);
        while self.i < close - 1 {
            let key = self.i;
            if !self.is_ident(key) {
                return Err(self.unexpected(key, "a state name"));
            }
            self.i += 1;
            let mut index = 0;
            if self.is(self.i, "[") {
                let n = self.text(self.i + 1).parse::<u32>().ok();
                if !self.is(self.i + 2, "]") || n.is_none() {
                    return Err(self.unexpected(self.i + 1, "a render-target index"));
                }
                index = n.unwrap_or(0);
                self.i += 3;
            }
            if !self.is(self.i, "=") {
                return Err(self.unexpected(self.i, "`=`"));
            }
            self.i += 1;
            let vstart = self.i;
            while self.i < close - 1 && !self.is(self.i, ";") {
                self.i += 1;
            }
            if vstart == self.i {
                return Err(self.unexpected(self.i, "a state value"));
            }
            self.value_runs_on(vstart, self.i)?;
            let value = Value::from_tokens(self.src, &self.toks[vstart..self.i]);
            let vrange = self.span(vstart, self.i - 1);
            self.expect_semicolon()?;
            self.sites.states.push(StateSite {
                owner: self.range(name_i).start,
                key: self.text(key).to_ascii_lowercase(),
                value: self.src[vrange.clone()].to_string(),
                range: self.range(key).start..vrange.end,
            });
            if let Err(e) = block.apply(self.text(key), index, &value) {
                return Err(self.state_error(Code::SD0026, "state", key, vrange, e));
            }
        }
        self.i = close;
        if self.is(self.i, ";") {
            self.i += 1;
        }
        let end = self.range(self.i - 1).end;
        self.blank.push(self.range(kw).start..end);
        self.ast.state_objects.push(StateObject {
            name: self.text(name_i).to_string(),
            state: block.bake(),
            range: self.range(name_i),
        });
        Ok(())
    }
}
