//! `docs/error-codes.md` (what `shadowdusk --explain` prints) documents every code of the
//! registry, and nothing else, each with a one-line meaning, an example and a fix; every
//! ```hlsl example is compiled and must produce its code (as a warning exactly when its
//! meaning says "warning:").

use std::path::{Path, PathBuf};

use shadowdusk_compiler::diag::Code;
use shadowdusk_compiler::pipeline::{compile_file, Options};

/// Codes whose section shows a command line (```sh) or explains why there is no example,
/// instead of an effect: the input path, the command line, the output path and a missing DXC
/// are outside the effect; SD0012 and SD0101 are internal checks no known effect reaches;
/// SD0021 needs 32768 shaders; SD0104 is DXC crashing on an input no guard knows yet; SD0214
/// guards a projected cube lookup the lowering never lets reach DXC; SD0300–SD0304 are the wgpu
/// target's, which a command line turns on (SD0302 guards semantics the OpenGL path refuses first).
const NO_HLSL_EXAMPLE: &[&str] = &[
    "SD0005", "SD0030", "SD0031", "SD0021", "SD0012", "SD0101", "SD0103", "SD0104", "SD0214",
    "SD0300", "SD0301", "SD0302", "SD0303", "SD0304",
];

/// A line of an example naming the files it needs in its folder: `// Beside this file: a, b`.
const BESIDE: &str = "// Beside this file:";

/// The first line of an example compiled with the wgpu target on (its warnings exist only there).
const FOR_WGPU: &str = "// For wgpu:";

struct Section {
    code: String,
    /// The section's lines after the `## CODE` heading.
    body: Vec<String>,
}

impl Section {
    /// The one-line meaning: the first non-blank line.
    fn meaning(&self) -> &str {
        self.body
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty())
            .unwrap_or("")
    }

    /// The text of the first line starting with `label`, after the label.
    fn field(&self, label: &str) -> Option<(usize, &str)> {
        self.body
            .iter()
            .enumerate()
            .find_map(|(i, l)| l.strip_prefix(label).map(|rest| (i, rest.trim())))
    }

    /// The fenced block right after `Example:`, as (language, text).
    fn example(&self) -> Option<(&str, String)> {
        let (i, rest) = self.field("Example:")?;
        if !rest.is_empty() {
            return None;
        }
        let open = self.body.get(i + 1)?;
        let lang = open.strip_prefix("```")?;
        let close = self.body[i + 2..]
            .iter()
            .position(|l| l.starts_with("```"))?;
        let mut text = self.body[i + 2..i + 2 + close].join("\n");
        text.push('\n');
        Some((lang, text))
    }
}

fn index_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shadowdusk-compiler/docs/error-codes.md")
}

/// The `## ` sections of the index; `#` headings (the title, the groups) end a section, and
/// lines inside code fences are never headings.
fn sections() -> Vec<Section> {
    let text = std::fs::read_to_string(index_path()).expect("read docs/error-codes.md");
    let mut out: Vec<Section> = Vec::new();
    let mut current: Option<Section> = None;
    let mut in_fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with('#') {
            out.extend(current.take());
            if let Some(code) = line.strip_prefix("## ") {
                current = Some(Section {
                    code: code.trim().to_string(),
                    body: Vec::new(),
                });
            }
            continue;
        }
        if let Some(s) = current.as_mut() {
            s.body.push(line.to_string());
        }
    }
    assert!(!in_fence, "docs/error-codes.md ends inside a code fence");
    out.extend(current);
    out
}

#[test]
fn every_code_has_one_section_and_every_section_names_a_code() {
    let sections = sections();
    let documented: Vec<&str> = sections.iter().map(|s| s.code.as_str()).collect();
    let registry: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let missing: Vec<&&str> = registry
        .iter()
        .filter(|c| !documented.contains(c))
        .collect();
    let stale: Vec<&&str> = documented
        .iter()
        .filter(|c| !registry.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes without a `## CODE` section: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "sections naming no code of the registry: {stale:?}"
    );
    // Once each, in the registry's order (the groups of codes.rs).
    assert_eq!(documented, registry, "sections are not in registry order");
}

#[test]
fn every_section_has_a_meaning_an_example_and_a_fix() {
    let mut failures = Vec::new();
    for s in sections() {
        let code = &s.code;
        let meaning = s.meaning();
        if meaning.is_empty() || meaning.starts_with("Example:") || meaning.starts_with("Fix:") {
            failures.push(format!("{code}: no one-line meaning under the heading"));
        }
        match s.field("Fix:") {
            Some((_, fix)) if fix.len() > 10 => {}
            _ => failures.push(format!("{code}: no `Fix: ...` line")),
        }
        let no_hlsl = NO_HLSL_EXAMPLE.contains(&code.as_str());
        match (s.example(), s.field("Example:")) {
            (Some(("hlsl", _)), _) if !no_hlsl => {}
            (Some(("sh", cmd)), _) if no_hlsl && cmd.contains("shadowdusk ") => {}
            (None, Some((_, why))) if no_hlsl && why.starts_with("none.") && why.len() > 20 => {}
            (Some((lang, _)), _) => failures.push(format!(
                "{code}: a ```{lang} example; expected {}",
                if no_hlsl {
                    "```sh or `Example: none. <why>` (it is in NO_HLSL_EXAMPLE)"
                } else {
                    "```hlsl (or list the code in NO_HLSL_EXAMPLE)"
                }
            )),
            (None, Some(_)) if !no_hlsl => failures.push(format!(
                "{code}: no ```hlsl example (or list the code in NO_HLSL_EXAMPLE)"
            )),
            (None, _) => failures.push(format!(
                "{code}: needs `Example:` with a fenced block, or `Example: none. <why>`"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What compiling one example showed.
enum Outcome {
    /// The code was reported, as a warning (`true`) or an error.
    Reported { warning: bool },
    /// DXC was needed and could not be loaded (SD0103).
    NeedsDxc,
    /// Something else: the codes reported, for the failure message.
    Other(String),
}

fn compile_example(dir: &Path, code: &str, text: &str) -> Outcome {
    let dir = dir.join(code);
    std::fs::create_dir_all(&dir).expect("example dir");
    for line in text.lines() {
        if let Some(names) = line.strip_prefix(BESIDE) {
            for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                std::fs::write(dir.join(name), "// an included file\n").expect("beside file");
            }
        }
    }
    let path = dir.join(format!("{code}.fx"));
    std::fs::write(&path, text).expect("write the example");
    let options = Options {
        wgpu: text.starts_with(FOR_WGPU),
        ..Options::default()
    };
    let (diags, rendered) = match compile_file(&path, &options) {
        Ok(c) => {
            let r = shadowdusk_compiler::diag::render_mgfxc(&c.files, &c.warnings.0);
            (c.warnings.0, r)
        }
        Err(e) => {
            let r = e.render_mgfxc();
            (e.diagnostics.0, r)
        }
    };
    if let Some(d) = diags.iter().find(|d| d.code.as_str() == code) {
        return Outcome::Reported {
            warning: !d.is_error(),
        };
    }
    if diags.iter().any(|d| d.code == Code::SD0103) {
        return Outcome::NeedsDxc;
    }
    Outcome::Other(if rendered.is_empty() {
        "compiled without diagnostics".into()
    } else {
        rendered
    })
}

#[test]
fn every_hlsl_example_produces_its_code() {
    let dir = std::env::temp_dir().join(format!("shadowdusk-error-index-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut need_dxc = Vec::new();
    let mut checked = 0;
    for s in sections() {
        let Some(("hlsl", text)) = s.example() else {
            continue;
        };
        let code = s.code.as_str();
        let says_warning = s.meaning().starts_with("warning:");
        match compile_example(&dir, code, &text) {
            Outcome::Reported { warning } if warning == says_warning => checked += 1,
            Outcome::Reported { warning } => failures.push(format!(
                "{code}: reported as {}, but the meaning {} `warning:`",
                if warning { "a warning" } else { "an error" },
                if says_warning { "starts with" } else { "lacks" }
            )),
            Outcome::NeedsDxc => need_dxc.push(code.to_string()),
            Outcome::Other(got) => failures.push(format!(
                "{code}: the example does not produce {code}:\n{got}"
            )),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked > 0, "no ```hlsl example was compiled");
    if !need_dxc.is_empty() {
        let why = format!(
            "DXC is not available (run `cargo xtask setup`); examples not checked: {}",
            need_dxc.join(", ")
        );
        shadowdusk_tests::skip("every_hlsl_example_produces_its_code", &why);
    }
}
