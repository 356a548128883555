use super::*;

fn prefix(path: &str) -> PathMatch {
    PathMatch::Prefix(path.to_string())
}

fn regex(pattern: &str, nocase: bool) -> PathMatch {
    PathMatch::Regex(PathRegex::new(pattern, nocase).expect("a valid regex"))
}

fn route<T>(host: Option<&str>, path: PathMatch, target: T) -> Entry<T> {
    Entry {
        host: host.map(str::to_string),
        listeners: Listeners::Any,
        path,
        internal: false,
        slash_redirect: false,
        target,
    }
}

const PLAIN: Listener = Listener {
    addr: SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), 80),
    tls: false,
    port: 80,
};
const TLS: Listener = Listener {
    addr: SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), 443),
    tls: true,
    port: 443,
};

/// A client lookup on the plain listener.
fn find<'r, T>(router: &'r Router<T>, host: Option<&str>, path: &str) -> Option<&'r T> {
    find_on(router, PLAIN, host, path)
}

fn find_on<'r, T>(
    router: &'r Router<T>,
    listener: Listener,
    host: Option<&str>,
    path: &str,
) -> Option<&'r T> {
    router.find(&Lookup {
        listener,
        host,
        path,
        internal: false,
    })
}

#[test]
fn longest_prefix_wins_and_host_specific_routes_come_first() {
    let router = Router::new([
        route(None, prefix("/"), "root"),
        route(None, prefix("/api/"), "api"),
        route(None, prefix("/api/v2/"), "v2"),
        route(Some("Admin.Example"), prefix("/"), "admin"),
    ]);
    assert_eq!(find(&router, Some("x"), "/"), Some(&"root"));
    assert_eq!(find(&router, Some("x"), "/api/users"), Some(&"api"));
    assert_eq!(find(&router, Some("x"), "/api/v2/users"), Some(&"v2"));
    assert_eq!(
        find(&router, Some("admin.example:8080"), "/api/"),
        Some(&"admin")
    );
    assert_eq!(find(&router, None, "/api"), Some(&"root"));
}

#[test]
fn no_match_gives_none() {
    let router = Router::new([route(None, prefix("/api/"), 1)]);
    assert_eq!(find(&router, Some("x"), "/other"), None);
    assert_eq!(strip_port("[::1]:80"), "[::1]");
    assert_eq!(strip_port("example.com"), "example.com");
}

#[test]
fn an_exact_match_wins_over_every_prefix_and_matches_nothing_else() {
    // nginx: `location = /` answers `/` alone; `/x` goes to the longest prefix.
    let router = Router::new([
        route(None, prefix("/"), "prefix root"),
        route(None, PathMatch::Exact("/".to_string()), "exact root"),
        route(None, prefix("/login/"), "login prefix"),
        route(None, PathMatch::Exact("/login".to_string()), "exact login"),
    ]);
    assert_eq!(find(&router, Some("x"), "/"), Some(&"exact root"));
    assert_eq!(
        find(&router, Some("x"), "/index.html"),
        Some(&"prefix root")
    );
    assert_eq!(find(&router, Some("x"), "/login"), Some(&"exact login"));
    assert_eq!(find(&router, Some("x"), "/login/"), Some(&"login prefix"));
    assert_eq!(find(&router, Some("x"), "/loginx"), Some(&"prefix root"));
}

#[test]
fn a_host_specific_prefix_wins_over_a_host_less_exact_match() {
    // nginx picks the server (by host) before any location.
    let router = Router::new([
        route(None, PathMatch::Exact("/health".to_string()), "any host"),
        route(Some("api.example"), prefix("/"), "api"),
    ]);
    assert_eq!(find(&router, Some("api.example"), "/health"), Some(&"api"));
    assert_eq!(find(&router, Some("other"), "/health"), Some(&"any host"));
    assert_eq!(find(&router, Some("other"), "/healthz"), None);
}

#[test]
fn a_regex_wins_over_the_longest_prefix_unless_that_prefix_stops_the_search() {
    // nginx: `location /static/` loses to `location ~ \.php$`; `location ^~ /media/` does not.
    let router = Router::new([
        route(None, prefix("/"), "root"),
        route(None, prefix("/static/"), "static"),
        route(None, PathMatch::PrefixStop("/media/".to_string()), "media"),
        route(None, regex(r"\.php$", false), "php"),
        route(None, regex(r"\.(png|jpg)$", true), "images"),
        route(
            None,
            regex(r"\.PNG$", false),
            "never: an earlier regex matches first",
        ),
        route(None, PathMatch::Exact("/index.php".to_string()), "exact"),
    ]);
    assert_eq!(find(&router, None, "/static/app.css"), Some(&"static"));
    assert_eq!(find(&router, None, "/static/x.php"), Some(&"php"));
    assert_eq!(find(&router, None, "/media/x.php"), Some(&"media"));
    assert_eq!(find(&router, None, "/index.php"), Some(&"exact"));
    assert_eq!(find(&router, None, "/a/B.PNG"), Some(&"images"));
    assert_eq!(find(&router, None, "/a/b.Php"), Some(&"root"));
}

#[test]
fn a_shorter_stop_prefix_does_not_stop_the_search_when_a_longer_prefix_matches() {
    // nginx remembers the longest prefix; only when that one is `^~` are regexes skipped.
    let router = Router::new([
        route(None, PathMatch::PrefixStop("/a/".to_string()), "stop"),
        route(None, prefix("/a/b/"), "longer"),
        route(None, regex(r"\.txt$", false), "regex"),
    ]);
    assert_eq!(find(&router, None, "/a/x.txt"), Some(&"stop"));
    assert_eq!(find(&router, None, "/a/b/x.txt"), Some(&"regex"));
    assert_eq!(find(&router, None, "/a/b/x"), Some(&"longer"));
}

#[test]
fn hosts_match_exactly_then_by_the_longest_leading_then_trailing_wildcard() {
    let router = Router::new([
        route(None, prefix("/"), "default"),
        route(Some("*.example.com"), prefix("/"), "any sub"),
        route(Some("*.api.example.com"), prefix("/"), "api sub"),
        route(Some("www.example.*"), prefix("/"), "www any tld"),
        route(Some("www.example.com"), prefix("/"), "exact"),
    ]);
    assert_eq!(find(&router, Some("www.example.com"), "/"), Some(&"exact"));
    assert_eq!(find(&router, Some("a.example.com"), "/"), Some(&"any sub"));
    assert_eq!(
        find(&router, Some("v1.API.example.com"), "/"),
        Some(&"api sub")
    );
    assert_eq!(
        find(&router, Some("www.example.org"), "/"),
        Some(&"www any tld")
    );
    // `*.example.com` does not match `example.com` itself, as nginx.
    assert_eq!(find(&router, Some("example.com"), "/"), Some(&"default"));
}

#[test]
fn routes_bound_to_listeners_answer_only_there() {
    let tls_only = Entry {
        listeners: Listeners::Tls(true),
        ..route(Some("app.example"), prefix("/"), "app on tls")
    };
    let by_addr = Entry {
        listeners: Listeners::Addrs(vec![PLAIN.addr]),
        ..route(None, prefix("/"), "plain default")
    };
    let router = Router::new([tls_only, by_addr]);
    assert_eq!(
        find_on(&router, TLS, Some("app.example"), "/"),
        Some(&"app on tls")
    );
    assert_eq!(
        find_on(&router, PLAIN, Some("app.example"), "/"),
        Some(&"plain default")
    );
    assert_eq!(find_on(&router, TLS, Some("other"), "/"), None);
}

#[test]
fn an_internal_route_is_found_only_by_internal_lookups() {
    let router = Router::new([
        route(None, prefix("/"), "public"),
        Entry {
            internal: true,
            ..route(None, prefix("/protected/"), "internal")
        },
    ]);
    assert_eq!(find(&router, None, "/protected/a"), None);
    let internal = Lookup {
        listener: PLAIN,
        host: None,
        path: "/protected/a",
        internal: true,
    };
    assert_eq!(router.find(&internal), Some(&"internal"));
    assert_eq!(find(&router, None, "/other"), Some(&"public"));
}

#[test]
fn of_two_routes_for_one_path_the_one_bound_to_the_listener_wins() {
    let bound = |path: PathMatch, target| Entry {
        listeners: Listeners::Tls(true),
        ..route(None, path, target)
    };
    let router = Router::new([
        route(None, prefix("/"), "prefix anywhere"),
        route(None, PathMatch::Exact("/x".to_string()), "exact anywhere"),
        bound(prefix("/"), "prefix on tls"),
        bound(PathMatch::Exact("/x".to_string()), "exact on tls"),
    ]);
    assert_eq!(find_on(&router, TLS, None, "/x"), Some(&"exact on tls"));
    assert_eq!(find_on(&router, TLS, None, "/y"), Some(&"prefix on tls"));
    assert_eq!(find_on(&router, PLAIN, None, "/x"), Some(&"exact anywhere"));
    assert_eq!(
        find_on(&router, PLAIN, None, "/y"),
        Some(&"prefix anywhere")
    );
}
