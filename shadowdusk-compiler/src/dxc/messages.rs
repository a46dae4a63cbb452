//! Parsing DXC's diagnostic text into [`DxcMessage`]s.
//!
//! Input: DXC's error buffer, lines like `shader.hlsl:12:5: error: text` followed by the source
//! line and a caret line. Output: one message per `file:LINE:COL: kind: text` line; source
//! excerpts and carets are dropped (the caller renders its own snippet from the user's file).
//! Lines without a position (e.g. `error: ...` about arguments) become messages at 0:0.

use super::DxcMessage;

/// Parses every positioned diagnostic line.
pub fn parse(raw: &str) -> Vec<DxcMessage> {
    let mut out = Vec::new();
    for line in raw.lines() {
        if let Some(m) = parse_positioned(line) {
            out.push(m);
        } else if let Some((is_error, note, text)) = kind_and_text(line) {
            out.push(DxcMessage {
                line: 0,
                column: 0,
                is_error,
                note,
                text,
            });
        }
    }
    out
}

fn parse_positioned(line: &str) -> Option<DxcMessage> {
    // The file name may itself contain ':' (unlikely, but Windows-ish names do), so find the
    // first ":<digits>:<digits>: " run.
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':' {
            if let Some((l, c, rest)) = numbers_at(&line[i + 1..]) {
                let (is_error, note, text) = kind_and_text(rest.trim_start())?;
                return Some(DxcMessage {
                    line: l,
                    column: c,
                    is_error,
                    note,
                    text,
                });
            }
        }
        i += 1;
    }
    None
}

/// `12:5: rest` → (12, 5, rest).
fn numbers_at(s: &str) -> Option<(u32, u32, &str)> {
    let (l, rest) = s.split_once(':')?;
    let (c, rest) = rest.split_once(':')?;
    if l.is_empty()
        || c.is_empty()
        || !l.bytes().all(|b| b.is_ascii_digit())
        || !c.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((l.parse().ok()?, c.parse().ok()?, rest))
}

fn kind_and_text(s: &str) -> Option<(bool, bool, String)> {
    for (prefix, is_error, note) in [
        ("fatal error: ", true, false),
        ("error: ", true, false),
        ("warning: ", false, false),
        ("note: ", false, true),
    ] {
        if let Some(t) = s.strip_prefix(prefix) {
            return Some((is_error, note, t.trim_end().to_string()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_error_warning_and_note_lines() {
        let raw = "shader.hlsl:1:36: error: use of undeclared identifier 'undefined_x'\n\
                   float4 main() : SV_Target { return undefined_x; }\n\
                   \x20                                  ^\n\
                   shader.hlsl:3:2: warning: effect syntax is deprecated [-Weffects-syntax]\n\
                   shader.hlsl:7:10: note: declared here\n";
        let m = parse(raw);
        assert_eq!(m.len(), 3);
        assert_eq!(
            m[0],
            DxcMessage {
                line: 1,
                column: 36,
                is_error: true,
                note: false,
                text: "use of undeclared identifier 'undefined_x'".into()
            }
        );
        assert_eq!((m[1].line, m[1].column, m[1].is_error), (3, 2, false));
        assert_eq!(m[2].text, "declared here");
        assert!(m[2].note && !m[1].note);
    }

    #[test]
    fn unpositioned_errors_are_kept() {
        let m = parse("error: invalid profile ps_3_0\n");
        assert_eq!(
            m,
            vec![DxcMessage {
                line: 0,
                column: 0,
                is_error: true,
                note: false,
                text: "invalid profile ps_3_0".into()
            }]
        );
    }
}
