//! Running DXC where its crashes cannot take the caller down: a forked child process.
//!
//! DXC is C++ in our address space, and DXC 1.8 dereferences null on some malformed HLSL. In
//! process, that is a SIGSEGV in the user's build script, in the CLI, or in a game that hot
//! reloads its shaders; fuzzing keeps finding new ways in. So each compile runs in a child
//! forked from the caller: it starts from the parent's memory (DXC loaded and warmed up, the
//! compiler instance leased), sends its result back through a pipe, and leaves with `_exit`,
//! running no destructors. A child that dies by a signal, exits without an answer, or is still
//! running after [`TIMEOUT`] (it is killed) becomes an error for that one shader.
//!
//! Forking a threaded process copies only the forking thread, so the child must never wait for
//! a lock another thread could have held at that instant. It touches none of ours (the instance
//! was leased before the fork), glibc's allocator is made safe across `fork` by glibc itself,
//! and the parent runs DXC code only under [`super::instance`]'s gate, which a fork holds shared:
//! DXC's own locks are free in every child.

use std::time::Duration;

/// How long one shader may take before its child is killed. Real shaders take milliseconds to
/// a second; this only ends a DXC that loops forever.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// Why the child gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Died {
    /// Killed by this signal (11 = SIGSEGV).
    Signal(i32),
    /// Exited with this status and no answer (a panic in the child is 101).
    Exit(i32),
    /// Still running after the timeout; killed.
    Timeout(Duration),
    /// The child could not be started (`fork` or `pipe` failed).
    Spawn(String),
}

impl std::fmt::Display for Died {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Died::Signal(s) => write!(f, "DXC crashed ({})", signal_name(*s)),
            Died::Exit(c) => write!(f, "DXC's process exited with status {c} and no result"),
            Died::Timeout(t) => write!(f, "DXC did not finish within {} s", t.as_secs()),
            Died::Spawn(e) => write!(f, "could not start a process for DXC: {e}"),
        }
    }
}

fn signal_name(s: i32) -> String {
    let name = match s {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        _ => return format!("signal {s}"),
    };
    format!("signal {s}, {name}")
}

/// Runs `f` in a forked child and returns the bytes it produced. `gate` is held across the
/// fork only (see the module docs).
pub fn run<G>(gate: G, timeout: Duration, f: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, Died> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe2 to fill.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(Died::Spawn(std::io::Error::last_os_error().to_string()));
    }
    let (read_fd, write_fd) = (fds[0], fds[1]);
    // SAFETY: fork has no preconditions; the child below only runs `f` (which takes no lock
    // another thread may hold, see the module docs), writes to its pipe and `_exit`s.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: the child owns its copies of both descriptors; it never returns from here.
        unsafe {
            libc::close(read_fd);
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let status = match out {
                Ok(bytes) if write_all(write_fd, &bytes) => 0,
                Ok(_) => 2,
                Err(_) => 101,
            };
            libc::_exit(status);
        }
    }
    drop(gate);
    // SAFETY: the parent's copy of the write end is not needed; closing it lets `read` see EOF
    // when the child is done.
    unsafe { libc::close(write_fd) };
    if pid < 0 {
        let e = std::io::Error::last_os_error().to_string();
        // SAFETY: `read_fd` is ours and open.
        unsafe { libc::close(read_fd) };
        return Err(Died::Spawn(e));
    }
    let read = read_until_eof(read_fd, timeout);
    // SAFETY: `read_fd` is ours and open.
    unsafe { libc::close(read_fd) };
    if read.is_none() {
        // SAFETY: `pid` is our child, not yet reaped.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let status = wait(pid);
    match (read, status) {
        (None, _) => Err(Died::Timeout(timeout)),
        (Some(bytes), Ok(0)) => Ok(bytes),
        (Some(_), Ok(code)) => Err(Died::Exit(code)),
        (Some(_), Err(signal)) => Err(Died::Signal(signal)),
    }
}

/// Writes all of `bytes`; `false` on an error.
fn write_all(fd: i32, mut bytes: &[u8]) -> bool {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is a valid slice for the length given.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        bytes = &bytes[n as usize..];
    }
    true
}

/// Everything the child writes until it closes the pipe; `None` past the deadline.
fn read_until_eof(fd: i32, timeout: Duration) -> Option<Vec<u8>> {
    let deadline = std::time::Instant::now() + timeout;
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return None;
        }
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = left.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut pfd, 1, ms.max(1)) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Some(out);
        }
        if ready == 0 {
            continue;
        }
        // SAFETY: `buf` is a valid buffer of its length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        match n {
            0 => return Some(out),
            n if n > 0 => out.extend_from_slice(&buf[..n as usize]),
            _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return Some(out),
        }
    }
}

/// Reaps `pid`: `Ok(exit status)` or `Err(signal)`.
fn wait(pid: libc::pid_t) -> Result<i32, i32> {
    let mut status = 0;
    loop {
        // SAFETY: `pid` is our child; `status` is a valid int.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            break;
        }
        if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Err(0);
        }
    }
    if libc::WIFSIGNALED(status) {
        Err(libc::WTERMSIG(status))
    } else {
        Ok(libc::WEXITSTATUS(status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_child_answers() {
        let out = run((), TIMEOUT, || b"spirv".repeat(100_000));
        assert_eq!(out.map(|b| b.len()), Ok(500_000));
    }

    #[test]
    fn a_crash_is_an_error_not_ours() {
        let out = run((), TIMEOUT, || {
            // SAFETY: dying by SIGSEGV in the child is the point of the test. (Rust's own
            // handler, there for stack overflows, would let a raised signal return.)
            unsafe {
                libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                libc::raise(libc::SIGSEGV);
            }
            Vec::new()
        });
        assert_eq!(out, Err(Died::Signal(libc::SIGSEGV)));
        assert_eq!(
            Died::Signal(libc::SIGSEGV).to_string(),
            "DXC crashed (signal 11, SIGSEGV)"
        );
    }

    #[test]
    fn a_panic_is_an_exit_without_answer() {
        let out = run((), TIMEOUT, || panic!("in the child"));
        assert_eq!(out, Err(Died::Exit(101)));
    }

    #[test]
    fn a_child_that_never_answers_is_killed() {
        let start = std::time::Instant::now();
        let out = run((), Duration::from_millis(300), || {
            std::thread::sleep(Duration::from_secs(60));
            Vec::new()
        });
        assert_eq!(out, Err(Died::Timeout(Duration::from_millis(300))));
        assert!(start.elapsed() < Duration::from_secs(30));
    }
}
