//! Rust identifiers from HLSL names: `snake_case` for methods, fields and modules,
//! `UpperCamelCase` for enum variants, `SCREAMING_SNAKE_CASE` for constants.
//!
//! HLSL names are ASCII identifiers, but MGFX names are arbitrary UTF-8, so every character that
//! is not an ASCII letter or digit separates words; an empty result falls back to a fixed word and
//! a leading digit gets a prefix. Rust keywords get a trailing `_` (`type` → `type_`). Two
//! names that mangle alike (`TintColor`, `tint_color`) are told apart by [`Namer`], which numbers
//! the later one (`tint_color_2`) in declaration order, so the result is deterministic.

use std::collections::BTreeSet;

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Strict and reserved keywords of every edition (2024's `gen` included so generated code keeps
/// compiling when the user's crate moves edition).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Whether `s` is a Rust keyword (as a plain identifier it would not compile).
pub(crate) fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// `name` with every character that is not an ASCII letter or digit turned into a word break,
/// so heck splits there too and the result is an ASCII identifier.
fn ascii_words(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect()
}

/// `snake_case` (heck's word splitting: `tintColor`, `HTMLColor` → `html_color`,
/// `Light0Direction` → `light0_direction`); `fallback` when nothing alphanumeric is left;
/// keywords get a trailing `_`.
pub(crate) fn snake(name: &str, fallback: &str) -> String {
    let mut s = ascii_words(name).to_snake_case();
    if s.is_empty() {
        s = fallback.to_string();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{fallback}_{s}");
    }
    if is_keyword(&s) {
        s.push('_');
    }
    s
}

/// `SCREAMING_SNAKE_CASE` (never a keyword: keywords are lower case, except `Self`).
pub(crate) fn screaming(name: &str, fallback: &str) -> String {
    let s = snake(name, fallback);
    s.trim_end_matches('_').to_ascii_uppercase()
}

/// `UpperCamelCase`; a leading digit gets `fallback` in front. `Self` is left as is: [`Namer`]
/// reserves it, so it is numbered (`Self2`).
pub(crate) fn camel(name: &str, fallback: &str) -> String {
    let mut s = ascii_words(name).to_upper_camel_case();
    if s.is_empty() {
        s = fallback.to_string();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{fallback}{s}");
    }
    s
}

/// Hands out names that are unique within one namespace.
#[derive(Debug, Default)]
pub(crate) struct Namer {
    taken: BTreeSet<String>,
}

impl Namer {
    /// A namer where `reserved` are already taken, as are all keywords.
    pub(crate) fn with_reserved(reserved: &[&str]) -> Namer {
        let mut taken: BTreeSet<String> = KEYWORDS.iter().map(|s| s.to_string()).collect();
        taken.extend(reserved.iter().map(|s| s.to_string()));
        Namer { taken }
    }

    /// Claims `base`, or the first of `base{sep}2`, `base{sep}3`, … whose whole family is free.
    /// The family is every `prefix + candidate + suffix` in `family`; all of them are claimed.
    /// Returns the chosen candidate.
    pub(crate) fn claim(&mut self, base: &str, sep: &str, family: &[(&str, &str)]) -> String {
        let mut n = 1u32;
        loop {
            let candidate = if n == 1 {
                base.to_string()
            } else {
                format!("{base}{sep}{n}")
            };
            let names: Vec<String> = family
                .iter()
                .map(|(pre, suf)| format!("{pre}{candidate}{suf}"))
                .collect();
            if names.iter().all(|x| !self.taken.contains(x)) {
                self.taken.extend(names);
                return candidate;
            }
            n += 1;
        }
    }

    /// Claims one name on its own (see [`Namer::claim`]).
    pub(crate) fn claim_one(&mut self, base: &str, sep: &str) -> String {
        self.claim(base, sep, &[("", "")])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_of_hlsl_names() {
        assert_eq!(snake("TintColor", "p"), "tint_color");
        assert_eq!(snake("WorldViewProj", "p"), "world_view_proj");
        assert_eq!(snake("DirLight0Direction", "p"), "dir_light0_direction");
        assert_eq!(snake("HTMLColor", "p"), "html_color");
        assert_eq!(snake("posFixup", "p"), "pos_fixup");
        assert_eq!(snake("vs_uniforms_vec4", "p"), "vs_uniforms_vec4");
        assert_eq!(snake("__Odd__name__", "p"), "odd_name");
        assert_eq!(snake("Bones", "p"), "bones");
        assert_eq!(snake("XY", "p"), "xy");
    }

    #[test]
    fn snake_case_edge_cases() {
        assert_eq!(snake("", "param"), "param");
        assert_eq!(snake("___", "param"), "param");
        assert_eq!(snake("2Sided", "param"), "param_2sided");
        assert_eq!(snake("Grün", "param"), "gr_n");
        assert_eq!(snake("type", "p"), "type_");
        assert_eq!(snake("Self", "p"), "self_");
        assert_eq!(snake("Match", "p"), "match_");
        assert_eq!(snake("gen", "p"), "gen_");
    }

    #[test]
    fn camel_and_screaming() {
        assert_eq!(
            camel("SkinnedEffect_VertexLighting_OneBone", "T"),
            "SkinnedEffectVertexLightingOneBone"
        );
        assert_eq!(camel("TintedSpriteDrawing", "T"), "TintedSpriteDrawing");
        assert_eq!(camel("", "Technique"), "Technique");
        assert_eq!(camel("3d", "Technique"), "Technique3d");
        assert_eq!(screaming("SpriteTexture", "T"), "SPRITE_TEXTURE");
        assert_eq!(screaming("type", "T"), "TYPE");
        assert_eq!(screaming("P0", "PASS"), "P0");
    }

    #[test]
    fn collisions_are_numbered_in_order() {
        let mut n = Namer::with_reserved(&[]);
        let fam = [("", ""), ("set_", "")];
        assert_eq!(n.claim(&snake("TintColor", "p"), "_", &fam), "tint_color");
        assert_eq!(
            n.claim(&snake("tint_color", "p"), "_", &fam),
            "tint_color_2"
        );
        assert_eq!(
            n.claim(&snake("Tint_Color", "p"), "_", &fam),
            "tint_color_3"
        );
    }

    #[test]
    fn families_block_each_other() {
        let mut n = Namer::with_reserved(&[]);
        // An array claims `colors` and `colors_at`; a later `ColorsAt` must not reuse `colors_at`.
        let array = [("", ""), ("set_", ""), ("", "_at"), ("set_", "_at")];
        let plain = [("", ""), ("set_", "")];
        assert_eq!(n.claim("colors", "_", &array), "colors");
        assert_eq!(n.claim(&snake("ColorsAt", "p"), "_", &plain), "colors_at_2");
        // A name whose setter form is taken is numbered too.
        let mut n = Namer::with_reserved(&["set_x"]);
        assert_eq!(n.claim("x", "_", &plain), "x_2");
    }

    #[test]
    fn keywords_are_reserved_for_camel_names() {
        let mut n = Namer::with_reserved(&[]);
        assert_eq!(n.claim_one(&camel("self", "T"), ""), "Self2");
        assert_eq!(n.claim_one("Pass", ""), "Pass");
        assert_eq!(n.claim_one("Pass", ""), "Pass2");
    }
}
