//! Host + path -> route. Routes with a matching `host` are preferred over host-less ones; among
//! those, the longest matching path prefix wins, as nginx's prefix `location`s.

/// A route table built once from the config; `T` is what a route leads to.
#[derive(Debug)]
pub struct Router<T> {
    /// Sorted so that the first match is the right one: host-specific first, then longer prefixes.
    routes: Vec<Entry<T>>,
}

#[derive(Debug)]
struct Entry<T> {
    host: Option<String>,
    path: String,
    target: T,
}

impl<T> Router<T> {
    /// `routes` are `(host, path prefix, target)`; hosts are compared case-insensitively.
    pub fn new(routes: impl IntoIterator<Item = (Option<String>, String, T)>) -> Router<T> {
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
                .then(b.path.len().cmp(&a.path.len()))
        });
        Router { routes }
    }

    /// The route for a request. `host` is the `Host` header (a port, if any, is ignored).
    pub fn find(&self, host: Option<&str>, path: &str) -> Option<&T> {
        let host = host.map(strip_port);
        self.routes
            .iter()
            .find(|entry| {
                let host_matches = match (&entry.host, host) {
                    (None, _) => true,
                    (Some(wanted), Some(host)) => wanted.eq_ignore_ascii_case(host),
                    (Some(_), None) => false,
                };
                host_matches && path.starts_with(entry.path.as_str())
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

    #[test]
    fn longest_prefix_wins_and_host_specific_routes_come_first() {
        let router = Router::new([
            (None, "/".to_string(), "root"),
            (None, "/api/".to_string(), "api"),
            (None, "/api/v2/".to_string(), "v2"),
            (Some("Admin.Example".to_string()), "/".to_string(), "admin"),
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
        let router = Router::new([(None, "/api/".to_string(), 1)]);
        assert_eq!(router.find(Some("x"), "/other"), None);
        assert_eq!(strip_port("[::1]:80"), "[::1]");
        assert_eq!(strip_port("example.com"), "example.com");
    }
}
