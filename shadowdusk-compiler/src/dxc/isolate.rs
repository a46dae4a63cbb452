//! Running DXC where its crashes cannot take the caller down: worker processes.
//!
//! DXC is C++, and DXC 1.8 dereferences null on some malformed HLSL; in our address space that
//! is a SIGSEGV in the user's build script, in the CLI, or in a game that hot reloads its
//! shaders, and fuzzing keeps finding new ways in. So DXC runs in workers: children `fork`ed
//! from the caller, which start from its memory (DXC loaded and warmed up, a compiler instance
//! leased for them) and answer one request after another over a socket. A worker that dies by a
//! signal, exits, or is still busy after [`TIMEOUT`] (it is killed) fails that one request with
//! [`Died`]; the next request starts a new worker. Workers are kept for the life of the process
//! and leave when it does (their socket reads end of file).
//!
//! Why fork and not a worker executable: the Builder runs inside the user's build script and the
//! macro inside rustc, where there is no ShadowDusk binary to start. Forking a threaded process
//! copies only the forking thread, so a worker must never wait for a lock another thread could
//! have held at that instant: it touches none of ours (its instance was leased before the fork),
//! glibc's allocator is made safe across `fork` by glibc itself, and this process runs DXC code
//! only under [`super::instance`]'s gate, which a fork holds shared: DXC's own locks are free
//! in every worker. A worker keeps no descriptor of ours but its socket (stdin, stdout and
//! stderr become `/dev/null`), so it holds no pipe cargo or a test waits on.
//!
//! Linux only; elsewhere `super` compiles in this process. The argument above leans on the C
//! library keeping its allocator usable in a forked child (glibc does; POSIX promises only
//! async-signal-safe functions there, and macOS's libraries keep to that), and the code
//! calls Linux's `SOCK_CLOEXEC`, `MSG_NOSIGNAL` and `close_range`.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one request may take before its worker is killed. Real shaders take milliseconds to
/// a second; this only ends a DXC that loops forever.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// Why a request got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Died {
    /// The worker was killed by this signal (11 = SIGSEGV).
    Signal(i32),
    /// The worker exited with this status (a panic in it is 101).
    Exit(i32),
    /// The worker was still busy after the timeout; killed.
    Timeout(Duration),
    /// No worker could be started (`socketpair` or `fork` failed).
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

/// Idle workers of one kind (one `spawn`). A worker is taken out for one request and put back
/// after a good answer; one that failed is gone.
pub struct Pool(Mutex<Vec<Worker>>);

impl Pool {
    /// No workers yet.
    pub const fn new() -> Pool {
        Pool(Mutex::new(Vec::new()))
    }

    /// Sends `request` to an idle worker, or to a new one from `spawn` when every worker is
    /// busy, and returns its answer.
    pub fn ask(
        &self,
        request: &[u8],
        timeout: Duration,
        spawn: impl FnOnce() -> Result<Worker, Died>,
    ) -> Result<Vec<u8>, Died> {
        let idle = self.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut worker = match idle {
            Some(w) => w,
            None => spawn()?,
        };
        let answer = worker.ask(request, timeout)?;
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(worker);
        Ok(answer)
    }
}

/// One worker process and this process's end of its socket.
pub struct Worker {
    pid: libc::pid_t,
    socket: i32,
    /// Not yet reaped.
    alive: bool,
}

impl Worker {
    /// Forks a worker that answers each request with `serve(request)` until its socket closes.
    /// `gate` is held across the fork only (see the module docs).
    pub fn spawn<G>(gate: G, mut serve: impl FnMut(&[u8]) -> Vec<u8>) -> Result<Worker, Died> {
        let mut fds = [0; 2];
        // SAFETY: `fds` is a valid array of two ints for socketpair to fill.
        let made = unsafe {
            libc::socketpair(
                libc::AF_UNIX,
                libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
                0,
                fds.as_mut_ptr(),
            )
        };
        if made != 0 {
            return Err(Died::Spawn(std::io::Error::last_os_error().to_string()));
        }
        let (ours, theirs) = (fds[0], fds[1]);
        // SAFETY: fork has no preconditions; the child only runs `serve` (which takes no lock
        // another thread may hold, see the module docs) between reads and writes on its
        // socket, and never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: in the child, on descriptors it owns; `_exit` ends it without running
            // any destructor or exit handler of the parent's.
            unsafe {
                let socket = keep_only(theirs);
                while let Some(request) = read_frame(socket, None) {
                    let answer =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| serve(&request)));
                    match answer {
                        Ok(a) if write_frame(socket, &a) => {}
                        Ok(_) => break,
                        Err(_) => libc::_exit(101),
                    }
                }
                libc::_exit(0);
            }
        }
        drop(gate);
        // SAFETY: the worker's end is the worker's; ours stays open.
        unsafe { libc::close(theirs) };
        if pid < 0 {
            let e = std::io::Error::last_os_error().to_string();
            // SAFETY: `ours` is open and ours.
            unsafe { libc::close(ours) };
            return Err(Died::Spawn(e));
        }
        Ok(Worker {
            pid,
            socket: ours,
            alive: true,
        })
    }

    /// One request and its answer. On an error the worker is gone (reaped).
    fn ask(&mut self, request: &[u8], timeout: Duration) -> Result<Vec<u8>, Died> {
        let deadline = Instant::now() + timeout;
        if write_frame(self.socket, request) {
            if let Some(answer) = read_frame(self.socket, Some(deadline)) {
                return Ok(answer);
            }
        }
        if Instant::now() >= deadline {
            // SAFETY: `pid` is our child, not yet reaped.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
            let _ = self.reap();
            return Err(Died::Timeout(timeout));
        }
        Err(match self.reap() {
            Ok(code) => Died::Exit(code),
            Err(signal) => Died::Signal(signal),
        })
    }

    /// Waits for the worker to end: `Ok(exit status)` or `Err(signal)`.
    fn reap(&mut self) -> Result<i32, i32> {
        self.alive = false;
        let mut status = 0;
        loop {
            // SAFETY: `pid` is our child; `status` is a valid int.
            let r = unsafe { libc::waitpid(self.pid, &mut status, 0) };
            if r == self.pid {
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
}

impl Drop for Worker {
    fn drop(&mut self) {
        // SAFETY: our socket is open until here; closing it ends the worker's loop.
        unsafe { libc::close(self.socket) };
        if self.alive {
            // SAFETY: `pid` is our child, not yet reaped.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
            let _ = self.reap();
        }
    }
}

/// In a new worker: stdin, stdout and stderr on `/dev/null`, and every other descriptor closed
/// but a copy of `socket`, which is returned.
///
/// # Safety
/// Only in a freshly forked child, which owns every descriptor it closes.
unsafe fn keep_only(socket: i32) -> i32 {
    // SAFETY: the caller's promise; the path is a valid C string.
    unsafe {
        // The lowest free descriptor from 3 up, so the three below cannot overwrite it.
        let kept = match libc::fcntl(socket, libc::F_DUPFD, 3) {
            k if k >= 0 => k,
            _ => socket,
        };
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null >= 0 {
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
        }
        // Linux 5.9+; on older kernels the worker keeps copies until it ends, which only delays
        // the end of file of a pipe another process reads until this process's own end.
        let close_range = |first: i32, last: libc::c_uint| {
            libc::syscall(libc::SYS_close_range, first as libc::c_uint, last, 0)
        };
        if kept > 3 {
            close_range(3, (kept - 1) as libc::c_uint);
        }
        close_range(kept + 1, libc::c_uint::MAX);
        kept
    }
}

/// Writes `[length: u64 LE][bytes]`; `false` if the peer is gone. Never raises SIGPIPE.
fn write_frame(fd: i32, bytes: &[u8]) -> bool {
    let len = (bytes.len() as u64).to_le_bytes();
    send_all(fd, &len) && send_all(fd, bytes)
}

fn send_all(fd: i32, mut bytes: &[u8]) -> bool {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is a valid slice for the length given.
        let n = unsafe { libc::send(fd, bytes.as_ptr().cast(), bytes.len(), libc::MSG_NOSIGNAL) };
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

/// Reads one frame; `None` at end of file, on an error, or past the deadline.
fn read_frame(fd: i32, deadline: Option<Instant>) -> Option<Vec<u8>> {
    let mut len = [0u8; 8];
    recv_exact(fd, &mut len, deadline)?;
    let len = usize::try_from(u64::from_le_bytes(len)).ok()?;
    let mut out = vec![0u8; len];
    recv_exact(fd, &mut out, deadline)?;
    Some(out)
}

fn recv_exact(fd: i32, mut buf: &mut [u8], deadline: Option<Instant>) -> Option<()> {
    while !buf.is_empty() {
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            let mut pfd = libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut pfd, 1, ms) };
            if ready == 0 {
                continue;
            }
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return None;
            }
        }
        // SAFETY: `buf` is a valid buffer of its length.
        let n = unsafe { libc::recv(fd, buf.as_mut_ptr().cast(), buf.len(), 0) };
        match n {
            0 => return None,
            n if n > 0 => buf = &mut buf[n as usize..],
            _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return None,
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo_twice(request: &[u8]) -> Vec<u8> {
        request.repeat(2)
    }

    #[test]
    fn a_worker_answers_request_after_request() {
        let mut w = Worker::spawn((), echo_twice).expect("worker");
        for size in [0, 5, 1 << 20] {
            let req = vec![7u8; size];
            assert_eq!(w.ask(&req, TIMEOUT).map(|a| a.len()), Ok(2 * size));
        }
    }

    #[test]
    fn a_crash_fails_one_request_not_this_process() {
        let mut w = Worker::spawn((), |req: &[u8]| {
            if req == b"crash" {
                // SAFETY: dying by SIGSEGV in the worker is the point of the test. (Rust's
                // own handler, there for stack overflows, would let a raised signal return.)
                unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                }
            }
            req.to_vec()
        })
        .expect("worker");
        assert_eq!(w.ask(b"fine", TIMEOUT), Ok(b"fine".to_vec()));
        assert_eq!(w.ask(b"crash", TIMEOUT), Err(Died::Signal(libc::SIGSEGV)));
        assert_eq!(
            Died::Signal(libc::SIGSEGV).to_string(),
            "DXC crashed (signal 11, SIGSEGV)"
        );
    }

    #[test]
    fn a_panic_is_an_exit_without_answer() {
        let mut w =
            Worker::spawn((), |_: &[u8]| -> Vec<u8> { panic!("in the worker") }).expect("worker");
        assert_eq!(w.ask(b"x", TIMEOUT), Err(Died::Exit(101)));
    }

    #[test]
    fn a_worker_that_never_answers_is_killed() {
        let mut w = Worker::spawn((), |_: &[u8]| {
            std::thread::sleep(Duration::from_secs(60));
            Vec::new()
        })
        .expect("worker");
        let start = Instant::now();
        let timeout = Duration::from_millis(300);
        assert_eq!(w.ask(b"x", timeout), Err(Died::Timeout(timeout)));
        assert!(start.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn the_pool_replaces_a_dead_worker() {
        let pool = Pool::new();
        let spawned = std::sync::atomic::AtomicUsize::new(0);
        let spawn = || {
            spawned.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Worker::spawn((), |req: &[u8]| {
                if req == b"exit" {
                    // SAFETY: ending the worker is the point.
                    unsafe { libc::_exit(3) };
                }
                req.to_vec()
            })
        };
        assert_eq!(pool.ask(b"exit", TIMEOUT, spawn), Err(Died::Exit(3)));
        assert_eq!(pool.ask(b"a", TIMEOUT, spawn), Ok(b"a".to_vec()));
        assert_eq!(pool.ask(b"b", TIMEOUT, spawn), Ok(b"b".to_vec()));
        // The dead worker was replaced once; the new one served both later requests.
        assert_eq!(spawned.load(std::sync::atomic::Ordering::Relaxed), 2);
    }
}
