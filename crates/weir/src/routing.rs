//! Host + path -> route. Routes with a matching `host` are preferred over host-less ones; among
//! those, an exact path match wins (nginx `location = /path`), then the longest matching path
//! prefix, as nginx's prefix `location`s.

/// How a route's path is compared with the request's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathMatch {
    /// The request path starts with this (nginx `location /prefix`).
    Prefix(String),
    /// The request path is exactly this (nginx `location = /path`).
    Exact(String),
}

impl PathMatch {
    fn matches(&self, path: &str) -> bool {
        match self {
            PathMatch::Prefix(prefix) => path.starts_with(prefix.as_str()),
            PathMatch::Exact(exact) => path == exact,
        }
    }

    /// Exact matches first, then longer prefixes: the order nginx looks at locations in.
    fn rank(&self) -> (bool, usize) {
        match self {
            PathMatch::Exact(exact) => (true, exact.len()),
            PathMatch::Prefix(prefix) => (false, prefix.len()),
        }
    }
}

/// A route table built once from the config; `T` is what a route leads to.
#[derive(Debug)]
pub struct Router<T> {
    /// Sorted so that the first match is the right one: host-specific first, then exact matches,
    /// then longer prefixes.
    routes: Vec<Entry<T>>,
}

#[derive(Debug)]
struct Entry<T> {
    host: Option<String>,
    path: PathMatch,
    target: T,
}

impl<T> Router<T> {
    /// `routes` are `(host, path match, target)`; hosts are compared case-insensitively.
    pub fn new(routes: impl IntoIterator<Item = (Option<String>, PathMatch, T)>) -> Router<T> {
        let mut routes: Vec<Entry<T>> = routes
            .into_iter()
            .map(|(host, path, target)| Entry {
                host: host.map(|host| host.to_ascii_lowercase()),
                path,
                target,
            })
            .collect();
        routes.sort_by(|a, b| {
            b.host
                .is_some()
                .cmp(&a.host.is_some())
                .then(b.path.rank().cmp(&a.path.rank()))
        });
        Router { routes }
    }

    /// The route for a request. `host` is the `Host` header (a port, if any, is ignored, and
    /// so is one trailing dot: `admin.test.` is the fully qualified `admin.test`, which nginx's
    /// `ngx_http_validate_host` and the apps behind treat as the same name).
    pub fn find(&self, host: Option<&str>, path: &str) -> Option<&T> {
        let host = host.map(|host| {
            let host = strip_port(host);
            host.strip_suffix('.').unwrap_or(host)
        });
        self.routes
            .iter()
            .find(|entry| {
                let host_matches = match (&entry.host, host) {
                    (None, _) => true,
                    (Some(wanted), Some(host)) => wanted.eq_ignore_ascii_case(host),
                    (Some(_), None) => false,
                };
                host_matches && entry.path.matches(path)
            })
            .map(|entry| &entry.target)
    }
}

fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        // An IPv6 literal: "[::1]:8080" -> "[::1]".
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rfind(':') {
        Some(colon) => &host[..colon],
        None => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix(path: &str) -> PathMatch {
        PathMatch::Prefix(path.to_string())
    }

    #[test]
    fn longest_prefix_wins_and_host_specific_routes_come_first() {
        let router = Router::new([
            (None, prefix("/"), "root"),
            (None, prefix("/api/"), "api"),
            (None, prefix("/api/v2/"), "v2"),
            (Some("Admin.Example".to_string()), prefix("/"), "admin"),
        ]);
        assert_eq!(router.find(Some("x"), "/"), Some(&"root"));
        assert_eq!(router.find(Some("x"), "/api/users"), Some(&"api"));
        assert_eq!(router.find(Some("x"), "/api/v2/users"), Some(&"v2"));
        assert_eq!(
            router.find(Some("admin.example:8080"), "/api/"),
            Some(&"admin")
        );
        assert_eq!(router.find(None, "/api"), Some(&"root"));
    }

    #[test]
    fn no_match_gives_none() {
        let router = Router::new([(None, prefix("/api/"), 1)]);
        assert_eq!(router.find(Some("x"), "/other"), None);
        assert_eq!(strip_port("[::1]:80"), "[::1]");
        assert_eq!(strip_port("example.com"), "example.com");
    }

    #[test]
    fn an_exact_match_wins_over_every_prefix_and_matches_nothing_else() {
        // nginx: `location = /` answers `/` alone; `/x` goes to the longest prefix.
        let router = Router::new([
            (None, prefix("/"), "prefix root"),
            (None, PathMatch::Exact("/".to_string()), "exact root"),
            (None, prefix("/login/"), "login prefix"),
            (None, PathMatch::Exact("/login".to_string()), "exact login"),
        ]);
        assert_eq!(router.find(Some("x"), "/"), Some(&"exact root"));
        assert_eq!(router.find(Some("x"), "/index.html"), Some(&"prefix root"));
        assert_eq!(router.find(Some("x"), "/login"), Some(&"exact login"));
        assert_eq!(router.find(Some("x"), "/login/"), Some(&"login prefix"));
        assert_eq!(router.find(Some("x"), "/loginx"), Some(&"prefix root"));
    }

    #[test]
    fn a_host_specific_prefix_wins_over_a_host_less_exact_match() {
        // nginx picks the server (by host) before any location.
        let router = Router::new([
            (None, PathMatch::Exact("/health".to_string()), "any host"),
            (Some("api.example".to_string()), prefix("/"), "api"),
        ]);
        assert_eq!(router.find(Some("api.example"), "/health"), Some(&"api"));
        assert_eq!(router.find(Some("other"), "/health"), Some(&"any host"));
        assert_eq!(router.find(Some("other"), "/healthz"), None);
    }
}
