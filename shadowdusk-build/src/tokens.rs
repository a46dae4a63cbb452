//! Job tokens: how many effects compile at once inside a parallel `cargo build`.
//!
//! Cargo runs a build script holding one token of its `-j`. A script that compiles on more
//! threads must take more tokens from cargo's jobserver, as `cc` does, or it takes cores cargo
//! has given to other crates' rustc. Each compile holds a token while it runs: the one the
//! script was started with, or one acquired from the jobserver (a cache hit only reads files
//! and holds none). Outside cargo, or when its jobserver cannot be used, only the Builder's
//! job count limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

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
pub(crate) struct Tokens {
    client: Option<&'static jobserver::Client>,
    /// Whether the token the script was started with is in use.
    implicit_taken: AtomicBool,
}

/// A token held while one effect compiles; released when dropped.
pub(crate) enum Token<'a> {
    /// The token the script was started with.
    Implicit(&'a AtomicBool),
    /// One taken from the jobserver.
    Acquired(#[allow(dead_code)] jobserver::Acquired),
    /// No jobserver to take one from.
    Unlimited,
}

impl Drop for Token<'_> {
    fn drop(&mut self) {
        if let Token::Implicit(taken) = self {
            taken.store(false, Ordering::Release);
        }
    }
}

impl Tokens {
    /// The jobserver of this process's environment, if cargo gave one.
    pub(crate) fn from_env() -> Tokens {
        Tokens {
            client: client(),
            implicit_taken: AtomicBool::new(false),
        }
    }

    /// No jobserver: only the job count limits.
    #[cfg(test)]
    pub(crate) fn none() -> Tokens {
        Tokens {
            client: None,
            implicit_taken: AtomicBool::new(false),
        }
    }

    /// A token for one compile: the implicit one when free, else one from the jobserver
    /// (waiting for it). A jobserver that fails to answer limits nothing: the build goes on.
    pub(crate) fn acquire(&self) -> Token<'_> {
        let Some(client) = self.client else {
            return Token::Unlimited;
        };
        if self
            .implicit_taken
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            return Token::Implicit(&self.implicit_taken);
        }
        match client.acquire() {
            Ok(token) => Token::Acquired(token),
            Err(_) => Token::Unlimited,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With a jobserver of one token besides the implicit one, a third compile waits until
    /// one of the first two ends.
    #[test]
    fn compiles_beyond_the_tokens_wait_for_one() {
        let server = jobserver::Client::new(1).expect("a jobserver");
        let tokens = Tokens {
            client: Some(Box::leak(Box::new(server))),
            implicit_taken: AtomicBool::new(false),
        };
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

    #[test]
    fn without_a_jobserver_nothing_waits() {
        let tokens = Tokens::none();
        let held: Vec<_> = (0..8).map(|_| tokens.acquire()).collect();
        assert!(held.iter().all(|t| matches!(t, Token::Unlimited)));
    }
}
