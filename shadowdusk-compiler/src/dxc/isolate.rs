//! Running DXC where its crashes and hangs cannot take the caller down: worker processes.
//!
//! DXC is C++, and DXC 1.8 dereferences null on some malformed HLSL; in our address space that
//! is a SIGSEGV in the user's build script, in rustc expanding `include_effect!`, or in a game
//! that hot reloads its shaders. So DXC runs in worker processes: the small executable
//! `worker.c` (see [`super::worker`]), *started* with [`std::process::Command`], never `fork`ed
//! from the caller. The callers are threaded (a build's thread pool, rustc, a game), and the child
//! of a fork of a threaded process may not run anything that takes a lock; an exec'd program
//! starts clean.
//!
//! A worker serves one request at a time and is reused. Every way it can fail fails that one
//! request with [`Died`] and kills and reaps the worker, in that order:
//! * it dies by a signal or exits (a DXC crash on this input);
//! * it is still busy at the deadline (a DXC loop on this input);
//! * it sends an answer that is not one (wrong acknowledgement, a length over [`MAX_ANSWER`]).
//!
//! One failure is retried: a worker that ended *before it read the request* (it acknowledges
//! each request once read) died of something else (it expired while idle, the OOM killer, a
//! `kill`), so the request goes to a fresh worker once.
//!
//! A worker ends itself when no request comes for [`Limits::idle`] or its input ends (this
//! process is gone), and it dies of SIGALRM when one request runs past [`Limits::request`] plus a
//! margin, so an orphan never loops forever. This side ends idle workers a little before that
//! (a thread of the pool's, as they expire), keeps at most [`Limits::max_idle`], and
//! [`Pool::release`] ends them all.

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The largest answer read from a worker. SPIR-V of a real shader is kilobytes and DXC's error
/// text rarely more; a longer frame is garbage, not a reason to allocate gigabytes.
pub const MAX_ANSWER: usize = 256 << 20;

/// The largest request a worker reads (`MAX_REQUEST` in `worker.c`); a larger one is refused
/// here, before any worker sees it.
pub const MAX_REQUEST: usize = 64 << 20;

/// How long workers and requests may live.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// One request, from sending it to its answer. Real shaders take milliseconds to a second;
    /// this only ends a DXC that loops forever.
    pub request: Duration,
    /// A worker with no request for this long ends itself (this side drops it a little sooner).
    pub idle: Duration,
    /// Idle workers kept for later requests; one more is ended when it comes back.
    pub max_idle: usize,
}

impl Limits {
    /// What compiles use: two minutes a request, workers kept 30 s idle, one per core.
    pub fn standard() -> Limits {
        Limits {
            request: Duration::from_secs(120),
            idle: Duration::from_secs(30),
            max_idle: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }

    /// The SIGALRM limit a worker is started with: the request limit plus a margin, so that
    /// this side's deadline normally fires first and the alarm only ends orphans.
    pub fn worker_alarm(&self) -> Duration {
        self.request + Duration::from_secs(5)
    }
}

/// Why a request got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Died {
    /// The worker was killed by this signal (11 = SIGSEGV, 14 = SIGALRM: its own time limit).
    Signal(i32),
    /// The worker exited with this status and no answer.
    Exit(i32),
    /// The worker was still busy at the deadline; killed.
    Timeout(Duration),
    /// The worker answered something that is not an answer; killed.
    Garbage(String),
    /// No worker could be started (the reason).
    Spawn(String),
    /// The request had this many bytes, more than [`MAX_REQUEST`]; no worker saw it.
    TooLarge(usize),
}

impl std::fmt::Display for Died {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Died::Signal(s) if *s == libc::SIGALRM => {
                write!(
                    f,
                    "DXC did not finish within its time limit (signal {s}, SIGALRM)"
                )
            }
            Died::Signal(s) => write!(f, "DXC crashed ({})", signal_name(*s)),
            Died::Exit(c) => write!(f, "DXC's process exited with status {c} and no result"),
            Died::Timeout(t) => write!(f, "DXC did not finish within {} s", t.as_secs()),
            Died::Garbage(why) => write!(f, "DXC's process sent a malformed answer ({why})"),
            Died::Spawn(e) => write!(f, "could not start a process for DXC: {e}"),
            Died::TooLarge(n) => write!(
                f,
                "the shader DXC was given is {n} bytes, more than the {} MiB its process takes",
                MAX_REQUEST >> 20
            ),
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

/// How one request to one worker failed.
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    /// The worker was gone before it read the request: not this request's doing.
    Unread(Died),
    /// The worker failed on this request.
    Failed(Died),
}

/// Idle workers, all of one kind. A worker is taken out for one request and put back after a
/// good answer; one that failed is gone.
///
/// Workers of one kind are interchangeable (here: started on one DXC file). A request for
/// another kind ends the idle workers of the old one first, and a busy one of the old kind is
/// ended when it comes back: a DXC replaced on disk gets new workers before the next compile.
///
/// Idle workers are ended when they expire without waiting for the next request: a thread,
/// started while some are idle and gone when none is, sleeps until the next one expires and
/// ends it (killed, then reaped), so no expired worker lingers as a zombie in a process that
/// stopped compiling (a game between hot reloads).
pub struct Pool {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Wakes the reaper: a worker was added or the pool released.
    wake: Condvar,
}

#[derive(Default)]
struct State {
    idle: Vec<Worker>,
    /// The kind of the idle workers (and of the last request).
    kind: String,
    /// Whether the reaper thread is running.
    reaping: bool,
}

impl Pool {
    /// No workers yet.
    pub fn new() -> Pool {
        Pool {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
            }),
        }
    }

    /// Sends `request` to an idle worker of `kind`, or to a new one from `spawn` when none is
    /// idle, and returns its answer. A worker gone before it read the request is replaced once.
    pub fn ask(
        &self,
        kind: &str,
        request: &[u8],
        limits: &Limits,
        spawn: impl Fn() -> Result<Worker, Died>,
    ) -> Result<Vec<u8>, Died> {
        if request.len() > MAX_REQUEST {
            return Err(Died::TooLarge(request.len()));
        }
        let spawn = || spawn().map(|w| w.of_kind(kind));
        let mut worker = match self.take(kind) {
            Some(w) => w,
            None => spawn()?,
        };
        let answer = match worker.ask(request, limits.request) {
            Err(Failure::Unread(_)) => {
                worker = spawn()?;
                worker.ask(request, limits.request)
            }
            other => other,
        };
        match answer {
            Ok(a) => {
                self.put_back(worker, limits);
                Ok(a)
            }
            Err(Failure::Unread(d) | Failure::Failed(d)) => Err(d),
        }
    }

    /// Makes sure a worker of `kind` is idle for the next request, starting one with `spawn`
    /// if none is: a build that is about to compile learns at once whether workers can load
    /// DXC, and the first compile finds one ready.
    pub fn ready(
        &self,
        kind: &str,
        limits: &Limits,
        spawn: impl Fn() -> Result<Worker, Died>,
    ) -> Result<(), Died> {
        match self.take(kind) {
            Some(w) => self.put_back(w, limits),
            None => self.put_back(spawn()?.of_kind(kind), limits),
        }
        Ok(())
    }

    /// Ends every idle worker (killed and reaped). Later requests start new ones.
    pub fn release(&self) {
        let idle = std::mem::take(&mut self.lock().idle);
        self.shared.wake.notify_all();
        drop(idle);
    }

    /// Workers now alive in this pool and idle.
    #[cfg(test)]
    pub fn idle_count(&self) -> usize {
        self.lock().idle.len()
    }

    /// The process ids of the idle workers.
    #[cfg(test)]
    pub fn idle_pids(&self) -> Vec<u32> {
        self.lock().idle.iter().map(Worker::pid).collect()
    }

    /// Adds a worker started elsewhere, as one of `kind`.
    #[cfg(test)]
    pub fn put_back_for_tests(&self, kind: &str, worker: Worker, limits: &Limits) {
        self.lock().kind = kind.to_string();
        self.put_back(worker.of_kind(kind), limits);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// The most recently used idle worker of `kind` that is still alive and not about to
    /// expire. Idle workers of another kind, and the ones past their time, are ended here
    /// rather than found dead by a request.
    fn take(&self, kind: &str) -> Option<Worker> {
        let mut state = self.lock();
        // Dropped after the lock is released: ending a worker waits for it.
        let mut ended = Vec::new();
        if state.kind != kind {
            state.kind = kind.to_string();
            ended = std::mem::take(&mut state.idle);
        }
        ended.extend(state.drain_ended(Instant::now()));
        let w = state.idle.pop();
        drop(state);
        drop(ended);
        w
    }

    fn put_back(&self, mut worker: Worker, limits: &Limits) {
        worker.expires = Instant::now() + limits.idle.mul_f32(0.8);
        let mut state = self.lock();
        if worker.kind != state.kind || state.idle.len() >= limits.max_idle {
            drop(state);
            drop(worker);
            return;
        }
        state.idle.push(worker);
        if state.reaping {
            drop(state);
            self.shared.wake.notify_all();
            return;
        }
        let shared = Arc::clone(&self.shared);
        let started = std::thread::Builder::new()
            .name("shadowdusk-dxc-reaper".into())
            .spawn(move || shared.reap());
        // Without the thread, expired workers are still ended by the next request.
        state.reaping = started.is_ok();
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The reaper thread: ends idle workers as they expire; returns when none is idle.
    fn reap(&self) {
        let mut state = self.lock();
        loop {
            let now = Instant::now();
            let ended = state.drain_ended(now);
            if !ended.is_empty() {
                drop(state);
                drop(ended);
                state = self.lock();
                continue;
            }
            let Some(next) = state.idle.iter().map(|w| w.expires).min() else {
                state.reaping = false;
                return;
            };
            state = self
                .wake
                .wait_timeout(state, next.saturating_duration_since(now))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl State {
    /// Takes out the idle workers that have expired by `now` or have ended.
    fn drain_ended(&mut self, now: Instant) -> Vec<Worker> {
        let mut ended = Vec::new();
        for mut w in std::mem::take(&mut self.idle) {
            if w.expires <= now || w.has_ended() {
                ended.push(w);
            } else {
                self.idle.push(w);
            }
        }
        ended
    }
}

impl Default for Pool {
    fn default() -> Self {
        Pool::new()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.release();
    }
}

/// One worker process and this process's end of its socket (the worker's stdin and stdout).
pub struct Worker {
    child: Child,
    socket: UnixStream,
    /// What it serves (see [`Pool`]).
    kind: String,
    /// When it is ended if still idle.
    expires: Instant,
}

impl Worker {
    /// Starts `command` with a socket as its stdin and stdout and stderr discarded, and waits up
    /// to `hello_within` for its hello frame: `ok`, or why it cannot serve (a [`Died::Spawn`]).
    pub fn spawn(mut command: Command, hello_within: Duration) -> Result<Worker, Died> {
        let spawn_error = |e: std::io::Error| Died::Spawn(e.to_string());
        let (ours, theirs) = UnixStream::pair().map_err(spawn_error)?;
        no_sigpipe(&ours);
        let theirs_out = theirs.try_clone().map_err(spawn_error)?;
        let child = command
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::from(OwnedFd::from(theirs_out)))
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Died::Spawn(format!("{}: {e}", command.get_program().display())))?;
        // The command keeps the worker's ends open until it is dropped; without them, the
        // worker's end of file is the only one.
        drop(command);
        let mut worker = Worker {
            child,
            socket: ours,
            kind: String::new(),
            expires: Instant::now(),
        };
        let deadline = Instant::now() + hello_within;
        match read_frame(&worker.socket, deadline) {
            Ok(hello) if hello == b"ok" => Ok(worker),
            Ok(why) => {
                worker.end();
                Err(Died::Spawn(String::from_utf8_lossy(&why).into_owned()))
            }
            Err(e) => {
                let died = worker.end_after(e, hello_within);
                Err(Died::Spawn(format!("the worker did not start: {died}")))
            }
        }
    }

    /// One request and its answer. On an error the worker has been killed and reaped.
    fn ask(&mut self, request: &[u8], limit: Duration) -> Result<Vec<u8>, Failure> {
        let deadline = Instant::now() + limit;
        let mut ack = [0u8; 1];
        let sent = write_frame(&self.socket, request, deadline)
            .and_then(|()| recv_exact(&self.socket, &mut ack, deadline));
        if let Err(e) = sent {
            // Gone before it had the request: retried. Stuck before reading it: a hang like any.
            let unread = matches!(e, Wire::Closed);
            let died = self.end_after(e, limit);
            return Err(if unread {
                Failure::Unread(died)
            } else {
                Failure::Failed(died)
            });
        }
        if ack != *b"R" {
            self.end();
            return Err(Failure::Failed(Died::Garbage(format!(
                "acknowledgement byte {:#04x}",
                ack[0]
            ))));
        }
        read_frame(&self.socket, deadline).map_err(|e| Failure::Failed(self.end_after(e, limit)))
    }

    fn of_kind(mut self, kind: &str) -> Worker {
        self.kind = kind.to_string();
        self
    }

    /// Whether the worker has ended (reaping it if so).
    fn has_ended(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the worker after a failed read or write, reaps it, and says what happened.
    fn end_after(&mut self, e: Wire, limit: Duration) -> Died {
        let status = self.end();
        match e {
            Wire::Late => Died::Timeout(limit),
            Wire::Garbage(why) => Died::Garbage(why),
            Wire::Closed => match status {
                Some(s) => match s.signal() {
                    Some(sig) => Died::Signal(sig),
                    None => Died::Exit(s.code().unwrap_or(-1)),
                },
                None => Died::Exit(-1),
            },
        }
    }

    /// Kills, then reaps: a worker is never waited for while it may still be waiting for us.
    fn end(&mut self) -> Option<std::process::ExitStatus> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Some(status);
        }
        let _ = self.child.kill();
        self.child.wait().ok()
    }

    /// The worker's process id (for tests that kill it).
    #[cfg(test)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes this side of the socket, as this process ending would.
    #[cfg(test)]
    pub fn close_input(&mut self) {
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
    }

    /// The worker's exit status once it has ended by itself (reaped), else `None`.
    #[cfg(test)]
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.end();
    }
}

/// Why a frame could not be read or written.
#[derive(Debug)]
enum Wire {
    /// End of file or a broken connection: the worker is gone.
    Closed,
    /// The deadline passed.
    Late,
    /// A frame that is not one.
    Garbage(String),
}

/// Writes `[length: u32 LE][bytes]`, never raising SIGPIPE, waiting for room at most until the
/// deadline (a worker that stopped reading cannot hold this side forever).
fn write_frame(socket: &UnixStream, bytes: &[u8], deadline: Instant) -> Result<(), Wire> {
    let len = u32::try_from(bytes.len()).map_err(|_| Wire::Garbage("request too large".into()))?;
    send_all(socket, &len.to_le_bytes(), deadline)?;
    send_all(socket, bytes, deadline)
}

fn send_all(socket: &UnixStream, mut bytes: &[u8], deadline: Instant) -> Result<(), Wire> {
    while !bytes.is_empty() {
        wait_for(socket, libc::POLLOUT, deadline)?;
        // SAFETY: `bytes` is a valid slice for the length given; the socket is open.
        let n = unsafe {
            libc::send(
                socket.as_raw_fd(),
                bytes.as_ptr().cast(),
                bytes.len(),
                SEND_FLAGS,
            )
        };
        if n < 0 {
            match std::io::Error::last_os_error().kind() {
                std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock => continue,
                _ => return Err(Wire::Closed),
            }
        }
        bytes = &bytes[n as usize..];
    }
    Ok(())
}

/// Never blocks (a send takes what fits, then `poll` waits for room until the deadline), and
/// never raises SIGPIPE where the flag exists (elsewhere see [`no_sigpipe`]).
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
const SEND_FLAGS: i32 = libc::MSG_NOSIGNAL | libc::MSG_DONTWAIT;
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
const SEND_FLAGS: i32 = libc::MSG_DONTWAIT;

/// Where `send` has no `MSG_NOSIGNAL` (macOS), the socket itself is told not to raise SIGPIPE:
/// rustc, for one, does not ignore it, and a worker that died must not take rustc with it.
fn no_sigpipe(_socket: &UnixStream) {
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    {
        let on: libc::c_int = 1;
        // SAFETY: a valid option value of its size on an open socket.
        unsafe {
            libc::setsockopt(
                _socket.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_NOSIGPIPE,
                (&on as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
}

/// Reads one `[length: u32 LE][bytes]` frame, refusing a length over [`MAX_ANSWER`].
fn read_frame(socket: &UnixStream, deadline: Instant) -> Result<Vec<u8>, Wire> {
    let mut len = [0u8; 4];
    recv_exact(socket, &mut len, deadline)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_ANSWER {
        return Err(Wire::Garbage(format!(
            "a frame of {len} bytes, more than the {MAX_ANSWER} an answer may have"
        )));
    }
    let mut out = vec![0u8; len];
    recv_exact(socket, &mut out, deadline)?;
    Ok(out)
}

fn recv_exact(socket: &UnixStream, mut buf: &mut [u8], deadline: Instant) -> Result<(), Wire> {
    while !buf.is_empty() {
        wait_for(socket, libc::POLLIN, deadline)?;
        match (&*socket).read(buf) {
            Ok(0) => return Err(Wire::Closed),
            Ok(n) => buf = &mut buf[n..],
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Wire::Closed),
        }
    }
    Ok(())
}

/// Waits until the socket is ready for `events` (or hung up), at most until the deadline.
fn wait_for(socket: &UnixStream, events: i16, deadline: Instant) -> Result<(), Wire> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Wire::Late);
        }
        let mut pfd = libc::pollfd {
            fd: socket.as_raw_fd(),
            events,
            revents: 0,
        };
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut pfd, 1, ms) };
        if ready > 0 {
            return Ok(());
        }
        if ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Err(Wire::Closed);
        }
    }
}

#[cfg(test)]
mod tests;
