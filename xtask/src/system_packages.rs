//! The Debian/Ubuntu packages `cargo xtask demo` and `cargo xtask test` need beside Rust: Mesa
//! EGL for headless OpenGL, Xvfb for the game window test, and Python with pip for fetching DXC
//! (only when `python3 -m pip` does not already work). Missing ones (`dpkg -s`) are installed
//! when this runs as root or with passwordless sudo; otherwise the error is the one command to
//! run. Without `dpkg` (not Debian or Ubuntu) it prints what is needed and carries on.

use std::process::{Command, Stdio};

/// Headless OpenGL: the EGL loader, Mesa's EGL and its drivers.
pub const GL: &[&str] = &["libegl1", "libegl-mesa0", "libgl1-mesa-dri"];

/// The X server the game window test draws into.
pub const XVFB: &str = "xvfb";

/// Makes sure `wanted` (plus Python and pip when pip does not run) are installed.
pub fn ensure(wanted: &[&str]) -> Result<(), String> {
    let mut wanted = wanted.to_vec();
    if !succeeds("python3", &["-m", "pip", "--version"]) {
        wanted.extend(["python3", "python3-pip"]);
    }
    if !succeeds("dpkg", &["--version"]) {
        println!(
            "xtask: no dpkg here, so installed packages were not checked; needed (Debian \
             names): {}",
            wanted.join(" ")
        );
        return Ok(());
    }
    let missing: Vec<&str> = wanted.into_iter().filter(|p| !installed(p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let install = ["apt-get", "install", "-y", "--no-install-recommends"];
    let Some(how) = privilege() else {
        return Err(format!(
            "missing system packages: {list}; install them with:\n  \
             sudo apt-get update && sudo {} {list}",
            install.join(" "),
            list = missing.join(" ")
        ));
    };
    println!("xtask: installing {}", missing.join(" "));
    let mut install: Vec<&str> = install.to_vec();
    install.extend(&missing);
    apt(how, &["apt-get", "update", "-qq"])?;
    apt(how, &install)?;
    Ok(())
}

/// Whether `program args` runs and exits with success (its output discarded).
fn succeeds(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether dpkg has `package` installed (not merely known, or removed with its config kept).
fn installed(package: &str) -> bool {
    Command::new("dpkg")
        .args(["-s", package])
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("Status: install ok installed"))
}

/// How apt can be run with root's rights here.
#[derive(Clone, Copy)]
enum Privilege {
    Root,
    /// `sudo -n` works: passwordless sudo.
    Sudo,
}

/// Root, passwordless sudo, or `None` when neither.
fn privilege() -> Option<Privilege> {
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() == "0" {
        Some(Privilege::Root)
    } else if succeeds("sudo", &["-n", "true"]) {
        Some(Privilege::Sudo)
    } else {
        None
    }
}

/// Runs apt non-interactively as root.
fn apt(how: Privilege, argv: &[&str]) -> Result<(), String> {
    // Through `env`, because sudo resets the environment a `Command::env` would set.
    let mut cmd = match how {
        Privilege::Root => Command::new("env"),
        Privilege::Sudo => {
            let mut c = Command::new("sudo");
            c.args(["-n", "env"]);
            c
        }
    };
    let status = cmd
        .arg("DEBIAN_FRONTEND=noninteractive")
        .args(argv)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", argv.join(" ")))?;
    if !status.success() {
        return Err(format!("`{}` failed ({status})", argv.join(" ")));
    }
    Ok(())
}
