//! What keeps a first fetch from hanging every build or filling the disk: time-outs against a
//! server that accepts and never answers (curl, and pip when it is here), the bounded wait on
//! the install lock, the size limit on what is downloaded and unpacked, the hash of every member
//! of a cached copy; and the scratch folders a killed fetch leaves behind.
//!
//! Each fetch runs on its own thread and the test waits for it a bounded time, so a hang fails
//! the test instead of hanging it.

use std::net::TcpListener;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::*;

/// A server on 127.0.0.1 that accepts connections and never answers: a stalled download. It
/// holds at most 32 connections and stops by itself after a minute.
struct Silent {
    base: String,
    accepted: Arc<AtomicUsize>,
}

impl Silent {
    fn start() -> Silent {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = accepted.clone();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            let until = Instant::now() + Duration::from_secs(60);
            while Instant::now() < until && held.len() < 32 {
                match listener.accept() {
                    Ok((stream, _)) => {
                        count.fetch_add(1, Ordering::SeqCst);
                        held.push(stream);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        Silent { base, accepted }
    }

    fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

/// Time-outs of seconds instead of minutes.
fn quick() -> Limits {
    Limits {
        connect: Duration::from_secs(2),
        stall: Duration::from_secs(1),
        retries: 0,
        run: Duration::from_secs(20),
        ..Limits::default()
    }
}

/// Longer than any fetch here may take, however it fails.
const GUARD: Duration = Duration::from_secs(40);

/// `provide` on its own thread; its result and notice lines, or `Err` if it has not ended
/// after `GUARD` (the test fails rather than hangs).
fn provide_bounded(
    p: Provisioner,
) -> mpsc::Receiver<(Result<Cached, String>, Vec<String>, Duration)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let started = Instant::now();
        let (r, lines) = provide(&p);
        let _ = tx.send((r, lines, started.elapsed()));
    });
    rx
}

fn ended(
    rx: &mpsc::Receiver<(Result<Cached, String>, Vec<String>, Duration)>,
    what: &str,
) -> (Result<Cached, String>, Vec<String>, Duration) {
    rx.recv_timeout(GUARD)
        .unwrap_or_else(|_| panic!("{what} still runs after {GUARD:?}: it hangs"))
}

fn silent_archive(server: &Silent) -> Source {
    let mut source = archive_source(
        format!("{}/dxc.tar.gz", server.base),
        b"never served",
        ArchiveFormat::TarGz,
        &["lib/libdxcompiler.so"],
    );
    source.what = "DXC from the silent test server".into();
    source
}

#[test]
fn a_download_that_never_answers_fails_within_its_time_out_naming_the_source() {
    let server = Silent::start();
    let source = silent_archive(&server);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source.clone()])
        .with_limits(quick(), Duration::from_secs(30));
    let (r, lines, took) = ended(&provide_bounded(p), "the fetch");
    let e = r.unwrap_err();
    assert!(
        e.contains("DXC from the silent test server") && e.contains("timed out"),
        "{e}"
    );
    assert!(e.contains(&format!("{}/dxc.tar.gz", server.base)), "{e}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(server.accepted(), 1, "connected, then stalled");
    eprintln!("stalled download failed after {took:?} (stall time-out 1 s): {e}");
}

#[test]
fn a_client_running_past_the_longest_download_is_killed() {
    // A stall time-out longer than the whole run: only the run limit can end it.
    let server = Silent::start();
    let source = silent_archive(&server);
    let cache = tempfile::tempdir().unwrap();
    let limits = Limits {
        stall: Duration::from_secs(600),
        run: Duration::from_secs(1),
        ..quick()
    };
    let p = Provisioner::new(cache.path(), vec![source]).with_limits(limits, GUARD);
    let (r, _, _) = ended(&provide_bounded(p), "the fetch");
    let e = r.unwrap_err();
    assert!(
        e.contains("DXC from the silent test server") && e.contains("timed out: stopped after 1 s"),
        "{e}"
    );
}

#[test]
fn pip_with_an_index_that_never_answers_fails_within_its_time_out_naming_the_source() {
    let test = "pip_with_an_index_that_never_answers_fails_within_its_time_out_naming_the_source";
    let pip = std::process::Command::new("python3")
        .args(["-m", "pip", "--version"])
        .output();
    if !pip.is_ok_and(|o| o.status.success()) {
        shadowdusk_testkit::skip(test, "no `python3 -m pip` here");
        return;
    }
    let server = Silent::start();
    let source = pins::for_platform("linux", "x86_64", None)
        .into_iter()
        .find(|s| s.name == "pip")
        .expect("the pinned wheel");
    let limits = Limits {
        // One retry: pip says the index timed out only in the warning before a retry.
        retries: 1,
        env: vec![
            // Only the silent server: no configuration file, no other index or folder.
            ("PIP_CONFIG_FILE".into(), "/dev/null".into()),
            ("PIP_INDEX_URL".into(), format!("{}/simple", server.base)),
            ("PIP_EXTRA_INDEX_URL".into(), String::new()),
            ("PIP_FIND_LINKS".into(), String::new()),
        ],
        ..quick()
    };
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source]).with_limits(limits, GUARD);
    let (r, _, took) = ended(&provide_bounded(p), "pip");
    let e = r.unwrap_err();
    assert!(
        e.contains("compushady-lrtu 0.18.0 wheel through pip")
            && e.contains("pip download compushady-lrtu==0.18.0` timed out"),
        "{e}"
    );
    assert!(server.accepted() >= 1, "pip asked the silent server");
    eprintln!("pip failed after {took:?} (time-out 1 s, 2 tries): {e}");
}

#[test]
fn a_build_waiting_on_the_lock_gets_the_holders_time_out_instead_of_hanging() {
    let server = Silent::start();
    let source = silent_archive(&server);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source.clone()])
        .with_limits(quick(), Duration::from_secs(30));
    let first = provide_bounded(p.clone());
    // The second starts once the first holds the lock and is connected.
    let until = Instant::now() + GUARD;
    while server.accepted() == 0 {
        assert!(Instant::now() < until, "the first fetch never connected");
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = provide_bounded(p);
    let (first, first_lines, _) = ended(&first, "the first build");
    let (second, second_lines, _) = ended(&second, "the second build");
    let first = first.unwrap_err();
    let second = second.unwrap_err();
    assert!(first.contains("timed out"), "{first}");
    assert!(
        second.contains("DXC from the silent test server")
            && second.contains("tried it while this one waited, and failed")
            && second.contains("timed out"),
        "{second}"
    );
    assert_eq!(server.accepted(), 1, "one download tried for two builds");
    eprintln!("the waiting build: {second}");
    assert_eq!((first_lines.len(), second_lines.len()), (1, 0));
}

#[test]
fn a_lock_holder_that_never_finishes_is_waited_for_a_bounded_time_and_named() {
    let source = silent_archive(&Silent::start());
    let cache = tempfile::tempdir().unwrap();
    // A stopped process: holds the lock, said what it fetches, never ends.
    let path = cache.path().join(format!("{}.lock", source.key));
    let stopped = lock::open(&path).unwrap();
    assert_eq!(lock::try_lock(&stopped, &path), Ok(true));
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    std::fs::write(
        cache.path().join(format!("{}.state", source.key)),
        format!("fetching\n4242\n{since}\nDXC from nowhere into /somewhere\n"),
    )
    .unwrap();
    let p =
        Provisioner::new(cache.path(), vec![source]).with_limits(quick(), Duration::from_secs(2));
    let (r, lines, _) = ended(&provide_bounded(p), "the waiting build");
    let e = r.unwrap_err();
    assert!(
        e.contains(
            "waited 2 s for process 4242, which has been fetching DXC from nowhere into \
                    /somewhere"
        ) && e.contains("gave up")
            && e.contains(&path.display().to_string()),
        "{e}"
    );
    eprintln!("{}\n{e}", lines[0]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("shadowdusk: waiting for process 4242"),
        "{}",
        lines[0]
    );
    drop(stopped);
}

fn scratch_folder(root: &Path, name: &str) {
    std::fs::create_dir_all(root.join(name)).unwrap();
    std::fs::write(root.join(name).join("download"), b"half a download").unwrap();
}

#[test]
fn scratch_folders_of_killed_fetches_are_removed_and_those_in_use_are_kept() {
    let server = Server::start(Duration::ZERO);
    let bytes = tar_gz(&[("lib/libdxcompiler.so", LIBRARY)]);
    let url = server.serve("/dxc.tar.gz", bytes.clone());
    let source = archive_source(url, &bytes, ArchiveFormat::TarGz, &["lib/libdxcompiler.so"]);
    let cache = tempfile::tempdir().unwrap();
    let root = cache.path();
    let ours = scratch::prefix(&source.key);
    // Killed fetches of this source (whose lock was free) and a killed repair.
    scratch_folder(root, &format!("{ours}999999"));
    scratch_folder(root, &format!("{ours}999998-damaged"));
    // A killed fetch of another source, whose lock is free.
    let free = "1".repeat(64);
    std::fs::write(root.join(format!("{free}.lock")), b"").unwrap();
    scratch_folder(root, &format!("{}7", scratch::prefix(&free)));
    // Another source's fetch in progress: its lock is held.
    let busy = "2".repeat(64);
    let busy_lock = root.join(format!("{busy}.lock"));
    let holder = lock::open(&busy_lock).unwrap();
    assert_eq!(lock::try_lock(&holder, &busy_lock), Ok(true));
    let in_use = format!("{}8", scratch::prefix(&busy));
    scratch_folder(root, &in_use);
    // Not a scratch folder of any source here.
    scratch_folder(root, ".partial-unknown-9");

    let p = Provisioner::new(root, vec![source.clone()]);
    provide(&p).0.expect("fetched");
    let mut left: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    left.sort();
    assert_eq!(left, [in_use, ".partial-unknown-9".to_string()]);
    drop(holder);
}

#[test]
fn a_member_over_the_size_limit_is_refused_in_either_format() {
    let server = Server::start(Duration::ZERO);
    // 64 KB of zeros: a small archive holding a member over the 16 KB limit.
    let big = vec![0u8; 64 << 10];
    let limits = Limits {
        max_bytes: 16 << 10,
        ..quick()
    };
    let archives = [
        (
            "/big.tar.gz",
            tar_gz(&[("lib/libdxcompiler.so", &big)]),
            ArchiveFormat::TarGz,
        ),
        (
            "/big.zip",
            zip(&[("lib/libdxcompiler.so", &big)]),
            ArchiveFormat::Zip,
        ),
    ];
    for (path, bytes, format) in archives {
        assert!(bytes.len() < 16 << 10, "{path} itself is under the limit");
        let url = server.serve(path, bytes.clone());
        let source = archive_source(url, &bytes, format, &["lib/libdxcompiler.so"]);
        let cache = tempfile::tempdir().unwrap();
        let p =
            Provisioner::new(cache.path(), vec![source.clone()]).with_limits(limits.clone(), GUARD);
        let e = provide(&p).0.unwrap_err();
        let name = &path[1..];
        assert!(
            e.contains(&format!(
                "lib/libdxcompiler.so in {name} is 65536 bytes, more than the 16384 bytes any \
                 file DXC needs may be: refused"
            )),
            "{e}"
        );
        assert!(
            !cache.path().join(&source.key).exists(),
            "nothing installed"
        );
    }

    // A download over the limit is cut off by curl.
    let noise = vec![1u8; 64 << 10];
    let url = server.serve("/noise.tar.gz", noise.clone());
    let source = archive_source(url, &noise, ArchiveFormat::TarGz, &["lib/libdxcompiler.so"]);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source]).with_limits(limits, GUARD);
    let e = provide(&p).0.unwrap_err();
    assert!(e.contains("refused, larger than the 16384 bytes"), "{e}");
}

#[test]
fn a_cached_dxil_dll_with_another_hash_is_refused_and_fetched_again() {
    let server = Server::start(Duration::ZERO);
    let bytes = zip(&[
        ("bin/x64/dxcompiler.dll", LIBRARY),
        ("bin/x64/dxil.dll", b"the signer DXC loads"),
    ]);
    let url = server.serve("/dxc.zip", bytes.clone());
    let members = ["bin/x64/dxcompiler.dll", "bin/x64/dxil.dll"];
    let source = archive_source(url, &bytes, ArchiveFormat::Zip, &members);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source.clone()]);
    provide(&p).0.expect("fetched");
    let dir = cache.path().join(&source.key);
    let dxil = dir.join("dxil.dll");
    assert_eq!(
        std::fs::read_to_string(dir.join("members.sha256")).unwrap(),
        format!("{}  dxil.dll\n", fetch::sha256_hex(b"the signer DXC loads"))
    );

    std::fs::write(&dxil, b"the signer DXC loadz").unwrap();
    assert_eq!(p.cached(), None, "a damaged dxil.dll is never offered");
    let (again, lines) = provide(&p);
    again.expect("fetched again");
    assert_eq!(lines.len(), 1);
    assert_eq!(std::fs::read(&dxil).unwrap(), b"the signer DXC loads");
    assert_eq!(server.hits(), 2);

    // Its record gone: the same.
    std::fs::remove_file(dir.join("members.sha256")).unwrap();
    assert_eq!(p.cached(), None);
    std::fs::remove_file(&dxil).unwrap();
    provide(&p).0.expect("fetched again");
    assert!(p.cached().is_some());
}
