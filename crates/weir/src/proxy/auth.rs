//! `basic_auth` of routes and `[[hosts]]` (nginx `auth_basic`, `auth_basic_user_file`): a
//! request needs `Authorization: Basic` with a user and password of the password file, else 401
//! with `WWW-Authenticate: Basic realm="..."`. The check runs after the rate limits, as nginx's
//! access phase runs after `limit_req`, so a limit on the route bounds the guesses a client makes.
//!
//! A costly hash (bcrypt, SHA-crypt, MD5-crypt: [`Hash::is_dear`]) is checked on a blocking
//! thread, never on a connection's thread (nginx checks it in its event loop, which a flood of
//! wrong bcrypt passwords stalls for every connection of that worker): at most
//! `[server] max_password_checks` at a time (by default one core fewer than the machine has,
//! one at least), and at most [`WAITING`] times as many waiting, beyond which a request is
//! answered 503 with `Retry-After: 1`. A password
//! that passed is remembered by its user (a keyed SHA-256, [`Users::remember`]), so a user's
//! next requests cost a digest, not a bcrypt. The file is read when the proxy is built (at
//! start and on every reload), and again within a second of a change ([`watch`]), so that
//! `htpasswd -D` takes effect as it does with nginx, which reads the file at every request; a
//! change weir cannot read fails closed ([`UserFile::refresh`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwap;

use crate::error::ProxyError;
use crate::head_view::Headers;
use crate::htpasswd::{Credentials, Users};

/// How many requests may wait for a password check for each check that runs at once.
pub(super) const WAITING: usize = 16;

/// How often a password file is looked at for a change.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// One `basic_auth` as a route (or host) applies it.
pub(super) struct Guard {
    /// `Basic realm="..."`, the value of `WWW-Authenticate`.
    challenge: Arc<str>,
    file: Arc<UserFile>,
    verifier: Arc<Verifier>,
}

/// A password file as the proxy keeps it: its users, read again when the file changes.
pub(super) struct UserFile {
    path: PathBuf,
    users: ArcSwap<Users>,
    /// The file as it was when last read: modified, length, inode.
    seen: Mutex<Option<Stamp>>,
}

type Stamp = (SystemTime, u64, u64);

fn stamp(path: &std::path::Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt as _;
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.modified().ok()?, metadata.len(), metadata.ino()))
}

impl UserFile {
    /// Reads the file at `path`; the error names the line at fault.
    pub(super) fn read(path: PathBuf) -> Result<UserFile, crate::htpasswd::FileError> {
        let seen = stamp(&path);
        let users = Users::read(&path)?;
        Ok(UserFile {
            path,
            users: ArcSwap::from_pointee(users),
            seen: Mutex::new(seen),
        })
    }

    /// Reads the file again if it changed since it was last read. It fails closed, as nginx,
    /// which reads the file per request: a line weir cannot read leaves its user with no
    /// password that passes (nginx answers that user 500), and a file gone or unreadable leaves
    /// no user at all (nginx answers every request 500); each is logged once per change.
    fn refresh(&self) {
        let now = stamp(&self.path);
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if now == *seen {
            return;
        }
        *seen = now;
        let users = match Users::read_all(&self.path) {
            Ok((users, errors)) => {
                for error in &errors {
                    tracing::error!(
                        "{}; that line's user is refused until the file is mended",
                        error.naming(&self.path)
                    );
                }
                tracing::info!(file = %self.path.display(), users = users.len(), "password file read again");
                users
            }
            Err(error) => {
                tracing::error!(
                    "{}; every request is refused until the file can be read",
                    error.naming(&self.path)
                );
                Users::none()
            }
        };
        self.users.store(Arc::new(users));
    }
}

/// Looks at each password file every [`WATCH_EVERY`] and reads a changed one again, on a
/// blocking thread; ends when the proxy that holds them is gone.
pub(super) async fn watch(files: Vec<Weak<UserFile>>) {
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let alive: Vec<Arc<UserFile>> = files.iter().filter_map(Weak::upgrade).collect();
        if alive.is_empty() {
            return;
        }
        let _ =
            tokio::task::spawn_blocking(move || alive.iter().for_each(|file| file.refresh())).await;
    }
}

/// The costly checks of one proxy: how many run and wait.
pub(super) struct Verifier {
    permits: Arc<tokio::sync::Semaphore>,
    waiting: AtomicUsize,
    /// How many may wait.
    max_waiting: usize,
}

impl Verifier {
    /// At most `at_once` checks at a time; 0: one a core but one (so that a flood of guesses
    /// leaves a core to the connections), and one at least.
    pub(super) fn new(at_once: usize) -> Verifier {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let at_once = match at_once {
            0 => cores.saturating_sub(1).max(1),
            at_once => at_once,
        };
        Verifier {
            permits: Arc::new(tokio::sync::Semaphore::new(at_once)),
            waiting: AtomicUsize::new(0),
            max_waiting: at_once.saturating_mul(WAITING),
        }
    }
}

/// A password to check on a blocking thread.
pub(super) struct Pending {
    users: Arc<Users>,
    credentials: Credentials,
    verifier: Arc<Verifier>,
    challenge: Arc<str>,
}

/// Counts a request among those waiting while it waits.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Guard {
    pub(super) fn new(realm: &str, file: Arc<UserFile>, verifier: Arc<Verifier>) -> Guard {
        // A quoted string: `"` and `\` escaped (the config refuses control characters).
        let mut challenge = String::with_capacity(realm.len() + 16);
        challenge.push_str("Basic realm=\"");
        for c in realm.chars() {
            if matches!(c, '"' | '\\') {
                challenge.push('\\');
            }
            challenge.push(c);
        }
        challenge.push('"');
        Guard {
            challenge: challenge.into(),
            file,
            verifier,
        }
    }

    fn refuse(&self, reason: &'static str) -> ProxyError {
        ProxyError::Unauthorized {
            challenge: Arc::clone(&self.challenge),
            reason,
        }
    }

    /// Whether the request's credentials pass: `Ok(None)` when they do, or a check left to make
    /// on a blocking thread ([`Pending::run`]).
    pub(super) fn check(&self, headers: &Headers) -> Result<Option<Pending>, ProxyError> {
        let Some(value) = headers.get("authorization") else {
            return Err(self.refuse("no credentials"));
        };
        let credentials =
            Credentials::parse(value).ok_or_else(|| self.refuse("no valid Basic credentials"))?;
        let (name, password) = (credentials.user(), credentials.password());
        let users = self.file.users.load();
        let Some(user) = users.get(name) else {
            return Err(self.refuse("user not found"));
        };
        let hash = user.hash();
        if !hash.is_dear() {
            return match hash.verify(password) {
                true => Ok(None),
                false => Err(self.refuse("password mismatch")),
            };
        }
        if users.was_verified(user, password) {
            return Ok(None);
        }
        Ok(Some(Pending {
            users: arc_swap::Guard::into_inner(users),
            credentials,
            verifier: Arc::clone(&self.verifier),
            challenge: Arc::clone(&self.challenge),
        }))
    }
}

impl Pending {
    /// Checks the password on a blocking thread, once a place among `max_password_checks` is
    /// free; 503 at once when [`WAITING`] times as many requests wait already. A request whose
    /// client leaves stops waiting; a check begun runs to its end and holds its place until
    /// then.
    pub(super) async fn run(self) -> Result<(), ProxyError> {
        let verifier = &self.verifier;
        if verifier.waiting.fetch_add(1, Ordering::Relaxed) >= verifier.max_waiting {
            verifier.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(ProxyError::AuthBusy);
        }
        let waiting = Waiting(&verifier.waiting);
        let permit = Arc::clone(&verifier.permits)
            .acquire_owned()
            .await
            .map_err(|_| ProxyError::AuthBusy)?;
        drop(waiting);
        let Pending {
            users,
            credentials,
            challenge,
            ..
        } = self;
        let checked = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let user = users.get(credentials.user())?;
            let passed = user.hash().verify(credentials.password());
            if passed {
                users.remember(user, credentials.password());
            }
            Some(passed)
        })
        .await;
        match checked {
            Ok(Some(true)) => Ok(()),
            _ => Err(ProxyError::Unauthorized {
                challenge,
                reason: "password mismatch",
            }),
        }
    }
}
