//! DXC in real worker processes: each way a worker can fail, with the real executable and the
//! real library (the protocol-level failures are in `isolate::tests`, with stand-ins).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::isolate::{Died, Limits, Pool};
use super::*;

const VALID: &str = "float4 main(float4 c : COLOR0) : SV_Target { return c; }";

/// A shader DXC 1.8 needs minutes for (measured: still compiling after 100 s): a real hang.
const ENDLESS: &str = "float4 C[64];\n\
    float4 main(float4 p : TEXCOORD0) : SV_Target {\n\
      float4 a = p;\n\
      [unroll] for (int i = 0; i < 2000; i++) {\n\
        [unroll] for (int j = 0; j < 20; j++) { a = sin(a * C[(i + j) % 64] + a.yzwx) * cos(a.wxyz + j); }\n\
      }\n\
      return a;\n\
    }";

fn limits() -> Limits {
    Limits {
        request: Duration::from_secs(120),
        idle: Duration::from_secs(30),
        max_idle: 2,
    }
}

fn compiles(pool: &Pool, limits: &Limits) -> bool {
    matches!(
        compile_isolated(pool, limits, VALID, "main", Stage::Pixel),
        Ok(Ok(_))
    )
}

fn library() -> std::path::PathBuf {
    choice::current().expect("DXC is available").path
}

#[test]
fn a_worker_killed_while_idle_does_not_fail_the_next_shader() {
    if missing_skips() {
        return;
    }
    let pool = Pool::new();
    assert!(compiles(&pool, &limits()));
    let pids = pool.idle_pids();
    assert_eq!(pids.len(), 1);
    // SAFETY: the pool's idle worker is our child and not reaped.
    unsafe { libc::kill(pids[0] as i32, libc::SIGKILL) };
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        compiles(&pool, &limits()),
        "the request went to a new worker"
    );
}

#[test]
fn a_hanging_dxc_is_killed_at_the_deadline() {
    if missing_skips() {
        return;
    }
    let pool = Pool::new();
    let short = Limits {
        request: Duration::from_secs(2),
        ..limits()
    };
    let start = Instant::now();
    let died = compile_isolated(&pool, &short, ENDLESS, "main", Stage::Pixel).err();
    assert_eq!(died, Some(Died::Timeout(short.request)));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(pool.idle_count(), 0, "the hung worker is gone");
    assert!(compiles(&pool, &short), "and the next shader compiles");
}

#[test]
fn a_stopped_worker_is_killed_at_the_deadline() {
    if missing_skips() {
        return;
    }
    let pool = Pool::new();
    let short = Limits {
        request: Duration::from_secs(1),
        ..limits()
    };
    assert!(compiles(&pool, &short));
    let pid = pool.idle_pids()[0];
    // SAFETY: the pool's idle worker is our child and not reaped.
    unsafe { libc::kill(pid as i32, libc::SIGSTOP) };
    let died = compile_isolated(&pool, &short, VALID, "main", Stage::Pixel).err();
    assert_eq!(died, Some(Died::Timeout(short.request)));
    assert!(!alive(pid), "killed and reaped");
}

#[test]
fn an_orphaned_worker_ends_by_its_own_alarm_or_end_of_input() {
    if missing_skips() {
        return;
    }
    let exe = worker::executable().expect("worker executable");
    let spawn = |alarm: &str| {
        let mut c = std::process::Command::new(&exe);
        c.arg(library()).arg("30").arg(alarm);
        isolate::Worker::spawn(c, Duration::from_secs(60)).expect("worker")
    };
    // Busy in DXC with nobody waiting: SIGALRM after its 1 s limit, though we would wait 120 s.
    let pool = Pool::new();
    let w = spawn("1");
    pool.put_back_for_tests("busy", w, &limits());
    let start = Instant::now();
    let request = worker::Request {
        source: ENDLESS,
        source_name: SOURCE_NAME,
        entry: "main",
        profile: "ps_6_0",
        arguments: &args::arguments(Stage::Pixel, true),
    };
    let died = pool.ask("busy", &request.encode(), &limits(), || {
        unreachable!("one worker is idle")
    });
    assert_eq!(died, Err(Died::Signal(libc::SIGALRM)));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(died.unwrap_err().to_string().contains("time limit"));

    // Idle, its input closed (this process gone): it exits.
    let mut idle = spawn("60");
    let pid = idle.pid();
    idle.close_input();
    let start = Instant::now();
    while idle.exit_status().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "worker {pid} kept running"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn release_leaves_no_worker_behind() {
    if missing_skips() {
        return;
    }
    let pool = Pool::new();
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let pool = &pool;
            move || compiles(pool, &limits())
        })
        .collect();
    std::thread::scope(|s| {
        for t in threads {
            s.spawn(t);
        }
    });
    let pids = pool.idle_pids();
    assert!(!pids.is_empty());
    pool.release();
    for pid in pids {
        assert!(!alive(pid), "worker {pid} outlived release");
    }
}

/// An in-process compile (hassle-rs, in this process's threads) next to threads starting
/// workers: with workers exec'd rather than forked, neither can catch the other holding a lock.
#[test]
fn in_process_compiles_race_worker_starts() {
    if missing_skips() {
        return;
    }
    let (done, finished) = mpsc::channel();
    for k in 0..6 {
        let done = done.clone();
        std::thread::spawn(move || {
            let src = format!("float4 main(float4 c : COLOR0) : SV_Target {{ return c * {k}; }}");
            let mut ok = true;
            for _ in 0..5 {
                ok &= if k % 2 == 0 {
                    in_process(&src, "main", Stage::Pixel).is_ok()
                } else {
                    // A new pool each time: every compile starts a worker.
                    let pool = Pool::new();
                    matches!(
                        compile_isolated(&pool, &limits(), &src, "main", Stage::Pixel),
                        Ok(Ok(_))
                    )
                };
            }
            let _ = done.send(ok);
        });
    }
    for _ in 0..6 {
        let ok = finished
            .recv_timeout(Duration::from_secs(300))
            .expect("a compile hung");
        assert!(ok);
    }
}

/// Whether `pid` names a live process (a reaped child no longer does).
fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as i32, 0) == 0 }
}

/// Set in the child process of [`a_noexec_temp_folder_gives_one_warning`].
const NOEXEC_CHILD: &str = "SHADOWDUSK_TEST_NOEXEC_CHILD";

/// Where the worker executable can only go to a temporary folder mounted `noexec`, no worker
/// starts: compiles run in process, and one line (standard error outside the Builder) says so
/// and what it costs. In a child process of this test binary, whose worker executable may only
/// go to the temporary folder (`worker::TEMP_ONLY_VAR`).
#[test]
fn a_noexec_temp_folder_gives_one_warning() {
    if std::env::var_os(NOEXEC_CHILD).is_some() {
        return compile_twice_without_workers();
    }
    let test = "dxc::isolation_tests::a_noexec_temp_folder_gives_one_warning";
    if missing_skips() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "noexec", "tmpfs"])
        .arg(dir.path())
        .output();
    match mounted {
        Ok(o) if o.status.success() => {}
        other => {
            let why = format!("cannot mount a noexec tmpfs here: {other:?}");
            shadowdusk_testkit::skip(test, &why);
            return;
        }
    }
    struct Unmount<'a>(&'a std::path::Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(dir.path());
    let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(NOEXEC_CHILD, "1")
        .env(worker::TEMP_ONLY_VAR, "1")
        .env("TMPDIR", dir.path())
        .env_remove(IN_PROCESS_VAR)
        .output()
        .expect("run the child");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("compiled twice in process"),
        "{stdout}\n{stderr}"
    );
    let notices: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("without isolation"))
        .collect();
    assert_eq!(notices.len(), 1, "{stderr}");
    assert!(
        notices[0].contains("Permission denied")
            && notices[0].contains("DXC crash now ends this process"),
        "{}",
        notices[0]
    );
}

/// The child of [`a_noexec_temp_folder_gives_one_warning`].
fn compile_twice_without_workers() {
    for k in 0..2 {
        let src = format!("float4 main(float4 c : COLOR0) : SV_Target {{ return c * {k}; }}");
        let spirv = compile(&src, "main", Stage::Pixel).expect("compiled in process");
        assert_eq!(spirv.dxc, expected_version().expect("DXC"));
    }
    assert_eq!(worker_starts().0, 2, "each compile tried a worker");
    assert!(is_loaded());
    println!("compiled twice in process");
}
