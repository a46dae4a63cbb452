//! The user's `curl` and `pip`, run with time-outs and a size limit ([`Limits`]), and their
//! failures said in one line: what was asked for, and whether it timed out.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::{size, Limits};

/// curl's exit code for "operation timed out" (connect or speed limit).
const CURL_TIMED_OUT: i32 = 28;
/// curl's exit code for "maximum file size exceeded".
const CURL_TOO_LARGE: i32 = 63;
/// Below this many bytes a second for `Limits::stall`, a curl try has stalled.
const CURL_STALL_RATE: u32 = 1024;

/// `curl` downloads `url` to `to`, following redirects and failing on an HTTP error.
pub(super) fn download(url: &str, to: &Path, limits: &Limits) -> Result<(), String> {
    let mut curl = Command::new("curl");
    curl.args(["--fail", "--location", "--silent", "--show-error"])
        .arg("--connect-timeout")
        .arg(secs(limits.connect))
        .arg("--speed-limit")
        .arg(CURL_STALL_RATE.to_string())
        .arg("--speed-time")
        .arg(secs(limits.stall))
        .arg("--retry")
        .arg(limits.retries.to_string())
        .arg("--max-filesize")
        .arg(limits.max_bytes.to_string())
        .arg("--output")
        .arg(to)
        .arg(url);
    let ran = finish(start(curl, limits)?, limits, &format!("curl {url}"))?;
    match ran.status.code() {
        Some(0) => Ok(()),
        Some(CURL_TIMED_OUT) => Err(format!(
            "curl {url} timed out: {} ({})",
            last_line(&ran.stderr, &ran.status),
            tries(limits)
        )),
        Some(CURL_TOO_LARGE) => Err(format!(
            "curl {url}: refused, larger than the {} any file DXC needs may be",
            size(limits.max_bytes)
        )),
        _ => Err(format!(
            "curl {url}: {}",
            last_line(&ran.stderr, &ran.status)
        )),
    }
}

/// The user's `pip` downloads one wheel for `platform` into `dir`.
pub(super) fn pip_download(
    requirement: &str,
    platform: &str,
    dir: &Path,
    limits: &Limits,
) -> Result<PathBuf, String> {
    let mut tried = Vec::new();
    for python in ["python3", "python"] {
        let mut pip = Command::new(python);
        pip.args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
            .args(["--python-version", "3.11", "--platform", platform])
            .args(["--disable-pip-version-check", "--no-input", "--quiet"])
            .arg("--timeout")
            .arg(secs(limits.stall))
            .arg("--retries")
            .arg(limits.retries.to_string())
            .arg("--dest")
            .arg(dir)
            .arg(requirement);
        let asked = format!("`{python} -m pip download {requirement}`");
        let child = match start(pip, limits) {
            Ok(child) => child,
            Err(e) => {
                tried.push(e);
                continue;
            }
        };
        let ran = finish(child, limits, &asked)?;
        if !ran.status.success() {
            // pip ends with "no matching distribution" whatever went wrong; its warnings say
            // whether the index never answered.
            let text = String::from_utf8_lossy(&ran.stderr);
            if let Some(line) = text.lines().rev().find(|l| l.contains("timed out")) {
                // "WARNING: Retrying (Retry(…)) after connection broken by '<why>': <path>"
                let line = line.trim();
                let line = line.split_once("broken by ").map_or(line, |(_, why)| why);
                return Err(format!("{asked} timed out: {line} ({})", tries(limits)));
            }
            return Err(format!("{asked}: {}", last_line(&ran.stderr, &ran.status)));
        }
        let wheel = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "whl"))
            .ok_or_else(|| {
                format!(
                    "pip reported success but left no wheel in {}",
                    dir.display()
                )
            })?;
        let len = std::fs::metadata(&wheel).map_or(0, |m| m.len());
        if len > limits.max_bytes {
            return Err(format!(
                "{asked} downloaded {}, more than the {} any file DXC needs may be: refused",
                size(len),
                size(limits.max_bytes)
            ));
        }
        return Ok(wheel);
    }
    Err(tried.join("; "))
}

/// How a client run ended.
struct Ran {
    status: ExitStatus,
    /// The end of what it printed on standard error.
    stderr: Vec<u8>,
}

/// Most of a client's standard error kept for the message (the end of it).
const STDERR_KEPT: usize = 16 << 10;

/// Starts `cmd` with no input, its output ignored and its standard error kept.
fn start(mut cmd: Command, limits: &Limits) -> Result<Child, String> {
    #[cfg(test)]
    cmd.envs(limits.env.iter().map(|(k, v)| (k, v)));
    #[cfg(not(test))]
    let _ = limits;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {} ({e})", cmd.get_program().to_string_lossy()))
}

/// Waits for `child`, killing it once it has run `limits.run`; `what` names it for the
/// message.
fn finish(mut child: Child, limits: &Limits, what: &str) -> Result<Ran, String> {
    // Read on a thread: a client blocked on a full pipe would never end.
    let (tx, rx) = std::sync::mpsc::channel();
    if let Some(mut pipe) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > STDERR_KEPT {
                    kept.drain(..kept.len() - STDERR_KEPT);
                }
            }
            let _ = tx.send(kept);
        });
    }
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= limits.run => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{what} timed out: stopped after {} s, the most one download may take",
                    limits.run.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("{what}: cannot wait for it: {e}")),
        }
    };
    // A grandchild holding the pipe open must not hold this up.
    let stderr = rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default();
    Ok(Ran { status, stderr })
}

/// Whole seconds for a client's option, at least 1 (0 means "no limit" to curl).
fn secs(d: Duration) -> String {
    d.as_secs().max(1).to_string()
}

/// The time-outs a timed-out client ran with, for its message.
fn tries(limits: &Limits) -> String {
    let stall = secs(limits.stall);
    match limits.retries + 1 {
        1 => format!("1 try, failing after {stall} s without data"),
        n => format!("{n} tries, each failing after {stall} s without data"),
    }
}

/// The last non-empty line a client printed, or its exit status.
fn last_line(stderr: &[u8], status: &ExitStatus) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| format!("failed ({status})"))
}
