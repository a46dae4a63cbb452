//! Runs the game in a real X window under Xvfb (Debian package `xvfb`) and checks that the
//! window's back buffer holds exactly what the headless run renders: the same `Game` code on a
//! GLX/EGL window surface and on an EGL pbuffer.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use example_game::run::EXIT_NO_GL;

const FRAMES: &str = "20";

/// An Xvfb server of this test; killed when dropped.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    /// Starts Xvfb on a free display number, or `None` when Xvfb is not installed.
    fn start() -> Option<Xvfb> {
        for n in 0..20 {
            let number = 90 + (std::process::id() + n) % 400;
            if Path::new(&format!("/tmp/.X11-unix/X{number}")).exists() {
                continue;
            }
            let display = format!(":{number}");
            let child = Command::new("Xvfb")
                .args([
                    display.as_str(),
                    "-screen",
                    "0",
                    "800x600x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .ok()?;
            let mut server = Xvfb { child, display };
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(10) {
                if socket.exists() {
                    return Some(server);
                }
                if let Ok(Some(_)) = server.child.try_wait() {
                    break; // lost a race for this display number; try the next
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        None
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM lets Xvfb remove its socket and lock file; SIGKILL (Child::kill) would not.
        let terminated = Command::new("kill")
            .arg(self.child.id().to_string())
            .status()
            .is_ok_and(|s| s.success());
        if !terminated {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn run(dir: &Path, display: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_example-game"));
    cmd.args(["--frames", FRAMES, "--screenshot"])
        .arg(dir.join("shot.png"));
    match display {
        Some(d) => cmd.env("DISPLAY", d),
        None => cmd.arg("--headless").env_remove("DISPLAY"),
    };
    cmd.output().expect("the game binary runs")
}

#[test]
fn window_matches_headless() {
    const TEST: &str = "window_matches_headless";
    let Some(xvfb) = Xvfb::start() else {
        let why = "Xvfb is not installed or did not start (apt-get install xvfb)";
        shadowdusk_testkit::skip(TEST, why);
        return;
    };
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("game_window");
    let (window_dir, headless_dir) = (root.join("window"), root.join("headless"));
    let _ = std::fs::remove_dir_all(&root);
    let windowed = run(&window_dir, Some(&xvfb.display));
    let stderr = String::from_utf8_lossy(&windowed.stderr);
    if windowed.status.code() == Some(i32::from(EXIT_NO_GL)) {
        shadowdusk_testkit::skip(TEST, &format!("no OpenGL on Xvfb: {stderr}"));
        return;
    }
    assert!(windowed.status.success(), "windowed run failed: {stderr}");
    let headless = run(&headless_dir, None);
    if headless.status.code() == Some(i32::from(EXIT_NO_GL)) {
        let why = String::from_utf8_lossy(&headless.stderr);
        shadowdusk_testkit::skip(TEST, &format!("no headless OpenGL: {why}"));
        return;
    }
    assert!(
        headless.status.success(),
        "{}",
        String::from_utf8_lossy(&headless.stderr)
    );
    let names = [
        "tint",
        "sepia",
        "grayscale",
        "wave",
        "cube",
        "skinned",
        "wave-frame1",
        "skinned-frame1",
    ];
    for name in names {
        let file = format!("shot-{name}.png");
        let w = image::open(window_dir.join(&file))
            .expect("window screenshot")
            .to_rgba8();
        let h = image::open(headless_dir.join(&file))
            .expect("headless screenshot")
            .to_rgba8();
        assert_eq!(w.dimensions(), h.dimensions(), "{name}");
        let differing = w.pixels().zip(h.pixels()).filter(|(a, b)| a != b).count();
        assert_eq!(
            differing, 0,
            "{name}: {differing} pixels differ between window and headless"
        );
    }
}
