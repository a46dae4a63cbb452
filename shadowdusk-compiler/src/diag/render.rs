//! Rendering diagnostics as text: rustc-style with snippets, or mgfxc's one-line form.

use codespan_reporting::diagnostic as cr;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

use std::path::Path;

use super::{Diagnostic, Severity};
use crate::paths::{normalize, relative};
use crate::source::SourceFiles;

/// Renders for a build log or a `compile_error!`: per diagnostic, a first line an editor can
/// jump from (`path:line:col: severity[CODE]: message`), then the rustc-style snippet and notes
/// of [`render_plain`] without its own title line (which would repeat the message). Paths are
/// shown relative to `root` — in locations and inside messages and notes (an include search
/// list, say) — so the text does not depend on where the checkout lives. A diagnostic without
/// a position is placed at `fallback`. The build script and `include_effect!` both print this.
pub fn render_located(
    files: &SourceFiles,
    diags: &[Diagnostic],
    root: &Path,
    fallback: &Path,
) -> String {
    let root = normalize(root);
    let mut shown = SourceFiles::new();
    for (_, f) in files.iter() {
        let p = normalize(&f.path);
        let p = relative(&p, &root).unwrap_or(p);
        shown.add(p, f.text.clone());
    }
    let mut out = String::new();
    for d in diags {
        let place = match &d.primary {
            Some(p) if (p.span.file.0 as usize) < shown.len() => {
                let f = shown.get(p.span.file);
                let (line, col) = f.line_col(p.span.start);
                format!("{}:{line}:{col}", f.path.display())
            }
            _ => fallback.display().to_string(),
        };
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "{place}: {severity}[{}]: {}\n",
            d.code.as_str(),
            d.message
        ));
        let snippet = render_plain(&shown, std::slice::from_ref(d), false);
        let body = snippet.split_once('\n').map_or("", |(_, rest)| rest);
        out.push_str(body);
        if !body.is_empty() && !body.ends_with('\n') {
            out.push('\n');
        }
    }
    let mut prefix = root.display().to_string();
    if prefix.len() > 1 {
        prefix.push(std::path::MAIN_SEPARATOR);
        out = out.replace(&prefix, "");
    }
    out
}

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
