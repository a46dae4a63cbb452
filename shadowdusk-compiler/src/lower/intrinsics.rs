//! The D3D9 `tex*` intrinsic families and the method calls they become (fx-pipeline.md §4.1
//! item 1 and 4).
//!
//! Each template names the texture `{T}`, the sampler `{S}` and the call's arguments `{1}`..
//! `{3}` (argument 0 is the sampler). Coordinates are swizzled to the width the texture
//! dimension needs, so a wider argument never triggers DXC's implicit-truncation warning
//! (an error under `-WX`); the `.w` of `lod`/`bias`/`proj` coordinates is read the same way.

use std::collections::BTreeSet;

use crate::effect::lexer::{Token, TokenKind};
use crate::effect::Dim;

/// One intrinsic: its name, the dimension it implies, and one template per accepted arity
/// (counting the sampler).
pub struct Intrinsic {
    /// `tex2Dlod`, ...
    pub name: &'static str,
    /// Dimension the sampler must have.
    pub dim: Dim,
    /// `(arity, template)`.
    pub forms: &'static [(usize, &'static str)],
}

macro_rules! family {
    ($base:literal, $dim:expr, $sw:literal) => {
        [
            Intrinsic {
                name: $base,
                dim: $dim,
                forms: &[
                    (2, concat!("{T}.Sample({S}, ({1}).", $sw, ")")),
                    (
                        4,
                        concat!(
                            "{T}.SampleGrad({S}, ({1}).",
                            $sw,
                            ", ({2}).",
                            $sw,
                            ", ({3}).",
                            $sw,
                            ")"
                        ),
                    ),
                ],
            },
            Intrinsic {
                name: concat!($base, "lod"),
                dim: $dim,
                forms: &[(2, concat!("{T}.SampleLevel({S}, ({1}).", $sw, ", ({1}).w)"))],
            },
            Intrinsic {
                name: concat!($base, "bias"),
                dim: $dim,
                forms: &[(2, concat!("{T}.SampleBias({S}, ({1}).", $sw, ", ({1}).w)"))],
            },
            Intrinsic {
                name: concat!($base, "grad"),
                dim: $dim,
                forms: &[(
                    4,
                    concat!(
                        "{T}.SampleGrad({S}, ({1}).",
                        $sw,
                        ", ({2}).",
                        $sw,
                        ", ({3}).",
                        $sw,
                        ")"
                    ),
                )],
            },
            Intrinsic {
                name: concat!($base, "proj"),
                dim: $dim,
                forms: &[(2, concat!("{T}.Sample({S}, ({1}).", $sw, " / ({1}).w)"))],
            },
        ]
    };
}

// 1D textures are 2D on MonoGame's GL runtime, sampled at `(x, x)` like mgfxc's output.
const D1: [Intrinsic; 5] = family!("tex1D", Dim::D1, "xx");
const D2: [Intrinsic; 5] = family!("tex2D", Dim::D2, "xy");
const D3: [Intrinsic; 5] = family!("tex3D", Dim::D3, "xyz");
const CUBE: [Intrinsic; 5] = family!("texCUBE", Dim::Cube, "xyz");

/// Looks up an intrinsic by its exact (case-sensitive, as HLSL is) name.
pub fn find(name: &str) -> Option<&'static Intrinsic> {
    if !name.starts_with("tex") {
        return None;
    }
    const ALL: [&[Intrinsic; 5]; 4] = [&D1, &D2, &D3, &CUBE];
    ALL.iter().flat_map(|f| f.iter()).find(|i| i.name == name)
}

/// Every identifier passed as the first argument of a `tex*` intrinsic call.
pub fn sampler_arguments(src: &str, toks: &[Token]) -> BTreeSet<String> {
    toks.windows(3)
        .filter(|w| {
            w[0].kind == TokenKind::Ident
                && find(w[0].text(src)).is_some()
                && w[1].text(src) == "("
                && w[2].kind == TokenKind::Ident
        })
        .map(|w| w[2].text(src).to_string())
        .collect()
}

/// A piece of an expanded template.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'t> {
    /// Literal text.
    Lit(&'t str),
    /// The texture name.
    Texture,
    /// The sampler name.
    Sampler,
    /// Argument `n` (1-based after the sampler) of the call.
    Arg(usize),
}

/// Splits a template into pieces.
pub fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(Piece::Lit(&rest[..open]));
        }
        let close = rest[open..]
            .find('}')
            .map(|c| open + c)
            .unwrap_or(rest.len() - 1);
        match &rest[open + 1..close] {
            "T" => out.push(Piece::Texture),
            "S" => out.push(Piece::Sampler),
            n => out.push(Piece::Arg(n.parse().unwrap_or(1))),
        }
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Lit(rest));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_templates() {
        let i = find("texCUBElod").unwrap();
        assert_eq!(i.dim, Dim::Cube);
        assert_eq!(i.forms[0].1, "{T}.SampleLevel({S}, ({1}).xyz, ({1}).w)");
        assert_eq!(find("tex2D").unwrap().forms.len(), 2);
        assert_eq!(
            find("tex1Dproj").unwrap().forms[0].1,
            "{T}.Sample({S}, ({1}).xx / ({1}).w)"
        );
        assert!(find("tex2DArray").is_none());
        assert!(find("texture").is_none());
        assert_eq!(
            pieces("{T}.Sample({S}, ({1}).xy)"),
            vec![
                Piece::Texture,
                Piece::Lit(".Sample("),
                Piece::Sampler,
                Piece::Lit(", ("),
                Piece::Arg(1),
                Piece::Lit(").xy)")
            ]
        );
    }
}
