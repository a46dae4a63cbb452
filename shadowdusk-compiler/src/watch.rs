//! Recompiling an effect whenever a file it read changes: the compile half of shader hot reload
//! (feature `watch`; the GL half is `shadowdusk::hot`).
//!
//! A background thread watches the folders holding every file the effect reads (editors save
//! by writing a new file and renaming it over the old one, which a watch on the file itself
//! would lose), and compiles again after a change to any of them. Nothing is compiled before
//! the first change: the caller names the files the build read (a generated module's
//! `Effect::FILES_READ`), or, when it does not know them, the thread learns them by
//! preprocessing the effect (no DXC). Each compile is one [`Update`]: the [`Compiled`] effect,
//! or the error text as the build prints it (`path:line:col: error[CODE]: …` and a snippet).
//! What was read is re-learned on every compile, so a newly included header is watched from
//! then on.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher as _};

use crate::diag::render_located;
use crate::paths::normalize;
use crate::pipeline::{compile_file, Compiled, Options};
use crate::preprocess;
use crate::source::SourceFiles;

/// Events closer together than this are one save (an editor's write, truncate and rename).
const SETTLE: Duration = Duration::from_millis(15);

/// One recompile.
#[derive(Debug)]
pub struct Update {
    /// The effect, or the error as the build would print it (paths relative to the root given
    /// to [`Watcher::new`]).
    pub result: Result<Box<Compiled>, String>,
    /// When the first change of this round was seen.
    pub changed_at: Instant,
    /// When the compile finished.
    pub compiled_at: Instant,
}

/// Watches one effect and recompiles it on change. Dropping it stops the thread.
pub struct Watcher {
    updates: Receiver<Update>,
    // Dropping the sender ends the thread's wait.
    _stop: mpsc::Sender<()>,
}

impl Watcher {
    /// Starts watching `source`, compiled with `options`; errors are shown with paths relative
    /// to `root` (a crate root, say). `files_read` are the files the effect read when it was
    /// built (its includes; the source is always watched); when empty, the background thread
    /// learns them by preprocessing `source` first, so a header outside the source's folder
    /// saved in the few milliseconds before that is seen from its next save. Nothing is
    /// compiled here, and nothing before the first change. Fails when the platform cannot
    /// watch files or a folder to watch is missing.
    pub fn new(
        source: &Path,
        files_read: &[PathBuf],
        options: Options,
        root: &Path,
    ) -> Result<Watcher, String> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let source = normalize(&cwd.join(source));
        let root = root.to_path_buf();
        let (events_tx, events) = mpsc::channel::<notify::Result<notify::Event>>();
        let mut fs = notify::recommended_watcher(move |e| {
            let _ = events_tx.send(e);
        })
        .map_err(|e| format!("cannot watch files: {e}"))?;
        let learn = files_read.is_empty();
        let mut deps: BTreeSet<PathBuf> =
            files_read.iter().map(|p| normalize(&cwd.join(p))).collect();
        deps.insert(source.clone());
        // Watched before returning, so no save after `new` is missed (a save while the thread
        // still learns the includes is queued and seen then).
        let mut watched = BTreeSet::new();
        rewatch(&mut fs, &mut watched, &deps)?;
        let (updates_tx, updates) = mpsc::channel();
        let (stop, stopped) = mpsc::channel::<()>();
        let mut thread = WatchThread {
            fs,
            watched,
            deps,
            events,
            stopped,
            updates: updates_tx,
            source,
            options,
            root,
        };
        std::thread::Builder::new()
            .name("shadowdusk-watch".into())
            .spawn(move || {
                if learn {
                    thread.learn_deps();
                }
                thread.run();
            })
            .map_err(|e| format!("cannot start the watch thread: {e}"))?;
        Ok(Watcher {
            updates,
            _stop: stop,
        })
    }

    /// The newest finished recompile since the last call, if any (older ones are dropped: only
    /// the latest text on disk matters).
    pub fn latest(&self) -> Option<Update> {
        self.updates.try_iter().last()
    }

    /// Waits up to `timeout` for the next recompile.
    pub fn wait(&self, timeout: Duration) -> Option<Update> {
        self.updates.recv_timeout(timeout).ok()
    }
}

/// What the background thread owns.
struct WatchThread {
    fs: notify::RecommendedWatcher,
    watched: BTreeSet<PathBuf>,
    deps: BTreeSet<PathBuf>,
    events: Receiver<notify::Result<notify::Event>>,
    stopped: Receiver<()>,
    updates: mpsc::Sender<Update>,
    source: PathBuf,
    options: Options,
    root: PathBuf,
}

impl WatchThread {
    /// Learns the files the effect reads from the preprocessor alone (as the Builder's cache
    /// key does: cheap, and no DXC) and watches them.
    fn learn_deps(&mut self) {
        let mut files = SourceFiles::new();
        let _ = preprocess::preprocess(&self.source, None, &self.options.preprocess, &mut files);
        self.deps = files.iter().map(|(_, f)| normalize(&f.path)).collect();
        self.deps.insert(self.source.clone());
        let _ = rewatch(&mut self.fs, &mut self.watched, &self.deps);
    }

    /// Recompiles after each change until the [`Watcher`] is dropped.
    fn run(mut self) {
        while let Some(changed_at) = self.next_change() {
            while self.events.recv_timeout(SETTLE).is_ok() {}
            let result = compile(&self.source, &self.options, &self.root);
            self.deps = deps_of(&result, &self.source);
            let _ = rewatch(&mut self.fs, &mut self.watched, &self.deps);
            let update = Update {
                result: result.map(|(c, _)| Box::new(c)).map_err(|(e, _)| e),
                changed_at,
                compiled_at: Instant::now(),
            };
            if self.updates.send(update).is_err() {
                return;
            }
        }
    }

    /// Waits for a change to a file the effect read, checking now and then whether the owner
    /// is gone (`None`).
    fn next_change(&self) -> Option<Instant> {
        loop {
            match self.events.recv_timeout(Duration::from_millis(100)) {
                Ok(Ok(e)) if touches(&e, &self.deps) => return Some(Instant::now()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    if matches!(
                        self.stopped.try_recv(),
                        Err(mpsc::TryRecvError::Disconnected)
                    ) {
                        return None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
}

type Outcome = Result<(Compiled, Vec<PathBuf>), (String, Vec<PathBuf>)>;

fn compile(source: &Path, options: &Options, root: &Path) -> Outcome {
    match compile_file(source, options) {
        Ok(c) => {
            let deps = c.deps.clone();
            Ok((c, deps))
        }
        Err(e) => {
            let text = render_located(&e.files, &e.diagnostics.0, root, source);
            Err((text.trim_end().to_string(), e.deps))
        }
    }
}

/// Every file the compile read, and the source itself even when it could not be read (so
/// creating it again is seen).
fn deps_of(outcome: &Outcome, source: &Path) -> BTreeSet<PathBuf> {
    let list = match outcome {
        Ok((_, d)) | Err((_, d)) => d,
    };
    let mut deps: BTreeSet<PathBuf> = list.iter().map(|p| normalize(p)).collect();
    deps.insert(source.to_path_buf());
    deps
}

/// Watches the folder of every dependency (not the file: a save by rename replaces it).
fn rewatch(
    fs: &mut notify::RecommendedWatcher,
    watched: &mut BTreeSet<PathBuf>,
    deps: &BTreeSet<PathBuf>,
) -> Result<(), String> {
    let dirs: BTreeSet<PathBuf> = deps
        .iter()
        .filter_map(|d| d.parent().map(Path::to_path_buf))
        .collect();
    for d in dirs.difference(&watched.clone()) {
        fs.watch(d, RecursiveMode::NonRecursive)
            .map_err(|e| format!("cannot watch {}: {e}", d.display()))?;
        watched.insert(d.clone());
    }
    Ok(())
}

fn touches(e: &notify::Event, deps: &BTreeSet<PathBuf>) -> bool {
    use notify::EventKind::{Create, Modify, Remove};
    matches!(e.kind, Create(_) | Modify(_) | Remove(_))
        && e.paths.iter().any(|p| deps.contains(&normalize(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "float4 Tint;\nfloat4 PS(float2 uv : TEXCOORD0) : COLOR0 { return Tint * COLOR_SCALE; }\ntechnique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";

    /// Saves the way editors do: a new file renamed over the old one.
    fn save(path: &Path, text: &str) {
        let tmp = path.with_extension("tmp~");
        std::fs::write(&tmp, text).unwrap();
        std::fs::rename(&tmp, path).unwrap();
    }

    #[test]
    fn an_edit_to_an_include_recompiles_and_errors_are_located() {
        if crate::dxc::missing_skips() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let fx = dir.path().join("tint.fx");
        let inc = dir.path().join("scale.fxh");
        std::fs::write(&inc, "#define COLOR_SCALE 1.0\n").unwrap();
        std::fs::write(&fx, format!("#include \"scale.fxh\"\n{GOOD}")).unwrap();
        let w = Watcher::new(&fx, &[], Options::default(), dir.path()).unwrap();
        assert!(w.latest().is_none(), "nothing changed yet");

        save(&inc, "#define COLOR_SCALE 0.5\n");
        let u = w
            .wait(Duration::from_secs(20))
            .expect("a recompile after the include changed");
        assert!(u.result.is_ok(), "{:?}", u.result.err());
        assert!(u.compiled_at >= u.changed_at);

        save(&fx, "#include \"scale.fxh\"\nfloat4 Tint\n");
        let u = w
            .wait(Duration::from_secs(20))
            .expect("a recompile after the error");
        let text = u.result.expect_err("a syntax error");
        assert!(text.starts_with("tint.fx:2:"), "{text}");
        assert!(text.contains("error["), "{text}");
    }

    #[test]
    fn includes_in_other_folders_are_watched_whether_given_or_learned() {
        if crate::dxc::missing_skips() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let fx = dir.path().join("tint.fx");
        let inc = dir.path().join("inc/scale.fxh");
        std::fs::create_dir_all(inc.parent().unwrap()).unwrap();
        std::fs::write(&inc, "#define COLOR_SCALE 1.0\n").unwrap();
        std::fs::write(&fx, format!("#include \"scale.fxh\"\n{GOOD}")).unwrap();
        let mut options = Options::default();
        options.preprocess.include_dirs = vec![inc.parent().unwrap().to_path_buf()];
        // As the build read them (no preprocessing, no compile), then learned by the thread.
        for (round, files_read) in [vec![fx.clone(), inc.clone()], Vec::new()]
            .into_iter()
            .enumerate()
        {
            let w = Watcher::new(&fx, &files_read, options.clone(), dir.path()).unwrap();
            if files_read.is_empty() {
                // Time for the thread to learn the header's folder (a preprocess: milliseconds).
                std::thread::sleep(Duration::from_millis(500));
            }
            save(&inc, &format!("#define COLOR_SCALE 0.{round}5\n"));
            let u = w
                .wait(Duration::from_secs(20))
                .unwrap_or_else(|| panic!("round {round}: no recompile after the include changed"));
            assert!(u.result.is_ok(), "{:?}", u.result.err());
        }
    }
}
