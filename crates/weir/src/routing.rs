//! Listener + host + path -> route, in nginx's order. A route answers on the listeners it is
//! bound to (every one by default). Among those, the host picks the routes that stand for one
//! nginx `server`: an exact name first, then the longest `*.example.com` wildcard, then the
//! longest `example.*` one; when no route names the host (or its routes have no match for the
//! path), the host-less routes answer, the listener's default server. Within that group the
//! path picks the route as nginx picks a `location`: an exact match (`location = /path`); else
//! the longest matching prefix is remembered and, if it is a `^~` prefix, wins; else the first
//! regex in config order that matches (`~`, `~*`); else the remembered prefix. An `internal`
//! route is found only for internal lookups (`X-Accel-Redirect`); a client request that lands on
//! one finds nothing, as nginx answers 404.

use std::net::SocketAddr;

/// The most a route's regex may take once compiled (the `regex` crate's `size_limit`): a
/// pattern past it is a config error, so no config can make weir build a huge automaton.
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// How a route's path is compared with the request's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathMatch {
    /// The request path starts with this (nginx `location /prefix`).
    Prefix(String),
    /// The request path is exactly this (nginx `location = /path`).
    Exact(String),
    /// A prefix that, when it is the longest match, stops the search before the regexes
    /// (nginx `location ^~ /prefix`).
    PrefixStop(String),
    /// A regex searched for in the path, tried in config order (nginx `location ~` / `~*`).
    Regex(PathRegex),
}

/// A compiled path regex, compared by its source and case rule (two routes with the same
/// pattern are the same route for a reload).
#[derive(Debug, Clone)]
pub struct PathRegex {
    regex: regex::Regex,
    nocase: bool,
}

impl PathRegex {
    /// Compiles `pattern` (the `regex` crate's syntax: linear time, no back-references), case
    /// insensitive when `nocase`, within [`REGEX_SIZE_LIMIT`].
    pub fn new(pattern: &str, nocase: bool) -> Result<PathRegex, regex::Error> {
        let regex = regex::RegexBuilder::new(pattern)
            .case_insensitive(nocase)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()?;
        Ok(PathRegex { regex, nocase })
    }

    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    pub fn nocase(&self) -> bool {
        self.nocase
    }

    /// The groups a match has (the whole match not counted).
    pub fn groups(&self) -> usize {
        self.regex.captures_len() - 1
    }

    /// `path`'s captures `$1` .., empty for a group that took no part; `None` when it does not
    /// match.
    pub fn captures<'path>(&self, path: &'path str) -> Option<Vec<&'path str>> {
        let captures = self.regex.captures(path)?;
        Some(
            (1..captures.len())
                .map(|index| captures.get(index).map_or("", |found| found.as_str()))
                .collect(),
        )
    }
}

impl PartialEq for PathRegex {
    fn eq(&self, other: &PathRegex) -> bool {
        self.nocase == other.nocase && self.as_str() == other.as_str()
    }
}

impl Eq for PathRegex {}

impl std::hash::Hash for PathRegex {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.nocase.hash(state);
        self.as_str().hash(state);
    }
}

/// The listeners a route answers on (nginx: the `listen` lines of its `server`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Listeners {
    /// Every listener.
    #[default]
    Any,
    /// The TLS listeners (`scheme = "https"`) or the plain ones (`scheme = "http"`).
    Tls(bool),
    /// The listeners configured with these addresses (as written in the config, port 0 too).
    Addrs(Vec<SocketAddr>),
}

impl Listeners {
    fn accepts(&self, listener: &Listener) -> bool {
        match self {
            Listeners::Any => true,
            Listeners::Tls(tls) => *tls == listener.tls,
            Listeners::Addrs(addrs) => addrs.contains(&listener.addr),
        }
    }
}

/// The listener a request came on: its address as configured, whether it speaks TLS, and the
/// port it is bound to (`$server_port`: the configured one, or the one the system chose for 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listener {
    pub addr: SocketAddr,
    pub tls: bool,
    pub port: u16,
}

/// A route's `host`: a name, or a wildcard in front (`*.example.com`) or at the end
/// (`example.*`), as nginx `server_name`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HostPattern {
    Exact(String),
    /// `*.example.com`, kept as `.example.com`: a host that ends with it (and has more).
    Leading(String),
    /// `example.*`, kept as `example.`: a host that starts with it (and has more).
    Trailing(String),
}

impl HostPattern {
    fn parse(host: &str) -> HostPattern {
        let host = host.to_ascii_lowercase();
        if let Some(suffix) = host.strip_prefix('*') {
            HostPattern::Leading(suffix.to_string())
        } else if let Some(prefix) = host.strip_suffix('*') {
            HostPattern::Trailing(prefix.to_string())
        } else {
            HostPattern::Exact(host)
        }
    }

    /// How well the pattern matches `host` (higher is better, nginx's order), or `None`.
    fn rank(&self, host: &str) -> Option<(u8, usize)> {
        let ends_with = |suffix: &str| {
            host.len() > suffix.len()
                && host.as_bytes()[host.len() - suffix.len()..]
                    .eq_ignore_ascii_case(suffix.as_bytes())
        };
        let starts_with = |prefix: &str| {
            host.len() > prefix.len()
                && host.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        };
        match self {
            HostPattern::Exact(name) => name.eq_ignore_ascii_case(host).then_some((3, name.len())),
            HostPattern::Leading(suffix) => ends_with(suffix).then_some((2, suffix.len())),
            HostPattern::Trailing(prefix) => starts_with(prefix).then_some((1, prefix.len())),
        }
    }
}

/// One route of the table, as the config gives it.
#[derive(Debug)]
pub struct Entry<T> {
    /// `None`: any host (the listener's default server).
    pub host: Option<String>,
    pub listeners: Listeners,
    pub path: PathMatch,
    /// Reached only by internal lookups (nginx `internal`).
    pub internal: bool,
    /// A client's request for `path` without its trailing slash is redirected to it (nginx's
    /// `auto_redirect` of a `proxy_pass` location whose name ends with `/`).
    pub slash_redirect: bool,
    pub target: T,
}

/// What a client's lookup found ([`Router::find_for_client`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Found<'a, T> {
    /// The route that answers.
    Route(&'a T),
    /// The request's path is this route's without its trailing slash: a 301 to the path with
    /// the slash.
    AddSlash(&'a T),
}

/// What a lookup asks.
#[derive(Debug, Clone, Copy)]
pub struct Lookup<'a> {
    pub listener: Listener,
    /// The `Host` (a port, if any, is ignored, and so is one trailing dot: `admin.test.` is the
    /// fully qualified `admin.test`, which nginx's `ngx_http_validate_host` and the apps behind
    /// treat as the same name).
    pub host: Option<&'a str>,
    /// The normalised path.
    pub path: &'a str,
    /// An internal lookup (`X-Accel-Redirect`): internal routes may answer.
    pub internal: bool,
}

/// A route table built once from the config; `T` is what a route leads to.
#[derive(Debug)]
pub struct Router<T> {
    /// In config order: regexes are tried in it.
    routes: Vec<Compiled<T>>,
    /// Whether any route has a host pattern: with none, no request's host is looked at.
    any_host: bool,
    /// Whether any route's path is a regex: with none, the routes are walked once.
    any_regex: bool,
    /// Whether any route has `slash_redirect`: with none, no request is looked at for it.
    any_slash: bool,
}

#[derive(Debug)]
struct Compiled<T> {
    host: Option<HostPattern>,
    listeners: Listeners,
    path: PathMatch,
    internal: bool,
    slash_redirect: bool,
    target: T,
}

impl<T> Router<T> {
    /// `routes` in config order; hosts are compared case-insensitively.
    pub fn new(routes: impl IntoIterator<Item = Entry<T>>) -> Router<T> {
        let routes = routes
            .into_iter()
            .map(|entry| Compiled {
                host: entry.host.as_deref().map(HostPattern::parse),
                listeners: entry.listeners,
                path: entry.path,
                internal: entry.internal,
                slash_redirect: entry.slash_redirect,
                target: entry.target,
            })
            .collect::<Vec<Compiled<T>>>();
        let any_slash = routes.iter().any(|route| route.slash_redirect);
        let any_host = routes.iter().any(|route| route.host.is_some());
        let any_regex = routes
            .iter()
            .any(|route| matches!(route.path, PathMatch::Regex(_)));
        Router {
            routes,
            any_host,
            any_regex,
            any_slash,
        }
    }

    /// The route for a request, or `None` (404): none matches, or the one that matches is
    /// internal and the lookup is not. No `slash_redirect` is made: an internal lookup's.
    pub fn find(&self, lookup: &Lookup<'_>) -> Option<&T> {
        self.search(lookup, false).map(|(route, _)| route)
    }

    /// As [`Router::find`], for a client's request: a path that is a `slash_redirect` route's
    /// without its trailing slash is [`Found::AddSlash`], as nginx answers it with a 301,
    /// unless a route's exact path or prefix is the path itself (nginx's order: that location
    /// is found first; a shorter prefix or a regex is not).
    pub fn find_for_client(&self, lookup: &Lookup<'_>) -> Option<Found<'_, T>> {
        let slash = self.any_slash && !lookup.path.ends_with('/');
        self.search(lookup, slash)
            .map(|(route, add_slash)| match add_slash {
                true => Found::AddSlash(route),
                false => Found::Route(route),
            })
    }

    fn search(&self, lookup: &Lookup<'_>, slash: bool) -> Option<(&T, bool)> {
        let host = lookup.host.filter(|_| self.any_host).map(|host| {
            let host = strip_port(host);
            host.strip_suffix('.').unwrap_or(host)
        });
        let on_listener = || {
            self.routes
                .iter()
                .filter(|route| route.listeners.accepts(&lookup.listener))
        };
        // The server: the best host pattern among the listener's routes.
        let best = host.and_then(|host| {
            on_listener()
                .filter_map(|route| {
                    let pattern = route.host.as_ref()?;
                    Some((pattern.rank(host)?, pattern))
                })
                .max_by_key(|(rank, _)| *rank)
                .map(|(_, pattern)| pattern)
        });
        let (found, add_slash) = best
            .and_then(|best| {
                locate(
                    on_listener().filter(|route| route.host.as_ref() == Some(best)),
                    lookup.path,
                    self.any_regex,
                    slash,
                )
            })
            .or_else(|| {
                locate(
                    on_listener().filter(|route| route.host.is_none()),
                    lookup.path,
                    self.any_regex,
                    slash,
                )
            })?;
        (lookup.internal || !found.internal).then_some((&found.target, add_slash))
    }
}

/// nginx's location search among one server's routes (`routes` in config order); `any_regex`:
/// whether any of them may be a regex (else they are not walked a second time for one);
/// `slash`: whether a `slash_redirect` route whose path is `path` and a slash is looked for
/// (the route is then returned with `true`).
fn locate<'r, T: 'r>(
    routes: impl Iterator<Item = &'r Compiled<T>> + Clone,
    path: &str,
    any_regex: bool,
    slash: bool,
) -> Option<(&'r Compiled<T>, bool)> {
    let mut longest: Option<(&Compiled<T>, usize, bool)> = None;
    let mut exact_on_any = None;
    let mut with_slash = None;
    for route in routes.clone() {
        if slash && route.slash_redirect && with_slash.is_none() {
            // A regex route never has `slash_redirect`.
            if let PathMatch::Exact(own) | PathMatch::Prefix(own) | PathMatch::PrefixStop(own) =
                &route.path
            {
                if own.len() == path.len() + 1 && own.starts_with(path) {
                    with_slash = Some(route);
                }
            }
        }
        let (prefix, stop) = match &route.path {
            // Of two exact routes (one per listener binding), the bound one wins.
            PathMatch::Exact(exact) if exact == path => {
                if route.listeners != Listeners::Any {
                    return Some((route, false));
                }
                exact_on_any = exact_on_any.or(Some(route));
                continue;
            }
            PathMatch::Prefix(prefix) => (prefix, false),
            PathMatch::PrefixStop(prefix) => (prefix, true),
            PathMatch::Exact(_) | PathMatch::Regex(_) => continue,
        };
        // Of two prefixes as long (one per listener binding), the bound one wins; else the
        // first in config order.
        let better = match longest {
            None => true,
            Some((held, length, _)) => {
                prefix.len() > length
                    || (prefix.len() == length
                        && held.listeners == Listeners::Any
                        && route.listeners != Listeners::Any)
            }
        };
        if path.starts_with(prefix.as_str()) && better {
            longest = Some((route, prefix.len(), stop));
        }
    }
    if let Some(route) = exact_on_any {
        return Some((route, false));
    }
    // The path with a slash is a redirecting route's: it goes before a shorter prefix and the
    // regexes, not before a prefix that is the path itself.
    if let Some(route) = with_slash {
        if longest.is_none_or(|(_, length, _)| length < path.len()) {
            return Some((route, true));
        }
    }
    if let Some((route, _, true)) = longest {
        return Some((route, false));
    }
    if !any_regex {
        return longest.map(|(route, _, _)| (route, false));
    }
    routes
        .into_iter()
        .find(|route| matches!(&route.path, PathMatch::Regex(regex) if regex.regex.is_match(path)))
        .or(longest.map(|(route, _, _)| route))
        .map(|route| (route, false))
}

/// The host without its port: `example.com:8080` is `example.com`, `[::1]:8080` is `[::1]`.
/// Read as bytes (a host is ASCII once checked), which costs a third of `str::rfind` on a name
/// this short.
pub(crate) fn strip_port(host: &str) -> &str {
    let bytes = host.as_bytes();
    let end = if bytes.first() == Some(&b'[') {
        // An IPv6 literal: "[::1]:8080" -> "[::1]".
        bytes
            .iter()
            .position(|&byte| byte == b']')
            .map(|end| end + 1)
    } else {
        bytes.iter().rposition(|&byte| byte == b':')
    };
    // `end` is at an ASCII byte or the end, so the cut is on a character boundary.
    host.get(..end.unwrap_or(host.len())).unwrap_or(host)
}

#[cfg(test)]
mod tests;
