//! [`Builder::opengl_only`](crate::Builder::opengl_only): the effects built without the wgpu
//! target, named by file, folder or glob relative to the crate root as every Builder path is.
//!
//! With the wgpu target on, an effect it cannot translate fails the build by default (its
//! OpenGL output is fine, but the crate asked for both), with a help line that shows the call
//! naming it. An effect so named is compiled with the build's options minus the wgpu target:
//! the same key, artifacts and module a build without the target gives it (`Effect::WGPU` is
//! `None`), so the shared cache serves one to the other.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use glob::{MatchOptions, Pattern};

use shadowdusk_compiler::plumbing::{normalize, relative};

/// `*` and `?` stay inside one path component, `**` crosses them, as in a shell or `.gitignore`.
const MATCH: MatchOptions = MatchOptions {
    case_sensitive: true,
    require_literal_separator: true,
    require_literal_leading_dot: false,
};

/// The `.opengl_only(…)` patterns of one build.
#[derive(Debug, Default)]
pub(crate) struct OpenGlOnly {
    patterns: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    /// As the build script wrote it (for messages).
    written: String,
    pattern: Pattern,
    /// Whether it named an effect of this build.
    used: AtomicBool,
}

impl OpenGlOnly {
    /// The patterns `written`, relative to the crate `root` (an absolute one inside it is made
    /// relative). A pattern that is not a valid glob is an error naming it.
    pub fn new(root: &Path, written: &[String]) -> Result<OpenGlOnly, String> {
        let patterns = written
            .iter()
            .map(|w| {
                let path = Path::new(w.as_str());
                // Lexical, like every other Builder path: `./a/../b/*.fx` is `b/*.fx`.
                let rel = if path.is_absolute() {
                    let abs = normalize(path);
                    relative(&abs, root).unwrap_or(abs)
                } else {
                    normalize(path)
                };
                let text = rel.to_string_lossy().replace('\\', "/");
                let pattern = Pattern::new(&text).map_err(|e| {
                    format!(
                        "`.opengl_only({w:?})` is not a valid file name or glob: {} (at \
                         character {})",
                        e.msg, e.pos
                    )
                })?;
                Ok(Entry {
                    written: w.clone(),
                    pattern,
                    used: AtomicBool::new(false),
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(OpenGlOnly { patterns })
    }

    /// Whether the effect at `rel` (relative to the crate root) is named: the pattern matches
    /// its path or one of its folders (`.opengl_only("shaders/legacy")` names everything below).
    pub fn names(&self, rel: &Path) -> bool {
        let rel = rel.to_string_lossy().replace('\\', "/");
        let mut named = false;
        for e in &self.patterns {
            let hit =
                std::iter::successors(Some(rel.as_str()), |p| p.rsplit_once('/').map(|x| x.0))
                    .any(|p| e.pattern.matches_with(p, MATCH));
            if hit {
                e.used.store(true, Ordering::Relaxed);
                named = true;
            }
        }
        named
    }

    /// The patterns that named no effect of the build (a typo, a moved file), as written.
    pub fn unused(&self) -> Vec<&str> {
        self.patterns
            .iter()
            .filter(|e| !e.used.load(Ordering::Relaxed))
            .map(|e| e.written.as_str())
            .collect()
    }
}

/// The help line of an effect the wgpu target refused: the call that keeps it OpenGL-only.
pub(crate) fn help(rel: &Path) -> String {
    format!(
        "help: to build `{0}` for OpenGL only (its module then has no `wgsl` part), add \
         `.opengl_only(\"{0}\")` to the Builder in build.rs",
        portable(rel)
    )
}

fn portable(rel: &Path) -> String {
    rel.to_string_lossy().replace('\\', "/")
}

/// Whether the patterns `written` name the effect at `rel` (tests).
#[cfg(test)]
fn names(root: &Path, written: &[&str], rel: &str) -> Result<bool, String> {
    let written: Vec<String> = written.iter().map(|s| s.to_string()).collect();
    Ok(OpenGlOnly::new(root, &written)?.names(Path::new(rel)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_folders_and_globs_name_effects_relative_to_the_crate_root() {
        let root = Path::new("/game");
        let yes = |w: &[&str], rel: &str| assert!(names(root, w, rel).unwrap(), "{w:?} {rel}");
        let no = |w: &[&str], rel: &str| assert!(!names(root, w, rel).unwrap(), "{w:?} {rel}");
        yes(&["shaders/legacy.fx"], "shaders/legacy.fx");
        yes(&["./shaders/x/../legacy.fx"], "shaders/legacy.fx");
        yes(&["/game/shaders/legacy.fx"], "shaders/legacy.fx");
        yes(&["shaders/legacy/*.fx"], "shaders/legacy/a.fx");
        no(&["shaders/legacy/*.fx"], "shaders/legacy/deep/a.fx");
        yes(&["shaders/legacy/**/*.fx"], "shaders/legacy/deep/a.fx");
        yes(&["shaders/legacy"], "shaders/legacy/deep/a.fx");
        no(&["shaders/legacy"], "shaders/legacy2/a.fx");
        no(&["*.fx"], "shaders/a.fx");
        no(&["shaders/Legacy.fx"], "shaders/legacy.fx");
        yes(&["../common/*.fx"], "../common/a.fx");
    }

    #[test]
    fn a_bad_glob_is_an_error_naming_it_and_unused_patterns_are_listed() {
        let e = OpenGlOnly::new(Path::new("/game"), &["shaders/[.fx".into()]).unwrap_err();
        assert!(e.contains("`.opengl_only(\"shaders/[.fx\")`"), "{e}");
        let g = OpenGlOnly::new(Path::new("/game"), &["a.fx".into(), "b/*.fx".into()]).unwrap();
        assert!(g.names(Path::new("b/c.fx")));
        assert_eq!(g.unused(), ["a.fx"]);
    }

    #[test]
    fn the_help_line_is_the_call_to_add() {
        assert_eq!(
            help(Path::new("shaders/legacy.fx")),
            "help: to build `shaders/legacy.fx` for OpenGL only (its module then has no `wgsl` \
             part), add `.opengl_only(\"shaders/legacy.fx\")` to the Builder in build.rs"
        );
    }
}
