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

/// Holds each compile before it asks for its token ([`shadowdusk_compiler::plumbing::test_gate`]),
/// as a jobserver with none free would.
pub(crate) const TOKEN_GATE: &str = "SHADOWDUSK_TEST_TOKEN_GATE";

/// The tokens one build shares between its threads.
///
/// A thread waiting for a token must also see the implicit one come free: two build scripts
/// under `cargo -j2` hold both of cargo's tokens, so neither jobserver ever has one to give,
/// and a thread blocked reading it would wait forever for an effect the other thread has
/// finished with. So tokens are asked of the jobserver through its helper thread, and a
/// waiting compile wakes for whichever comes first. Compiles are served in the order they
/// asked: a token that comes free goes to the compile that has waited longest, never to one
/// that asked later.
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
    /// Requests sent to the helper and not yet answered: with `granted`, never fewer than the
    /// compiles waiting, so each has a token coming.
    requested: usize,
    /// Whether the jobserver failed: nothing waits for it any more.
    failed: bool,
    /// The turn the next compile to ask gets.
    next_turn: u64,
    /// The turn being served: compiles with a later one wait behind it.
    serving: u64,
}

impl State {
    /// How many compiles wait for a token.
    fn waiting(&self) -> usize {
        usize::try_from(self.next_turn - self.serving).unwrap_or(usize::MAX)
    }
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
                    // A token nobody waits for any more (the implicit one came first) goes
                    // back at once: other crates' compiles may be waiting for it.
                    Ok(t) if state.granted.len() < state.waiting() => state.granted.push(t),
                    Ok(_) => {}
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
    /// first, in the order compiles asked (waiting for it). A jobserver that fails limits
    /// nothing: the build goes on.
    pub(crate) fn acquire(&self) -> Token<'_> {
        shadowdusk_compiler::plumbing::test_gate(TOKEN_GATE);
        let Some(helper) = &self.helper else {
            return Token::Unlimited;
        };
        let shared = &*self.shared;
        let mut state = shared.lock();
        let turn = state.next_turn;
        state.next_turn += 1;
        loop {
            if state.serving == turn {
                let token = if !state.implicit_taken {
                    state.implicit_taken = true;
                    Some(Token::Implicit(shared))
                } else if let Some(t) = state.granted.pop() {
                    Some(Token::Acquired(t))
                } else if state.failed {
                    Some(Token::Unlimited)
                } else {
                    None
                };
                if let Some(token) = token {
                    state.serving += 1;
                    drop(state);
                    // The next in line may find a token free too.
                    shared.changed.notify_all();
                    return token;
                }
            }
            // A token on its way for every compile waiting; an answer that comes after the
            // build has ended is released when the build's `Tokens` is dropped.
            while !state.failed && state.requested + state.granted.len() < state.waiting() {
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

    /// Waits until `tokens` has handed out `turns` turns (compiles asked).
    fn until_asked(tokens: &Tokens, turns: u64) {
        while tokens.shared.lock().next_turn < turns {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// A token that comes free goes to the compile that has waited longest: one that asks
    /// later, even at the moment the token is released, waits its turn. (Repeated: before,
    /// whichever thread reached the lock first took it, and the late one nearly always did.)
    #[test]
    fn a_token_goes_to_the_compile_that_asked_first() {
        for _ in 0..20 {
            let server = jobserver::Client::new(1).expect("a jobserver");
            let held_elsewhere = server.acquire().expect("the only token");
            let tokens = Tokens::with_client(Some(server));
            let first = tokens.acquire();
            let order = Mutex::new(Vec::new());
            std::thread::scope(|s| {
                s.spawn(|| {
                    let token = tokens.acquire();
                    order.lock().unwrap().push("early");
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    drop(token);
                });
                until_asked(&tokens, 2);
                drop(first);
                let token = tokens.acquire();
                order.lock().unwrap().push("late");
                drop(token);
            });
            assert_eq!(*order.lock().unwrap(), ["early", "late"]);
            drop(tokens);
            drop(held_elsewhere);
        }
    }

    /// A jobserver token that arrives when no compile waits any more (the implicit one came
    /// free first) goes straight back: the build does not sit on a token other crates need.
    #[test]
    fn a_token_nobody_waits_for_goes_back_to_the_jobserver() {
        let server = jobserver::Client::new(1).expect("a jobserver");
        let held_elsewhere = server.acquire().expect("the only token");
        let tokens = Tokens::with_client(Some(server.clone()));
        let first = tokens.acquire();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| matches!(tokens.acquire(), Token::Implicit(_)));
            until_asked(&tokens, 2);
            assert_eq!(tokens.shared.lock().requested, 1, "one token asked for");
            drop(first);
            assert!(waiter.join().expect("waiter"), "it took the implicit token");
        });
        // The request is still out: the jobserver answers it once the token comes back.
        drop(held_elsewhere);
        let start = std::time::Instant::now();
        while tokens.shared.lock().requested > 0 {
            assert!(
                start.elapsed().as_secs() < 10,
                "the request was never answered"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(tokens.shared.lock().granted.is_empty());
        // The jobserver has it again (`try_acquire` is not supported on its pipes).
        let (sender, back) = std::sync::mpsc::channel();
        std::thread::spawn(move || sender.send(server.acquire().is_ok()));
        let got = back.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got, Ok(true), "the answered token was kept");
    }

    #[test]
    fn without_a_jobserver_nothing_waits() {
        let tokens = Tokens::none();
        let held: Vec<_> = (0..8).map(|_| tokens.acquire()).collect();
        assert!(held.iter().all(|t| matches!(t, Token::Unlimited)));
    }
}
