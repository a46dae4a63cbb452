//! mgfxc-style command line parsing (`/Name:value` options, case-insensitive names).

use std::path::PathBuf;

use shadowdusk_compiler::{pipeline, preprocess};

pub const USAGE: &str = "\
usage: shadowdusk <SourceFile> <OutputFile> [options]
       shadowdusk <SourceFile> --dump [options]
       shadowdusk --explain <CODE>
       shadowdusk setup      fetch DXC into the per-user cache if needed; print its path

options (mgfxc-compatible):
  /Profile:OpenGL       target platform: OpenGL (MGFX, the default) or Wgpu (WGSL as JSON,
                        see the README's wgpu output; with --dump, a `wgsl` field per shader).
                        An effect wgpu cannot take still gets its MGFX (OutputFile with the
                        extension .mgfx) and exits 1
  /Defines:A;B=2        preprocessor defines, separated by ';'
  /I:<dir>              extra include directory (repeatable)
  /Debug                define DEBUG
  /WX                   treat warnings as errors
  /MGFXVersion:11       write MGFX v11 (MonoGame's develop / 3.8.5 line); 10 is the default
ShadowDusk additions:
  --dump                print the reflection and the GLSL of every shader as JSON
  --pretty              print errors with source snippets instead of mgfxc's one-line form
  --explain <CODE>      explain an error code, with an example and a fix (--explain SD0210)
  --version, -V         print the version
";

pub struct Cli {
    pub input: PathBuf,
    pub output: Option<PathBuf>,
    pub preprocess: preprocess::Options,
    pub dump: bool,
    pub pretty: bool,
    pub warnings_as_errors: bool,
    pub mgfx_version: pipeline::MgfxVersion,
    /// `/Profile:Wgpu`: the output file is the wgpu JSON, and `--dump` adds the WGSL.
    pub wgpu: bool,
}

pub enum Parsed {
    Help,
    /// `--version` / `-V`.
    Version,
    Run(Cli),
    /// `--explain CODE`: the code as given (any letter case).
    Explain(String),
}

/// Parses the command line; an error is one line in mgfxc's form with code SD0030, naming the
/// input file when the problem is about it.
pub fn parse(argv: &[String]) -> Result<Parsed, String> {
    parse_inner(argv).map_err(|(file, msg)| command_line_error(file.as_deref(), &msg))
}

/// A command-line error in mgfxc's form, `[file: ]error SD0030: message`.
pub fn command_line_error(file: Option<&str>, msg: &str) -> String {
    match file {
        Some(f) => format!("{f}: error SD0030: {msg}"),
        None => format!("error SD0030: {msg}"),
    }
}

/// `--explain CODE` or `--explain=CODE`, which takes no other arguments.
fn parse_explain(argv: &[String]) -> Option<Result<Parsed, (Option<String>, String)>> {
    let i = argv.iter().position(|a| {
        let lower = a.to_ascii_lowercase();
        lower == "--explain" || lower.starts_with("--explain=")
    })?;
    let (code, used) = match argv[i].split_once('=') {
        Some((_, code)) => (Some(code), 1),
        None => (argv.get(i + 1).map(String::as_str), 2),
    };
    let code = code.map(str::trim).filter(|c| !c.is_empty());
    Some(match code {
        None => Err((
            None,
            "`--explain` needs an error code, e.g. `--explain SD0210`".into(),
        )),
        Some(_) if argv.len() != used => {
            Err((None, "`--explain <CODE>` takes no other arguments".into()))
        }
        Some(c) => Ok(Parsed::Explain(c.to_string())),
    })
}

fn parse_inner(argv: &[String]) -> Result<Parsed, (Option<String>, String)> {
    // The first argument naming an existing file (options may look like absolute paths).
    let input_name = argv
        .iter()
        .find(|a| std::path::Path::new(a.as_str()).is_file())
        .cloned();
    let mut positional = Vec::new();
    let mut options = preprocess::Options::default();
    let mut dump = false;
    let mut pretty = false;
    let mut warnings_as_errors = false;
    let mut mgfx_version = pipeline::MgfxVersion::V10;
    let mut wgpu = false;
    if argv.is_empty() {
        return Ok(Parsed::Help);
    }
    if let Some(explain) = parse_explain(argv) {
        return explain;
    }
    for a in argv {
        let lower = a.to_ascii_lowercase();
        if matches!(lower.as_str(), "/?" | "/help" | "-h" | "--help") {
            return Ok(Parsed::Help);
        } else if a == "--version" || a == "-V" {
            return Ok(Parsed::Version);
        } else if lower == "--dump" {
            dump = true;
        } else if lower == "--pretty" {
            pretty = true;
        } else if lower == "/wx" {
            warnings_as_errors = true;
        } else if lower == "/debug" {
            options.debug = true;
        } else if let Some(v) = strip_opt(a, "/profile:") {
            if v.eq_ignore_ascii_case("wgpu") {
                wgpu = true;
            } else if v.eq_ignore_ascii_case("opengl") {
                wgpu = false;
            } else {
                return Err((
                    input_name.clone(),
                    format!(
                        "profile `{v}` is not supported; ShadowDusk targets /Profile:OpenGL and \
                         /Profile:Wgpu"
                    ),
                ));
            }
        } else if let Some(v) = strip_opt(a, "/mgfxversion:") {
            mgfx_version = match v.trim() {
                "10" => pipeline::MgfxVersion::V10,
                "11" => pipeline::MgfxVersion::V11,
                other => {
                    return Err((
                        None,
                        format!("MGFX version `{other}` is not supported; use 10 or 11"),
                    ))
                }
            };
        } else if let Some(v) = strip_opt(a, "/defines:") {
            options
                .defines
                .extend(parse_defines(v).map_err(|m| (None, m))?);
        } else if let Some(v) = strip_opt(a, "/i:") {
            options.include_dirs.push(PathBuf::from(v));
        } else if a.starts_with("--")
            || (a.starts_with('/')
                && a.len() > 1
                && a[1..].contains(':')
                && !std::path::Path::new(a).exists())
        {
            // `/Foo:bar` that is not a file is a misspelt mgfxc option, not an input path.
            return Err((None, format!("unknown option `{a}`")));
        } else {
            positional.push(PathBuf::from(a));
        }
    }
    let mut it = positional.into_iter();
    let input = it
        .next()
        .ok_or((None, "missing <SourceFile>".to_string()))?;
    let output = it.next();
    if let Some(extra) = it.next() {
        return Err((None, format!("unexpected argument `{}`", extra.display())));
    }
    if output.is_none() && !dump {
        return Err((input_name, "missing <OutputFile>".into()));
    }
    Ok(Parsed::Run(Cli {
        input,
        output,
        preprocess: options,
        dump,
        pretty,
        warnings_as_errors,
        mgfx_version,
        wgpu,
    }))
}

fn strip_opt<'a>(arg: &'a str, name: &str) -> Option<&'a str> {
    if arg.len() >= name.len() && arg[..name.len()].eq_ignore_ascii_case(name) {
        Some(&arg[name.len()..])
    } else {
        None
    }
}

/// `A;B=2;C = x` → `[(A, 1), (B, 2), (C, x)]`, names and values trimmed (mgfxc's rule).
pub fn parse_defines(v: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for part in v.split(';') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (name, value) = match part.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (part, "1"),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "bad define `{part}` in /Defines (expected NAME or NAME=value)"
            ));
        }
        out.push((name.to_string(), value.to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_split_like_mgfxc() {
        let d = parse_defines("A;B=2; C = x ;").unwrap();
        assert_eq!(
            d,
            vec![
                ("A".into(), "1".into()),
                ("B".into(), "2".into()),
                ("C".into(), "x".into())
            ]
        );
        assert!(parse_defines("A B").is_err());
    }
}
