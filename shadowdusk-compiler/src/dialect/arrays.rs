//! Array constructors (`vec2[](a, b, c)`), which SPIRV-Cross writes when a shader copies a whole
//! array (an interface struct's `float2 Taps[3]` read through a loop) and which GLSL 1.10 and
//! ES 1.00 do not have: `vec2 x[3] = vec2[](a, b, c);` becomes `vec2 x[3]; x[0] = a; …` and
//! `x = vec2[](a, b, c);` becomes `x[0] = a; …`. Everything else is copied unchanged.

use super::tokens::{matching, next_significant, tokenize, Kind, Token};

/// The text with every array-constructor statement spelled element by element.
pub fn expand(text: &str) -> String {
    let toks = tokenize(text);
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < toks.len() {
        if let Some((replacement, end)) = statement(&toks, i) {
            out.push_str(&replacement);
            i = end;
            continue;
        }
        out.push_str(toks[i].text);
        i += 1;
    }
    out
}

/// At token `i`: `[TYPE] NAME[N] = TYPE[](args);` or `NAME = TYPE[](args);` as the start of a
/// statement; the replacement and the index past the `;`.
fn statement(toks: &[Token<'_>], i: usize) -> Option<(String, usize)> {
    if toks[i].kind != Kind::Ident || !starts_statement(toks, i) {
        return None;
    }
    let sig = |j: usize| next_significant(toks, j);
    // Optional declaration type.
    let (decl_type, name_i) = match sig(i).map(|j| (j, toks[j])) {
        Some((j, t)) if t.kind == Kind::Ident => (Some(toks[i].text), j),
        _ => (None, i),
    };
    let mut k = sig(name_i)?;
    let mut size = None;
    if toks[k].text == "[" {
        let close = matching(toks, k)?;
        size = Some(toks[sig(k)?].text);
        k = sig(close)?;
    }
    if toks[k].text != "=" {
        return None;
    }
    let ty = sig(k)?;
    let open_sq = sig(ty)?;
    let close_sq = sig(open_sq)?;
    let open = sig(close_sq)?;
    if toks[ty].kind != Kind::Ident
        || toks[open_sq].text != "["
        || toks[close_sq].text != "]"
        || toks[open].text != "("
    {
        return None;
    }
    let close = matching(toks, open)?;
    let semi = sig(close)?;
    if toks[semi].text != ";" {
        return None;
    }
    let name = toks[name_i].text;
    let mut parts = Vec::new();
    if let Some(t) = decl_type {
        parts.push(format!("{t} {name}[{}];", size?));
    }
    for (n, arg) in arguments(toks, open, close).iter().enumerate() {
        parts.push(format!("{name}[{n}] = {};", arg.trim()));
    }
    Some((parts.join(" "), semi + 1))
}

fn starts_statement(toks: &[Token<'_>], i: usize) -> bool {
    let prev = toks[..i]
        .iter()
        .rev()
        .find(|t| !matches!(t.kind, Kind::Space | Kind::Comment));
    prev.is_none_or(|t| matches!(t.text, ";" | "{" | "}"))
}

/// The texts of the arguments between `open` and `close`, split at depth-0 commas.
fn arguments(toks: &[Token<'_>], open: usize, close: usize) -> Vec<String> {
    let mut args = vec![String::new()];
    let mut depth = 0;
    for t in &toks[open + 1..close] {
        match t.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                args.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push_str(t.text);
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_constructors_become_element_assignments() {
        let src = "void main()\n{\n    vec2 _37[3] = vec2[](a, f(b, c), d[1]);\n    x = vec4[](p, q);\n    y = vec4(1.0);\n}\n";
        assert_eq!(
            expand(src),
            "void main()\n{\n    vec2 _37[3]; _37[0] = a; _37[1] = f(b, c); _37[2] = d[1];\n    x[0] = p; x[1] = q;\n    y = vec4(1.0);\n}\n"
        );
        let plain = "float f() { return vec2(1.0).x; }\n";
        assert_eq!(expand(plain), plain);
    }
}
