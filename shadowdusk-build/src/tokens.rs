//! Job tokens: how many effects compile at once inside a parallel `cargo build`.
//!
//! Cargo runs a build script holding one token of its `-j`. A script that compiles on more
//! threads must take more tokens from cargo's jobserver, as `cc` does, or it takes cores cargo
//! has given to other crates' rustc. Each compile holds a token while it runs: the one the
//! script was started with, or one acquired from the jobserver (a cache hit only reads files
//! and holds none). Outside cargo, or when its jobserver cannot be used, only the Builder's
//! job count limits.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

/// The jobserver cargo named in this process's environment, opened once: its descriptors
/// belong to the process, and a Builder may run more than once in it.
fn client() -> Option<&'static jobserver::Client> {
    static CLIENT: OnceLock<Option<jobserver::Client>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            // SAFETY: `from_env` takes the descriptors `CARGO_MAKEFLAGS`/`MAKEFLAGS` name. Cargo
            // passes them open to the build script for exactly this; nothing else in this
            // process uses them, and they are taken once (the `OnceLock`).
            unsafe { jobserver::Client::from_env() }
        })
        .as_ref()
}

/// The tokens one build shares between its threads.
///
/// A thread waiting for a token must also see the implicit one come free: two build scripts
/// under `cargo -j2` hold both of cargo's tokens, so neither jobserver ever has one to give,
/// and a thread blocked reading it would wait forever for an effect the other thread has
/// finished with. So tokens are asked of the jobserver through its helper thread, and a
/// waiting compile wakes for whichever comes first.
pub(crate) struct Tokens {
    shared: Arc<Shared>,
    /// Asks the jobserver for tokens; none outside cargo. Dropped (stopped) with the build.
    helper: Option<jobserver::HelperThread>,
}

#[derive(Default)]
pub(crate) struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// Whether the token the script was started with is in use.
    implicit_taken: bool,
    /// Tokens the jobserver gave that no compile has taken yet.
    granted: Vec<jobserver::Acquired>,
    /// Requests sent to the helper and not yet answered.
    requested: usize,
    /// Whether the jobserver failed: nothing waits for it any more.
    failed: bool,
}

/// A token held while one effect compiles; released when dropped.
pub(crate) enum Token<'a> {
    /// The token the script was started with.
    Implicit(&'a Shared),
    /// One taken from the jobserver.
    Acquired(#[allow(dead_code)] jobserver::Acquired),
    /// No jobserver to take one from.
    Unlimited,
}

impl Drop for Token<'_> {
    fn drop(&mut self) {
        if let Token::Implicit(shared) = self {
            shared.lock().implicit_taken = false;
            shared.changed.notify_all();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Tokens {
    /// The jobserver of this process's environment, if cargo gave one.
    pub(crate) fn from_env() -> Tokens {
        Tokens::with_client(client().cloned())
    }

    fn with_client(client: Option<jobserver::Client>) -> Tokens {
        let shared = Arc::new(Shared::default());
        let answers = Arc::clone(&shared);
        let helper = client.and_then(|c| {
            c.into_helper_thread(move |token| {
                let mut state = answers.lock();
                state.requested = state.requested.saturating_sub(1);
                match token {
                    Ok(t) => state.granted.push(t),
                    Err(_) => state.failed = true,
                }
                drop(state);
                answers.changed.notify_all();
            })
            .ok()
        });
        Tokens { shared, helper }
    }

    /// No jobserver: only the job count limits.
    #[cfg(test)]
    pub(crate) fn none() -> Tokens {
        Tokens::with_client(None)
    }

    /// A token for one compile: the implicit one or one from the jobserver, whichever is free
    /// first (waiting for it). A jobserver that fails limits nothing: the build goes on.
    pub(crate) fn acquire(&self) -> Token<'_> {
        let Some(helper) = &self.helper else {
            return Token::Unlimited;
        };
        let shared = &*self.shared;
        let mut state = shared.lock();
        let mut asked = false;
        loop {
            if !state.implicit_taken {
                state.implicit_taken = true;
                return Token::Implicit(shared);
            }
            if let Some(t) = state.granted.pop() {
                return Token::Acquired(t);
            }
            if state.failed {
                return Token::Unlimited;
            }
            if !asked {
                // One request per waiting compile; an answer that comes after the build has
                // ended is released when the build's `Tokens` is dropped.
                asked = true;
                state.requested += 1;
                helper.request_token();
            }
            state = shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// With a jobserver of one token besides the implicit one, a third compile waits until
    /// one of the first two ends.
    #[test]
    fn compiles_beyond_the_tokens_wait_for_one() {
        let tokens = Tokens::with_client(Some(jobserver::Client::new(1).expect("a jobserver")));
        let first = tokens.acquire();
        assert!(matches!(first, Token::Implicit(_)));
        let second = tokens.acquire();
        assert!(matches!(second, Token::Acquired(_)));
        let released = AtomicBool::new(false);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let third = tokens.acquire();
                assert!(
                    released.load(Ordering::SeqCst),
                    "took a token nobody released"
                );
                drop(third);
            });
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert!(!waiter.is_finished(), "the third compile did not wait");
            released.store(true, Ordering::SeqCst);
            drop(second);
        });
        drop(first);
        // The implicit token is free again.
        assert!(matches!(tokens.acquire(), Token::Implicit(_)));
    }

    /// A jobserver with no token to give (other build scripts hold them all): a waiting
    /// compile takes the implicit token when it comes free, instead of waiting forever.
    #[test]
    fn a_waiting_compile_takes_the_implicit_token_when_it_is_released() {
        let server = jobserver::Client::new(1).expect("a jobserver");
        let held_elsewhere = server.acquire().expect("the only token");
        let tokens = Tokens::with_client(Some(server));
        let first = tokens.acquire();
        assert!(matches!(first, Token::Implicit(_)));
        std::thread::scope(|s| {
            let waiter = s.spawn(|| matches!(tokens.acquire(), Token::Implicit(_)));
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert!(!waiter.is_finished(), "the second compile did not wait");
            drop(first);
            assert!(waiter.join().expect("waiter"), "it took the implicit token");
        });
        drop(tokens);
        drop(held_elsewhere);
    }

    #[test]
    fn without_a_jobserver_nothing_waits() {
        let tokens = Tokens::none();
        let held: Vec<_> = (0..8).map(|_| tokens.acquire()).collect();
        assert!(held.iter().all(|t| matches!(t, Token::Unlimited)));
    }
}
