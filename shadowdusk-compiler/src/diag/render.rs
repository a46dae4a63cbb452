//! Rendering diagnostics as text: rustc-style with snippets, or mgfxc's one-line form.

use codespan_reporting::diagnostic as cr;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

use super::{Diagnostic, Severity};
use crate::source::SourceFiles;

/// Renders with a source snippet, like rustc:
///
/// ```text
/// error[SD0001]: cannot find include file "missing.fxh"
///   ┌─ shaders/tint.fx:3:10
///   │
/// 3 │ #include "missing.fxh"
///   │          ^^^^^^^^^^^^^
///   = help: ...
/// ```
///
/// The first line of the location is always `path:line:col`, so editors can jump to it.
pub fn render_plain(files: &SourceFiles, diags: &[Diagnostic], color: bool) -> String {
    let mut simple = SimpleFiles::new();
    let ids: Vec<usize> = files
        .iter()
        .map(|(_, f)| simple.add(f.path.display().to_string(), f.text.clone()))
        .collect();
    let config = term::Config {
        display_style: term::DisplayStyle::Rich,
        ..term::Config::default()
    };
    let mut out = Vec::new();
    for d in diags {
        let mut c = match d.severity {
            Severity::Error => cr::Diagnostic::error(),
            Severity::Warning => cr::Diagnostic::warning(),
        }
        .with_code(d.code.as_str())
        .with_message(&d.message);
        let mut labels = Vec::new();
        if let Some(p) = &d.primary {
            labels.push(
                cr::Label::primary(
                    ids[p.span.file.0 as usize],
                    p.span.start as usize..p.span.end as usize,
                )
                .with_message(&p.text),
            );
        }
        for s in &d.secondary {
            labels.push(
                cr::Label::secondary(
                    ids[s.span.file.0 as usize],
                    s.span.start as usize..s.span.end as usize,
                )
                .with_message(&s.text),
            );
        }
        let mut notes = d.notes.clone();
        if d.primary.is_none() {
            if let Some((_, f)) = files.iter().next() {
                notes.insert(0, format!("in {}", f.path.display()));
            }
        }
        if let Some(h) = &d.help {
            notes.push(format!("help: {h}"));
        }
        c = c.with_labels(labels).with_notes(notes);
        if color {
            let mut w = term::termcolor::Ansi::new(&mut out);
            let _ = term::emit_to_write_style(&mut w, &config, &simple, &c);
        } else {
            let mut w = term::termcolor::NoColor::new(&mut out);
            let _ = term::emit_to_write_style(&mut w, &config, &simple, &c);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Renders mgfxc's one-line form, one line per diagnostic:
/// `path(line,col): error CODE: message`. Help and notes follow on indented lines.
pub fn render_mgfxc(files: &SourceFiles, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &d.primary {
            Some(p) => {
                let f = files.get(p.span.file);
                let (line, col) = f.line_col(p.span.start);
                out.push_str(&format!(
                    "{}({},{}): {} {}: {}\n",
                    f.path.display(),
                    line,
                    col,
                    sev,
                    d.code,
                    d.message
                ));
            }
            // A whole-file problem (no technique, unreadable file) names the effect file.
            None => match files.iter().next() {
                Some((_, f)) => out.push_str(&format!(
                    "{}: {} {}: {}\n",
                    f.path.display(),
                    sev,
                    d.code,
                    d.message
                )),
                None => out.push_str(&format!("{} {}: {}\n", sev, d.code, d.message)),
            },
        }
        for n in &d.notes {
            for l in n.lines() {
                out.push_str(&format!("    note: {l}\n"));
            }
        }
        if let Some(h) = &d.help {
            out.push_str(&format!("    help: {h}\n"));
        }
    }
    out
}
