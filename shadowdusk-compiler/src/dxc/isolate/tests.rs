//! The pool against stand-in workers: small shell scripts that speak (or break) the protocol,
//! so every failure is produced on purpose. Real DXC workers are tested in `dxc::tests`.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The kind of every stand-in worker.
const KIND: &str = "stand-in";

/// `printf` text of a frame: its u32 length, then `body`.
fn frame(body: &str) -> String {
    let len = body.len() as u32;
    let head: String = len
        .to_le_bytes()
        .iter()
        .map(|b| format!("\\{b:03o}"))
        .collect();
    format!("{head}{body}")
}

/// A stand-in worker running `script` after saying hello.
fn script(script: &str) -> Command {
    let mut c = Command::new("/bin/sh");
    c.arg("-c")
        .arg(format!("printf '{}'; {script}", frame("ok")));
    c
}

/// Answers one request with `answer` (after acknowledging it), then waits for the next.
fn answering(answer: &str) -> Command {
    // `head -c` reads exactly the request so the next one is not swallowed; requests in these
    // tests are all 4 + 5 bytes.
    script(&format!(
        "while [ \"$(head -c 9 | wc -c)\" -eq 9 ]; do printf 'R{}'; done",
        frame(answer)
    ))
}

fn limits() -> Limits {
    Limits {
        request: Duration::from_secs(20),
        idle: Duration::from_secs(30),
        max_idle: 4,
    }
}

/// Limits for workers that are meant to miss their deadline.
fn short() -> Limits {
    Limits {
        request: Duration::from_millis(300),
        ..limits()
    }
}

fn spawn(c: impl Fn() -> Command) -> impl Fn() -> Result<Worker, Died> {
    move || Worker::spawn(c(), Duration::from_secs(20))
}

#[test]
fn a_worker_answers_request_after_request() {
    let pool = Pool::new();
    for _ in 0..3 {
        assert_eq!(
            pool.ask(KIND, b"hello", &limits(), spawn(|| answering("yes"))),
            Ok(b"yes".to_vec())
        );
    }
    assert_eq!(pool.idle_count(), 1, "one worker served all three");
}

#[test]
fn a_crash_after_the_request_is_read_fails_that_request() {
    let pool = Pool::new();
    let died = pool.ask(
        KIND,
        b"hello",
        &limits(),
        spawn(|| script("printf R; kill -SEGV $$")),
    );
    assert_eq!(died, Err(Died::Signal(libc::SIGSEGV)));
    assert_eq!(
        Died::Signal(libc::SIGSEGV).to_string(),
        "DXC crashed (signal 11, SIGSEGV)"
    );
    assert_eq!(pool.idle_count(), 0);
}

#[test]
fn an_exit_without_answer_is_reported() {
    let pool = Pool::new();
    let died = pool.ask(
        KIND,
        b"hello",
        &limits(),
        spawn(|| script("printf R; exit 7")),
    );
    assert_eq!(died, Err(Died::Exit(7)));
}

#[test]
fn a_worker_gone_before_reading_is_replaced_once() {
    let pool = Pool::new();
    let started = AtomicUsize::new(0);
    let spawn_dead_then_good = || {
        let n = started.fetch_add(1, Ordering::SeqCst);
        let command = if n == 0 {
            script("exit 0")
        } else {
            answering("fine")
        };
        Worker::spawn(command, Duration::from_secs(20))
    };
    assert_eq!(
        pool.ask(KIND, b"hello", &limits(), spawn_dead_then_good),
        Ok(b"fine".to_vec())
    );
    assert_eq!(started.load(Ordering::SeqCst), 2);

    // Only once: a worker that keeps dying before it reads is an error, not a loop.
    let pool = Pool::new();
    let started = AtomicUsize::new(0);
    let always_dead = || {
        started.fetch_add(1, Ordering::SeqCst);
        Worker::spawn(script("exit 4"), Duration::from_secs(20))
    };
    assert_eq!(
        pool.ask(KIND, b"hello", &limits(), always_dead),
        Err(Died::Exit(4))
    );
    assert_eq!(started.load(Ordering::SeqCst), 2);
}

#[test]
fn a_worker_killed_while_idle_is_not_a_failure() {
    let pool = Pool::new();
    let spawn = spawn(|| answering("yes"));
    assert_eq!(
        pool.ask(KIND, b"hello", &limits(), &spawn),
        Ok(b"yes".to_vec())
    );
    let pid = pool.lock().idle[0].pid();
    // SAFETY: `pid` is our child, alive and not reaped (the pool holds it).
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        pool.ask(KIND, b"hello", &limits(), &spawn),
        Ok(b"yes".to_vec())
    );
}

#[test]
fn a_garbage_length_is_refused_without_allocating_it() {
    let pool = Pool::new();
    // An acknowledgement, then a length of 4 GiB - 1.
    let died = pool.ask(
        KIND,
        b"hello",
        &limits(),
        spawn(|| script("printf 'R\\377\\377\\377\\377'; sleep 30")),
    );
    match died {
        Err(Died::Garbage(why)) => assert!(why.contains("4294967295 bytes"), "{why}"),
        other => panic!("expected a refused frame, got {other:?}"),
    }
}

#[test]
fn a_request_over_the_cap_reaches_no_worker() {
    let pool = Pool::new();
    let big = vec![b' '; MAX_REQUEST + 1];
    let died = pool.ask(KIND, &big, &limits(), || {
        unreachable!("no worker is started")
    });
    assert_eq!(died, Err(Died::TooLarge(MAX_REQUEST + 1)));
}

#[test]
fn a_wrong_acknowledgement_is_refused() {
    let pool = Pool::new();
    let died = pool.ask(
        KIND,
        b"hello",
        &limits(),
        spawn(|| script("printf X; sleep 30")),
    );
    assert!(matches!(died, Err(Died::Garbage(_))), "{died:?}");
}

#[test]
fn a_worker_that_never_answers_is_killed_at_the_deadline() {
    let pool = Pool::new();
    let short = short();
    let start = Instant::now();
    let died = pool.ask(
        KIND,
        b"hello",
        &short,
        spawn(|| script("printf R; sleep 60")),
    );
    assert_eq!(died, Err(Died::Timeout(short.request)));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_worker_that_stops_reading_cannot_block_the_request() {
    // A request far larger than the socket's buffer, to a worker that never reads: the write
    // itself must give up at the deadline.
    let pool = Pool::new();
    let short = short();
    let big = vec![0u8; 16 << 20];
    let start = Instant::now();
    let died = pool.ask(KIND, &big, &short, spawn(|| script("sleep 60")));
    assert_eq!(died, Err(Died::Timeout(short.request)));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_worker_that_cannot_serve_says_why_at_start() {
    let mut c = Command::new("/bin/sh");
    c.arg("-c")
        .arg(format!("printf '{}'", frame("cannot load x.so")));
    let err = Worker::spawn(c, Duration::from_secs(20)).err();
    assert_eq!(err, Some(Died::Spawn("cannot load x.so".into())));
    let missing = Worker::spawn(
        Command::new("/nonexistent/shadowdusk-dxc-worker"),
        Duration::from_secs(20),
    );
    assert!(matches!(missing, Err(Died::Spawn(_))));
}

#[test]
fn idle_workers_expire_and_are_bounded() {
    let pool = Pool::new();
    let started = AtomicUsize::new(0);
    let spawn = || {
        started.fetch_add(1, Ordering::SeqCst);
        Worker::spawn(answering("yes"), Duration::from_secs(20))
    };
    let quick = Limits {
        idle: Duration::from_millis(200),
        ..limits()
    };
    assert_eq!(pool.ask(KIND, b"hello", &quick, spawn), Ok(b"yes".to_vec()));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(pool.ask(KIND, b"hello", &quick, spawn), Ok(b"yes".to_vec()));
    assert_eq!(
        started.load(Ordering::SeqCst),
        2,
        "the expired worker was replaced"
    );

    let one = Limits {
        max_idle: 1,
        ..limits()
    };
    let a = spawn().expect("worker");
    let b = spawn().expect("worker");
    pool.put_back(a, &one);
    pool.put_back(b, &one);
    assert_eq!(pool.idle_count(), 1);
    pool.release();
    assert_eq!(pool.idle_count(), 0);
}

#[test]
fn every_ended_worker_is_reaped() {
    let pool = Pool::new();
    let marked = |s: &str| script(&format!(": reaped-test; {s}"));
    let _ = pool.ask(
        KIND,
        b"hello",
        &limits(),
        spawn(|| marked("printf R; kill -SEGV $$")),
    );
    let short = short();
    let _ = pool.ask(
        KIND,
        b"hello",
        &short,
        spawn(|| marked("printf R; sleep 60")),
    );
    let _ = pool.ask(KIND, b"hello", &limits(), spawn(|| marked("exit 0")));
    assert_eq!(
        pool.ask(
            KIND,
            b"hello",
            &limits(),
            spawn(|| answering(": reaped-test; yes"))
        ),
        Ok(b": reaped-test; yes".to_vec())
    );
    assert_eq!(
        children("reaped-test").len(),
        1,
        "{:?}",
        children("reaped-test")
    );
    pool.release();
    assert!(
        children("reaped-test").is_empty(),
        "left behind: {:?}",
        children("reaped-test")
    );
}

/// A worker that ended by itself while idle (as a real one does after its idle time) is reaped
/// without another request: no zombie is left in a process that stopped compiling.
#[test]
fn an_idle_worker_that_ends_is_reaped_without_another_request() {
    let pool = Pool::new();
    let quick = Limits {
        idle: Duration::from_millis(500),
        ..limits()
    };
    pool.ready(KIND, &quick, spawn(|| script("sleep 0.1")))
        .expect("worker");
    let pid = pool.idle_pids()[0];
    let start = Instant::now();
    while alive(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "worker {pid} ended but was not reaped (a zombie)"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(pool.idle_count(), 0);
}

/// An idle worker is ended when it expires, whether or not a request comes.
#[test]
fn an_idle_worker_is_ended_when_it_expires() {
    let pool = Pool::new();
    let quick = Limits {
        idle: Duration::from_millis(300),
        ..limits()
    };
    pool.ready(KIND, &quick, spawn(|| answering("yes")))
        .expect("worker");
    // Ready again: the idle one serves, no second worker.
    pool.ready(KIND, &quick, || unreachable!("a worker is idle"))
        .expect("ready");
    let pid = pool.idle_pids()[0];
    let start = Instant::now();
    while alive(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "idle worker {pid} outlived its time"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(pool.idle_count(), 0);
}

/// Workers serve one kind (one DXC file): a request of another kind ends the idle ones and
/// starts a new one.
#[test]
fn a_request_of_another_kind_ends_the_idle_workers() {
    let pool = Pool::new();
    let ask =
        |kind: &'static str| pool.ask(kind, b"hello", &limits(), spawn(move || answering(kind)));
    assert_eq!(ask("old"), Ok(b"old".to_vec()));
    let old = pool.idle_pids();
    assert_eq!(ask("new"), Ok(b"new".to_vec()));
    assert!(
        !alive(old[0]),
        "the old kind's worker {} is still there",
        old[0]
    );
    assert_eq!(pool.idle_count(), 1);
    assert_eq!(ask("new"), Ok(b"new".to_vec()));
}

/// Whether `pid` names a process, live or a zombie (a reaped child no longer does).
fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as i32, 0) == 0 }
}

/// This process's live or unreaped children whose command line contains `marker`.
fn children(marker: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let out = Command::new("pgrep")
        .args(["-a", "-P", &me])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(marker))
        .map(str::to_string)
        .collect()
}
