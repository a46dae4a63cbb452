//! Effect-framework objects handed to functions: `float4 Shade(BlendState b, float2 uv)`,
//! `float4 PS(VSOut input, uniform VertexShader v)`.
//!
//! fxc takes a shader, fragment, state object or view as a parameter of any function, the
//! entry's included, and compiles nothing for it: code cannot read one, so it contributes no
//! instruction and no constant. DXC crashes on one as an entry parameter, and silently drops
//! one from any other function's signature, so each call of that function then passes one
//! argument too many. So each such parameter leaves its function's declaration, and its
//! argument leaves every call of the function (matched by name and argument count, as the
//! sampler parameters are); the entry's wrapper skips them too (`entry.rs`), and a `uniform`
//! one takes its `compile` literal, if any, with it.
//!
//! A declaration statement of one outside a struct (`BlendState chosen;`; arrays are left for
//! the guard) goes too: DXC ignores it with a warning fxc never gives ("effect object
//! ignored"), and would refuse an initializer naming a state object, whose own declaration the
//! effect parser has taken out.
//!
//! Removed text keeps its line breaks, so the lines after it keep their numbers.

use std::collections::BTreeMap;
use std::ops::Range;

use super::emit::{calls_of, Edits};
use crate::effect::lexer::{Token, TokenKind};
use crate::effect::types::code_object;
use crate::effect::{Param, ParsedEffect};

/// Whether `p` is a parameter the lowering removes.
pub fn removed(p: &Param) -> bool {
    code_object(&p.ty)
}

/// Removes every object parameter from its function and its argument from every call.
pub fn remove(parsed: &ParsedEffect, src: &str, toks: &[Token], edits: &mut Edits) {
    // Function name → for each overload with object parameters: its arity and which go.
    let mut takers: BTreeMap<&str, Vec<(usize, Vec<bool>)>> = BTreeMap::new();
    for f in &parsed.ast.functions {
        let gone: Vec<bool> = f.params.iter().map(removed).collect();
        if !gone.contains(&true) {
            continue;
        }
        let ranges: Vec<Range<usize>> = f.params.iter().map(|p| p.range.clone()).collect();
        for r in deletions(&ranges, &gone) {
            blank(src, r, edits);
        }
        takers
            .entry(f.name.as_str())
            .or_default()
            .push((f.params.len(), gone));
    }
    for (_, args, gone) in calls_of(parsed, src, toks, &takers) {
        for r in deletions(&args, gone) {
            blank(src, r, edits);
        }
    }
}

/// Removes every declaration statement of an object (`BlendState chosen;`,
/// `VertexShader a, b = …;`) outside struct bodies.
pub fn remove_declarations(parsed: &ParsedEffect, src: &str, toks: &[Token], edits: &mut Edits) {
    let text = |i: usize| toks.get(i).map_or("", |t: &Token| t.text(src));
    let in_struct = |at: usize| parsed.ast.structs.iter().any(|s| s.range.contains(&at));
    for (i, t) in toks.iter().enumerate() {
        let starts_statement = i == 0 || matches!(text(i - 1), "{" | ";" | "}");
        let declares = t.kind == TokenKind::Ident
            && code_object(t.text(src))
            && starts_statement
            && toks.get(i + 1).is_some_and(|n| n.kind == TokenKind::Ident)
            && matches!(text(i + 2), ";" | "=" | ",")
            && !in_struct(t.range.start);
        if !declares {
            continue;
        }
        // Through the `;` that ends the statement, outside any brackets of an initializer.
        let mut depth = 0i32;
        let end = toks[i..].iter().find(|x| {
            match x.text(src) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
            depth < 0 || (depth == 0 && x.text(src) == ";")
        });
        if let Some(end) = end.filter(|e| e.text(src) == ";") {
            blank(src, t.range.start..end.range.end, edits);
        }
    }
}

/// Replaces `range` by its line breaks.
fn blank(src: &str, range: Range<usize>, edits: &mut Edits) {
    let breaks = src[range.clone()].matches('\n').count();
    edits.replace(range, "\n".repeat(breaks));
}

/// The text to delete so that the items of a comma-separated list (`items`, in order) marked in
/// `gone` disappear with their commas: each run of removed items up to the next kept item, or,
/// for a run at the end, from the end of the kept item before it.
fn deletions(items: &[Range<usize>], gone: &[bool]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < items.len() {
        if !gone[k] {
            k += 1;
            continue;
        }
        let first = k;
        while k < items.len() && gone[k] {
            k += 1;
        }
        let last = k - 1;
        out.push(match (items.get(k), first.checked_sub(1)) {
            (Some(next), _) => items[first].start..next.start,
            (None, Some(prev)) => items[prev].end..items[last].end,
            (None, None) => items[first].start..items[last].end,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::deletions;

    #[test]
    fn removed_items_go_with_their_commas() {
        // "a, B, c, D, E"
        let items = [0..1, 3..4, 6..7, 9..10, 12..13];
        let text = "a, B, c, D, E";
        let keep = |gone: &[bool]| {
            let mut s = text.to_string();
            for r in deletions(&items, gone).into_iter().rev() {
                s.replace_range(r, "");
            }
            s
        };
        assert_eq!(keep(&[false, true, false, true, true]), "a, c");
        assert_eq!(keep(&[true, true, false, false, false]), "c, D, E");
        assert_eq!(keep(&[true, true, true, true, true]), "");
        assert_eq!(keep(&[false, false, false, false, true]), "a, B, c, D");
        assert_eq!(keep(&[false; 5]), text);
    }
}
