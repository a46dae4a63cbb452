//! DXC's messages, which point into the lowered text, mapped back to the user's files.
//!
//! One of DXC's warnings is fxc's error: "control reaches end of non-void function" (clang's
//! `-Wreturn-type` when no path through a function returns) is fxc's X3507, SD0111 at the
//! function's name. Its sibling "control *may* reach end" stays a warning: fxc inlines the
//! function into the entry, folds the `compile` statement's constant arguments and then proves
//! such a function returns (`if (smType == A) return …; else if (smType == B) return …;`
//! compiled as `PS(i, A)`), which DXC, checking each function alone, cannot. Functions the entry
//! does not reach have no body in the lowered text, so DXC says nothing about them, and fxc
//! never compiles them either.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::dxc::DxcMessage;
use crate::effect::ParsedEffect;
use crate::lower::{user_text, Lowered};
use crate::preprocess::Expanded;
use crate::source::Span;

/// DXC's words for a function none of whose paths returns a value.
const NO_RETURN: &str = "control reaches end of non-void function";

/// Whether `m` is DXC saying that no path through a function returns a value.
fn is_missing_return(m: &DxcMessage) -> bool {
    !m.note && m.text.contains(NO_RETURN)
}

/// One SD0111 error (fxc's X3507) per function with no path that returns a value, at the
/// function's name, with the end DXC says is reached as a second label.
pub fn missing_returns(
    expanded: &Expanded,
    parsed: &ParsedEffect,
    lowered: &Lowered,
    fallback: Option<Span>,
    what: &str,
    messages: &[DxcMessage],
) -> Diagnostics {
    let mut out = Diagnostics::new();
    for m in messages.iter().filter(|m| is_missing_return(m)) {
        let end = locate(expanded, lowered, m);
        let function = expanded_offset(expanded, lowered, m)
            .and_then(|at| parsed.ast.functions.iter().find(|f| f.body.contains(&at)));
        let Some(f) = function else {
            out.push(
                Diagnostic::error(
                    Code::SD0111,
                    "a function ends without returning a value (fxc's X3507: not all control paths return a value)",
                )
                .at_opt(end.or(fallback))
                .with_note(format!("while compiling {what}"))
                .with_help(MISSING_RETURN_HELP),
            );
            continue;
        };
        let mut d = Diagnostic::error(
            Code::SD0111,
            format!(
                "`{}` returns `{}`, but no path through it returns a value (fxc's X3507: not all control paths return a value)",
                f.name,
                f.return_type.trim()
            ),
        )
        .at_opt(expanded.map.span(f.range.clone()).or(end).or(fallback))
        .with_note(format!("while compiling {what}"))
        .with_help(MISSING_RETURN_HELP);
        if let Some(end) = end {
            d = d.with_label(end, "the end is reached without a `return`");
        }
        out.push(d);
    }
    out
}

const MISSING_RETURN_HELP: &str = "end the function with `return …;` (the value the shader would \
     output is undefined, so fxc and mgfxc refuse it too)";

/// One SD0100 diagnostic per DXC error (when DXC printed no positioned error, every message it
/// printed counts).
pub fn diagnostics(
    expanded: &Expanded,
    lowered: &Lowered,
    fallback: Option<Span>,
    what: &str,
    messages: &[DxcMessage],
    raw: &str,
) -> Diagnostics {
    let mut out = Diagnostics::new();
    // A missing return is never DXC's error (the retry keeps `-Wreturn-type` a warning); it
    // is `missing_returns`'s.
    let messages: Vec<&DxcMessage> = messages.iter().filter(|m| !is_missing_return(m)).collect();
    let errors: Vec<&DxcMessage> = if messages.iter().any(|m| m.is_error) {
        messages.iter().copied().filter(|m| m.is_error).collect()
    } else {
        messages
    };
    for m in errors {
        let span = locate(expanded, lowered, m).or(fallback);
        if let Some(d) = intrinsic_arity(lowered, m) {
            out.push(d.at_opt(span).with_note(format!("while compiling {what}")));
            continue;
        }
        out.push(
            Diagnostic::error(Code::SD0100, format!("DXC: {}", user_text(m.text.trim())))
                .at_opt(span)
                .with_note(format!("while compiling {what}"))
                .with_help(help(&m.text)),
        );
    }
    if out.is_empty() {
        let text = raw.trim();
        out.push(
            Diagnostic::error(
                Code::SD0100,
                if text.is_empty() {
                    "DXC failed without a message".to_string()
                } else {
                    format!("DXC: {text}")
                },
            )
            .at_opt(fallback)
            .with_note(format!("while compiling {what}")),
        );
    }
    out
}

/// One SD0110 warning per DXC warning, at its place in the user's file. DXC checks every
/// function of the text, not only the entry's, so the same warning comes from every shader of
/// the effect: it names no shader, and [`Diagnostics::push`] keeps one. Warnings DXC reports in
/// generated code (no place in the user's text) keep the shader's `compile` statement.
pub fn warnings(
    expanded: &Expanded,
    lowered: &Lowered,
    fallback: Option<Span>,
    messages: &[DxcMessage],
) -> Diagnostics {
    let mut out = Diagnostics::new();
    for m in messages
        .iter()
        .filter(|m| !m.is_error && !m.note && !is_missing_return(m))
    {
        let span = locate(expanded, lowered, m).or(fallback);
        let mut d = Diagnostic::warning(Code::SD0110, user_text(m.text.trim())).at_opt(span);
        if let Some(h) = warning_help(&m.text) {
            d = d.with_help(h);
        }
        out.push(d);
    }
    out
}

/// DXC's line:column as an offset in the lowered text, and the end of its line.
fn lowered_offset(lowered: &Lowered, m: &DxcMessage) -> Option<(usize, usize)> {
    if m.line == 0 {
        return None;
    }
    let text = lowered.text.as_str();
    let line_start = if m.line == 1 {
        0
    } else {
        text.match_indices('\n').nth(m.line as usize - 2)?.0 + 1
    };
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |e| line_start + e);
    let start = (line_start + m.column.saturating_sub(1) as usize).min(line_end);
    Some((start, line_end))
}

/// DXC's line:column as an offset in the expanded text; `None` in generated code.
fn expanded_offset(expanded: &Expanded, lowered: &Lowered, m: &DxcMessage) -> Option<usize> {
    let (start, _) = lowered_offset(lowered, m)?;
    let at = lowered.map.map(start as u32) as usize;
    (at < expanded.text.len()).then_some(at)
}

/// Maps DXC's line:column in the lowered text to a span in the original file covering the
/// identifier (or single character) there. Positions in generated code (the wrapper entry) have
/// no source and give `None`.
fn locate(expanded: &Expanded, lowered: &Lowered, m: &DxcMessage) -> Option<Span> {
    let (start, line_end) = lowered_offset(lowered, m)?;
    let text = lowered.text.as_str();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    let mut end = start;
    while end < line_end && is_ident(bytes[end]) {
        end += 1;
    }
    if end == start && start < line_end {
        end = start + 1;
    }
    let from = lowered.map.map(start as u32) as usize;
    let to = lowered.map.map(end.saturating_sub(1) as u32) as usize + 1;
    if from >= expanded.text.len() {
        return None;
    }
    expanded
        .map
        .span(from..to.max(from + 1).min(expanded.text.len()))
}

/// The argument counts HLSL's intrinsics accept (the common ones). DXC reports a call with
/// another count as "use of undeclared identifier", which sends users looking for a missing
/// `#include`.
#[rustfmt::skip]
const INTRINSIC_ARITY: &[(&str, &[usize])] = &[
    ("abs", &[1]), ("acos", &[1]), ("all", &[1]), ("any", &[1]), ("asin", &[1]),
    ("atan", &[1]), ("atan2", &[2]), ("ceil", &[1]), ("clamp", &[3]), ("clip", &[1]),
    ("cos", &[1]), ("cosh", &[1]), ("cross", &[2]), ("ddx", &[1]), ("ddy", &[1]),
    ("degrees", &[1]), ("determinant", &[1]), ("distance", &[2]), ("dot", &[2]),
    ("exp", &[1]), ("exp2", &[1]), ("faceforward", &[3]), ("floor", &[1]), ("fmod", &[2]),
    ("frac", &[1]), ("fwidth", &[1]), ("ldexp", &[2]), ("length", &[1]), ("lerp", &[3]),
    ("lit", &[3]), ("log", &[1]), ("log10", &[1]), ("log2", &[1]), ("mad", &[3]),
    ("max", &[2]), ("min", &[2]), ("modf", &[2]), ("mul", &[2]), ("normalize", &[1]),
    ("pow", &[2]), ("radians", &[1]), ("reflect", &[2]), ("refract", &[3]), ("round", &[1]),
    ("rsqrt", &[1]), ("saturate", &[1]), ("sign", &[1]), ("sin", &[1]), ("sincos", &[3]),
    ("sinh", &[1]), ("smoothstep", &[3]), ("sqrt", &[1]), ("step", &[2]), ("tan", &[1]),
    ("tanh", &[1]), ("transpose", &[1]), ("trunc", &[1]),
];

/// "use of undeclared identifier 'lerp'" for a call of a known intrinsic with the wrong number
/// of arguments, said as what it is.
fn intrinsic_arity(lowered: &Lowered, m: &DxcMessage) -> Option<Diagnostic> {
    let name = m
        .text
        .split("undeclared identifier '")
        .nth(1)?
        .split('\'')
        .next()?;
    let &(_, counts) = INTRINSIC_ARITY.iter().find(|(n, _)| *n == name)?;
    let text = lowered.text.as_str();
    let line_start = match m.line {
        0 => return None,
        1 => 0,
        l => text.match_indices('\n').nth(l as usize - 2)?.0 + 1,
    };
    let at = line_start + m.column.saturating_sub(1) as usize;
    let rest = text.get(at..)?.strip_prefix(name)?.trim_start();
    let args = rest.strip_prefix('(')?;
    // Count top-level commas up to the matching `)`.
    let (mut depth, mut commas, mut empty) = (0usize, 0usize, true);
    for c in args.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            c if !c.is_whitespace() => empty = false,
            _ => {}
        }
    }
    let given = if empty && commas == 0 { 0 } else { commas + 1 };
    if counts.contains(&given) {
        return None;
    }
    let wanted = counts
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" or ");
    Some(
        Diagnostic::error(
            Code::SD0100,
            format!(
                "`{name}` takes {wanted} argument{}, but this call passes {given}",
                if counts == [1] { "" } else { "s" }
            ),
        )
        .with_help(format!(
            "check the arguments of `{name}` (DXC reports a wrong count as \"undeclared identifier '{name}'\")"
        )),
    )
}

/// What to do about a warning, where there is a clear fix.
fn warning_help(text: &str) -> Option<&'static str> {
    if text.contains("implicit truncation") {
        Some("the extra components are dropped, as fxc does; write `.rgb`, `.xy` or a cast to say so")
    } else if text.contains("shadows") {
        Some("the inner declaration hides the outer one, as in fxc; rename one to silence this")
    } else if text.contains("control may reach end of non-void function") {
        Some(
            "fxc compiles this only where the entry's constant arguments settle every branch \
              (it inlines and folds them); a path that really ends without `return` outputs an \
              undefined value",
        )
    } else {
        None
    }
}

/// What to do, for the DXC complaints D3D9-era effects run into most.
fn help(text: &str) -> &'static str {
    if text.contains("undeclared identifier") {
        "declare it, or check that the `#include` or `#define` that provides it is active for the OpenGL profile"
    } else {
        "fix the HLSL at this position; ShadowDusk rewrote D3D9-style code before DXC saw it, so DXC's wording may name the modern form"
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Code;
    use crate::pipeline::{compile_source, Options};

    /// The codes of `source`'s diagnostics, errors and warnings, in order.
    fn codes(source: &str) -> Result<Vec<Code>, Vec<Code>> {
        let path = std::path::Path::new("returns.fx");
        match compile_source(path, source, &Options::default()) {
            Ok(c) => Ok(c.warnings.iter().map(|d| d.code).collect()),
            Err(e) => Err(e.diagnostics.iter().map(|d| d.code).collect()),
        }
    }

    #[test]
    fn only_reached_functions_that_never_return_are_errors() {
        if crate::dxc::missing_skips() {
            return;
        }
        const TECH: &str = "technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";
        // fxc never compiles a function no entry reaches.
        let unreached = format!(
            "float4 Broken(float2 uv) {{ float4 c = float4(uv, 0, 1); }}\n\
             float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ return float4(uv, 0, 1); }}\n{TECH}"
        );
        assert_eq!(codes(&unreached), Ok(vec![]));
        let reached = unreached.replace("return float4(uv, 0, 1);", "return Broken(uv);");
        assert_eq!(codes(&reached), Err(vec![Code::SD0111]));
        // Some paths return: fxc decides once constants are folded, DXC warns.
        let some = format!(
            "float4 PS(float2 uv : TEXCOORD0) : COLOR0 {{ if (uv.x > 0.5) return 1; }}\n{TECH}"
        );
        assert_eq!(codes(&some), Ok(vec![Code::SD0110]));
    }
}
