//! `[upstreams.NAME] workers`, `threads`, `worker_class`: the app's declared capacity, validated
//! into a [`Capacity`] whose cap replaces `max_connections` (per server).

use toml::Spanned;

use crate::config::error::{ConfigErrorKind, Problem};
use crate::config::{Capacity, WorkerClass};

/// The keys of one upstream table that bear on its capacity.
pub(super) struct Keys<'a> {
    pub workers: Option<&'a Spanned<u32>>,
    pub threads: Option<&'a Spanned<u32>>,
    pub worker_class: Option<&'a Spanned<String>>,
    pub max_connections: Option<usize>,
}

/// Workers above this are a typo (Gunicorn's own advice is 2-4 per core).
const MAX_WORKERS: u32 = 4096;
/// Threads (or async requests) per worker above this are a typo too.
const MAX_THREADS: u32 = 4096;
/// For async workers without `threads`: the most requests per worker the adaptive limit may
/// let in at once (its ceiling is `workers` × this). An event loop rarely gains from more; a
/// higher one is declared with `threads`.
pub const DEFAULT_ASYNC_THREADS: u32 = 32;

fn invalid(span: std::ops::Range<usize>, message: impl Into<String>) -> Problem {
    Problem::new(ConfigErrorKind::InvalidValue, span, message)
}

/// `None` when `workers` is absent (and so are `threads` and `worker_class`): the pool keeps
/// `max_connections`. With `workers`, `max_connections` must be absent: the cap comes from the
/// declaration.
pub(super) fn validate(keys: Keys<'_>) -> Result<Option<Capacity>, Problem> {
    let Some(workers) = keys.workers else {
        if let Some(threads) = keys.threads {
            return Err(invalid(
                threads.span(),
                "threads needs workers beside it (such as workers = 4), which declares the app's capacity",
            ));
        }
        if let Some(class) = keys.worker_class {
            return Err(invalid(
                class.span(),
                "worker_class needs workers beside it (such as workers = 4), which declares the app's capacity",
            ));
        }
        return Ok(None);
    };
    if !(1..=MAX_WORKERS).contains(workers.get_ref()) {
        return Err(invalid(
            workers.span(),
            format!("workers must be from 1 to {MAX_WORKERS}: Gunicorn's -w, per server"),
        ));
    }
    if keys.max_connections.is_some() {
        return Err(invalid(
            workers.span(),
            "workers and max_connections both set a server's cap: keep workers (the cap is derived from it) and remove max_connections",
        ));
    }
    let threads = match keys.threads {
        None => None,
        Some(threads) if (1..=MAX_THREADS).contains(threads.get_ref()) => Some(*threads.get_ref()),
        Some(threads) => {
            return Err(invalid(
                threads.span(),
                format!("threads must be from 1 to {MAX_THREADS}: Gunicorn's --threads"),
            ))
        }
    };
    let worker_class = match keys.worker_class {
        None if threads.is_some_and(|threads| threads > 1) => WorkerClass::Gthread,
        None => WorkerClass::Sync,
        Some(class) => {
            let name = class.get_ref().as_str();
            match WorkerClass::ALL
                .into_iter()
                .find(|known| known.name() == name)
            {
                Some(known) => known,
                None => {
                    return Err(invalid(
                        class.span(),
                        format!(
                            "unknown worker_class {name:?}: \"sync\", \"gthread\" or \"async\""
                        ),
                    ))
                }
            }
        }
    };
    let threads = match (threads, worker_class) {
        (Some(threads), _) => threads,
        (None, WorkerClass::Async) => DEFAULT_ASYNC_THREADS,
        (None, _) => 1,
    };
    if worker_class == WorkerClass::Sync && threads > 1 {
        return Err(invalid(
            keys.threads.map_or(workers.span(), Spanned::span),
            "a sync worker serves one request at a time: remove threads, or set worker_class = \"gthread\"",
        ));
    }
    Ok(Some(Capacity {
        workers: *workers.get_ref(),
        threads,
        worker_class,
    }))
}
