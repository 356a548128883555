//! nginx directives -> weir tables. Walks the config once, as nginx reads it (main, `events`,
//! `http`, `upstream`, `server`, `location`), carrying the settings a `location` inherits from
//! the levels above it, and says for every directive what became of it.
//!
//! weir's model is flatter than nginx's: a route answers on every listener unless its `scheme`
//! binds it to the TLS or the plain ones (written when a server block listened on one kind of
//! socket only and `[tls]` is written), one `[server]`,
//! compression and real-IP settings for the whole gateway, time-outs per upstream rather than per
//! location, and `burst` per limit rather than per `limit_req`. Where nginx says different things
//! at different places, the first (or, for body sizes, the largest) wins and the report says so.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::parse::{Directive, Include, Loaded, Source};
use crate::report::{Item, Kind, Report};
use crate::toml_out::{self, Table};
use crate::Import;

mod auth_request;
mod cache;
mod constants;
mod geo;
mod headers;
mod lookahead;
mod maps;
mod pages;
mod text;
mod type_map;

use headers::{RequestHeader, Rules};

pub fn translate(loaded: &Loaded) -> Import {
    // A file of `server` blocks (a sites-available file) is meant to be included inside `http`:
    // read it as nginx reads it there, not as a main context with nothing in it.
    let implied = implied_http(&loaded.directives);
    let directives = implied.as_deref().unwrap_or(&loaded.directives);
    // What is the same for every request of a server (`$server_name`, a `set` that a
    // `proxy_pass` names), written in as text.
    let constants = constants::written_in(directives);
    let directives = constants
        .as_ref()
        .map_or(directives, |(written, _)| written);
    let mut translator = Translator {
        server: Table::new("[server]"),
        tls: Table::new("[tls]"),
        conf_dir: loaded.conf_dir.clone(),
        auth_variables: std::rc::Rc::new(auth_request::Variables::of(directives)),
        asks: asks(directives),
        ..Translator::default()
    };
    translator.includes(&loaded.includes);
    let mut main = Scope {
        conf_dir: loaded.conf_dir.as_deref(),
        auth_variables: std::rc::Rc::clone(&translator.auth_variables),
        ..Scope::default()
    };
    // Main-context settings that other levels read (worker_processes) come first.
    for directive in directives {
        if directive.name == "worker_processes" {
            translator.worker_processes(directive);
        }
    }
    for directive in directives {
        translator.main(directive, &mut main);
    }
    for written in constants.iter().flat_map(|(_, written)| written) {
        translator.translated(&written.directive, written.note.clone());
    }
    let import = translator.finish(directives);
    // The next config translated on this thread carries its own maps.
    text::carry(Vec::new());
    import
}

/// The names of a `server` block's `server_name`s.
fn server_names(server: Option<&Directive>) -> Vec<String> {
    server
        .and_then(|server| server.block.as_deref())
        .unwrap_or_default()
        .iter()
        .filter(|inner| inner.name == "server_name")
        .flat_map(|inner| inner.args.iter().cloned())
        .filter(|name| !name.is_empty() && name != "_")
        .collect()
}

/// Whether some `auth_request` other than `off` is in `directives` (at any depth).
fn asks(directives: &[Directive]) -> bool {
    directives.iter().any(|directive| {
        (directive.name == "auth_request" && directive.args.first().is_some_and(|arg| arg != "off"))
            || directive.block.as_deref().is_some_and(asks)
    })
}

/// Directives that nginx allows only inside `http` (or deeper): a file that starts with them and
/// has no `http` of its own is the inside of an `http` block.
const HTTP_ONLY: &[&str] = &[
    "server",
    "upstream",
    "map",
    "limit_req_zone",
    "limit_conn_zone",
    "log_format",
    "geo",
];

/// The file's directives wrapped in an `http` block (written at line 0 of the first file), when
/// the file is a sites-available file: no `http`, and some directive that only `http` allows.
fn implied_http(directives: &[Directive]) -> Option<Vec<Directive>> {
    let has_http = directives.iter().any(|directive| directive.name == "http");
    let http_only = directives
        .iter()
        .any(|directive| HTTP_ONLY.contains(&directive.name.as_str()));
    if has_http || !http_only {
        return None;
    }
    let first = directives.first()?;
    Some(vec![Directive {
        name: "http".into(),
        args: Vec::new(),
        block: Some(directives.to_vec()),
        source: Source {
            file: first.source.file.clone(),
            line: 0,
        },
    }])
}

/// What a `location` inherits from `http` and `server` (and an enclosing `location`).
#[derive(Clone, Default)]
struct Scope<'a> {
    connect_timeout: Option<&'a Directive>,
    read_timeout: Option<&'a Directive>,
    send_timeout: Option<&'a Directive>,
    proxy_buffering: Option<&'a Directive>,
    proxy_request_buffering: Option<&'a Directive>,
    limit_rate: Option<&'a Directive>,
    limit_rate_after: Option<&'a Directive>,
    /// `proxy_cache` and its `proxy_cache_valid`, `proxy_cache_bypass`, `proxy_no_cache`.
    cache: cache::CacheScope<'a>,
    limit_req: Vec<&'a Directive>,
    limit_req_status: Option<&'a Directive>,
    limit_req_dry_run: Option<&'a Directive>,
    limit_conn: Vec<&'a Directive>,
    limit_conn_status: Option<&'a Directive>,
    limit_conn_dry_run: Option<&'a Directive>,
    /// The `default_type` in force: a `return CODE "text"`'s type.
    default_type: Option<&'a Directive>,
    root: Option<&'a Directive>,
    /// The server block's `listen` has `ssl`.
    ssl: bool,
    /// Every socket of the server block is TLS: nginx never serves it on plain HTTP.
    tls_only: bool,
    /// No socket of the server it is in is TLS: nginx serves it over plain HTTP only.
    plain_only: bool,
    /// The server's sockets weir will listen on, and those it is nginx's default server of.
    sockets: ServerSockets,
    /// The server block being read.
    server: Option<&'a Directive>,
    /// The `proxy_set_header`s in force: a level with any of its own replaces the inherited.
    proxy_set_header: Vec<&'a Directive>,
    /// The `add_header`s in force, inherited the same way.
    add_header: Vec<&'a Directive>,
    /// The `proxy_hide_header`s in force, inherited the same way.
    proxy_hide_header: Vec<&'a Directive>,
    /// The `proxy_redirect`s in force, inherited the same way (none: nginx's `default`).
    proxy_redirect: Vec<&'a Directive>,
    /// The `allow`s and `deny`s in force, in order, inherited the same way.
    access: Vec<&'a Directive>,
    /// The `auth_basic` and `auth_basic_user_file` in force (each level's replaces the one above,
    /// each on its own, as nginx merges them).
    auth_basic: Option<&'a Directive>,
    auth_basic_user_file: Option<&'a Directive>,
    /// The `satisfy` in force (one level's replaces the one above).
    satisfy: Option<&'a Directive>,
    /// nginx's configuration directory, which a relative `auth_basic_user_file` is taken from.
    conf_dir: Option<&'a std::path::Path>,
    /// The `expires` in force (one level's replaces the one above).
    expires: Option<&'a Directive>,
    /// The `http` block's maps of `$sent_http_content_type`, which `add_header` and `expires`
    /// values may name.
    type_maps: std::rc::Rc<headers::TypeMaps>,
    /// The `charset` and `charset_types` in force (each level's replaces the one above, each on
    /// its own).
    charset: Option<&'a Directive>,
    charset_types: Option<&'a Directive>,
    /// The `proxy_cookie_flags` in force, and a `proxy_cookie_path` that flags cookies (each
    /// level's replaces the one above, each on its own).
    cookie_flags: Option<&'a Directive>,
    cookie_path: Option<&'a Directive>,
    /// The method guards in force: a server's and a location's `if ($request_method !~ ...)
    /// { return 405; }` (both apply) and a location's `limit_except ... { deny all; }`.
    method_guards: Vec<&'a Directive>,
    /// The first `if ($request_method = OPTIONS) { ... return 204; }` in force (a server's
    /// answers before its locations').
    options_answer: Option<&'a Directive>,
    /// The header guards in force: a server's and a location's `if ($http_NAME ~* RE) { return
    /// 403; }` (both apply, the server's first).
    header_guards: Vec<&'a Directive>,
    /// The `auth_request` in force (one level's replaces the one above), and the
    /// `auth_request_set`s (a level with any of its own replaces the inherited).
    auth_request: Option<&'a Directive>,
    auth_request_set: Vec<&'a Directive>,
    /// The `valid_referers` in force (one level's replaces the one above), which `if
    /// ($invalid_referer)` reads.
    valid_referers: Option<&'a Directive>,
    /// The `http` block's `geo` maps, and the `if ($var) { return 403; }`s on them in force (a
    /// server's and a location's both apply).
    geo_maps: std::rc::Rc<geo::GeoMaps>,
    geo_guards: Vec<&'a Directive>,
    /// Every `auth_request_set` variable of the config: where none is in force, nginx's is
    /// empty.
    auth_variables: std::rc::Rc<auth_request::Variables>,
    /// The `error_page`s in force, inherited the same way.
    error_page: Vec<&'a Directive>,
    proxy_intercept_errors: Option<&'a Directive>,
    /// The `root` in force at the server block (its own, else `http`'s): where an error page's
    /// file is when no location of the server serves it.
    server_root: Option<&'a Directive>,
    ssl_certificate: Option<&'a Directive>,
    ssl_certificate_key: Option<&'a Directive>,
}

/// What a route leads to.
#[derive(Debug, Clone, PartialEq)]
enum RouteTarget {
    Upstream(String),
    Static(String),
    Redirect {
        status: u16,
        url: String,
    },
    /// `return CODE` (`None`), or `return CODE "text"`: the body and its type.
    Status(u16, Option<(String, String)>),
}

/// The sockets of a `server` block that weir will listen on (its TLS ones only when `[tls]` is
/// written), and those of them it is nginx's default server of: in nginx a `server` answers
/// only on its own `listen` sockets, and the default server of each socket answers the hosts no
/// server of that socket names.
#[derive(Debug, Clone, Default, PartialEq)]
struct ServerSockets {
    all: Vec<String>,
    default_of: Vec<String>,
}

impl ServerSockets {
    /// The sockets a route for `host` answers on: every socket of its server for a named host,
    /// the sockets it is the default server of for a host-less route.
    fn of(&self, host: Option<&str>) -> &[String] {
        if host.is_some() {
            &self.all
        } else {
            &self.default_of
        }
    }
}

/// How a route's `path` is compared with the request path: weir's `match`, nginx's location
/// modifier. nginx checks `=`, then the longest prefix (stopping there when it is `^~`), then the
/// regexes in config order, and so does weir: a route needs only its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathMatch {
    /// `location /p`.
    Prefix,
    /// `location = /p`.
    Exact,
    /// `location ^~ /p`.
    PrefixStop,
    /// `location ~ REGEX`.
    Regex,
    /// `location ~* REGEX`.
    RegexNocase,
}

impl PathMatch {
    /// The value of the route's `match` key; `None` for the default, a prefix.
    fn key(self) -> Option<&'static str> {
        match self {
            PathMatch::Prefix => None,
            PathMatch::Exact => Some("exact"),
            PathMatch::PrefixStop => Some("prefix_stop"),
            PathMatch::Regex => Some("regex"),
            PathMatch::RegexNocase => Some("regex_nocase"),
        }
    }

    fn is_regex(self) -> bool {
        matches!(self, PathMatch::Regex | PathMatch::RegexNocase)
    }

    /// Routes of one host and path collide when their kinds share a slot: weir takes a path once
    /// as a prefix or `prefix_stop`, once exact, once as each kind of regex.
    fn slot(self) -> PathMatch {
        match self {
            PathMatch::PrefixStop => PathMatch::Prefix,
            other => other,
        }
    }
}

#[derive(Debug, Clone)]
struct Route {
    host: Option<String>,
    path: String,
    path_match: PathMatch,
    target: RouteTarget,
    /// The directive the target came from (`proxy_pass`, `root`, `return`).
    target_source: Source,
    /// The `location` (or `server`) the route stands for.
    source: Source,
    limits: Vec<(String, Source)>,
    /// `connection_limits`: the `[connection_limits.NAME]` of the `limit_conn`s in force.
    connection_limits: Vec<(String, Source)>,
    request_buffering: Option<(bool, Source)>,
    response_buffering: Option<(bool, Source)>,
    /// `limit_rate` / `limit_rate_after` in force (see [`RouteLimitRate::of`]).
    limit_rate: Option<RouteLimitRate>,
    /// `cache` / `cache_pass_cookies`, from the `proxy_cache` in force on a proxied route.
    cache: Option<cache::RouteCache>,
    /// The Host nginx sends upstream when no `proxy_set_header Host` is in force
    /// (`$proxy_host`), with the `proxy_pass` it comes from.
    upstream_host: Option<(String, Source)>,
    from_ssl: bool,
    /// The server it came from listens on TLS sockets only.
    tls_only: bool,
    /// The server it came from listens on plain sockets only.
    plain_only: bool,
    /// The sockets of the server it came from.
    sockets: ServerSockets,
    /// The server it came from.
    server: Option<Source>,
    /// Why a `status` route answers what it does, when the config does not say it.
    remark: Option<String>,
    /// Header and access rules from the directives in force.
    rules: Rules,
    /// The location's `internal`: clients get 404, an upstream's `X-Accel-Redirect` reaches it.
    internal: Option<Source>,
    /// A static route's `fallback_upstream` / `fallback_file`, from its `try_files`.
    fallback: Option<(StaticFallback, Source)>,
    /// A static route's `try_suffixes`, from its `try_files $uri $uri.html ...`.
    try_suffixes: Option<(Vec<String>, Source)>,
    /// Its own `read_timeout`, where the `proxy_read_timeout` in force differs from its
    /// upstream's (see [`Translator::upstream_timeouts`]).
    read_timeout: Option<(String, Source)>,
    /// `upstream_path`: the URI part of the location's `proxy_pass`, which replaces its path.
    upstream_path: Option<String>,
    /// `location_rewrites`, from the `proxy_redirect`s in force (or nginx's default): prefix,
    /// replacement, and where it comes from.
    location_rewrites: Vec<(String, String, Source)>,
}

/// A server-level `try_files`, for the whole-server static route.
struct ServerFallback {
    fallback: (StaticFallback, Source),
    /// Without `$uri/`: the exact `/` goes to this upstream (from this `proxy_pass`).
    home: Option<(String, Source)>,
    /// The Host nginx sends the app (`$proxy_host`), when no `proxy_set_header Host` is in force.
    upstream_host: Option<(String, Source)>,
}

/// What a static route does with a missing file (nginx `try_files`' last argument).
#[derive(Debug, Clone, PartialEq)]
enum StaticFallback {
    /// `fallback_upstream`: `try_files $uri @app` with `location @app { proxy_pass ...; }`.
    Upstream(String),
    /// `fallback_file`: `try_files $uri /index.html`.
    File(String),
}

impl Route {
    /// A route for all of a server (`path = "/"`), as a server-level `return` or `root` or
    /// certbot's `if ($host = ...)` makes: nothing of a location's settings.
    fn whole_server(
        scope: &Scope,
        host: Option<String>,
        target: RouteTarget,
        target_source: Source,
        source: Source,
    ) -> Route {
        Route {
            host,
            path: "/".into(),
            path_match: PathMatch::Prefix,
            target_source,
            source,
            limits: Vec::new(),
            connection_limits: Vec::new(),
            request_buffering: None,
            response_buffering: None,
            limit_rate: RouteLimitRate::of(scope),
            cache: None,
            upstream_host: None,
            from_ssl: scope.ssl,
            tls_only: scope.tls_only,
            plain_only: scope.plain_only,
            sockets: scope.sockets.clone(),
            server: scope.server.map(|server| server.source.clone()),
            remark: None,
            // A server-level `return` (or certbot's `if`) answers before allow/deny run.
            rules: Rules::of(
                scope,
                false,
                matches!(
                    target,
                    RouteTarget::Redirect { .. } | RouteTarget::Status(..)
                ),
            ),
            target,
            internal: None,
            fallback: None,
            try_suffixes: None,
            read_timeout: None,
            upstream_path: None,
            location_rewrites: Vec::new(),
        }
    }
}

/// An `[upstreams.NAME]` being built.
#[derive(Debug, Default)]
struct UpstreamOut {
    table: Option<Table>,
    /// The first route's time-outs, per key, to compare later routes with: value and source
    /// (`None` for nginx's default of 60s).
    timeouts: HashMap<&'static str, (String, Option<Source>)>,
}

/// A `limit_conn_zone`: what each `[connection_limits.NAME]` made of it takes.
#[derive(Debug)]
struct ConnZone {
    /// The weir name of its first table.
    name: String,
    key: String,
    max_keys: Option<u64>,
    source: Source,
    comment: String,
    /// Its tables, by `(connections, status, dry_run)`: one per distinct `limit_conn`.
    tables: Vec<((u32, String, bool), String)>,
    /// The networks its allowlist leaves out.
    exempt: Vec<String>,
}

/// A `[limits.NAME]` being built.
#[derive(Debug)]
struct LimitOut {
    table: Table,
    /// The first `limit_req` using the zone fixes burst and delay.
    used_by: Option<Source>,
    /// `limit_req_status` / `limit_req_dry_run` of the first use.
    status_set: Option<String>,
}

#[derive(Default)]
struct Translator<'a> {
    /// nginx's configuration directory ([`Loaded::conf_dir`]).
    conf_dir: Option<std::path::PathBuf>,
    /// The `http` block's maps of `$sent_http_content_type` ([`Scope::type_maps`]).
    type_maps: std::rc::Rc<headers::TypeMaps>,
    /// The `http` block's `geo` maps ([`Scope::geo_maps`]).
    geo_maps: std::rc::Rc<geo::GeoMaps>,
    /// The `http` block's `map`s, by the variable each sets (without `$`).
    maps: HashMap<String, &'a Directive>,
    /// The http block's maps that header values name, as `[maps.NAME]`, or why not.
    value_maps: Vec<(String, Result<maps::ValueMap, String>, &'a Directive)>,
    /// The `geo` and `map` blocks of an allowlist a limit's `exempt` carries, with their note.
    allowlisted: HashMap<*const Directive, String>,
    /// The `server` block being read (its named locations make an `error_page`'s sign-in).
    current_server: Option<&'a Directive>,
    /// The config's `auth_request_set` variables, and those a `proxy_set_header` sends.
    auth_variables: std::rc::Rc<auth_request::Variables>,
    /// Some `auth_request` (not `off`) is in the config.
    asks: bool,
    items: Vec<Item>,
    accounted: HashSet<*const Directive>,
    server: Table,
    upstreams: BTreeMap<String, UpstreamOut>,
    /// nginx upstream name -> weir upstream name.
    upstream_names: HashMap<String, String>,
    limits: BTreeMap<String, LimitOut>,
    /// `limit_conn_zone`s by nginx name, and the `[connection_limits.NAME]` tables made of them.
    conn_zones: HashMap<String, ConnZone>,
    conn_limits: BTreeMap<String, Table>,
    /// nginx zone name -> weir limit name.
    zone_names: HashMap<String, String>,
    routes: Vec<Route>,
    /// The routes of the server's locations' redirecting `rewrite`s, added after its locations'
    /// (see [`Translator::location_rewrites`]).
    rewrite_routes: Vec<Route>,
    compression: Option<Table>,
    compression_source: Option<Source>,
    gzip_proxied_any: bool,
    access_log: Option<Table>,
    log_formats: HashMap<String, &'a Directive>,
    listens: Vec<(String, Source)>,
    trusted_proxies: Vec<(String, Source)>,
    real_ip_header: Option<Source>,
    real_ip_recursive: Option<&'a Directive>,
    worker_processes: Option<u64>,
    /// The largest `client_max_body_size`, with where it was written.
    max_body_size: Option<(u64, String, Source)>,
    /// `[server]` keys set once, for conflicts: key -> (value, source).
    server_keys: HashMap<&'static str, (String, Source)>,
    /// `location @name` blocks of the server being read.
    named_locations: HashMap<String, &'a Directive>,
    server_count: usize,
    /// Host names per socket (nginx checks `server_name` conflicts per address and port only)
    /// and the server that has them first.
    claimed_names: HashMap<(String, String), Source>,
    /// The TLS sockets of the `http` block (see [`tls_sockets`]).
    tls_sockets: HashSet<String>,
    /// Items that put something in `[tls]`: untrue if no `[tls]` is written.
    tls_items: Vec<Source>,
    /// What the weir config no longer does that nginx did to protect the app.
    less_safe: Vec<Item>,
    /// `include`s whose file was not found: what they set is unknown.
    missing_includes: Vec<Source>,
    /// Which `server` of the `http` block (counted from 1) answers hosts no server names, when
    /// none of its sockets is one weir listens on (a TLS server without `[tls]`).
    default_server: usize,
    /// Each socket weir will listen on (the TLS ones only when a certificate pair is there),
    /// with its default server (counted from 1).
    socket_defaults: HashMap<String, usize>,
    /// `[tls]`: the TLS sockets (with every `listen` of each), and the keys other `ssl_*`
    /// directives set.
    tls_listens: Vec<(String, Vec<Source>, String)>,
    tls: Table,
    /// `[[tls.certificates]]`: (cert, key, where the pair was written).
    certificates: Vec<(String, String, Source)>,
    /// Header and access directives whose item says routes carry them (see `header_rule`).
    rule_directives: Vec<&'a Directive>,
    /// `add_header Strict-Transport-Security max-age=...`: `[tls] hsts`, or on the routes when
    /// no `[tls]` is written.
    hsts: Vec<&'a Directive>,
}

impl<'a> Translator<'a> {
    fn item(&mut self, kind: Kind, directive: &Directive, note: impl Into<String>) {
        self.accounted.insert(directive as *const Directive);
        self.items.push(Item {
            kind,
            sources: vec![directive.source.clone()],
            directive: shorten(&directive.summary()),
            note: note.into(),
        });
    }

    /// Adds `directive` to the less-safe part, in the part its last item is in.
    fn less_safe(&mut self, directive: &Directive, note: impl Into<String>) {
        let kind = self
            .items
            .iter()
            .rev()
            .find(|item| item.sources.first() == Some(&directive.source))
            .map_or(Kind::Unsupported, |item| item.kind);
        self.less_safe_item(
            kind,
            vec![directive.source.clone()],
            shorten(&directive.summary()),
            note.into(),
        );
    }

    fn less_safe_item(
        &mut self,
        kind: Kind,
        sources: Vec<Source>,
        directive: String,
        note: String,
    ) {
        let known = self
            .less_safe
            .iter()
            .any(|item| item.sources.first() == sources.first() && item.directive == directive);
        if !known {
            self.less_safe.push(Item {
                kind,
                sources,
                directive,
                note,
            });
        }
    }

    /// For a block left out whole (a regex location, an `if`): the guards that went with it.
    fn less_safe_if_guards(&mut self, directive: &Directive) {
        let mut found = Vec::new();
        guards(directive.block.as_deref().unwrap_or_default(), &mut found);
        if !found.is_empty() {
            found.dedup();
            self.less_safe(
                directive,
                format!(
                    "left out with the guard it held ({}): what it refused or limited is now served",
                    found.join(", ")
                ),
            );
        }
    }

    fn translated(&mut self, directive: &Directive, note: impl Into<String>) {
        self.item(Kind::Translated, directive, note);
    }

    fn approximated(&mut self, directive: &Directive, note: impl Into<String>) {
        self.item(Kind::Approximated, directive, note);
    }

    fn unsupported(&mut self, directive: &Directive, note: impl Into<String>) {
        self.item(Kind::Unsupported, directive, note);
    }

    /// Accounts for every directive inside `directive`'s block with `directive`'s own item (the
    /// last one made for it): they share its fate, as the inside of an `if` or a regex location.
    fn account_block(&mut self, directive: &Directive) {
        let mut inner_sources = Vec::new();
        self.mark_inner(directive, &mut inner_sources);
        let item = self
            .items
            .iter_mut()
            .rev()
            .find(|item| item.sources.first() == Some(&directive.source));
        if let Some(item) = item {
            for source in inner_sources {
                if !item.sources.contains(&source) {
                    item.sources.push(source);
                }
            }
        }
    }

    fn mark_inner(&mut self, directive: &Directive, sources: &mut Vec<Source>) {
        for inner in directive.block.iter().flatten() {
            self.accounted.insert(inner as *const Directive);
            sources.push(inner.source.clone());
            self.mark_inner(inner, sources);
        }
    }

    fn includes(&mut self, includes: &[Include]) {
        for include in includes {
            let pattern = include.directive.args.first().cloned().unwrap_or_default();
            let kind_and_note = if pattern.ends_with("mime.types") {
                (
                    Kind::Translated,
                    "weir has the MIME types built in for static routes".to_string(),
                )
            } else if include.stock {
                (
                    Kind::Approximated,
                    "file not found: read as nginx's Debian and Ubuntu packages ship it (Host $http_host, X-Real-IP, X-Forwarded-For, X-Forwarded-Proto); run weir import where the file is if yours differs".to_string(),
                )
            } else if let [file] = include.files.as_slice() {
                (
                    Kind::Translated,
                    format!(
                        "read 1 file ({}); its directives are listed one by one",
                        file.display()
                    ),
                )
            } else if !include.files.is_empty() {
                (
                    Kind::Translated,
                    format!(
                        "read {} files; their directives are listed one by one",
                        include.files.len()
                    ),
                )
            } else if pattern.contains(['*', '?', '[']) {
                (
                    Kind::Translated,
                    "the glob matches no file (nginx reads none either)".to_string(),
                )
            } else {
                self.missing_includes.push(include.directive.source.clone());
                (
                    Kind::Unsupported,
                    "file not found: its directives are not imported (run weir import where the file is)".to_string(),
                )
            };
            self.items.push(Item {
                kind: kind_and_note.0,
                sources: vec![include.directive.source.clone()],
                directive: shorten(&include.directive.summary()),
                note: kind_and_note.1,
            });
        }
    }

    /// Sets a `[server]` key once; a later different value is reported as approximated.
    fn server_key(&mut self, key: &'static str, value: String, directive: &Directive, note: &str) {
        match self.server_keys.get(key) {
            Some((first, _)) if *first == value => {
                self.translated(directive, format!("[server] {key} = {value} (as above)"));
            }
            Some((first, source)) => {
                let (first, source) = (first.clone(), source.clone());
                self.approximated(
                    directive,
                    format!("weir has one [server] {key} for every route; {first} from {source} is kept"),
                );
            }
            None => {
                self.server_keys
                    .insert(key, (value.clone(), directive.source.clone()));
                self.server.set(key, value.clone(), Some(&directive.source));
                let note = if note.is_empty() {
                    format!("[server] {key} = {value}")
                } else {
                    format!("[server] {key} = {value} ({note})")
                };
                self.translated(directive, note);
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // main and events
    // -----------------------------------------------------------------------------------------

    fn worker_processes(&mut self, directive: &'a Directive) {
        match directive.args.first().map(String::as_str) {
            Some("auto") => {
                self.translated(
                    directive,
                    "the default: weir runs one thread per core ([server] threads = 0)",
                );
            }
            Some(number) => match number.parse::<u64>() {
                Ok(workers) => {
                    self.worker_processes = Some(workers);
                    self.approximated(
                        directive,
                        format!("weir runs one thread per core, not {workers} worker process(es); [server] threads = N caps it if you must"),
                    );
                }
                Err(_) => self.unsupported(directive, "expected a number or auto"),
            },
            None => self.unsupported(directive, "expected a number or auto"),
        }
    }

    fn main(&mut self, directive: &'a Directive, scope: &mut Scope<'a>) {
        match directive.name.as_str() {
            "worker_processes" => {}
            "events" => {
                self.translated(directive, "read for worker_connections");
                for inner in directive.block.iter().flatten() {
                    self.events(inner);
                }
            }
            "http" => self.http(directive, scope),
            "error_log" => self.error_log(directive),
            "pid" => match directive.args.first().filter(|path| !path.is_empty()) {
                Some(path) => self.server_key(
                    "pid_file",
                    toml_out::string(path),
                    directive,
                    "for weir reload and weir upgrade",
                ),
                None => self.unsupported(directive, "expected a file path"),
            },
            "stream" | "mail" => {
                self.unsupported(directive, "weir proxies HTTP only");
                self.account_block(directive);
            }
            _ => self.simple(directive),
        }
    }

    fn events(&mut self, directive: &'a Directive) {
        match directive.name.as_str() {
            "worker_connections" => {
                match directive.args.first().and_then(|n| n.parse::<u64>().ok()) {
                    Some(connections) => {
                        self.server_key(
                            "max_connections",
                            connections.to_string(),
                            directive,
                            "per thread, as nginx's is per worker",
                        );
                    }
                    None => self.unsupported(directive, "expected a number"),
                }
            }
            "use" | "accept_mutex" | "accept_mutex_delay" | "multi_accept" => {
                self.translated(
                    directive,
                    "not needed: weir's threads share the listeners and always use epoll",
                );
            }
            _ => self.simple(directive),
        }
    }

    fn error_log(&mut self, directive: &Directive) {
        match directive.args.first().map(String::as_str) {
            Some("stderr") => self.translated(directive, "always: weir logs to stderr (WEIR_LOG sets the level)"),
            _ => self.approximated(
                directive,
                "weir logs to stderr (WEIR_LOG sets the level); let the supervisor (systemd, Docker) keep it",
            ),
        }
    }

    // -----------------------------------------------------------------------------------------
    // http
    // -----------------------------------------------------------------------------------------

    fn http(&mut self, directive: &'a Directive, outer: &Scope<'a>) {
        if directive.source.line == 0 {
            self.accounted.insert(directive as *const Directive);
            self.items.push(Item {
                kind: Kind::Translated,
                sources: Vec::new(),
                directive: "(no http block)".into(),
                note: "a file of server blocks: read as the inside of http { }, as nginx reads it when nginx.conf includes it (sites-available)".into(),
            });
        } else {
            self.translated(directive, "its servers, upstreams and settings follow");
        }
        let block = directive.block.as_deref().unwrap_or_default();
        // Definitions first: locations refer to them wherever they are written.
        let mut type_maps = headers::TypeMaps::new();
        let mut geo_maps = geo::GeoMaps::new();
        for inner in block {
            match inner.name.as_str() {
                "geo" => {
                    if let Some(name) = geo::variable(inner) {
                        geo_maps.insert(name.to_string(), geo::parse(inner));
                    }
                }
                "map" => {
                    if let Some(name) = type_map::variable(inner) {
                        type_maps.insert(name.to_string(), type_map::parse(inner));
                    }
                    if let Some(name) = inner.args.get(1).and_then(|name| name.strip_prefix('$')) {
                        self.maps.insert(name.to_string(), inner);
                        if !is_upgrade_map(inner)
                            && type_map::variable(inner).is_none()
                            && maps::named_by_headers(block, name)
                        {
                            self.value_maps
                                .push((name.to_string(), maps::parse(inner), inner));
                        }
                    }
                }
                "log_format" => {
                    if let Some(name) = inner.args.first() {
                        self.log_formats.insert(name.clone(), inner);
                    }
                }
                "upstream" => self.upstream(inner),
                _ => {}
            }
        }
        self.tls_sockets = tls_sockets(block);
        self.default_server = default_server(block, &self.tls_sockets);
        self.socket_defaults = socket_defaults(block, &self.tls_sockets);
        self.type_maps = std::rc::Rc::new(type_maps);
        self.geo_maps = std::rc::Rc::new(geo_maps);
        text::carry(
            self.value_maps
                .iter()
                .filter(|(_, map, _)| map.is_ok())
                .map(|(name, _, _)| name.clone())
                .collect(),
        );
        // After the maps: a zone's key may be an allowlist's.
        for inner in block {
            match inner.name.as_str() {
                "limit_req_zone" => self.limit_req_zone(inner),
                "limit_conn_zone" => self.limit_conn_zone(inner),
                _ => {}
            }
        }
        let mut scope = outer.clone();
        scope.type_maps = self.type_maps.clone();
        scope.geo_maps = self.geo_maps.clone();
        self.absorb(block, &mut scope);
        for inner in block {
            match inner.name.as_str() {
                "upstream" | "limit_req_zone" | "limit_conn_zone" => {}
                "server" => self.server(inner, &scope),
                "log_format" => {
                    self.translated(inner, "read for access_log");
                }
                _ => self.common(inner, "http"),
            }
        }
    }

    /// Settings that are the same in `http`, `server` and `location`.
    fn common(&mut self, directive: &'a Directive, level: &str) {
        match directive.name.as_str() {
            name if name.starts_with("ssl") || name == "http2" => self.ssl(directive),
            "proxy_set_header"
            | "add_header"
            | "proxy_hide_header"
            | "allow"
            | "deny"
            | "error_page"
            | "expires"
            | "charset"
            | "charset_types"
            | "proxy_cookie_flags"
            | "auth_basic"
            | "auth_basic_user_file"
            | "auth_request"
            | "auth_request_set"
            | "satisfy" => self.header_rule(directive),
            "proxy_intercept_errors" if directive.args.first().is_some_and(|arg| arg == "on") => {
                self.header_rule(directive)
            }
            "proxy_cookie_path" if headers::cookie_path_flags(directive).is_some() => {
                self.header_rule(directive)
            }
            "if" | "limit_except" => match headers::method_guard(directive) {
                Some(guard) => self.method_guard(directive, &guard),
                None if headers::options_answer(directive).is_some() => {
                    self.options_answer(directive)
                }
                None if headers::is_referer_if(directive) => self.referer_if(directive),
                None if self.is_geo_if(directive) => self.geo_if(directive),
                None => match headers::header_guard(directive) {
                    Some(Ok(guard)) => self.header_guard(directive, &guard),
                    Some(Err(why)) => {
                        self.unsupported(directive, why);
                        self.account_block(directive);
                        self.less_safe_if_guards(directive);
                    }
                    None => self.simple(directive),
                },
            },
            "valid_referers" => self.valid_referers(directive),
            "client_max_body_size" => self.client_max_body_size(directive),
            "resolver" => self.resolver(directive, level),
            "resolver_timeout" => match directive.args.first().and_then(|arg| duration(arg)) {
                Some(value) => {
                    let note = if level == "http" {
                        ""
                    } else {
                        "weir has one for every route"
                    };
                    self.server_key("resolve_timeout", toml_out::string(&value), directive, note);
                }
                None => self.unsupported(directive, "expected a time such as 5s"),
            },
            "keepalive_timeout" => match directive.args.first().and_then(|arg| duration(arg)) {
                Some(value) => {
                    let note = if directive.args.len() > 1 {
                        "the second value (a Keep-Alive response header) is not sent"
                    } else {
                        ""
                    };
                    self.server_key(
                        "keepalive_timeout",
                        toml_out::string(&value),
                        directive,
                        note,
                    );
                }
                None => self.unsupported(directive, "expected a time such as 65s"),
            },
            "keepalive_requests" if level != "upstream" => {
                match directive.args.first().and_then(|n| n.parse::<u64>().ok()) {
                    Some(0) | None => {
                        self.unsupported(directive, "expected a number of at least 1")
                    }
                    Some(requests) => {
                        self.server_key("keepalive_requests", requests.to_string(), directive, "")
                    }
                }
            }
            "client_body_timeout" | "send_timeout" => {
                let key = if directive.name == "send_timeout" {
                    "send_timeout"
                } else {
                    "body_timeout"
                };
                match directive.args.first().and_then(|arg| duration(arg)) {
                    Some(value) if value != "0s" => {
                        self.server_key(key, toml_out::string(&value), directive, "")
                    }
                    _ => self.unsupported(directive, "expected a time above 0 such as 60s"),
                }
            }
            "underscores_in_headers" => match directive.args.first().map(String::as_str) {
                Some("on") => {
                    self.server_key("underscores_in_headers", "true".into(), directive, "")
                }
                _ => self.translated(
                    directive,
                    "the default: request headers with '_' are dropped",
                ),
            },
            "client_header_timeout" => match directive.args.first().and_then(|arg| duration(arg)) {
                Some(value) if value != "0s" => {
                    self.server_key("header_timeout", toml_out::string(&value), directive, "")
                }
                _ => self.unsupported(directive, "expected a time above 0 such as 60s"),
            },
            "large_client_header_buffers" => {
                let size = directive.args.get(1).and_then(|arg| size(arg));
                match (
                    directive.args.first().and_then(|n| n.parse::<u64>().ok()),
                    size,
                ) {
                    (Some(count), Some(bytes)) => {
                        let total = (count * bytes).max(1024);
                        self.server_key("max_header_size", total.to_string(), directive, "");
                        if let Some(item) = self
                            .items
                            .last_mut()
                            .filter(|item| item.kind == Kind::Translated)
                        {
                            item.kind = Kind::Approximated;
                            item.note = format!(
                                "[server] max_header_size = {total}: weir limits the whole request head; nginx limits each line to {} and the head to {count} of them",
                                directive.args[1]
                            );
                        }
                    }
                    _ => self.unsupported(directive, "expected a count and a size such as 4 8k"),
                }
            }
            "server_tokens" => match directive.args.first().map(String::as_str) {
                Some("off") => {
                    self.translated(directive, "the default: weir adds no Server header")
                }
                _ => self.approximated(
                    directive,
                    "weir adds no Server header of its own; set [server] server_header to send one",
                ),
            },
            "set_real_ip_from" => self.set_real_ip_from(directive),
            "real_ip_header" => self.real_ip_header(directive),
            "real_ip_recursive" => {
                self.real_ip_recursive = Some(directive);
                match directive.args.first().map(String::as_str) {
                    Some("on") => self.translated(directive, "always: weir takes the last untrusted address"),
                    _ => self.approximated(
                        directive,
                        "weir is always recursive (real_ip_recursive on): it skips every trusted address from the right, not only the last",
                    ),
                }
            }
            name if name.starts_with("gzip") => self.gzip(directive),
            "access_log" => self.access_log(directive),
            "error_log" => self.error_log(directive),
            "proxy_connect_timeout" | "proxy_read_timeout" | "proxy_send_timeout" => {
                let key = timeout_key(&directive.name);
                match directive.args.first().and_then(|arg| duration(arg)) {
                    Some(value) if value != "0s" && key == "read_timeout" => self.translated(
                        directive,
                        format!("{key} = {value:?} on the upstream of the first route it applies to; a later route whose upstream has another gets its own"),
                    ),
                    Some(value) if value != "0s" => self.translated(
                        directive,
                        format!("{key} = {value:?} on the upstreams of the routes it applies to (weir has time-outs per upstream)"),
                    ),
                    _ => self.unsupported(directive, "expected a time above 0 such as 60s"),
                }
            }
            "proxy_buffering" | "proxy_request_buffering" => {
                let key = if directive.name == "proxy_buffering" {
                    "response_buffering"
                } else {
                    "request_buffering"
                };
                match directive.args.first().map(String::as_str) {
                    Some("on" | "off") => self.translated(
                        directive,
                        format!("[[routes]] {key} on the routes it applies to"),
                    ),
                    _ => self.unsupported(directive, "expected on or off"),
                }
            }
            // Accounted per route, below.
            "limit_req" | "limit_conn" => {}
            "limit_req_status" | "limit_conn_status" | "limit_req_dry_run"
            | "limit_conn_dry_run" => {
                let tables = if directive.name.starts_with("limit_req") {
                    "limits"
                } else {
                    "connection limits"
                };
                if directive.name.ends_with("dry_run") {
                    self.translated(directive, format!("dry_run on the {tables} it applies to"));
                } else if matches!(
                    directive.args.first().and_then(|n| n.parse::<u16>().ok()),
                    Some(400..=599)
                ) {
                    self.translated(directive, format!("status on the {tables} it applies to"));
                } else {
                    self.unsupported(directive, "expected a status from 400 to 599");
                }
            }
            "limit_req_log_level" => self.approximated(
                directive,
                "weir logs rejections at debug level, at most once a second per limit",
            ),
            "limit_conn_log_level" => self.approximated(
                directive,
                "weir logs refusals at warn level, at most once a second per limit",
            ),
            "root" => self.translated(
                directive,
                "static routes for the locations without proxy_pass",
            ),
            _ => self.simple(directive),
        }
    }

    /// The item of `directive`, as `item` made it.
    fn item_of(&mut self, directive: &Directive) -> Option<&mut Item> {
        let summary = shorten(&directive.summary());
        self.items.iter_mut().find(|item| {
            item.sources.first() == Some(&directive.source) && item.directive == summary
        })
    }

    /// HSTS onto the routes when no `[tls]` is written (else off them: `[tls] hsts` sends it);
    /// then the item of each header or access directive that no kept route carries says why.
    fn header_rules_carried(&mut self, kept: &mut [Route], tls_written: bool) {
        // `[tls] hsts` sends the header on every TLS answer: right only when every route that
        // answers over TLS has it in force. A location with `add_header`s of its own inherits
        // none of the server's (nginx's rule), so there nginx sends no HSTS; then the header
        // stays on the routes that have it.
        let every_tls_route_has_it = kept
            .iter()
            .filter(|route| !route.plain_only)
            .all(|route| route.rules.has_hsts());
        if tls_written && !self.hsts.is_empty() && !every_tls_route_has_it {
            self.tls.entries.retain(|entry| entry.key != "hsts");
            for directive in self.hsts.clone() {
                let Ok(header) = headers::response_header(directive) else {
                    continue;
                };
                if let Some(item) = self.item_of(directive) {
                    item.kind = Kind::Approximated;
                    item.note = format!("{}{PARTIAL_HSTS}", response_note(&header));
                }
                self.rule_directives.push(directive);
            }
        } else if tls_written {
            for route in kept.iter_mut() {
                route.rules.without_hsts();
            }
        } else {
            for directive in self.hsts.clone() {
                let Ok(header) = headers::response_header(directive) else {
                    continue;
                };
                if let Some(item) = self.item_of(directive) {
                    item.kind = Kind::Approximated;
                    item.note = format!("{}{NO_TLS_HSTS}", response_note(&header));
                }
                self.rule_directives.push(directive);
            }
        }
        let mut used: HashSet<*const Directive> = HashSet::new();
        let mut inert: HashMap<*const Directive, &'static str> = HashMap::new();
        let mut duplicates: HashSet<*const Directive> = HashSet::new();
        let mut used_proxied: HashSet<*const Directive> = HashSet::new();
        let mut page_problems: HashMap<*const Directive, String> = HashMap::new();
        for route in kept.iter() {
            page_problems.extend(route.rules.page_problems.iter().cloned());
            used.extend(route.rules.used.iter().copied());
            if matches!(route.target, RouteTarget::Upstream(_)) {
                used_proxied.extend(route.rules.used.iter().copied());
            }
            inert.extend(route.rules.inert.iter().copied());
            duplicates.extend(route.rules.duplicates.iter().copied());
        }
        for directive in self.rule_directives.clone() {
            let pointer = directive as *const Directive;
            if let Some(why) = page_problems.get(&pointer) {
                // Carried where its file was found, left out where it was not.
                let kind = if used.contains(&pointer) {
                    Kind::Approximated
                } else {
                    Kind::Unsupported
                };
                if let Some(item) = self.item_of(directive) {
                    item.kind = kind;
                    item.note = match kind {
                        Kind::Approximated => format!("{}; not on some routes: {why}", item.note),
                        _ => format!("not carried: {why}"),
                    };
                }
                if directive.name == "if" {
                    self.less_safe_if_guards(directive);
                }
                continue;
            }
            if used.contains(&pointer) {
                // On routes that answer themselves only there is no upstream header to add to.
                let header = (directive.name == "add_header")
                    .then(|| headers::response_header(directive).ok())
                    .flatten();
                if let Some(header) = header.filter(|_| !used_proxied.contains(&pointer)) {
                    if let Some(item) = self.item_of(directive) {
                        if item.kind == Kind::Approximated {
                            item.kind = Kind::Translated;
                            let key = if header.always {
                                "response_headers_always"
                            } else {
                                "response_headers"
                            };
                            item.note = format!(
                                "{key} {} = {:?} on the routes it applies to (none proxies){}",
                                header.name,
                                header.value,
                                if header.hsts { NO_TLS_HSTS } else { "" }
                            );
                        }
                    }
                }
                continue;
            }
            let (kind, note) = if let Some(why) = inert.get(&pointer) {
                (Kind::Translated, format!("no effect: {why}"))
            } else if duplicates.contains(&pointer) {
                (
                    Kind::Unsupported,
                    if directive.name == "expires" {
                        "its Cache-Control beside an add_header Cache-Control in force: weir sets one value per header and keeps the add_header's".to_string()
                    } else {
                        format!(
                            "a second {} beside one in force: weir sets one value per header and keeps the first",
                            directive.args.first().map_or("the header", String::as_str)
                        )
                    },
                )
            } else if is_host_name(directive) {
                // A named location's, reached by a fallback: weir passes the client's Host.
                (Kind::Approximated, HOST_AS_SENT.to_string())
            } else {
                (
                    Kind::Unsupported,
                    "applies to no route weir has (the locations it is in force for answer otherwise or were left out)".to_string(),
                )
            };
            if let Some(item) = self.item_of(directive) {
                item.kind = kind;
                item.note = note;
            }
            if let Some(why) = less_safe_reason(directive, kind) {
                self.less_safe_item(
                    kind,
                    vec![directive.source.clone()],
                    shorten(&directive.summary()),
                    why,
                );
            }
            // A guard (`if ($invalid_referer) { return 403; }` whose valid_referers weir cannot
            // carry) that no route carries.
            if directive.name == "if" && kind == Kind::Unsupported {
                self.less_safe_if_guards(directive);
            }
        }
    }

    /// Whether an `error_page 401 = @name` of the server being read sends an auth_request's 401
    /// to the named location `name`, as a sign-in redirect weir carries.
    fn signs_in_at(&self, name: &str) -> bool {
        fn walk(block: &[Directive], name: &str, server: Option<&Directive>) -> bool {
            block.iter().any(|directive| {
                (directive.name == "error_page"
                    && directive.args.last().map(String::as_str) == Some(name)
                    && matches!(
                        auth_request::sign_in(directive, server),
                        Some(Ok(auth_request::SignIn::Redirect(_)))
                    ))
                    || directive
                        .block
                        .as_deref()
                        .is_some_and(|inner| walk(inner, name, server))
            })
        }
        let server = self.current_server;
        walk(
            server
                .and_then(|server| server.block.as_deref())
                .unwrap_or_default(),
            name,
            server,
        )
    }

    /// For `add_header NAME $var` whose `$var` some `auth_request_set` gives of the answer's own
    /// `NAME`: `NAME`.
    fn auth_answer_header(&self, directive: &Directive) -> Option<String> {
        self.auth_variables
            .copied(directive)
            .filter(|(name, header)| name.eq_ignore_ascii_case(header))
            .map(|(name, _)| name)
    }

    /// A header or access directive: its item, said once where it is written; the routes it is in
    /// force for carry it ([`Rules::of`]), and `finish` corrects the item if none does.
    fn header_rule(&mut self, directive: &'a Directive) {
        let name = directive.name.as_str();
        // A value that is a map of the answer's type: `response_headers_by_type`.
        if let Some((kind, note, carried)) = self.typed_rule(directive) {
            return self.rule_item(directive, kind, note, carried);
        }
        let (kind, note, carried) = match name {
            "proxy_set_header" if self.auth_variables.copied(directive).is_some() => {
                let (header, answer) = self.auth_variables.copied(directive).unwrap_or_default();
                (
                    Kind::Translated,
                    format!("auth_request copy_headers {header} = {answer:?} on the proxied routes where an auth_request is in force: the app gets the auth answer's {answer} (the client's own {header} dropped, as nginx's proxy_set_header replaces it); elsewhere request_headers {header} = \"\" (removed), as nginx sends none while the variable is empty"),
                    true,
                )
            }
            "add_header" if self.auth_answer_header(directive).is_some() => {
                let name = self.auth_answer_header(directive).unwrap_or_default();
                (
                    Kind::Translated,
                    format!("auth_request answer_headers += {name:?} on the routes where an auth_request is in force: the client gets the auth answer's {name} (on 2xx and 3xx answers, as add_header without always)"),
                    true,
                )
            }
            "auth_request" if directive.args.first().is_some_and(|arg| arg == "off") => (
                Kind::Translated,
                "the routes it applies to ask no one (no auth_request)".to_string(),
                false,
            ),
            "auth_request" => match auth_request::path(directive) {
                Ok(path) => (
                    Kind::Translated,
                    format!("auth_request = {path:?} on the routes it applies to: a GET of it with the client's headers and no body, routed to its location (internal ones too); 2xx lets the request in, 401 and 403 are the answer, anything else 500"),
                    true,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "auth_request_set" => match auth_request::answer_header(directive) {
                Ok((variable, header))
                    if self.auth_variables.sent.contains(&variable) =>
                {
                    (
                        Kind::Translated,
                        format!("auth_request copy_headers or answer_headers, where a proxy_set_header or an add_header names ${variable} alone: the request header, or the client's answer, gets the auth answer's {header}"),
                        true,
                    )
                }
                Ok((variable, _)) => (
                    Kind::Unsupported,
                    format!("weir copies an auth answer's header onto the request to the app (proxy_set_header NAME ${variable}) or the client's answer (add_header NAME ${variable}, NAME the answer's own); nothing names ${variable} alone"),
                    false,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "proxy_set_header" => match headers::request_header(directive) {
                RequestHeader::Builtin(note) => (Kind::Translated, note.to_string(), false),
                RequestHeader::ProxyHost => (
                    Kind::Translated,
                    "nginx's default: the route's request_headers Host is the proxy_pass's host ($proxy_host)".to_string(),
                    false,
                ),
                RequestHeader::ForwardedForReplace => (
                    Kind::Translated,
                    "forwarded_for = \"replace\" on the proxied routes it applies to: the client's address alone, so a client cannot put addresses before it".to_string(),
                    true,
                ),
                RequestHeader::Set { name, value } => {
                    let what = if value.is_empty() {
                        format!("request_headers {name} = \"\" (removed) on the proxied routes it applies to")
                    } else {
                        format!("request_headers {name} = {value:?} on the proxied routes it applies to")
                    };
                    if value.contains("$server_name") || value.contains("${server_name}") {
                        (
                            Kind::Approximated,
                            format!("{what}; weir's $server_name is the route's host (empty on the default server's routes), nginx's the server block's first name"),
                            true,
                        )
                    } else {
                        (Kind::Translated, what, true)
                    }
                }
                RequestHeader::Unsupported(why) => (Kind::Unsupported, why, false),
            },
            "add_header" => match headers::response_header(directive) {
                Ok(header) if header.hsts => {
                    // [tls] hsts when [tls] is written; `finish` moves it onto the routes if not.
                    self.hsts.push(directive);
                    self.tls
                        .set("hsts", toml_out::string(&header.value), Some(&directive.source));
                    (
                        Kind::Translated,
                        format!("[tls] hsts = {:?} (always: on every response of a TLS listener)", header.value),
                        false,
                    )
                }
                Ok(header) => (Kind::Approximated, response_note(&header), true),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "error_page"
                if self.asks
                    && matches!(auth_request::sign_in(directive, self.current_server), Some(Ok(_))) =>
            {
                (
                    Kind::Translated,
                    "auth_request sign_in on the routes where an auth_request is in force: a 401 from the service sends the client there (the page's route answers it, or a 302 to the named location's URL)".to_string(),
                    true,
                )
            }
            "error_page" => match pages::parse(directive) {
                Ok((statuses, uri)) => {
                    let statuses: Vec<String> = statuses.iter().map(u16::to_string).collect();
                    (
                        Kind::Translated,
                        format!(
                            "error_pages {} = the file nginx serves for {uri}, on the routes it applies to: an error weir answers itself (the app down, a limit, a status route) gets it, with its own status",
                            statuses.join(", ")
                        ),
                        true,
                    )
                }
                Err(why) => (Kind::Unsupported, why, false),
            },
            "expires" => match headers::expires(directive) {
                Ok((headers, _)) if headers.is_empty() => (
                    Kind::Translated,
                    "the default: no Expires or Cache-Control".to_string(),
                    false,
                ),
                Ok(_) => (
                    Kind::Translated,
                    format!(
                        "expires = {:?} on the routes it applies to: Expires and Cache-Control per answer, on 2xx and 3xx answers, replacing the upstream's, as nginx's expires (beside an add_header Cache-Control, that one's value takes the expires' first, as nginx's two fields are one list)",
                        directive.args[0]
                    ),
                    true,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "charset" => match headers::charset(directive) {
                Ok(Some(name)) => (
                    Kind::Translated,
                    format!("charset = {name:?} on the routes it applies to: \"; charset={name}\" added to a Content-Type of text/html or a charset_types type that names no charset"),
                    true,
                ),
                Ok(None) => (
                    Kind::Translated,
                    "the routes it applies to get no charset (the default)".to_string(),
                    false,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "proxy_cookie_flags" => match headers::cookie_flags(directive) {
                Ok(Some(flags)) => (
                    Kind::Translated,
                    format!(
                        "cookie_flags = [{}] on the proxied routes it applies to: set on every Set-Cookie of the app's answers, as nginx sets them",
                        flags.iter().map(|flag| format!("{flag:?}")).collect::<Vec<_>>().join(", ")
                    ),
                    true,
                ),
                Ok(None) => (
                    Kind::Translated,
                    "the routes it applies to get no cookie flags (the default)".to_string(),
                    false,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "proxy_cookie_path" => match headers::cookie_path_flags(directive) {
                Some(flags) => (
                    Kind::Approximated,
                    format!(
                        "cookie_flags = [{}] on the proxied routes it applies to; nginx adds them to cookies with a Path only (and writes them into the path), weir to every cookie",
                        flags.iter().map(|flag| format!("{flag:?}")).collect::<Vec<_>>().join(", ")
                    ),
                    true,
                ),
                None => (Kind::Unsupported, "weir does not change requests or responses this way".to_string(), false),
            },
            "charset_types" => match headers::charset_types(directive) {
                Ok(types) => (
                    Kind::Translated,
                    format!(
                        "charset_types = [{}] on the routes it applies to, with the charset in force",
                        types.iter().map(|media_type| format!("{media_type:?}")).collect::<Vec<_>>().join(", ")
                    ),
                    true,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "proxy_intercept_errors" => (
                Kind::Translated,
                "intercept_errors = true on the proxied routes it applies to: the app's own errors with an error page get the page (with the app's WWW-Authenticate, as from nginx, and its Retry-After, which nginx drops)".to_string(),
                true,
            ),
            "proxy_hide_header" => match headers::hidden_header(directive) {
                Ok(name) => (
                    Kind::Translated,
                    format!("hide_response_headers += {name:?} on the proxied routes it applies to"),
                    true,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            "auth_basic" if directive.args.first().is_some_and(|arg| arg == "off") => (
                Kind::Translated,
                "the routes it applies to ask no password (no basic_auth)".to_string(),
                false,
            ),
            "auth_basic" => (
                Kind::Translated,
                format!(
                    "basic_auth realm = {:?} on the routes it applies to, with the auth_basic_user_file in force",
                    directive.args.first().map_or("", String::as_str)
                ),
                true,
            ),
            "satisfy" if directive.args.first().is_some_and(|arg| arg == "any") => (
                Kind::Translated,
                "satisfy = \"any\" on the routes it applies to: an address their access rules allow needs no password, and a denied one may give it".to_string(),
                true,
            ),
            "satisfy" => (
                Kind::Translated,
                "the default: a client must pass the access rules and basic_auth both".to_string(),
                false,
            ),
            "auth_basic_user_file" => match headers::user_file(directive, self.conf_dir.as_deref()) {
                Ok(path) => (
                    Kind::Translated,
                    format!("basic_auth user_file = {path:?} on the routes it applies to, with the auth_basic in force (read at start and reload, and again within a second of a change; a line weir cannot read stops `weir check`, where nginx answers 500)"),
                    true,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
            _ => match headers::access_entry(directive) {
                Ok(entry) => (
                    Kind::Translated,
                    format!("access += {entry:?} on the routes it applies to, in order with the allow and deny beside it"),
                    true,
                ),
                Err(why) => (Kind::Unsupported, why, false),
            },
        };
        self.rule_item(directive, kind, note, carried);
    }

    /// A header or access directive's item; `carried` when routes carry it (`finish` checks that
    /// one does).
    fn rule_item(&mut self, directive: &'a Directive, kind: Kind, note: String, carried: bool) {
        self.item(kind, directive, note);
        if carried {
            self.rule_directives.push(directive);
        }
        if let Some(why) = less_safe_reason(directive, kind) {
            self.less_safe(directive, why);
        }
    }

    /// The item of an `add_header` or `expires` whose value is a map of the answer's type
    /// (`response_headers_by_type`), or `None` for any other.
    fn typed_rule(&self, directive: &Directive) -> Option<(Kind, String, bool)> {
        let describe = |what: String, differs: &[String]| {
            let differs: String = differs.iter().map(|note| format!("; {note}")).collect();
            format!("{what} on the routes it applies to{differs}")
        };
        match directive.name.as_str() {
            "add_header" => Some(
                match headers::typed_response_header(directive, &self.type_maps)? {
                    Ok(headers::TypedAddHeader {
                        header,
                        entries,
                        differs,
                    }) => (
                        Kind::Approximated,
                        describe(
                            format!(
                                "response_headers_by_type {} by the map of {} ({} typed entr{}{})",
                                header.name,
                                header.value,
                                entries.len(),
                                if entries.len() == 1 { "y" } else { "ies" },
                                if header.always { ", always = true" } else { "" },
                            ),
                            &differs,
                        ) + &format!(
                            "; weir replaces an upstream's {} where nginx adds a second",
                            header.name
                        ),
                        true,
                    ),
                    Err(why) => (Kind::Unsupported, why, false),
                },
            ),
            "expires" => Some(match headers::typed_expires(directive, &self.type_maps)? {
                Ok(headers::TypedExpires {
                    headers,
                    exact,
                    differs,
                }) => {
                    let names: Vec<&str> = headers.iter().map(|(name, _)| name.as_str()).collect();
                    let what = describe(
                        format!(
                            "response_headers_by_type {} by the map of {} (on 2xx and 3xx answers, replacing the upstream's, as nginx's expires does)",
                            names.join(" and "),
                            directive.args[0]
                        ),
                        &differs,
                    );
                    if exact && differs.is_empty() {
                        (Kind::Translated, what, true)
                    } else if exact {
                        (Kind::Approximated, what, true)
                    } else {
                        (
                            Kind::Approximated,
                            format!("{what}; no Expires date for a time, which nginx computes per answer (a cache goes by max-age when both are sent)"),
                            true,
                        )
                    }
                }
                Err(why) => (Kind::Unsupported, why, false),
            }),
            _ => None,
        }
    }

    /// A method guard ([`headers::method_guard`]): its item, said once where it is written; the
    /// routes it is in force for carry it as `methods` ([`Rules::of`]), and `finish` corrects the
    /// item if none does.
    fn method_guard(&mut self, directive: &'a Directive, guard: &headers::MethodGuard) {
        let methods: Vec<String> = guard
            .methods
            .iter()
            .map(|method| format!("{method:?}"))
            .collect();
        let what = format!(
            "methods = [{}] on the routes it applies to: another method gets 405 with Allow",
            methods.join(", ")
        );
        match &guard.differs {
            None => self.item(Kind::Translated, directive, what),
            Some(how) => self.item(Kind::Approximated, directive, format!("{what}; {how}")),
        }
        self.rule_directives.push(directive);
        self.account_block(directive);
    }

    /// An `OPTIONS` answer ([`headers::options_answer`]): its item, said once where it is
    /// written; the routes it is in force for carry it as `answer_options` ([`Rules::of`]), and
    /// `finish` corrects the item if none does.
    fn options_answer(&mut self, directive: &'a Directive) {
        let Some(answer) = headers::options_answer(directive) else {
            return;
        };
        let mut note = format!(
            "answer_options = {{ status = {}, {} headers }} on the routes it applies to: weir answers OPTIONS itself, before methods, access, limits and the app, as nginx's if ... return in its rewrite phase",
            answer.status,
            answer.headers.len()
        );
        if answer.dropped_length {
            note.push_str("; add_header Content-Length is left out: weir frames its answer itself");
        }
        self.item(Kind::Translated, directive, note);
        self.rule_directives.push(directive);
        self.account_block(directive);
    }

    /// A header guard ([`headers::header_guard`]): its item, said once where it is written; the
    /// routes it is in force for carry it in `deny_headers` ([`Rules::of`]), and `finish`
    /// corrects the item if none does.
    fn header_guard(&mut self, directive: &'a Directive, guard: &headers::HeaderGuard) {
        let variable = text::if_variable(directive).map(|(variable, _)| variable);
        let (kind, note) = match variable.as_deref() {
            Some("host") => (
                Kind::Translated,
                format!("deny_headers {} on the routes it applies to (weir reads Host as nginx's $host: the host the request names, without port, in lower case; a request that names none reads as empty, where nginx's $host is the server's name)", guard.entry()),
            ),
            Some("http_host") => (
                Kind::Approximated,
                format!("deny_headers {} on the routes it applies to: weir reads Host as nginx's $host, without the port a client writes and in lower case, where nginx's $http_host is the header as sent", guard.entry()),
            ),
            _ => (
                Kind::Translated,
                format!(
                    "deny_headers {} on the routes it applies to (a missing header is read as empty, as nginx's ${})",
                    guard.entry(),
                    format_args!("http_{}", guard.header.to_ascii_lowercase().replace('-', "_")),
                ),
            ),
        };
        self.item(kind, directive, note);
        self.rule_directives.push(directive);
        self.account_block(directive);
    }

    /// `if ($invalid_referer) { return ...; }`: its item, said once where it is written; the routes
    /// it is in force for carry it in `deny_headers` with the `valid_referers` in force there
    /// ([`Rules::of`]), and `finish` corrects the item if none does.
    fn referer_if(&mut self, directive: &'a Directive) {
        self.item(
            Kind::Translated,
            directive,
            "deny_headers { header = \"Referer\", ... } on the routes it applies to, from the valid_referers in force there: a Referer that is an http(s) URL of no name listed is refused (and, as listed, a missing one or one of another form)",
        );
        self.rule_directives.push(directive);
        self.account_block(directive);
    }

    /// Whether `directive` is `if ($var) { return 403; }` on a `geo` map's variable.
    fn is_geo_if(&self, directive: &Directive) -> bool {
        geo::geo_if(directive).is_some_and(|(variable, _)| self.geo_maps.contains_key(&variable))
    }

    /// `if ($var) { return 403; }` on a `geo` map: its item; the routes it is in force for carry
    /// it as `access` entries ([`Rules::of`]), and `finish` corrects the item if none does.
    fn geo_if(&mut self, directive: &'a Directive) {
        self.item(
            Kind::Translated,
            directive,
            "access entries on the routes it applies to, from its geo: the networks it refuses denied (before the route's own allow/deny, which nginx checks after its if)",
        );
        self.rule_directives.push(directive);
        self.account_block(directive);
    }

    /// `valid_referers`: its item; `if ($invalid_referer)` makes it `deny_headers`.
    fn valid_referers(&mut self, directive: &'a Directive) {
        // The server's names do not change what can be carried.
        match headers::referer_regexes(directive, &[]) {
            Ok((_, differs)) => {
                let note = format!(
                    "read by if ($invalid_referer): a deny_headers entry on Referer (an http(s) URL's host up to / or :, any case, against the names listed; a ~regex searched in what follows the scheme){}",
                    differs.map(|why| format!("; {why}")).unwrap_or_default()
                );
                let kind = if differs.is_some() {
                    Kind::Approximated
                } else {
                    Kind::Translated
                };
                self.rule_item(directive, kind, note, true);
            }
            Err(why) => self.rule_item(directive, Kind::Unsupported, why, false),
        }
    }

    /// `ssl_*` and `http2`: the `[tls]` keys they stand for. The certificate pair is taken per
    /// server in `server`.
    fn ssl(&mut self, directive: &Directive) {
        let first = directive.args.first().map(String::as_str);
        self.tls_items.push(directive.source.clone());
        match directive.name.as_str() {
            "ssl" if first == Some("on") => self.translated(
                directive,
                "the server's sockets are TLS ([tls] listen), as nginx 1.22 reads this deprecated form of listen ... ssl",
            ),
            "ssl" if first == Some("off") => {
                self.translated(directive, "the default: TLS only where listen says ssl")
            }
            "ssl_certificate" | "ssl_certificate_key" => {
                self.translated(directive, "[[tls.certificates]] of the servers that listen with ssl")
            }
            "ssl_protocols" => {
                let kept: Vec<&str> = directive
                    .args
                    .iter()
                    .map(String::as_str)
                    .filter(|version| matches!(*version, "TLSv1.2" | "TLSv1.3"))
                    .collect();
                if kept.is_empty() {
                    self.unsupported(directive, "weir offers TLSv1.2 and TLSv1.3 only");
                    return;
                }
                self.tls
                    .set("protocols", toml_out::strings(kept.clone()), Some(&directive.source));
                if kept.len() == directive.args.len() {
                    self.translated(directive, format!("[tls] protocols = {kept:?}"));
                } else {
                    self.approximated(directive, format!("[tls] protocols = {kept:?}: weir offers nothing older than TLSv1.2"));
                }
            }
            "ssl_session_tickets" => {
                let on = first != Some("off");
                self.tls.set("session_tickets", on.to_string(), Some(&directive.source));
                self.translated(directive, format!("[tls] session_tickets = {on} (keys rotate every 6 hours)"));
            }
            "ssl_session_cache" => match first {
                Some("off" | "none") => {
                    self.tls.set("session_cache", "0".into(), Some(&directive.source));
                    self.translated(directive, "[tls] session_cache = 0");
                }
                _ => self.approximated(
                    directive,
                    "weir's session cache holds 20000 sessions shared by every thread (session_cache); it is sized in sessions, not bytes",
                ),
            },
            "ssl_session_timeout" => self.approximated(directive, "weir keeps resumable sessions as rustls does (tickets valid 6 hours); not configurable"),
            "ssl_ciphers" | "ssl_prefer_server_ciphers" | "ssl_ecdh_curve" | "ssl_dhparam"
            | "ssl_conf_command" | "ssl_buffer_size" | "ssl_early_data" => self.approximated(
                directive,
                "rustls' own choice: ECDHE (X25519, P-256, P-384) with AES-GCM or ChaCha20-Poly1305; not configurable",
            ),
            "ssl_stapling" | "ssl_stapling_verify" | "ssl_trusted_certificate" | "ssl_stapling_file"
            | "ssl_stapling_responder" => {
                self.unsupported(directive, "weir has no OCSP stapling yet")
            }
            "ssl_client_certificate" | "ssl_verify_client" | "ssl_verify_depth" | "ssl_crl" => {
                self.unsupported(directive, "weir has no client certificates (mTLS) yet")
            }
            "http2" if first == Some("off") => {
                self.tls.set("alpn", toml_out::strings(vec!["http/1.1"]), Some(&directive.source));
                self.translated(directive, "[tls] alpn = [\"http/1.1\"]");
            }
            "http2" => self.translated(directive, "the default: [tls] alpn offers h2"),
            _ => self.unsupported(directive, "no [tls] equivalent"),
        }
    }

    /// Directives with no weir key: what weir does instead, or why not.
    /// `resolver ADDRESS ... [valid=TIME] [ipv4=off] [ipv6=off] [status_zone=...]`: weir asks one
    /// DNS server (`[server] resolver`), again every `resolve_interval` (`valid=`).
    fn resolver(&mut self, directive: &Directive, level: &str) {
        let mut addresses = Vec::new();
        let mut notes = Vec::new();
        let mut interval = None;
        for arg in &directive.args {
            match arg.split_once('=') {
                Some(("valid", value)) => match duration(value) {
                    Some(value) => interval = Some(value),
                    None => {
                        return self.unsupported(directive, "valid= expects a time such as 30s")
                    }
                },
                Some(("ipv6", "off")) => {
                    notes.push("weir asks for AAAA records too (ipv6=off is not kept)".to_string())
                }
                Some(("ipv4", "off")) => {
                    notes.push("weir asks for A records too (ipv4=off is not kept)".to_string())
                }
                Some(_) => notes.push(format!("{arg} is not kept")),
                None => addresses.push(arg.as_str()),
            }
        }
        let Some(first) = addresses.first() else {
            return self.unsupported(directive, "a resolver needs an address");
        };
        let address = match first.parse::<std::net::SocketAddr>() {
            Ok(address) => address.to_string(),
            Err(_) => match first
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
            {
                Ok(ip) => ip.to_string(),
                Err(_) => {
                    return self.unsupported(
                        directive,
                        "weir's resolver is an IP address or IP:port, not a name",
                    );
                }
            },
        };
        if addresses.len() > 1 {
            notes.push(format!(
                "weir asks one DNS server: {first}; the others are not asked"
            ));
        }
        if level != "http" {
            notes.push("weir has one resolver for every route".to_string());
        }
        let value = toml_out::string(&address);
        if notes.is_empty() || self.server_keys.contains_key("resolver") {
            self.server_key("resolver", value, directive, "");
        } else {
            self.server_keys
                .insert("resolver", (value.clone(), directive.source.clone()));
            self.server
                .set("resolver", value.clone(), Some(&directive.source));
            self.approximated(
                directive,
                format!("[server] resolver = {value}; {}", notes.join("; ")),
            );
        }
        if let Some(interval) = interval {
            self.server.set(
                "resolve_interval",
                toml_out::string(&interval),
                Some(&directive.source),
            );
        }
    }

    fn simple(&mut self, directive: &'a Directive) {
        if self.accounted.contains(&(directive as *const Directive)) {
            // Translated already, as a whole (certbot's `if ($host = ...)`).
            return;
        }
        let name = directive.name.as_str();
        let on = directive.args.first().map(String::as_str) == Some("on");
        let off = directive.args.first().map(String::as_str) == Some("off");
        let (kind, note): (Kind, String) = match name {
            "user" => (Kind::Translated, "no key: run weir as that user (systemd User=, Docker USER)".into()),

            "daemon" | "master_process" => (Kind::Translated, "no key: weir runs in the foreground, one process".into()),
            "worker_rlimit_nofile" => (Kind::Unsupported, "set the open-files limit in the supervisor (systemd LimitNOFILE=)".into()),
            "worker_cpu_affinity" | "worker_priority" | "pcre_jit" | "thread_pool" | "load_module" | "env"
            | "worker_shutdown_timeout" | "timer_resolution" | "lock_file" | "working_directory" => {
                (Kind::Unsupported, "no weir equivalent (a process setting of nginx)".into())
            }
            "log_not_found" | "log_subrequest" => (Kind::Translated, "no key: weir does not log missing files as errors".into()),
            "default_type" if directive.args.first().is_some_and(|t| t == "application/octet-stream") => {
                (Kind::Translated, "built in: static files of unknown type are application/octet-stream".into())
            }
            "default_type" => (Kind::Approximated, "static files of unknown type are application/octet-stream in weir; not configurable".into()),
            "types" => (Kind::Translated, "built in: weir knows the common MIME types".into()),
            "sendfile" | "sendfile_max_chunk" | "tcp_nopush" | "aio" | "directio" | "output_buffers" => {
                (Kind::Translated, "not needed: weir reads static files itself".into())
            }
            "tcp_nodelay" => (Kind::Translated, "always on".into()),
            "types_hash_max_size" | "types_hash_bucket_size" | "server_names_hash_bucket_size"
            | "server_names_hash_max_size" | "variables_hash_max_size" | "variables_hash_bucket_size"
            | "map_hash_max_size" | "map_hash_bucket_size" | "proxy_headers_hash_max_size"
            | "proxy_headers_hash_bucket_size" | "client_header_buffer_size" | "client_body_buffer_size"
            | "proxy_buffer_size" | "proxy_buffers" | "proxy_busy_buffers_size"
            | "proxy_max_temp_file_size" | "proxy_temp_file_write_size" | "client_body_temp_path"
            | "proxy_temp_path" | "fastcgi_temp_path" | "uwsgi_temp_path" | "scgi_temp_path" => {
                (Kind::Translated, "not needed: weir sizes its buffers and tables itself".into())
            }
            // These shape the redirects nginx makes itself (a directory asked for without its
            // trailing slash); weir's is relative (`./NAME/`), naming no host or port.
            "absolute_redirect" if off => (
                Kind::Translated,
                "always: weir's own redirect (a directory, or a proxied location's path, without its trailing slash) has a relative Location".into(),
            ),
            "absolute_redirect" => (
                Kind::Approximated,
                "weir's own redirect (a directory, or a proxied location's path, without its trailing slash) has a relative Location (./NAME/), as with absolute_redirect off".into(),
            ),
            "server_name_in_redirect" | "port_in_redirect" => (
                Kind::Translated,
                "no effect in weir: its own redirect (a directory, or a proxied location's path, without its trailing slash) is relative, naming no host or port".into(),
            ),
            "reset_timedout_connection" => (
                Kind::Approximated,
                "weir closes a timed-out connection normally (no TCP reset); not configurable".into(),
            ),
            "lingering_close" | "lingering_time" | "lingering_timeout" => (
                Kind::Approximated,
                "weir closes a connection once its response is written, without nginx's lingering read of what the client still sends; not configurable".into(),
            ),
            "open_file_cache" | "open_file_cache_valid" | "open_file_cache_min_uses" | "open_file_cache_errors" => (
                Kind::Approximated,
                "weir keeps files up to 1 MiB in memory for 1 s on static routes; not configurable".into(),
            ),
            "proxy_http_version" => match directive.args.first().map(String::as_str) {
                Some("1.1") => (Kind::Translated, "always: weir speaks HTTP/1.1 to upstreams".into()),
                _ => (Kind::Approximated, "weir always speaks HTTP/1.1 to upstreams".into()),
            },
            "proxy_pass_header" => proxy_pass_header(directive),
            "proxy_redirect" => match proxy_redirect(directive) {
                Ok(Redirect::Off) => (Kind::Translated, "no location_rewrites on the routes it applies to: the app's Location passes as it is".into()),
                Ok(Redirect::Default) => (Kind::Translated, "location_rewrites from the proxy_pass URL to the location's path, on the proxied routes it applies to".into()),
                Ok(Redirect::Rewrite(prefix, replacement)) => (
                    Kind::Translated,
                    format!("location_rewrites {prefix:?} = {replacement:?} on the proxied routes it applies to (a path it gives stays a path, where nginx's absolute_redirect writes http://HOST:PORT/...: the same place)"),
                ),
                Err(why) => (Kind::Unsupported, why),
            },
            "proxy_ignore_client_abort" if off => (Kind::Translated, "the default".into()),
            "proxy_ignore_client_abort" => (
                Kind::Approximated,
                "weir cancels the upstream exchange when the client goes away (with workers or max_connections, a request sent whole keeps its place until the app's answer begins)".into(),
            ),
            "proxy_next_upstream" | "proxy_next_upstream_tries" | "proxy_next_upstream_timeout" => (
                Kind::Approximated,
                "weir moves to the next server on connect errors, and on broken exchanges of idempotent requests without a body; not configurable".into(),
            ),
            "proxy_intercept_errors" if off => (Kind::Translated, "the default".into()),
            "proxy_pass_request_body" if off && self.asks => (
                Kind::Translated,
                "not needed where an auth_request asks this location: weir sends its asking request without a body (elsewhere weir passes the body)".into(),
            ),
            "proxy_ignore_headers" | "proxy_intercept_errors" | "proxy_set_body"
            | "proxy_pass_request_headers" | "proxy_pass_request_body" | "proxy_method" | "proxy_cookie_domain"
            | "proxy_cookie_path" | "proxy_ssl_server_name" | "proxy_ssl_verify" | "proxy_bind" => {
                (Kind::Unsupported, "weir does not change requests or responses this way".into())
            }
            name if name.starts_with("proxy_cache") || name == "proxy_no_cache" => cache::note(directive),
            "proxy_store" => (Kind::Unsupported, "weir keeps answers in memory (a route's cache), never as files".into()),
            "http3" | "quic_retry" => (Kind::Unsupported, "weir has no HTTP/3 (QUIC) yet".into()),
            "add_trailer" | "more_set_headers" => {
                (Kind::Unsupported, "weir does not add response headers".into())
            }
            "etag" if on => (Kind::Translated, "always: static files carry an ETag".into()),
            "index" => {
                if directive.args.iter().any(|arg| arg == "index.html") {
                    (Kind::Translated, "weir serves index.html for a directory".into())
                } else {
                    (Kind::Approximated, "weir serves index.html for a directory, no other name".into())
                }
            }
            "autoindex" if off => (Kind::Translated, "the default: no directory listings".into()),
            "autoindex" => (Kind::Unsupported, "weir lists no directories (403)".into()),
            "override_charset" if off => (Kind::Translated, "the default: an answer's own charset is kept".into()),
            "source_charset" | "override_charset" | "charset_map" => {
                (Kind::Unsupported, "weir never recodes a body: charset labels the Content-Type only".into())
            }
            "rewrite" | "set" | "break" => (Kind::Unsupported, "weir does not rewrite URIs or set variables".into()),
            "map" if is_upgrade_map(directive) => (
                Kind::Translated,
                "not needed: nginx's WebSocket map, for proxy_set_header Connection; weir passes a WebSocket upgrade through itself, with Connection: upgrade, and sends other requests' Connection itself".into(),
            ),
            "map" if self.value_maps.iter().any(|(_, _, map)| std::ptr::eq(*map, directive)) => {
                match self
                    .value_maps
                    .iter()
                    .find(|(_, _, map)| std::ptr::eq(*map, directive))
                    .map(|(name, map, _)| (name, map))
                {
                    Some((name, Ok(map))) => (
                        Kind::Translated,
                        format!(
                            "[maps.{name}]: {} entr{} and {}: a header value's ${name} (weir reads maps in header values: an if, a limit key or a log line that names it is reported where it is)",
                            map.entries.len(),
                            if map.entries.len() == 1 { "y" } else { "ies" },
                            if map.default.is_some() { "its default" } else { "an empty default" },
                        ),
                    ),
                    Some((_, Err(why))) => (Kind::Unsupported, why.clone()),
                    None => (Kind::Unsupported, "weir has no variables".into()),
                }
            }
            "map" if type_map::variable(directive).is_some() => {
                let name = type_map::variable(directive).unwrap_or_default();
                match self.type_maps.get(name) {
                    Some(Ok(map)) => (
                        if map.differs.is_empty() { Kind::Translated } else { Kind::Approximated },
                        format!(
                            "{} of response_headers_by_type where add_header or expires names ${name}: a type is a fragment found anywhere in the Content-Type, whatever its case, as ~* finds it; tried in nginx's order (\"\", the regexes as written, default last){}",
                            match map.entries.len() { 1 => "1 entry".to_string(), count => format!("{count} entries") },
                            map.differs.iter().map(|note| format!("; {note}")).collect::<String>()
                        ),
                    ),
                    Some(Err(why)) => (Kind::Unsupported, why.clone()),
                    None => (Kind::Unsupported, "a map outside the http block: weir reads the http block's".into()),
                }
            }
            "geo" | "map" if self.allowlisted.contains_key(&(directive as *const Directive)) => (
                Kind::Translated,
                self.allowlisted[&(directive as *const Directive)].clone(),
            ),
            "geo" => match geo::variable(directive).and_then(|name| self.geo_maps.get(name)) {
                Some(Ok(_)) => {
                    self.rule_item(
                        directive,
                        Kind::Translated,
                        "read by if ($var) { return 403; }: access entries for the networks it lists, longest prefix first (geo's longest match), then its default, on the routes the if applies to".into(),
                        true,
                    );
                    return;
                }
                Some(Err(why)) => (Kind::Unsupported, why.clone()),
                None => (Kind::Unsupported, "a geo outside the http block: weir reads the http block's".into()),
            },
            "map" | "split_clients" => (Kind::Unsupported, "weir has no variables".into()),
            "limit_rate" | "limit_rate_after" => match directive.args.first().and_then(|arg| size(arg)) {
                Some(0) => (Kind::Translated, "0: not limited, as nginx's (weir's routes have no limit_rate)".into()),
                Some(_) if name == "limit_rate" => (Kind::Translated, "[[routes]] limit_rate on the routes it applies to: their answers go to the client at most this many bytes a second, as nginx's".into()),
                Some(_) => (Kind::Translated, "[[routes]] limit_rate_after beside the limit_rate in force on the routes it applies to (none: no effect, as in nginx)".into()),
                None => (Kind::Unsupported, "expected a size such as 100k or 1m; weir's rate is a number, not a variable".into()),
            },
            "uwsgi_pass" | "fastcgi_pass" | "scgi_pass" | "grpc_pass" => (
                Kind::Unsupported,
                "weir speaks HTTP to upstreams: bind Gunicorn or Uvicorn to a socket or port and route to it".into(),
            ),
            name if name.starts_with("uwsgi_") || name.starts_with("fastcgi_") || name.starts_with("scgi_") => {
                (Kind::Unsupported, "weir speaks HTTP to upstreams only".into())
            }
            "stub_status" => (Kind::Unsupported, "use weir's [admin] listener: /metrics, /healthz, /readyz".into()),
            "if" => (
                Kind::Unsupported,
                "weir has no conditions; route by host and path instead (a `return` under `if ($host = ...)` is a [[routes]] with that host and `redirect`)".into(),
            ),
            "try_files" => (Kind::Unsupported, "weir serves the file asked for or 404; no fallbacks".into()),
            "internal" => (Kind::Unsupported, "internal belongs in a location (where weir makes it an internal route)".into()),
            "location" => (Kind::Unsupported, "a location outside a server".into()),
            _ => (Kind::Unsupported, format!("weir has no equivalent of `{name}`")),
        };
        self.item(kind, directive, note);
        if directive.block.is_some() {
            self.account_block(directive);
            self.less_safe_if_guards(directive);
        }
        if let Some(why) = less_safe_reason(directive, kind) {
            self.less_safe(directive, why);
        }
    }

    fn client_max_body_size(&mut self, directive: &Directive) {
        let Some(text) = directive.args.first() else {
            return self.unsupported(directive, "expected a size such as 20M");
        };
        let Some(bytes) = size(text) else {
            return self.unsupported(directive, "expected a size such as 20M");
        };
        let value = toml_out::string(text);
        match self.max_body_size.clone() {
            None => {
                self.max_body_size = Some((bytes, value.clone(), directive.source.clone()));
                self.translated(directive, format!("[server] max_body_size = {value}"));
            }
            Some((kept, kept_text, source)) => {
                let larger = bytes == 0 || (kept != 0 && bytes > kept);
                if bytes == kept {
                    self.translated(
                        directive,
                        format!("[server] max_body_size = {value} (as above)"),
                    );
                } else if larger {
                    self.max_body_size = Some((bytes, value.clone(), directive.source.clone()));
                    self.approximated(
                        directive,
                        format!("weir has one max_body_size for every route: the largest, {value}, is kept (over {kept_text} from {source})"),
                    );
                    let kept_source = source.clone();
                    self.less_safe_item(
                        Kind::Approximated,
                        vec![kept_source.clone()],
                        format!("client_max_body_size {}", kept_text.trim_matches('"')),
                        format!("where nginx took bodies up to {kept_text} (at {kept_source}), weir takes up to {value}"),
                    );
                } else {
                    self.approximated(
                        directive,
                        format!("weir has one max_body_size for every route: the largest, {kept_text} from {source}, is kept"),
                    );
                    self.less_safe(
                        directive,
                        format!("where nginx took bodies up to {value} here, weir takes up to {kept_text}"),
                    );
                }
            }
        }
    }

    fn set_real_ip_from(&mut self, directive: &Directive) {
        let Some(network) = directive.args.first() else {
            return self.unsupported(directive, "expected an address or network");
        };
        if network.starts_with("unix:") {
            return self.unsupported(directive, "weir accepts clients on TCP only");
        }
        let valid = network
            .split_once('/')
            .map_or(network.as_str(), |(ip, _)| ip)
            .parse::<std::net::IpAddr>()
            .is_ok();
        if !valid {
            return self.unsupported(
                directive,
                "weir trusts addresses and networks, not host names",
            );
        }
        if !self
            .trusted_proxies
            .iter()
            .any(|(known, _)| known == network)
        {
            self.trusted_proxies
                .push((network.clone(), directive.source.clone()));
        }
        self.translated(directive, "[server] trusted_proxies");
    }

    fn real_ip_header(&mut self, directive: &Directive) {
        let header = directive.args.first().map(|arg| arg.to_ascii_lowercase());
        let value = match header.as_deref() {
            Some("x-forwarded-for") => "X-Forwarded-For",
            Some("x-real-ip") => "X-Real-IP",
            Some("proxy_protocol") => {
                return self.unsupported(directive, "weir does not read the PROXY protocol");
            }
            _ => {
                return self.unsupported(
                    directive,
                    "weir reads X-Forwarded-For, X-Real-IP or Forwarded",
                )
            }
        };
        self.real_ip_header = Some(directive.source.clone());
        self.server_key("real_ip_header", toml_out::string(value), directive, "");
    }

    fn gzip(&mut self, directive: &Directive) {
        let first = directive.args.first().map(String::as_str).unwrap_or("");
        match directive.name.as_str() {
            "gzip" if first == "on" => {
                if self.compression.is_none() {
                    let mut table = Table::new("[compression]");
                    table.comment =
                        Some("nginx gzip: gzip only, nginx's defaults unless set".to_string());
                    table.set_with(
                        "algorithms",
                        toml_out::strings(["gzip"]),
                        Some(&directive.source),
                        Some("(nginx has gzip only; add \"br\", \"zstd\" to use them)"),
                    );
                    table.set_with(
                        "level",
                        "1".into(),
                        Some(&directive.source),
                        Some("(nginx's default gzip_comp_level)"),
                    );
                    table.set_with(
                        "min_length",
                        "20".into(),
                        Some(&directive.source),
                        Some("(nginx's default gzip_min_length)"),
                    );
                    table.set_with(
                        "types",
                        toml_out::strings(["text/html"]),
                        Some(&directive.source),
                        Some("(nginx's default gzip_types)"),
                    );
                    self.compression = Some(table);
                    self.compression_source = Some(directive.source.clone());
                    self.translated(directive, "[compression] (present means on)");
                } else {
                    self.translated(directive, "[compression] (as above)");
                }
            }
            "gzip" => {
                if self.compression.is_some() {
                    self.approximated(
                        directive,
                        "weir compresses for every route or none; gzip on elsewhere wins",
                    );
                } else {
                    self.translated(directive, "the default: no [compression] table");
                }
            }
            "gzip_comp_level" => match first.parse::<u32>() {
                Ok(level @ 1..=9) => self.compression_key("level", level.to_string(), directive),
                _ => self.unsupported(directive, "expected a level from 1 to 9"),
            },
            "gzip_min_length" => match size(first) {
                Some(bytes) => self.compression_key("min_length", bytes.to_string(), directive),
                None => self.unsupported(directive, "expected a length"),
            },
            "gzip_types" => {
                if directive.args.iter().any(|arg| arg == "*") {
                    self.compression_key_remove("types", directive);
                } else {
                    let mut types = vec!["text/html".to_string()];
                    for media_type in &directive.args {
                        let media_type = media_type.to_ascii_lowercase();
                        if !types.contains(&media_type) {
                            types.push(media_type);
                        }
                    }
                    let value = toml_out::strings(types.iter().map(String::as_str));
                    self.compression_key("types", value, directive);
                }
            }
            "gzip_proxied" => {
                if directive.args.iter().any(|arg| arg == "any") {
                    self.gzip_proxied_any = true;
                    self.translated(
                        directive,
                        "always: weir compresses every response, proxied or not",
                    );
                } else {
                    self.approximated(
                        directive,
                        "weir compresses responses to requests that came through a proxy (with Via) too, whatever their caching headers",
                    );
                }
            }
            "gzip_vary" => self.translated(directive, "always: weir adds Vary: Accept-Encoding"),
            "gzip_static" => self.translated(
                directive,
                "always on static routes: precompressed .gz and .br siblings are served",
            ),
            "gzip_buffers" => self.translated(directive, "not needed: weir streams compression"),
            "gzip_http_version" => {
                self.approximated(directive, "weir compresses for HTTP/1.0 clients too")
            }
            "gzip_disable" => self.unsupported(
                directive,
                "weir does not look at User-Agent (no msie6 clients remain)",
            ),
            _ => self.unsupported(
                directive,
                format!("weir has no equivalent of `{}`", directive.name),
            ),
        }
    }

    fn compression_key(&mut self, key: &str, value: String, directive: &Directive) {
        let Some(table) = &mut self.compression else {
            return self.translated(directive, "no effect: gzip is not on");
        };
        if let Some(entry) = table.get(key).filter(|entry| entry.remark.is_none()) {
            if entry.value != value {
                let source = entry
                    .source
                    .clone()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                let note = format!(
                    "weir has one [compression] {key} for every route; {} from {source} is kept",
                    entry.value
                );
                return self.approximated(directive, note);
            }
        }
        table.set(key, value.clone(), Some(&directive.source));
        self.translated(directive, format!("[compression] {key} = {value}"));
    }

    fn compression_key_remove(&mut self, key: &str, directive: &Directive) {
        match &mut self.compression {
            Some(table) => {
                table.entries.retain(|entry| entry.key != key);
                self.approximated(
                    directive,
                    "weir compresses the text-like types of its default list, not every type",
                );
            }
            None => self.translated(directive, "no effect: gzip is not on"),
        }
    }

    fn access_log(&mut self, directive: &Directive) {
        let Some(path) = directive.args.first() else {
            return self.unsupported(directive, "expected a path or off");
        };
        if path == "off" {
            return self.translated(directive, "the default: no [access_log] table");
        }
        if path.starts_with("syslog:") || path.contains('$') {
            return self.unsupported(directive, "weir writes its access log to a file or stderr");
        }
        let format_name = directive
            .args
            .get(1)
            .map(String::as_str)
            .unwrap_or("combined");
        let (format, note) = match format_name {
            "combined" => (
                "combined",
                "format combined: nginx's combined with weir's timings added".to_string(),
            ),
            name => match self.log_formats.get(name) {
                Some(log_format) => {
                    self.accounted.insert(*log_format as *const Directive);
                    match log_line(log_format) {
                        Ok(line) => {
                            return self.access_log_table(
                                directive,
                                path,
                                &line.text,
                                line.escape,
                                line.kind,
                                line.note,
                            )
                        }
                        Err(why) => {
                            let text = log_format.args[1..].join("");
                            if log_format.args.iter().any(|arg| arg == "escape=json")
                                || text.trim_start().starts_with('{')
                            {
                                ("json", format!("format json, the closest to log_format {name}: weir's own JSON fields ({why})"))
                            } else {
                                ("combined", format!("format combined, the closest to log_format {name}: nginx's combined with weir's timings ({why})"))
                            }
                        }
                    }
                }
                None => (
                    "combined",
                    format!("format combined (log_format {name} is not defined)"),
                ),
            },
        };
        let kind = if format_name == "combined" {
            Kind::Translated
        } else {
            Kind::Approximated
        };
        self.access_log_table(directive, path, format, None, kind, note);
    }

    /// The `[access_log]` table of the first `access_log` (weir writes one log); a later one
    /// to the same file in the same format is the same, another is left out.
    fn access_log_table(
        &mut self,
        directive: &Directive,
        path: &str,
        format: &str,
        escape: Option<&str>,
        kind: Kind,
        note: String,
    ) {
        if let Some(table) = &self.access_log {
            let kept = table
                .get("path")
                .map(|entry| entry.value.clone())
                .unwrap_or_default();
            let same_format = table.get("format").map(|entry| entry.value.clone())
                == Some(toml_out::string(format));
            if kept == toml_out::string(path) && same_format {
                return self.translated(directive, format!("[access_log] (as above: {kept})"));
            }
            return self.approximated(
                directive,
                format!("weir writes one access log; {kept} is kept"),
            );
        }
        let mut table = Table::new("[access_log]");
        table.set("enabled", "true".into(), Some(&directive.source));
        let path_value = if path == "/dev/stderr" {
            None
        } else {
            Some(toml_out::string(path))
        };
        if let Some(value) = path_value {
            table.set("path", value, Some(&directive.source));
        }
        table.set("format", toml_out::string(format), Some(&directive.source));
        if let Some(escape) = escape {
            table.set("escape", toml_out::string(escape), Some(&directive.source));
        }
        self.access_log = Some(table);
        self.item(kind, directive, format!("[access_log] {note}"));
    }

    // -----------------------------------------------------------------------------------------
    // upstream and limit_req_zone
    // -----------------------------------------------------------------------------------------

    fn upstream(&mut self, directive: &'a Directive) {
        let Some(name) = directive.args.first() else {
            return self.unsupported(directive, "an upstream needs a name");
        };
        let weir_name = weir_name(name);
        let mut table = Table::new(format!("[upstreams.{weir_name}]"));
        table.comment = Some(CAPACITY_HINT.to_string());
        let mut servers: Vec<String> = Vec::new();
        let mut backups: Vec<String> = Vec::new();
        let mut fail_settings: Vec<(Option<String>, Option<String>, Source)> = Vec::new();
        let mut max_conns: Vec<String> = Vec::new();
        let mut weights: Vec<(String, u32, Source)> = Vec::new();
        for inner in directive.block.iter().flatten() {
            match inner.name.as_str() {
                "server" => {
                    let Some(address) = inner.args.first().and_then(|arg| upstream_address(arg)) else {
                        self.unsupported(inner, "expected unix:/path, IP:port, IP, NAME:port or NAME (localhost: write 127.0.0.1)");
                        continue;
                    };
                    let mut notes = Vec::new();
                    let mut kind = Kind::Translated;
                    let mut max_fails = None;
                    let mut fail_timeout = None;
                    let mut down = false;
                    let mut backup = false;
                    let mut weight = None;
                    for parameter in &inner.args[1..] {
                        let (key, value) = parameter.split_once('=').unwrap_or((parameter.as_str(), ""));
                        match key {
                            "max_fails" => max_fails = Some(value.to_string()),
                            "fail_timeout" => fail_timeout = duration(value),
                            "max_conns" => max_conns.push(value.to_string()),
                            "weight" if value == "1" => {}
                            "weight" => match value.parse::<u32>() {
                                Ok(given @ 1..=100) => {
                                    weight = Some(given);
                                    notes.push(format!("weights {address:?} = {given}"));
                                }
                                Ok(given) if given > 100 => {
                                    kind = Kind::Approximated;
                                    weight = Some(100);
                                    notes.push(format!("weights {address:?} = 100: weir's most (nginx's weight={given})"));
                                }
                                _ => {
                                    kind = Kind::Approximated;
                                    notes.push(format!("weight={value} is not a weight: left at 1"));
                                }
                            },
                            "backup" => backup = true,
                            "down" => down = true,
                            _ => {
                                kind = Kind::Approximated;
                                notes.push(format!("{key} is not supported"));
                            }
                        }
                    }
                    if down {
                        self.translated(inner, "left out, as nginx never uses a down server");
                        continue;
                    }
                    fail_settings.push((max_fails, fail_timeout, inner.source.clone()));
                    if let Some(weight) = weight {
                        weights.push((address.clone(), weight, inner.source.clone()));
                    }
                    let key = if backup {
                        backups.push(address.clone());
                        "backup_servers"
                    } else {
                        servers.push(address.clone());
                        "servers"
                    };
                    let note = if notes.is_empty() {
                        format!("{key} += {address:?}")
                    } else {
                        format!("{key} += {address:?}; {}", notes.join("; "))
                    };
                    self.item(kind, inner, note);
                }
                "keepalive" => match inner.args.first().and_then(|n| n.parse::<u64>().ok()) {
                    Some(idle) => {
                        table.set("max_idle", idle.to_string(), Some(&inner.source));
                        self.translated(inner, format!("max_idle = {idle}"));
                    }
                    None => self.unsupported(inner, "expected a number"),
                },
                "keepalive_timeout" => match inner.args.first().and_then(|arg| duration(arg)) {
                    Some(value) => {
                        table.set("idle_timeout", toml_out::string(&value), Some(&inner.source));
                        self.approximated(
                            inner,
                            format!("idle_timeout = {value:?}; keep it under the app's own keep-alive (Gunicorn's is 2 s; weir's default, 1s, is under it)"),
                        );
                    }
                    None => self.unsupported(inner, "expected a time"),
                },
                "least_conn" => {
                    table.set("balance", toml_out::string("least_outstanding"), Some(&inner.source));
                    self.approximated(inner, "balance = \"least_outstanding\": the less busy of two servers drawn at random");
                }
                "zone" => self.translated(inner, "not needed: weir's workers share memory"),
                "keepalive_time" => match inner.args.first().and_then(|arg| duration(arg)) {
                    Some(value) => {
                        table.set("keepalive_time", toml_out::string(&value), Some(&inner.source));
                        self.approximated(
                            inner,
                            format!("keepalive_time = {value:?}; keep it under half of Gunicorn's --timeout (weir's default, 10s, is), or a graceful reload's old worker may be killed mid-response"),
                        );
                    }
                    None => self.unsupported(inner, "expected a time"),
                },
                "keepalive_requests" => {
                    self.approximated(inner, "weir reuses an upstream connection until it is idle for idle_timeout or open for keepalive_time; no count limit")
                }
                "ip_hash" => {
                    table.set("balance", toml_out::string("client_address"), Some(&inner.source));
                    self.translated(inner, "balance = \"client_address\": each client's requests go to the server nginx's ip_hash picks (its address's first three bytes, as trusted_proxies reads it)");
                }
                "hash"
                    if inner
                        .args
                        .first()
                        .is_some_and(|key| key == "$remote_addr" || key == "$binary_remote_addr") =>
                {
                    table.set("balance", toml_out::string("client_address"), Some(&inner.source));
                    self.approximated(inner, "balance = \"client_address\": each client's requests go to one server, by nginx's ip_hash of its address (its first three bytes: a /24 shares a server), where nginx's hash takes the whole address (and another server than ip_hash's)");
                }
                "hash" | "random" | "sticky" => {
                    self.unsupported(inner, "weir balances round robin, least outstanding or by client address (ip_hash); no other affinity")
                }
                _ => self.simple(inner),
            }
        }
        if servers.is_empty() {
            let why = if backups.is_empty() {
                "no server weir can reach: the upstream and its routes are left out"
            } else {
                "only backup servers, none to back up: the upstream and its routes are left out"
            };
            self.unsupported(directive, why);
            return;
        }
        self.translated(directive, format!("[upstreams.{weir_name}]"));
        let list = |key: &str, addresses: &[String]| toml_out::Entry {
            key: key.into(),
            value: toml_out::strings(addresses.iter().map(String::as_str)),
            source: Some(directive.source.clone()),
            remark: None,
        };
        table.entries.insert(0, list("servers", &servers));
        if !backups.is_empty() {
            table.entries.insert(1, list("backup_servers", &backups));
        }
        if let Some((_, _, source)) = weights.first() {
            let entries: Vec<String> = weights
                .iter()
                .map(|(address, weight, _)| format!("{} = {weight}", toml_out::string(address)))
                .collect();
            table.set(
                "weights",
                format!("{{ {} }}", entries.join(", ")),
                Some(source),
            );
        }
        // nginx counts failures per server; weir per upstream: one setting when all agree.
        let first = fail_settings.first().cloned();
        if let Some((max_fails, fail_timeout, source)) = first {
            let agree = fail_settings
                .iter()
                .all(|(m, f, _)| *m == max_fails && *f == fail_timeout);
            if fail_timeout.as_deref() == Some("0s") {
                table.set_with(
                    "max_fails",
                    "0".into(),
                    Some(&source),
                    Some("fail_timeout=0: passive health off"),
                );
            } else {
                if let Some(max_fails) = &max_fails {
                    table.set("max_fails", max_fails.clone(), Some(&source));
                }
                if let Some(fail_timeout) = &fail_timeout {
                    table.set(
                        "fail_timeout",
                        toml_out::string(fail_timeout),
                        Some(&source),
                    );
                }
            }
            if !agree {
                if let Some(item) = self
                    .items
                    .iter_mut()
                    .rev()
                    .find(|item| item.sources.contains(&source))
                {
                    item.kind = Kind::Approximated;
                    item.note.push_str("; weir has one max_fails/fail_timeout per upstream: this server's are used for all");
                }
            }
        }
        if let Some(first) = max_conns.first() {
            table.set("max_connections", first.clone(), Some(&directive.source));
        }
        self.upstream_names.insert(name.clone(), weir_name.clone());
        self.upstreams.insert(
            weir_name,
            UpstreamOut {
                table: Some(table),
                timeouts: HashMap::new(),
            },
        );
    }

    /// A zone's key when it is nginx's allowlist (`$key` set by a `map` of a `geo`, see
    /// [`geo::allowlist`]): the key its limited clients get and the networks left out, its `geo`
    /// and `map` accounted as carried by `table`s of `zone`; else the key as it is, and none.
    fn allowlist(
        &mut self,
        key: &str,
        table: &str,
        zone: &str,
    ) -> Result<(String, Vec<String>), String> {
        let none = || Ok((key.to_string(), Vec::new()));
        let Some(name) = key.strip_prefix('$') else {
            return none();
        };
        let (Some(map), true) = (
            self.maps.get(name).copied(),
            name.bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_'),
        ) else {
            return none();
        };
        let Some(source) = map.args.first().and_then(|source| source.strip_prefix('$')) else {
            return none();
        };
        let Some(found) = self.geo_maps.get(source) else {
            return none();
        };
        let carried = found
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|geo| geo::allowlist(geo, map).map(|allowlist| (geo.directive, allowlist)));
        let (geo, (limited, exempt)) =
            carried.map_err(|why| format!("{key} is an allowlist weir cannot carry: {why}"))?;
        let zone_name = zone.split_once(':').map_or(zone, |(name, _)| name);
        let note = format!(
            "the allowlist of zone {zone_name}: [{table}.*] key = {limited:?} and exempt = {exempt:?}, the networks whose key is empty"
        );
        self.allowlisted.insert(geo, note.clone());
        self.allowlisted.insert(map as *const Directive, note);
        Ok((limited, exempt))
    }

    fn limit_req_zone(&mut self, directive: &'a Directive) {
        let key = directive.args.first().cloned().unwrap_or_default();
        let mut zone = None;
        let mut rate = None;
        for arg in &directive.args[1.min(directive.args.len())..] {
            if let Some(value) = arg.strip_prefix("zone=") {
                zone = Some(value.to_string());
            } else if let Some(value) = arg.strip_prefix("rate=") {
                rate = Some(value.to_string());
            }
        }
        let (Some(zone), Some(rate)) = (zone, rate) else {
            return self.unsupported(directive, "expected a key, zone=NAME:SIZE and rate=");
        };
        let (counted, exempt) = match self.allowlist(&key, "limits", &zone) {
            Ok(allowlist) => allowlist,
            Err(why) => return self.unsupported(directive, why),
        };
        let (zone_name, key_value, max_keys) = match zone_parts(&counted, &zone) {
            Ok(parts) => parts,
            Err(why) => return self.unsupported(directive, why),
        };
        let valid_rate = rate
            .strip_suffix("r/s")
            .or_else(|| rate.strip_suffix("r/m"))
            .and_then(|count| count.parse::<u64>().ok())
            .is_some_and(|count| count > 0);
        if !valid_rate {
            return self.unsupported(directive, "expected rate=Nr/s or rate=Nr/m");
        }
        let name = weir_name(zone_name);
        let mut table = Table::new(format!("[limits.{name}]"));
        table.comment = Some(format!("limit_req_zone {key} zone={zone}"));
        table.set("key", toml_out::string(&key_value), Some(&directive.source));
        table.set("rate", toml_out::string(&rate), Some(&directive.source));
        let mut note = format!("[limits.{name}] key = {key_value:?}, rate = {rate:?}");
        if !exempt.is_empty() {
            table.set(
                "exempt",
                toml_out::strings(exempt.iter().map(String::as_str)),
                Some(&directive.source),
            );
            note.push_str(&format!(", exempt = {exempt:?} (its allowlist)"));
        }
        if let Some(keys) = max_keys {
            table.set_with(
                "max_keys",
                keys.to_string(),
                Some(&directive.source),
                Some("(about 64 bytes per key in nginx's zone)"),
            );
            note.push_str(&format!(", max_keys = {keys} (the zone's size / 64 bytes)"));
        }
        if counted.contains("$server_name") || counted.contains("${server_name}") {
            self.approximated(directive, format!("{note}; {BY_SERVER_NAME}"));
        } else {
            self.translated(directive, note);
        }
        self.zone_names.insert(zone_name.to_string(), name.clone());
        self.limits.insert(
            name,
            LimitOut {
                table,
                used_by: None,
                status_set: None,
            },
        );
    }

    /// `limit_conn_zone KEY zone=NAME:SIZE`: its key and size, for the tables its `limit_conn`s
    /// make (weir sets the number on the table, nginx on each `limit_conn`).
    fn limit_conn_zone(&mut self, directive: &'a Directive) {
        let key = directive.args.first().cloned().unwrap_or_default();
        let Some(zone) = directive
            .args
            .iter()
            .skip(1)
            .find_map(|arg| arg.strip_prefix("zone="))
        else {
            return self.unsupported(directive, "expected a key and zone=NAME:SIZE");
        };
        let (counted, exempt) = match self.allowlist(&key, "connection_limits", zone) {
            Ok(allowlist) => allowlist,
            Err(why) => return self.unsupported(directive, why),
        };
        let (zone_name, key_value, max_keys) = match zone_parts(&counted, zone) {
            Ok(parts) => parts,
            Err(why) => return self.unsupported(directive, why),
        };
        let name = weir_name(zone_name);
        let mut note = format!("[connection_limits.{name}] key = {key_value:?}");
        if !exempt.is_empty() {
            note.push_str(&format!(", exempt = {exempt:?} (its allowlist)"));
        }
        if let Some(keys) = max_keys {
            note.push_str(&format!(", max_keys = {keys} (the zone's size / 64 bytes)"));
        }
        note.push_str(", connections from its limit_conn");
        if counted.contains("$server_name") || counted.contains("${server_name}") {
            self.approximated(directive, format!("{note}; {BY_SERVER_NAME}"));
        } else {
            self.translated(directive, note);
        }
        self.conn_zones.insert(
            zone_name.to_string(),
            ConnZone {
                name,
                key: key_value,
                max_keys,
                source: directive.source.clone(),
                comment: format!("limit_conn_zone {key} zone={zone}"),
                tables: Vec::new(),
                exempt,
            },
        );
    }

    // -----------------------------------------------------------------------------------------
    // server and location
    // -----------------------------------------------------------------------------------------

    /// Takes in the settings a level passes down (order inside the block does not matter).
    fn absorb(&mut self, block: &'a [Directive], scope: &mut Scope<'a>) {
        let mut limit_req = Vec::new();
        let mut limit_conn = Vec::new();
        let mut proxy_set_header = Vec::new();
        let mut add_header = Vec::new();
        let mut proxy_hide_header = Vec::new();
        let mut proxy_redirect = Vec::new();
        let mut access = Vec::new();
        let mut error_page = Vec::new();
        let mut auth_request_set = Vec::new();
        scope.cache.absorb(block);
        for directive in block {
            match directive.name.as_str() {
                "proxy_connect_timeout" => scope.connect_timeout = Some(directive),
                "proxy_read_timeout" => scope.read_timeout = Some(directive),
                "proxy_send_timeout" => scope.send_timeout = Some(directive),
                "proxy_buffering" => scope.proxy_buffering = Some(directive),
                "proxy_request_buffering" => scope.proxy_request_buffering = Some(directive),
                "limit_rate" => scope.limit_rate = Some(directive),
                "limit_rate_after" => scope.limit_rate_after = Some(directive),
                "limit_req" => limit_req.push(directive),
                "limit_conn" => limit_conn.push(directive),
                "proxy_set_header" => proxy_set_header.push(directive),
                "add_header" => add_header.push(directive),
                "proxy_hide_header" => proxy_hide_header.push(directive),
                "proxy_redirect" => proxy_redirect.push(directive),
                "allow" | "deny" => access.push(directive),
                "auth_basic" => scope.auth_basic = Some(directive),
                "auth_basic_user_file" => scope.auth_basic_user_file = Some(directive),
                "satisfy" => scope.satisfy = Some(directive),
                "auth_request" => scope.auth_request = Some(directive),
                "auth_request_set" => auth_request_set.push(directive),
                "error_page" => error_page.push(directive),
                "expires" => scope.expires = Some(directive),
                "charset" => scope.charset = Some(directive),
                "if" | "limit_except" if headers::method_guard(directive).is_some() => {
                    scope.method_guards.push(directive);
                }
                "if" if headers::options_answer(directive).is_some() => {
                    scope.options_answer.get_or_insert(directive);
                }
                "if" if matches!(headers::header_guard(directive), Some(Ok(_)))
                    || headers::is_referer_if(directive) =>
                {
                    scope.header_guards.push(directive);
                }
                "valid_referers" => scope.valid_referers = Some(directive),
                "if" if self.is_geo_if(directive) => scope.geo_guards.push(directive),
                "charset_types" => scope.charset_types = Some(directive),
                "proxy_cookie_flags" => scope.cookie_flags = Some(directive),
                "proxy_cookie_path" if headers::cookie_path_flags(directive).is_some() => {
                    scope.cookie_path = Some(directive);
                }
                "proxy_intercept_errors" => scope.proxy_intercept_errors = Some(directive),
                "limit_req_status" => scope.limit_req_status = Some(directive),
                "limit_req_dry_run" => scope.limit_req_dry_run = Some(directive),
                "limit_conn_status" => scope.limit_conn_status = Some(directive),
                "limit_conn_dry_run" => scope.limit_conn_dry_run = Some(directive),
                "default_type" => scope.default_type = Some(directive),
                "root" => scope.root = Some(directive),
                "ssl_certificate" => scope.ssl_certificate = Some(directive),
                "ssl_certificate_key" => scope.ssl_certificate_key = Some(directive),
                _ => {}
            }
        }
        if !limit_req.is_empty() {
            scope.limit_req = limit_req;
        }
        // As limit_req: a level with a limit_conn of its own replaces the inherited ones.
        if !limit_conn.is_empty() {
            scope.limit_conn = limit_conn;
        }
        if !proxy_set_header.is_empty() {
            scope.proxy_set_header = proxy_set_header;
        }
        if !add_header.is_empty() {
            scope.add_header = add_header;
        }
        if !proxy_hide_header.is_empty() {
            scope.proxy_hide_header = proxy_hide_header;
        }
        if !proxy_redirect.is_empty() {
            scope.proxy_redirect = proxy_redirect;
        }
        if !access.is_empty() {
            scope.access = access;
        }
        if !auth_request_set.is_empty() {
            scope.auth_request_set = auth_request_set;
        }
        if !error_page.is_empty() {
            scope.error_page = error_page;
        }
    }

    fn server(&mut self, directive: &'a Directive, http: &Scope<'a>) {
        self.current_server = Some(directive);
        self.server_count += 1;
        let block = directive.block.as_deref().unwrap_or_default();
        let mut scope = http.clone();
        self.absorb(block, &mut scope);
        scope.server_root = scope.root;
        let mut listens = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for inner in block.iter().filter(|inner| inner.name == "listen") {
            if let Some((address, ssl, _)) = self.listen(inner) {
                if ssl {
                    scope.ssl = true;
                } else {
                    listens.push((address, inner.source.clone()));
                }
            } else if inner.args.iter().any(|arg| arg == "ssl") {
                scope.ssl = true;
            }
        }
        let sockets = server_sockets(directive);
        // No socket of it is plain: nginx serves it over TLS only.
        let tls_only = sockets
            .iter()
            .all(|socket| self.tls_sockets.contains(socket));
        if !block.iter().any(|inner| inner.name == "listen") && tls_only {
            scope.ssl = true;
        }
        scope.tls_only = tls_only;
        scope.plain_only = !sockets
            .iter()
            .any(|socket| self.tls_sockets.contains(socket));
        scope.server = Some(directive);
        let live: Vec<String> = sockets
            .iter()
            .filter(|socket| self.socket_defaults.contains_key(*socket))
            .cloned()
            .collect();
        scope.sockets = ServerSockets {
            default_of: live
                .iter()
                .filter(|socket| self.socket_defaults.get(*socket) == Some(&self.server_count))
                .cloned()
                .collect(),
            all: live,
        };
        if let (true, Some(cert), Some(key)) =
            (scope.ssl, scope.ssl_certificate, scope.ssl_certificate_key)
        {
            if let (Some(cert_path), Some(key_path)) = (cert.args.first(), key.args.first()) {
                let known = self
                    .certificates
                    .iter()
                    .any(|(known, _, _)| known == cert_path);
                if !known {
                    self.certificates.push((
                        cert_path.clone(),
                        key_path.clone(),
                        cert.source.clone(),
                    ));
                }
            }
        }
        let has_listen = block.iter().any(|inner| inner.name == "listen");
        if !has_listen {
            listens.push(("0.0.0.0:80".to_string(), directive.source.clone()));
        }
        for (address, source) in listens {
            if !self.listens.iter().any(|(known, _)| *known == address) {
                self.listens.push((address, source));
            }
        }
        for inner in block.iter().filter(|inner| inner.name == "server_name") {
            // Exact names and nginx's wildcards (`*.example.com`, `example.*`), as weir's `host`.
            let mut exact = Vec::new();
            let mut left_out = Vec::new();
            let mut shorthand = Vec::new();
            for name in &inner.args {
                if name.is_empty() || name == "_" {
                    continue;
                }
                match server_name_host(name) {
                    Ok(ServerName::Host(host)) => exact.push(host),
                    Ok(ServerName::Both(host)) => {
                        shorthand.push(name.clone());
                        exact.push(host.clone());
                        exact.push(format!("*.{host}"));
                    }
                    Err(why) => left_out.push(format!("{name} ({why})")),
                }
            }
            let any_name = !exact.is_empty();
            // nginx gives a name to the first server on the socket that has it ("conflicting
            // server name"); the same name on another address or port is no conflict.
            let mut taken = Vec::new();
            for name in exact {
                let mut first_owner = None;
                let mut claimed_here = false;
                for socket in &sockets {
                    match self.claimed_names.get(&(name.clone(), socket.clone())) {
                        Some(first) => first_owner = first_owner.or(Some(first.clone())),
                        None => {
                            self.claimed_names
                                .insert((name.clone(), socket.clone()), directive.source.clone());
                            claimed_here = true;
                        }
                    }
                }
                match (claimed_here || sockets.is_empty(), first_owner) {
                    (false, Some(first)) => {
                        taken.push(format!("{name} (the server at {first} has it)"))
                    }
                    _ => names.push(name),
                }
            }
            if !taken.is_empty() {
                self.unsupported(
                    inner,
                    format!("conflicting server name, as nginx warns: {}; nginx uses the first server for it, and so does weir", taken.join(", ")),
                );
            } else {
                let mut note = "[[routes]] host, for the routes of this server (the default server's routes match any host)".to_string();
                if !shorthand.is_empty() {
                    note.push_str(&format!(
                        "; {}: a route for the name and one for *.name, as nginx's shorthand matches both",
                        shorthand.join(", ")
                    ));
                }
                match (left_out.is_empty(), any_name) {
                    (true, _) => self.translated(inner, note),
                    (false, true) => self
                        .approximated(inner, format!("{note}; left out: {}", left_out.join(", "))),
                    (false, false) => self.unsupported(
                        inner,
                        format!("no name weir can route; left out: {}", left_out.join(", ")),
                    ),
                }
            }
        }
        // The default server of every socket it has answers any host there: host-less routes
        // only. The default of some of its sockets answers its names on all of them, and any
        // host on those. A server whose sockets weir does not listen on (TLS without [tls])
        // is the default as weir's one plain listener sees it.
        let (default, every_host_too) = if scope.sockets.all.is_empty() {
            (self.server_count == self.default_server, false)
        } else {
            let of = &scope.sockets.default_of;
            (
                !of.is_empty(),
                !of.is_empty() && of.len() < scope.sockets.all.len(),
            )
        };
        let mut hosts: Vec<Option<String>> = if (default && !every_host_too) || names.is_empty() {
            vec![None]
        } else {
            names.iter().cloned().map(Some).collect()
        };
        if every_host_too && !names.is_empty() {
            hosts.push(None);
        }
        if !default && names.is_empty() {
            self.unsupported(directive, "no server_name weir can route (an exact name or a wildcard) and not the default server: weir cannot reach it; its routes are left out");
            self.account_block(directive);
            return;
        }
        let note = if default {
            "its routes match any host (nginx's default server)".to_string()
        } else {
            format!("its routes match host {}", names.join(", "))
        };
        self.translated(directive, note);
        self.named_locations.clear();
        for inner in block {
            if inner.name == "location"
                && inner.args.first().is_some_and(|arg| arg.starts_with('@'))
            {
                self.named_locations.insert(inner.args[0].clone(), inner);
            }
        }

        // certbot's `if ($host = NAME) { return 301 https://...; }`: a redirect route for that
        // host, on this server's sockets, before the server's own routes.
        for inner in block.iter().filter(|inner| inner.name == "if") {
            let Some((host, answer)) = certbot_if(inner) else {
                continue;
            };
            let Some(target @ RouteTarget::Redirect { .. }) = self.return_target(answer, None, 0)
            else {
                continue;
            };
            self.routes.push(Route::whole_server(
                &scope,
                Some(host.clone()),
                target,
                answer.source.clone(),
                inner.source.clone(),
            ));
            self.translated(
                inner,
                format!("[[routes]] host = {host:?} on this server's listeners, before its other routes"),
            );
            self.translated(answer, "redirect and status of that route");
        }

        // `rewrite REGEX URL permanent` (or `redirect`, or a URL with a scheme): nginx redirects a
        // path the regex matches before any location; a regex route of its own, ahead of the
        // server's other regex routes.
        for inner in block.iter().filter(|inner| inner.name == "rewrite") {
            let Some((regex, target)) = self.rewrite_redirect(inner, None) else {
                continue;
            };
            for host in &hosts {
                self.routes.push(Route {
                    path: regex.clone(),
                    path_match: PathMatch::Regex,
                    ..Route::whole_server(
                        &scope,
                        host.clone(),
                        target.clone(),
                        inner.source.clone(),
                        inner.source.clone(),
                    )
                });
            }
        }

        // `if ($scheme != "https") { return 301 https://$host$request_uri; }`: nginx redirects
        // every plain-HTTP request before any location.
        let mut scheme_return = None;
        if let Some((inner, answer)) = block
            .iter()
            .find_map(|inner| Some((inner, scheme_if(inner)?)))
        {
            let redirect = match self.return_target(answer, None, 0) {
                Some(target @ RouteTarget::Redirect { .. }) => Some(target),
                _ => None,
            };
            if scope.tls_only {
                self.translated(inner, "never true: every socket of this server is TLS");
                self.translated(answer, "never reached: every socket of this server is TLS");
            } else if scope.plain_only && redirect.is_some() {
                // Always true: the server's own `return`, as below.
                self.translated(inner, "always true: every socket of this server is plain HTTP, so it is the server's return (below)");
                scheme_return = Some(answer);
            } else if let (Some(target), Some(_)) = (redirect, scope.ssl_certificate) {
                // Both kinds of socket: the redirect on the plain ones, the server's routes on
                // the TLS ones.
                let tls = &self.tls_sockets;
                let mut plain = scope.clone();
                plain.sockets.all.retain(|socket| !tls.contains(socket));
                plain
                    .sockets
                    .default_of
                    .retain(|socket| !tls.contains(socket));
                (plain.plain_only, plain.tls_only) = (true, false);
                scope.sockets.all.retain(|socket| tls.contains(socket));
                scope
                    .sockets
                    .default_of
                    .retain(|socket| tls.contains(socket));
                (scope.plain_only, scope.tls_only) = (false, true);
                for host in &hosts {
                    self.routes.push(Route::whole_server(
                        &plain,
                        host.clone(),
                        target.clone(),
                        answer.source.clone(),
                        inner.source.clone(),
                    ));
                }
                self.translated(
                    inner,
                    "a redirect route (scheme = \"http\") on this server's plain sockets; its other routes answer on its TLS sockets only (scheme = \"https\")",
                );
                self.translated(answer, "redirect and status of that route");
            }
        }

        // A `return` in the server block answers before any location.
        if let Some(answer) = block
            .iter()
            .find(|inner| inner.name == "return")
            .or(scheme_return)
        {
            let target = self.return_target(answer, scope.default_type, 0);
            if let Some(target) = target {
                for host in &hosts {
                    self.routes.push(Route::whole_server(
                        &scope,
                        host.clone(),
                        target.clone(),
                        answer.source.clone(),
                        directive.source.clone(),
                    ));
                }
            }
            for inner in block {
                match inner.name.as_str() {
                    "listen" | "server_name" => {}
                    "return" if std::ptr::eq(inner, answer) => {}
                    "limit_req" => self.translated(
                        inner,
                        "not applied in nginx either: the server's return answers first",
                    ),
                    "location" => {
                        self.translated(
                            inner,
                            "never reached in nginx either: the server's return answers first",
                        );
                        self.account_block(inner);
                    }
                    _ => self.common(inner, "server"),
                }
            }
            return;
        }

        // A server-level `try_files` (with root, no `location /`) answers the paths no location
        // matches, as the whole-server static route's fallback.
        let root_location = |inner: &Directive| {
            inner.name == "location"
                && (inner.args.first().is_some_and(|arg| arg == "/")
                    || inner.args.first().is_some_and(|a| a == "^~")
                        && inner.args.get(1).is_some_and(|a| a == "/"))
        };
        let server_try_files = block
            .iter()
            .find(|inner| inner.name == "try_files")
            .filter(|_| scope.root.is_some() && !block.iter().any(root_location));
        let mut server_fallback = None;
        let mut has_root_location = false;
        for inner in block {
            match inner.name.as_str() {
                "listen" | "server_name" => {}
                "try_files" if server_try_files.is_some_and(|found| std::ptr::eq(found, inner)) => {
                    server_fallback = self.server_fallback(inner, &scope);
                }
                "location" => {
                    has_root_location |= inner.args.first().is_some_and(|arg| arg == "/")
                        || inner.args.first().is_some_and(|a| a == "^~")
                            && inner.args.get(1).is_some_and(|a| a == "/");
                    self.location(inner, &scope, &hosts);
                }
                _ => self.common(inner, "server"),
            }
        }
        let rewrites = std::mem::take(&mut self.rewrite_routes);
        self.routes.extend(rewrites);
        if !has_root_location {
            if let Some(root) = scope.root {
                let path = root.args.first().cloned().unwrap_or_default();
                for host in &hosts {
                    let route = Route::whole_server(
                        &scope,
                        host.clone(),
                        RouteTarget::Static(path.clone()),
                        root.source.clone(),
                        directive.source.clone(),
                    );
                    let Some(fallback) = &server_fallback else {
                        self.routes.push(route);
                        continue;
                    };
                    if let Some((name, source)) = &fallback.home {
                        self.routes.push(Route {
                            path_match: PathMatch::Exact,
                            upstream_host: fallback.upstream_host.clone(),
                            ..Route::whole_server(
                                &scope,
                                host.clone(),
                                RouteTarget::Upstream(name.clone()),
                                source.clone(),
                                directive.source.clone(),
                            )
                        });
                    }
                    self.routes.push(Route {
                        fallback: Some(fallback.fallback.clone()),
                        upstream_host: fallback.upstream_host.clone(),
                        ..route
                    });
                }
            } else if !default {
                // nginx answers the paths no location matches from its default root, which
                // holds nothing in a packaged install: 404, not the default server's routes.
                // A server-level rewrite or if (not carried) is what answers them in nginx.
                let unhandled = block
                    .iter()
                    .find(|inner| {
                        // Not certbot's `if ($host = ...)`, which is translated.
                        inner.name == "rewrite"
                            || (inner.name == "if"
                                && certbot_if(inner).is_none()
                                && scheme_if(inner).is_none()
                                && headers::header_guard(inner).is_none())
                    })
                    .map(|inner| inner.source.clone());
                for host in &hosts {
                    self.routes.push(Route {
                        remark: Some(match &unhandled {
                            Some(source) => format!("(nginx answers these paths by the server's rewrite or if at {source}, which weir does not carry: 404)"),
                            None => "(no location matches: nginx answers 404 from its empty default root)".to_string(),
                        }),
                        // nginx's 404 comes after allow/deny, from the server's own settings.
                        rules: Rules::of(&scope, false, false),
                        ..Route::whole_server(
                            &scope,
                            host.clone(),
                            RouteTarget::Status(404, None),
                            directive.source.clone(),
                            directive.source.clone(),
                        )
                    });
                }
            }
        }
    }

    /// A server-level `try_files $uri [$uri/] @app` or `... /index.html`, in a server with root and
    /// no `location /`: the whole-server static route's fallback. Any other shape is reported as
    /// before (`common`).
    fn server_fallback(
        &mut self,
        try_files: &'a Directive,
        scope: &Scope<'a>,
    ) -> Option<ServerFallback> {
        let (first, last) = try_files
            .args
            .split_at(try_files.args.len().saturating_sub(1));
        let files_first =
            !first.is_empty() && first[0] == "$uri" && first[1..].iter().all(|arg| arg == "$uri/");
        let with_dirs = first.len() > 1;
        let looks_in_dir = if with_dirs {
            "the file, or the directory's index.html"
        } else {
            "the file"
        };
        let last = last.first().map(String::as_str).unwrap_or("");
        let named = self.named_locations.get(last).copied();
        let named_proxy = named.and_then(|named| {
            named
                .block
                .iter()
                .flatten()
                .find(|inner| inner.name == "proxy_pass")
                .map(|proxy_pass| (named, proxy_pass))
        });
        if let (true, Some((named, proxy_pass))) = (files_first, named_proxy) {
            if let Some((name, _)) = self.proxy_pass(proxy_pass, "/", false) {
                let named_block = named.block.as_deref().unwrap_or_default();
                let mut proxy_scope = scope.clone();
                self.absorb(named_block, &mut proxy_scope);
                let upstream_host = self
                    .upstream_host(&proxy_scope, proxy_pass)
                    .map(|host| (host, proxy_pass.source.clone()));
                let mut note = format!("fallback_upstream = {name:?} on the server's static route (the paths no location matches): weir serves {looks_in_dir} if there is one, else passes the request to the app of {last} (a path with a dot-file segment gets 404 and does not reach it: dotfiles = false)");
                let home = if with_dirs {
                    self.translated(try_files, note);
                    None
                } else {
                    note.push_str(&format!("; / itself goes to {last} by a route of its own (match = \"exact\"), as nginx's $uri finds no file there; another directory's path gets its index.html or 403 from weir, where nginx (no $uri/ in try_files) passes it to {last}"));
                    self.approximated(try_files, note);
                    Some((name.clone(), proxy_pass.source.clone()))
                };
                self.translated(
                    named,
                    "its proxy_pass is the fallback_upstream of the static routes whose try_files falls back to it",
                );
                for inner in named_block {
                    if !std::ptr::eq(inner, proxy_pass) {
                        self.common(inner, "location");
                    }
                }
                return Some(ServerFallback {
                    fallback: (StaticFallback::Upstream(name), try_files.source.clone()),
                    home,
                    upstream_host,
                });
            }
        }
        if files_first && last.starts_with('/') {
            if let Ok(file) = fallback_file(last, "/", PathMatch::Prefix) {
                let note = format!("fallback_file = {file:?} on the server's static route (the paths no location matches): weir serves {looks_in_dir} if there is one, else {file} of the root, where nginx looks {last} up again (the same file while no location takes {last}); a path with a dot-file segment gets 404, not {file}: dotfiles = false");
                if with_dirs {
                    self.translated(try_files, note);
                } else {
                    self.approximated(try_files, format!("{note}; a directory's path gets its index.html or 403 from weir, where nginx (no $uri/ in try_files) answers with {last}"));
                }
                return Some(ServerFallback {
                    fallback: (StaticFallback::File(file), try_files.source.clone()),
                    home: None,
                    upstream_host: None,
                });
            }
        }
        self.common(try_files, "server");
        None
    }

    /// `listen`: the address weir listens on, whether it is `ssl`, whether `default_server`.
    fn listen(&mut self, directive: &Directive) -> Option<(String, bool, bool)> {
        let address = directive.args.first()?;
        let quic = directive.args.iter().any(|arg| arg == "quic");
        let default = directive
            .args
            .iter()
            .any(|arg| arg == "default_server" || arg == "default");
        if address.starts_with("unix:") {
            self.unsupported(directive, "weir listens on TCP only");
            return None;
        }
        let Some(socket) = listen_address(address) else {
            self.unsupported(
                directive,
                "weir listens on IP addresses: give IP:port or a port",
            );
            return None;
        };
        if quic {
            self.unsupported(directive, "weir has no HTTP/3 (QUIC) yet");
            return None;
        }
        // In nginx `ssl` belongs to the socket: a `listen` without it is TLS too when another
        // `listen` of the same socket, or `ssl on`, says so.
        let ssl =
            directive.args.iter().any(|arg| arg == "ssl") || self.tls_sockets.contains(&socket);
        if ssl {
            // Translated once `finish` knows a certificate is there (else unsupported there).
            match self
                .tls_listens
                .iter_mut()
                .find(|(known, _, _)| *known == socket)
            {
                Some((_, sources, _)) => sources.push(directive.source.clone()),
                None => self.tls_listens.push((
                    socket.clone(),
                    vec![directive.source.clone()],
                    shorten(&directive.summary()),
                )),
            }
            self.accounted.insert(directive as *const Directive);
            return Some((socket, true, default));
        }
        let mut notes = Vec::new();
        let mut kind = Kind::Translated;
        for parameter in &directive.args[1..] {
            let (key, value) = parameter
                .split_once('=')
                .unwrap_or((parameter.as_str(), ""));
            match key {
                "default_server" | "default" | "reuseport" | "deferred" | "ipv6only" | "bind" => {}
                "backlog" => {
                    if let Ok(backlog) = value.parse::<u32>() {
                        self.server
                            .set("backlog", backlog.to_string(), Some(&directive.source));
                        notes.push(format!("backlog = {backlog}"));
                    }
                }
                "http2" | "proxy_protocol" => {
                    kind = Kind::Approximated;
                    notes.push(format!("{key} is not supported"));
                }
                _ => {
                    kind = Kind::Approximated;
                    notes.push(format!("{key} is not supported"));
                }
            }
        }
        let mut note = format!("[server] listen += {socket:?}");
        if address == "localhost" || address.starts_with("localhost:") {
            kind = Kind::Approximated;
            notes.push("localhost taken as 127.0.0.1".into());
        }
        if !notes.is_empty() {
            note.push_str(&format!("; {}", notes.join("; ")));
        }
        self.item(kind, directive, note);
        Some((socket, false, default))
    }

    fn location(&mut self, directive: &'a Directive, parent: &Scope<'a>, hosts: &[Option<String>]) {
        // nginx takes the modifier glued to the path too (`=/p`, `^~/p`, `~\.php$`, `~*\.png$`).
        let (modifier, mut path) = match directive.args.as_slice() {
            [path] if path.starts_with('=') && path.len() > 1 => ("=", path[1..].to_string()),
            [path] if path.starts_with("^~") && path.len() > 2 => ("^~", path[2..].to_string()),
            [path] if path.starts_with("~*") && path.len() > 2 => ("~*", path[2..].to_string()),
            [path] if path.starts_with('~') && path.len() > 1 => ("~", path[1..].to_string()),
            [path] => ("", path.clone()),
            [modifier, path] => (modifier.as_str(), path.clone()),
            _ => ("?", String::new()),
        };
        let path_match = match modifier {
            "" => PathMatch::Prefix,
            "=" => PathMatch::Exact,
            "^~" => PathMatch::PrefixStop,
            "~" => PathMatch::Regex,
            "~*" => PathMatch::RegexNocase,
            _ => {
                self.unsupported(directive, "expected location [=|^~|~|~*] PATH");
                self.account_block(directive);
                return;
            }
        };
        if path.starts_with('@') {
            if self.accounted.contains(&(directive as *const Directive)) {
                return;
            }
            if self.asks && self.signs_in_at(&path) {
                self.translated(
                    directive,
                    "its return 302 URL is the sign_in of the auth_request whose error_page 401 names it",
                );
                self.account_block(directive);
                return;
            }
            self.approximated(
                directive,
                "a named location is used only by try_files ... @name; see there",
            );
            self.account_block(directive);
            return;
        }
        let exact = path_match == PathMatch::Exact;
        let regex = path_match.is_regex();
        // A final look-ahead of literals (`/\.(?!well-known)`), which weir's regexes lack, written
        // out without one: the same paths match.
        let mut written_out = None;
        if regex {
            if let Some(expanded) = lookahead::expand(&path, path_match == PathMatch::RegexNocase) {
                written_out = Some(std::mem::replace(&mut path, expanded));
            }
        }
        if regex {
            if let Err(why) = route_regex(&path, path_match == PathMatch::RegexNocase) {
                let suggestion = regex_suggestion(&path);
                self.unsupported(directive, format!("{why}; {suggestion}"));
                self.account_block(directive);
                self.less_safe_if_guards(directive);
                return;
            }
        }
        let mut location_note = match path_match.key() {
            Some(key) => format!("[[routes]] path = {path:?}, match = {key:?}"),
            None => format!("[[routes]] path = {path:?}"),
        };
        if let Some(original) = &written_out {
            location_note.push_str(&format!(
                " (nginx's {original}, its look-ahead written out: weir's regexes have none; the same paths match)"
            ));
        }
        if !regex && !path.starts_with('/') {
            self.unsupported(directive, "a location path starts with /");
            self.account_block(directive);
            return;
        }
        let block = directive.block.as_deref().unwrap_or_default();
        let mut scope = parent.clone();
        self.absorb(block, &mut scope);

        // What answers: return, proxy_pass, try_files @named, alias, root.
        let mut target: Option<(RouteTarget, Source)> = None;
        let mut handled: HashSet<*const Directive> = HashSet::new();
        let mut proxy_scope = scope.clone();
        // The proxy_pass requests go to, and a static route's fallback (try_files).
        let mut proxy_used: Option<&Directive> = None;
        let mut fallback_target: Option<(StaticFallback, Source)> = None;
        // `try_files $uri $uri.html ...`: the suffixes its static route tries.
        let mut try_suffixes_found: Option<(Vec<String>, Source)> = None;
        // `try_files $uri @app` in `location /`: the exact `/` goes to the app (upstream, proxy_pass).
        let mut app_home: Option<(String, Source)> = None;
        // The URI part of the location's own `proxy_pass`, which replaces its path.
        let mut upstream_path: Option<String> = None;
        if matches!(path_match, PathMatch::Prefix | PathMatch::PrefixStop) {
            self.location_rewrites(block, &path, &scope, hosts, &mut handled);
        }
        if let Some(answer) = block.iter().find(|inner| inner.name == "return") {
            handled.insert(answer as *const Directive);
            // A regex location's `return` may name its groups (`$1`).
            let groups = if regex {
                ::regex::Regex::new(&path).map_or(0, |compiled| compiled.captures_len() - 1)
            } else {
                0
            };
            if let Some(route_target) = self.return_target(answer, scope.default_type, groups) {
                target = Some((route_target, answer.source.clone()));
            }
        } else if let Some(proxy_pass) = block.iter().find(|inner| inner.name == "proxy_pass") {
            handled.insert(proxy_pass as *const Directive);
            proxy_used = Some(proxy_pass);
            if let Some((name, uri)) = self.proxy_pass(proxy_pass, &path, !regex) {
                target = Some((RouteTarget::Upstream(name), proxy_pass.source.clone()));
                upstream_path = uri;
                // `rewrite ^/api/(.*)$ /$1 break;` before it: the path sent is the rewritten
                // one, whatever URI the proxy_pass has (nginx ignores it then).
                let rewrites: Vec<&Directive> = block
                    .iter()
                    .filter(|inner| inner.name == "rewrite")
                    .collect();
                let prefixed = matches!(path_match, PathMatch::Prefix | PathMatch::PrefixStop);
                if let ([rewrite], true) = (rewrites.as_slice(), prefixed) {
                    if let Some(swapped) = rewrite_prefix(&path, rewrite) {
                        handled.insert(*rewrite as *const Directive);
                        self.translated(
                            rewrite,
                            format!("upstream_path = {swapped:?}: the location's {path:?} is replaced with it in the path sent upstream, the query kept, as this rewrite does to every path the location takes"),
                        );
                        upstream_path = Some(swapped);
                    }
                }
            }
        } else if let Some(try_files) = block.iter().find(|inner| inner.name == "try_files") {
            handled.insert(try_files as *const Directive);
            let fallback = try_files
                .args
                .last()
                .filter(|arg| arg.starts_with('@'))
                .cloned();
            let named = fallback
                .as_ref()
                .and_then(|name| self.named_locations.get(name).copied());
            let named_proxy = named.and_then(|named| {
                named
                    .block
                    .iter()
                    .flatten()
                    .find(|inner| inner.name == "proxy_pass")
                    .map(|proxy_pass| (named, proxy_pass))
            });
            // `try_files $uri [$uri/] LAST` in a location that serves files (its alias, or a root
            // in force): weir's static route looks for the file first, then its fallback.
            let serves_files = !exact
                && if block.iter().any(|inner| inner.name == "alias") {
                    !regex
                } else {
                    scope.root.is_some()
                };
            let (first, last) = try_files
                .args
                .split_at(try_files.args.len().saturating_sub(1));
            let candidates = first.get(1..).and_then(try_suffixes);
            let files_first =
                serves_files && !first.is_empty() && first[0] == "$uri" && candidates.is_some();
            if let (true, Some(suffixes)) = (files_first, &candidates) {
                if !suffixes.is_empty() {
                    try_suffixes_found = Some((suffixes.clone(), try_files.source.clone()));
                }
            }
            // With `$uri/`, nginx serves a directory (its index.html, or 403) as weir's static
            // route does; without it, a directory's path goes to the fallback.
            let with_dirs = first.len() > 1;
            let looks_in_dir = match (&try_suffixes_found, with_dirs) {
                (Some((suffixes, _)), _) => format!(
                    "the file, or the first that is one of the path with try_suffixes = {suffixes:?} appended"
                ),
                (None, true) => "the file, or the directory's index.html".to_string(),
                (None, false) => "the file".to_string(),
            };
            let fallback_uri = last
                .first()
                .filter(|uri| files_first && uri.starts_with('/'));
            match (named_proxy, fallback_uri) {
                (Some((named, proxy_pass)), _) => {
                    let name = self
                        .proxy_pass(proxy_pass, &path, false)
                        .map(|(name, _)| name);
                    proxy_used = Some(proxy_pass);
                    // The named location's settings apply to the proxied requests.
                    let named_block = named.block.as_deref().unwrap_or_default();
                    self.absorb(named_block, &mut proxy_scope);
                    let named_name = fallback.as_deref().unwrap_or("");
                    if files_first {
                        if let Some(name) = name {
                            let mut note = format!("fallback_upstream = {name:?}: weir serves {looks_in_dir} if there is one, else passes the request to the app of {named_name} (a path with a dot-file segment gets 404 and does not reach it: dotfiles = false)");
                            if with_dirs {
                                self.translated(try_files, note);
                            } else {
                                // `/` is the app's home page: a route of its own keeps it the app's.
                                let own_root = scope.server.is_some_and(|server| {
                                    server.block.iter().flatten().any(|inner| {
                                        inner.name == "location"
                                            && (inner.args == ["=", "/"] || inner.args == ["=/"])
                                    })
                                });
                                if path == "/" && path_match == PathMatch::Prefix && !own_root {
                                    note.push_str(&format!("; / itself goes to {named_name} by a route of its own (match = \"exact\"), as nginx's $uri finds no file there"));
                                    app_home = Some((name.clone(), proxy_pass.source.clone()));
                                }
                                note.push_str(&format!("; another directory's path gets its index.html or 403 from weir, where nginx (no $uri/ in try_files) passes it to {named_name}"));
                                self.approximated(try_files, note);
                            }
                            fallback_target =
                                Some((StaticFallback::Upstream(name), try_files.source.clone()));
                        }
                        self.translated(
                            named,
                            "its proxy_pass is the fallback_upstream of the static routes whose try_files falls back to it",
                        );
                    } else {
                        if let Some(name) = name {
                            target = Some((RouteTarget::Upstream(name), proxy_pass.source.clone()));
                        }
                        self.approximated(
                            try_files,
                            format!("every request goes to the app of {named_name}: weir does not look for a file first (put the files on a static route of their own, e.g. /static/)"),
                        );
                        self.approximated(
                            named,
                            "its proxy_pass serves the locations whose try_files falls back to it",
                        );
                    }
                    for inner in named_block {
                        if std::ptr::eq(inner, proxy_pass) {
                            continue;
                        }
                        self.common(inner, "location");
                    }
                }
                (None, Some(uri)) => {
                    match fallback_file(uri, &path, path_match) {
                        Ok(file) => {
                            let note = format!("fallback_file = {file:?}: weir serves {looks_in_dir} if there is one, else {file} of the route's directory, where nginx looks {uri} up again (the same file while no other location takes {uri}); a path with a dot-file segment gets 404, not {file}: dotfiles = false");
                            if with_dirs {
                                self.translated(try_files, note);
                            } else {
                                self.approximated(try_files, format!("{note}; a directory's path below the location's own gets its index.html or 403 from weir, where nginx (no $uri/ in try_files) answers with {uri}"));
                            }
                            fallback_target =
                                Some((StaticFallback::File(file), try_files.source.clone()));
                        }
                        Err(why) => self.unsupported(try_files, why),
                    }
                    handled.remove(&(try_files as *const Directive));
                }
                (None, None) => {
                    let only_uri = try_files
                        .args
                        .iter()
                        .all(|arg| arg == "$uri" || arg == "$uri/" || arg == "=404");
                    // `$uri $uri.html ... =404`, or a last URI that is `$uri` with a suffix.
                    let suffixes = match try_files.args.split_last() {
                        Some((last, [uri, between @ ..])) if uri == "$uri" && !only_uri => {
                            let mut candidates = between.to_vec();
                            if last != "=404" {
                                candidates.push(last.clone());
                            }
                            try_suffixes(&candidates).filter(|suffixes| !suffixes.is_empty())
                        }
                        _ => None,
                    };
                    let static_files =
                        block.iter().any(|inner| inner.name == "alias") || scope.root.is_some();
                    if only_uri && static_files {
                        self.translated(try_files, "what a static route does: the file, the directory's index.html, or 404");
                    } else if let (Some(suffixes), true) = (suffixes, static_files) {
                        let note = format!("try_suffixes = {suffixes:?}: a path that names no file gets the first of them appended that does, in order, else 404 (\"/\" is $uri/, the directory)");
                        let last = try_files.args.last().map_or("", String::as_str);
                        if last != "=404" {
                            self.approximated(try_files, format!("{note}; nginx routes its last, {last}, again: another location may take it, and when this one does and it names no file nginx goes round until it answers 500 (an internal redirection cycle); weir looks for it once in this route's directory, 404 when it is not there"));
                        } else {
                            self.translated(try_files, note);
                        }
                        try_suffixes_found = Some((suffixes, try_files.source.clone()));
                    } else {
                        self.unsupported(
                            try_files,
                            "weir serves the file asked for or 404; no fallbacks",
                        );
                    }
                    handled.remove(&(try_files as *const Directive));
                    self.accounted.insert(try_files as *const Directive);
                }
            }
        }
        if target.is_none()
            && !block
                .iter()
                .any(|inner| matches!(inner.name.as_str(), "return" | "proxy_pass"))
        {
            if let Some(alias) = block.iter().find(|inner| inner.name == "alias") {
                handled.insert(alias as *const Directive);
                if let Some(dir) = alias.args.first() {
                    if regex {
                        self.unsupported(alias, "alias in a regex location names the file from the regex's captures ($1); a weir static route serves a directory: use root, or a prefix location");
                    } else if exact {
                        // An exact route's `static` may be the one file it serves.
                        self.translated(alias, format!("static = {dir:?}: the exact route serves that file (or that directory's index)"));
                        target = Some((RouteTarget::Static(dir.clone()), alias.source.clone()));
                    } else {
                        self.translated(alias, format!("static = {dir:?}"));
                        target = Some((RouteTarget::Static(dir.clone()), alias.source.clone()));
                    }
                }
            } else if let Some(root) = scope.root {
                if let Some(dir) = root.args.first() {
                    if exact {
                        // root + the path: the one file the exact route serves (or, for a path
                        // ending in `/`, the directory whose index it serves).
                        let file = format!("{}{}", dir.trim_end_matches('/'), path);
                        location_note.push_str(&format!(
                            ", static = {file:?} (root + the path: the one file it serves)"
                        ));
                        target = Some((RouteTarget::Static(file), root.source.clone()));
                    } else if regex {
                        // A static regex route strips nothing, as root.
                        location_note.push_str(&format!(", static = {dir:?} (root)"));
                        target = Some((RouteTarget::Static(dir.clone()), root.source.clone()));
                    } else {
                        // root keeps the location's path under the directory; weir strips it.
                        let dir = format!("{}{}", dir.trim_end_matches('/'), path);
                        location_note
                            .push_str(&format!(", static = {dir:?} (root + the location's path)"));
                        target = Some((RouteTarget::Static(dir), root.source.clone()));
                    }
                }
            }
        }
        for inner in block {
            if handled.contains(&(inner as *const Directive))
                || inner.name == "try_files"
                || inner.name == "alias"
            {
                if inner.name == "alias" && !self.accounted.contains(&(inner as *const Directive)) {
                    self.translated(inner, "not used: the location proxies");
                }
                continue;
            }
            match inner.name.as_str() {
                "location" if regex => {
                    self.unsupported(inner, format!("a location inside the regex location {path:?}: weir's routes do not nest, so it is not routed"));
                    self.account_block(inner);
                    self.less_safe_if_guards(inner);
                }
                // nginx tries a regex nested in a prefix location only for that prefix's paths;
                // a weir regex route would match them anywhere.
                "location"
                    if inner
                        .args
                        .first()
                        .is_some_and(|modifier| modifier.starts_with('~')) =>
                {
                    self.unsupported(inner, format!("a regex location inside the location {path:?}: nginx tries it only for the paths of {path:?}, and weir's regex routes do not nest (one would match everywhere), so it is not routed"));
                    self.account_block(inner);
                    self.less_safe_if_guards(inner);
                }
                "location" => self.location(inner, &scope, hosts),
                // Said below, with the route it marks.
                "proxy_pass" | "return" | "internal" => {}
                _ => self.common(inner, "location"),
            }
        }
        let internal = block.iter().find(|inner| inner.name == "internal");
        // No content handler but access rules (the dot-file guard `location ~ /\. { deny all; }`
        // without a root): nginx runs allow/deny, then answers from its empty default root, 404.
        // A `status = 404` route with the rules does the same (403 to a refused client); left
        // out, the paths would reach another route, the app.
        let guarded = block
            .iter()
            .any(|inner| matches!(inner.name.as_str(), "allow" | "deny"));
        // No content handler at all and no root in force (Django's guide's `location =
        // /favicon.ico { access_log off; log_not_found off; }`): nginx answers from its default
        // root, which holds no such file in a packaged install: 404, where the app would have
        // had every browser's request for it.
        // (nginx's own default root holds an index.html and a 50x.html: those it would serve.)
        let no_handler = scope.root.is_none()
            && !matches!(path.as_str(), "/" | "/index.html" | "/50x.html")
            && !block.iter().any(|inner| {
                matches!(
                    inner.name.as_str(),
                    "proxy_pass"
                        | "return"
                        | "try_files"
                        | "alias"
                        | "root"
                        | "rewrite"
                        | "if"
                        | "uwsgi_pass"
                        | "fastcgi_pass"
                        | "scgi_pass"
                        | "grpc_pass"
                        | "memcached_pass"
                        | "stub_status"
                        | "empty_gif"
                )
            });
        let default_root = target.is_none() && internal.is_none() && (guarded || no_handler);
        let target = if default_root {
            location_note.push_str(if guarded {
                ", status = 404 (no proxy_pass, root or alias: nginx answers from its empty default root, after its allow/deny)"
            } else {
                ", status = 404 (no proxy_pass, root or alias, and no root in force: nginx answers from its default root, html under its prefix, which holds only its own index.html and 50x.html)"
            });
            Some((RouteTarget::Status(404, None), directive.source.clone()))
        } else {
            target
        };
        let Some((target, target_source)) = target else {
            if !self.accounted.contains(&(directive as *const Directive)) {
                self.unsupported(
                    directive,
                    "no proxy_pass, return, root or alias weir can use: no route",
                );
            }
            if let Some(internal) = internal {
                self.unsupported(internal, "the location makes no route");
                self.less_safe(
                    internal,
                    format!("the location makes no route: a client's request for {path} goes to another route, where nginx answered it 404"),
                );
            }
            return;
        };
        let (fallback, try_suffixes) = match target {
            RouteTarget::Static(_) => (fallback_target, try_suffixes_found),
            _ => (None, None),
        };
        let fallback_upstream = match &fallback {
            Some((StaticFallback::Upstream(name), _)) => Some(name.clone()),
            _ => None,
        };
        // The route passes requests to an upstream: its own, or its static fallback's.
        let is_upstream = matches!(target, RouteTarget::Upstream(_)) || fallback_upstream.is_some();
        // A `return` answers before limits and access rules run; nginx's default root after.
        let is_answer = !default_root
            && matches!(
                target,
                RouteTarget::Redirect { .. } | RouteTarget::Status(..)
            );
        self.translated(directive, location_note);
        if let Some(internal) = internal {
            self.translated(
                internal,
                "internal = true: clients get 404, as from nginx; an upstream's X-Accel-Redirect reaches it",
            );
            // weir's internal route takes no limits: the request was limited by the route that
            // proxied it, as nginx counts limit_req once per request.
            for limit_req in block.iter().filter(|inner| inner.name == "limit_req") {
                self.approximated(
                    limit_req,
                    "not carried: weir's internal route takes no limits; the route whose upstream sent X-Accel-Redirect applied its own (nginx counts limit_req once per request, too)",
                );
            }
            for limit_conn in block.iter().filter(|inner| inner.name == "limit_conn") {
                self.translated(
                    limit_conn,
                    "not applied in nginx either: a request is counted once, by the location it came to, and weir's internal route takes no connection limits",
                );
            }
        }
        if is_answer {
            for limit in block
                .iter()
                .filter(|inner| inner.name == "limit_req" || inner.name == "limit_conn")
            {
                self.translated(
                    limit,
                    format!(
                        "not applied in nginx either: return answers before {}",
                        limit.name
                    ),
                );
            }
        }
        let upstream_host = match proxy_used {
            Some(proxy_pass) if is_upstream => self
                .upstream_host(&proxy_scope, proxy_pass)
                .map(|host| (host, proxy_pass.source.clone())),
            _ => None,
        };

        // Settings that become route keys, and upstream keys.
        let mut limits = Vec::new();
        if !is_answer && internal.is_none() {
            for limit_req in proxy_scope.limit_req.clone() {
                if let Some(name) = self.limit_req(limit_req, &proxy_scope) {
                    if !limits
                        .iter()
                        .any(|(known, _): &(String, Source)| *known == name)
                    {
                        limits.push((name, limit_req.source.clone()));
                    }
                }
            }
        }
        let mut connection_limits = Vec::new();
        if !is_answer && internal.is_none() {
            for limit_conn in proxy_scope.limit_conn.clone() {
                if let Some(name) = self.limit_conn(limit_conn, &proxy_scope) {
                    if !connection_limits
                        .iter()
                        .any(|(known, _): &(String, Source)| *known == name)
                    {
                        connection_limits.push((name, limit_conn.source.clone()));
                    }
                }
            }
        }
        let flag = |directive: Option<&Directive>| {
            directive.and_then(|directive| {
                let on = match directive.args.first().map(String::as_str) {
                    Some("on") => true,
                    Some("off") => false,
                    _ => return None,
                };
                Some((on, directive.source.clone()))
            })
        };
        let (request_buffering, response_buffering) = if is_upstream {
            (
                flag(proxy_scope.proxy_request_buffering),
                flag(proxy_scope.proxy_buffering),
            )
        } else {
            (None, None)
        };
        let upstream_name = match &target {
            RouteTarget::Upstream(name) => Some(name),
            _ => fallback_upstream.as_ref(),
        };
        let read_timeout = upstream_name
            .and_then(|name| self.upstream_timeouts(name, &proxy_scope, &directive.source));
        let rules = Rules::of(&proxy_scope, is_upstream, is_answer);
        // A static route's fallback to the app has no `upstream` to carry them.
        let location_rewrites = match proxy_used {
            Some(proxy_pass) if matches!(target, RouteTarget::Upstream(_)) => location_rewrites(
                &proxy_scope,
                proxy_pass,
                (!regex).then_some(path.as_str()),
                upstream_host.is_some(),
            ),
            _ => Vec::new(),
        };
        if let (Some(proxy_pass), [(prefix, to, _)], true) = (
            proxy_used,
            location_rewrites.as_slice(),
            proxy_scope.proxy_redirect.is_empty(),
        ) {
            let note = format!(
                "location_rewrites {prefix:?} = {to:?}: nginx's proxy_redirect default, as the app is sent $proxy_host and names it in the URLs it redirects to (a path stays a path, where nginx's absolute_redirect writes http://HOST:PORT/...: the same place)"
            );
            self.note_on_proxy_pass(proxy_pass, &note);
        }
        for host in hosts {
            let route = Route {
                host: host.clone(),
                path: path.clone(),
                path_match,
                target: target.clone(),
                target_source: target_source.clone(),
                source: directive.source.clone(),
                limits: limits.clone(),
                connection_limits: connection_limits.clone(),
                request_buffering: request_buffering.clone(),
                response_buffering: response_buffering.clone(),
                limit_rate: RouteLimitRate::of(&scope),
                // An internal route's answers (an X-Accel-Redirect's) are not kept by weir.
                cache: (matches!(target, RouteTarget::Upstream(_)) && internal.is_none())
                    .then(|| proxy_scope.cache.route())
                    .flatten(),
                upstream_host: upstream_host.clone(),
                from_ssl: scope.ssl,
                tls_only: scope.tls_only,
                plain_only: scope.plain_only,
                sockets: scope.sockets.clone(),
                server: scope.server.map(|server| server.source.clone()),
                remark: None,
                rules: rules.clone(),
                internal: internal.map(|internal| internal.source.clone()),
                fallback: fallback.clone(),
                try_suffixes: try_suffixes.clone(),
                read_timeout: read_timeout.clone(),
                upstream_path: upstream_path.clone(),
                location_rewrites: location_rewrites.clone(),
            };
            // Without `$uri/`, nginx passes the directory `/` to the app: an exact route for it.
            let home = match (&app_home, &fallback) {
                (Some((name, source)), Some(_)) => Some(Route {
                    path: "/".into(),
                    path_match: PathMatch::Exact,
                    target: RouteTarget::Upstream(name.clone()),
                    target_source: source.clone(),
                    fallback: None,
                    try_suffixes: None,
                    upstream_path: None,
                    ..route.clone()
                }),
                _ => None,
            };
            self.routes.push(route);
            self.routes.extend(home);
        }
    }

    /// The listeners the written config has (see [`Listeners`]).
    fn written_listeners(&self, tls_written: bool) -> Listeners {
        // As `finish` leaves them: an address covered by the wildcard of its port is not bound.
        let addresses: Vec<std::net::SocketAddr> = self
            .listens
            .iter()
            .filter_map(|(address, _)| address.parse().ok())
            .collect();
        let plain = self
            .listens
            .iter()
            .map(|(address, _)| address.clone())
            .filter(|address| {
                !address
                    .parse::<std::net::SocketAddr>()
                    .is_ok_and(|address| {
                        !address.ip().is_unspecified()
                            && addresses.iter().any(|other| {
                                other.ip().is_unspecified()
                                    && other.port() == address.port()
                                    && other.is_ipv4() == address.is_ipv4()
                            })
                    })
            })
            .collect();
        let tls = if tls_written {
            self.tls_listens
                .iter()
                .map(|(socket, _, _)| socket.clone())
                .collect()
        } else {
            Vec::new()
        };
        Listeners { plain, tls }
    }

    /// With no `proxy_set_header Host` in force, nginx sends the upstream's own name
    /// (`$proxy_host`: the `proxy_pass` URL's host and port, the port left out when it is 80;
    /// `localhost` for a Unix socket). That value, for the route's `request_headers`; said on
    /// the `proxy_pass` item.
    fn upstream_host(&mut self, scope: &Scope<'a>, proxy_pass: &Directive) -> Option<String> {
        let sets_host = scope.proxy_set_header.iter().any(|header| {
            header
                .args
                .first()
                .is_some_and(|name| name.eq_ignore_ascii_case("host"))
                && headers::request_header(header) != RequestHeader::ProxyHost
        });
        if sets_host {
            return None;
        }
        let rest = proxy_pass.args.first()?.strip_prefix("http://")?;
        let host = if rest.starts_with("unix:") {
            "localhost".to_string()
        } else {
            let authority = rest.split('/').next().unwrap_or(rest);
            authority
                .strip_suffix(":80")
                .unwrap_or(authority)
                .to_string()
        };
        if host.is_empty() || host.contains('$') {
            return None;
        }
        let mut note = format!(
            "request_headers Host = {host:?}: nginx's $proxy_host, as no proxy_set_header Host is in force"
        );
        if let Some(missing) = self.missing_includes.first() {
            note.push_str(&format!(
                " (unless the include at {missing}, whose file was not found, sets one: run weir import where the file is)"
            ));
        }
        self.note_on_proxy_pass(proxy_pass, &note).then_some(host)
    }

    /// Adds `note` to the item of `proxy_pass` (once); `false` when it has no item.
    fn note_on_proxy_pass(&mut self, proxy_pass: &Directive, note: &str) -> bool {
        let item = self.items.iter_mut().rev().find(|item| {
            item.sources.first() == Some(&proxy_pass.source)
                && item.directive.starts_with("proxy_pass")
        });
        let Some(item) = item else {
            return false;
        };
        if !item.note.contains(note) {
            item.note.push_str(&format!("; {note}"));
        }
        true
    }

    /// A server's `rewrite REGEX URL permanent|redirect` (or a URL that starts with a scheme) as a
    /// regex route's path and redirect, the query appended as nginx appends it (`$is_args$args`;
    /// none after a URL ending in `?`); accounted, approximated: nginx's runs before every
    /// location, weir's regex route after the exact and `^~` ones. `None` (accounted as left out)
    /// for any other `rewrite`.
    /// A prefix location's `rewrite`s that redirect (see [`Translator::rewrite_redirect`]): each a
    /// regex route, kept to add after the server's locations, as nginx tries this location's
    /// rewrites only when no regex location took the path. One whose regex may match a path
    /// outside the location is not carried: weir's route would redirect that path too.
    fn location_rewrites(
        &mut self,
        block: &'a [Directive],
        location: &str,
        scope: &Scope<'a>,
        hosts: &[Option<String>],
        handled: &mut HashSet<*const Directive>,
    ) {
        for rewrite in block.iter().filter(|inner| inner.name == "rewrite") {
            let redirects = match rewrite.args.as_slice() {
                [_, url] => is_absolute_url(url),
                [_, url, flag] => {
                    matches!(flag.as_str(), "permanent" | "redirect") || is_absolute_url(url)
                }
                _ => false,
            };
            if !redirects {
                continue;
            }
            handled.insert(rewrite as *const Directive);
            let regex = &rewrite.args[0];
            let within = location == "/"
                || (!regex.contains('|')
                    && regex_literal(regex)
                        .is_some_and(|(literal, _)| literal.starts_with(location)));
            if !within {
                self.unsupported(
                    rewrite,
                    format!("its regex may match paths outside the location {location:?}, which weir's regex route would redirect too: write a regex that starts ^{location}"),
                );
                continue;
            }
            let Some((regex, target)) = self.rewrite_redirect(rewrite, Some(location)) else {
                continue;
            };
            for host in hosts {
                self.rewrite_routes.push(Route {
                    path: regex.clone(),
                    path_match: PathMatch::Regex,
                    ..Route::whole_server(
                        scope,
                        host.clone(),
                        target.clone(),
                        rewrite.source.clone(),
                        rewrite.source.clone(),
                    )
                });
            }
        }
    }

    /// A `rewrite` that redirects, a server's (`location` `None`) or a location's: its regex
    /// and redirect.
    fn rewrite_redirect(
        &mut self,
        directive: &Directive,
        location: Option<&str>,
    ) -> Option<(String, RouteTarget)> {
        let (regex, url, flag) = match directive.args.as_slice() {
            [regex, url] => (regex, url, None),
            [regex, url, flag] => (regex, url, Some(flag.as_str())),
            _ => return None,
        };
        let absolute = is_absolute_url(url);
        let status = match flag {
            Some("permanent") => 301,
            Some("redirect") => 302,
            None | Some("last" | "break") if absolute => 302,
            _ => {
                self.unsupported(directive, "weir does not rewrite URIs (only a rewrite that redirects: permanent, redirect, or a URL with a scheme)");
                return None;
            }
        };
        let groups = match ::regex::Regex::new(regex) {
            Ok(compiled) => compiled.captures_len() - 1,
            Err(_) => {
                self.unsupported(directive, "its regex is not one weir's regex routes take (no look-around or back-references)");
                return None;
            }
        };
        let url = match url.strip_suffix('?') {
            Some(bare) => bare.to_string(),
            None if url.contains('?') => {
                self.unsupported(directive, "nginx joins the client's query to the URL's own with &; weir's redirect cannot say that");
                return None;
            }
            None => format!("{url}$is_args$args"),
        };
        if let Err(message) = text::weir_redirect_captured_ok(&url, groups) {
            self.unsupported(directive, format!("{message} (weir evaluates $host, $request_uri, $scheme, $args, $is_args and the regex's $1 to $9)"));
            return None;
        }
        let mut differs = match location {
            None => "nginx's rewrite runs before every location, weir's regex route after the exact and ^~ routes (a path both take goes to those in weir)".to_string(),
            Some(location) => format!("nginx redirects the paths its location {location:?} takes, weir's regex route after the server's regex routes those no exact or ^~ route takes (a path a longer prefix location takes in nginx is redirected in weir)"),
        };
        if url.starts_with('/') {
            differs.push_str("; weir's Location is the path, where nginx's absolute_redirect writes http://HOST:PORT before it: a path stays a path, the same place");
        }
        self.approximated(
            directive,
            format!("[[routes]] path = {regex:?}, match = \"regex\", redirect = {url:?}, status = {status}: {differs}"),
        );
        Some((regex.clone(), RouteTarget::Redirect { status, url }))
    }

    /// `return CODE [URL|text]` or `return URL`; in a regex location of `groups` groups, the URL
    /// may name them (`$1`).
    fn return_target(
        &mut self,
        directive: &Directive,
        default_type: Option<&Directive>,
        groups: usize,
    ) -> Option<RouteTarget> {
        let (code, rest) = match directive.args.as_slice() {
            [url]
                if url.starts_with("http://")
                    || url.starts_with("https://")
                    || url.starts_with("$scheme") =>
            {
                (302, Some(url.clone()))
            }
            [code] => (code.parse::<u16>().ok()?, None),
            [code, rest] => (code.parse::<u16>().ok()?, Some(rest.clone())),
            _ => {
                self.unsupported(directive, "expected return CODE [URL] or return URL");
                return None;
            }
        };
        match (code, rest) {
            (301 | 302 | 303 | 307 | 308, Some(url)) => {
                if let Err(message) = text::weir_redirect_captured_ok(&url, groups) {
                    self.unsupported(
                        directive,
                        format!("{message} (weir evaluates $host, $request_uri and $scheme, and a regex location's $1 to $9)"),
                    );
                    return None;
                }
                let mut note = format!("redirect = {url:?}, status = {code}");
                if groups > 0 && url.contains('$') {
                    note.push_str(" ($1 to $9: the groups of the route's regex, as nginx fills them in; an escape in the path stays escaped, where nginx decodes it)");
                }
                if url.starts_with('/') {
                    self.approximated(directive, format!("{note}; weir's Location is the path as written, where nginx writes it absolute (absolute_redirect): the same place for a browser"));
                } else {
                    self.translated(directive, note);
                }
                Some(RouteTarget::Redirect { status: code, url })
            }
            (444, _) => {
                self.translated(
                    directive,
                    "status = 444: the connection is closed without an answer, as nginx closes it",
                );
                Some(RouteTarget::Status(444, None))
            }
            (200..=599, None) => {
                self.translated(directive, format!("status = {code} (weir's body is a short plain-text line for errors, empty otherwise)"));
                Some(RouteTarget::Status(code, None))
            }
            (200..=599, Some(text)) if !names_variable(&text) => {
                // nginx's `default_type` in force, else its own default.
                let content_type = default_type
                    .and_then(|directive| directive.args.first())
                    .map_or("text/plain", String::as_str)
                    .to_string();
                self.translated(
                    directive,
                    format!("status = {code}, body = {text:?}, content_type = {content_type:?} (nginx's default_type)"),
                );
                Some(RouteTarget::Status(code, Some((text, content_type))))
            }
            (200..=599, Some(_)) => {
                self.approximated(directive, format!("status = {code}: weir's body is sent as written and its text names a variable; weir's own short body is sent instead"));
                Some(RouteTarget::Status(code, None))
            }
            _ => {
                self.unsupported(
                    directive,
                    "weir answers with statuses from 200 to 599, or 444 (close without an answer)",
                );
                None
            }
        }
    }

    /// `proxy_pass URL` -> the weir upstream's name (created for a bare address), and, when
    /// `rewrites` (the location's own `proxy_pass`, in a prefix or exact location), the URI part
    /// that replaces the location's path as `upstream_path`.
    fn proxy_pass(
        &mut self,
        directive: &Directive,
        location_path: &str,
        rewrites: bool,
    ) -> Option<(String, Option<String>)> {
        let Some(url) = directive.args.first() else {
            self.unsupported(directive, "expected a URL");
            return None;
        };
        if url.contains('$') {
            self.unsupported(
                directive,
                "weir has no variables: proxy_pass must name an upstream or address (a variable set to a URL without a path, `set $upstream http://app:8000;`, is read in; with a path, nginx sends that path in place of the request's whole URI, and one set inside an `if` or from another variable changes per request)",
            );
            return None;
        }
        let Some(rest) = url.strip_prefix("http://") else {
            self.unsupported(
                directive,
                "weir speaks plain HTTP to upstreams (https:// upstreams are not supported)",
            );
            return None;
        };
        let (authority, uri) = if let Some(unix) = rest.strip_prefix("unix:") {
            match unix.find(':') {
                Some(colon) => (
                    format!("unix:{}", &unix[..colon]),
                    unix[colon + 1..].to_string(),
                ),
                None => (format!("unix:{unix}"), String::new()),
            }
        } else {
            match rest.find('/') {
                Some(slash) => (rest[..slash].to_string(), rest[slash..].to_string()),
                None => (rest.to_string(), String::new()),
            }
        };
        let mut notes = Vec::new();
        let mut kind = Kind::Translated;
        let mut upstream_path = None;
        if !uri.is_empty() && uri != location_path {
            // What weir's `upstream_path` takes: a path, without a query, whose escapes are whole.
            let valid = is_plain_path(&uri);
            if rewrites && valid {
                notes.push(format!(
                    "upstream_path = {uri:?}: the location's {location_path:?} is replaced with it in the path sent upstream, as nginx does"
                ));
                upstream_path = Some(uri.clone());
            } else {
                kind = Kind::Approximated;
                notes.push(format!(
                    "nginx replaces the location's {location_path:?} with {uri:?} in the path sent upstream; weir sends the path unchanged"
                ));
            }
        }
        let name = if let Some(name) = self.upstream_names.get(&authority) {
            name.clone()
        } else {
            let address = match upstream_address(&authority) {
                Some(address) => address,
                None if authority == "localhost" || authority.starts_with("localhost:") => {
                    kind = Kind::Approximated;
                    notes.push("localhost taken as 127.0.0.1".into());
                    upstream_address(&authority.replacen("localhost", "127.0.0.1", 1))?
                }
                None => {
                    self.unsupported(
                        directive,
                        "expected an upstream block's name, unix:/path, IP:port or NAME:port",
                    );
                    return None;
                }
            };
            let name = weir_name(&match address.strip_prefix("unix:") {
                Some(path) => std::path::Path::new(path)
                    .file_stem()
                    .map(|stem| stem.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "app".into()),
                None => address.clone(),
            });
            let name = if self.upstreams.contains_key(&name)
                && !self.upstream_names.contains_key(&authority)
            {
                format!("{name}_{}", self.upstreams.len())
            } else {
                name
            };
            let mut table = Table::new(format!("[upstreams.{name}]"));
            table.comment = Some(CAPACITY_HINT.to_string());
            table.set(
                "servers",
                toml_out::strings([address.as_str()]),
                Some(&directive.source),
            );
            table.set_with("max_idle", "0".into(), Some(&directive.source), Some("(no upstream block with keepalive: nginx opens a connection per request; raise it for keep-alive)"));
            self.upstreams.insert(
                name.clone(),
                UpstreamOut {
                    table: Some(table),
                    timeouts: HashMap::new(),
                },
            );
            self.upstream_names.insert(authority.clone(), name.clone());
            name
        };
        let mut note = format!("upstream = {name:?}");
        if !notes.is_empty() {
            note.push_str(&format!("; {}", notes.join("; ")));
        }
        self.item(kind, directive, note);
        Some((name, upstream_path))
    }

    /// A route's time-outs go to its upstream; a second route with other values is reported.
    /// The `proxy_*_timeout`s in force for a location, on its upstream: the first location's
    /// value of each is the upstream's. A later `proxy_read_timeout` that differs is the route's
    /// own `read_timeout` (returned, with where it came from); a differing connect or send
    /// time-out is approximated, weir has one per upstream.
    fn upstream_timeouts(
        &mut self,
        name: &str,
        scope: &Scope<'a>,
        location: &Source,
    ) -> Option<(String, Source)> {
        let mut own_read_timeout = None;
        let settings = [
            ("connect_timeout", scope.connect_timeout),
            ("read_timeout", scope.read_timeout),
            ("send_timeout", scope.send_timeout),
        ];
        for (key, directive) in settings {
            let value = directive
                .and_then(|directive| directive.args.first())
                .and_then(|arg| duration(arg))
                .filter(|value| value != "0s");
            let value_text = value.clone().unwrap_or_else(|| "60s".to_string());
            let Some(upstream) = self.upstreams.get_mut(name) else {
                continue;
            };
            match upstream.timeouts.get(key) {
                None => {
                    upstream.timeouts.insert(
                        key,
                        (value_text.clone(), directive.map(|d| d.source.clone())),
                    );
                    if let (Some(value), Some(directive), Some(table)) =
                        (&value, directive, upstream.table.as_mut())
                    {
                        table.set(key, toml_out::string(value), Some(&directive.source));
                    }
                }
                Some((first, first_source)) if *first != value_text => {
                    let first_place = first_source
                        .as_ref()
                        .map_or("nginx's default".to_string(), |s| s.to_string());
                    let source = directive.map_or(location.clone(), |d| d.source.clone());
                    let (kind, note) = if key == "read_timeout" {
                        (Kind::Translated, format!("read_timeout = {value_text:?} on the route of the location at {location}, over the {first} of [upstreams.{name}] (from {first_place})"))
                    } else {
                        (Kind::Approximated, format!("weir has one {key} per upstream: the location at {location} wants {value_text}, {first} (from {first_place}) is used for [upstreams.{name}]"))
                    };
                    self.items.push(Item {
                        kind,
                        sources: vec![source.clone()],
                        directive: directive
                            .map_or(format!("proxy_{key} (default)"), |d| shorten(&d.summary())),
                        note,
                    });
                    if key == "read_timeout" {
                        own_read_timeout = Some((value_text, source));
                    }
                }
                Some(_) => {}
            }
        }
        own_read_timeout
    }

    /// `limit_req zone=NAME [burst=N] [nodelay | delay=N]` on a route -> the limit's name.
    fn limit_req(&mut self, directive: &Directive, scope: &Scope<'a>) -> Option<String> {
        let mut zone = None;
        let mut burst = None;
        let mut delay = None;
        let mut nodelay = false;
        for arg in &directive.args {
            if let Some(value) = arg.strip_prefix("zone=") {
                zone = Some(value.to_string());
            } else if let Some(value) = arg.strip_prefix("burst=") {
                burst = value.parse::<u32>().ok();
            } else if let Some(value) = arg.strip_prefix("delay=") {
                delay = value.parse::<u32>().ok();
            } else if arg == "nodelay" {
                nodelay = true;
            }
        }
        let Some(zone) = zone else {
            if !self.accounted.contains(&(directive as *const Directive)) {
                self.unsupported(directive, "expected zone=NAME");
            }
            return None;
        };
        let Some(name) = self.zone_names.get(&zone).cloned() else {
            if !self.accounted.contains(&(directive as *const Directive)) {
                self.unsupported(
                    directive,
                    format!("zone {zone} was not translated (see its limit_req_zone): no limit"),
                );
                self.less_safe(directive, "the rate limit is not applied: requests nginx delayed or refused reach the app");
            }
            return None;
        };
        let (status, dry_run) = status_and_dry_run(scope.limit_req_status, scope.limit_req_dry_run);
        let limit = self.limits.get_mut(&name)?;
        let first_use = limit.used_by.is_none();
        let mut conflict = None;
        if first_use {
            limit.used_by = Some(directive.source.clone());
            if let Some(burst) = burst {
                limit
                    .table
                    .set("burst", burst.to_string(), Some(&directive.source));
            }
            if nodelay {
                limit
                    .table
                    .set("nodelay", "true".into(), Some(&directive.source));
            } else if let Some(delay) = delay {
                limit
                    .table
                    .set("delay", delay.to_string(), Some(&directive.source));
            }
            let status_source = scope
                .limit_req_status
                .map_or(&directive.source, |d| &d.source);
            let remark = scope
                .limit_req_status
                .is_none()
                .then_some("(nginx's default limit_req_status; weir's own default is 429)");
            limit
                .table
                .set_with("status", status.clone(), Some(status_source), remark);
            if dry_run {
                let source = scope
                    .limit_req_dry_run
                    .map_or(&directive.source, |d| &d.source);
                limit.table.set("dry_run", "true".into(), Some(source));
            }
            limit.status_set = Some(status);
        } else {
            let same = limit.table.get("burst").map(|e| e.value.clone())
                == burst.map(|b| b.to_string())
                && limit.table.get("nodelay").is_some() == nodelay
                && limit.table.get("delay").map(|e| e.value.clone())
                    == if nodelay {
                        None
                    } else {
                        delay.map(|d| d.to_string())
                    }
                && limit.status_set.as_deref() == Some(status.as_str());
            if !same {
                conflict = limit.used_by.clone();
            }
        }
        if !self.accounted.contains(&(directive as *const Directive)) || conflict.is_some() {
            match conflict {
                Some(first) => self.approximated(
                    directive,
                    format!("limits = [{name:?}]; weir keeps one burst/delay/status per limit: those of {first} are used"),
                ),
                None => self.translated(
                    directive,
                    format!("limits = [{name:?}] on its routes; burst, nodelay/delay and status on [limits.{name}] (weir also sends RateLimit headers; headers = \"off\" stops them)"),
                ),
            }
        }
        Some(name)
    }

    /// `limit_conn ZONE N` on a route -> the name of its `[connection_limits.NAME]`: one table
    /// per zone and distinct number, status and dry run.
    fn limit_conn(&mut self, directive: &Directive, scope: &Scope<'a>) -> Option<String> {
        let first_time = !self.accounted.contains(&(directive as *const Directive));
        let (Some(zone), Some(connections)) = (
            directive.args.first(),
            directive
                .args
                .get(1)
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n > 0),
        ) else {
            if first_time {
                self.unsupported(directive, "expected a zone and a number of connections");
                self.less_safe(directive, "the connection limit is not applied: a client may have as many requests in flight as it likes");
            }
            return None;
        };
        let (status, dry_run) =
            status_and_dry_run(scope.limit_conn_status, scope.limit_conn_dry_run);
        let Some(found) = self.conn_zones.get_mut(zone) else {
            if first_time {
                self.unsupported(
                    directive,
                    format!("zone {zone} was not translated (see its limit_conn_zone): no limit"),
                );
                self.less_safe(directive, "the connection limit is not applied: a client may have as many requests in flight as it likes");
            }
            return None;
        };
        let wanted = (connections, status.clone(), dry_run);
        if let Some((_, name)) = found.tables.iter().find(|(made, _)| *made == wanted) {
            let name = name.clone();
            if first_time {
                self.conn_limit_note(directive, &name, connections);
            }
            return Some(name);
        }
        let name = if found.tables.is_empty() {
            found.name.clone()
        } else {
            let mut candidate = format!("{}_{connections}", found.name);
            let mut more = 2;
            while self.conn_limits.contains_key(&candidate) {
                candidate = format!("{}_{connections}_{more}", found.name);
                more += 1;
            }
            candidate
        };
        let mut table = Table::new(format!("[connection_limits.{name}]"));
        table.comment = Some(found.comment.clone());
        table.set("key", toml_out::string(&found.key), Some(&found.source));
        if !found.exempt.is_empty() {
            table.set(
                "exempt",
                toml_out::strings(found.exempt.iter().map(String::as_str)),
                Some(&found.source),
            );
        }
        table.set(
            "connections",
            connections.to_string(),
            Some(&directive.source),
        );
        if let Some(keys) = found.max_keys {
            table.set_with(
                "max_keys",
                keys.to_string(),
                Some(&found.source),
                Some("(about 64 bytes per key in nginx's zone)"),
            );
        }
        if status != "503" {
            let source = scope
                .limit_conn_status
                .map_or(&directive.source, |d| &d.source);
            table.set("status", status, Some(source));
        }
        if dry_run {
            let source = scope
                .limit_conn_dry_run
                .map_or(&directive.source, |d| &d.source);
            table.set("dry_run", "true".into(), Some(source));
        }
        let shared_with = found.tables.first().map(|(_, first)| first.clone());
        found.tables.push((wanted, name.clone()));
        self.conn_limits.insert(name.clone(), table);
        match shared_with {
            Some(first) => self.approximated(
                directive,
                format!("connection_limits = [{name:?}] on its routes, a table of its own: nginx counts one zone's requests together under every limit_conn of it, weir counts [connection_limits.{name}]'s apart from [connection_limits.{first}]'s"),
            ),
            None if first_time => self.conn_limit_note(directive, &name, connections),
            None => {}
        }
        Some(name)
    }

    fn conn_limit_note(&mut self, directive: &Directive, name: &str, connections: u32) {
        self.translated(
            directive,
            format!("connection_limits = [{name:?}] on its routes; connections = {connections} on [connection_limits.{name}]"),
        );
    }

    // -----------------------------------------------------------------------------------------
    // The end: routes that collide, the tables, every directive accounted for.
    // -----------------------------------------------------------------------------------------

    fn finish(mut self, directives: &[Directive]) -> Import {
        // Real IP: nginx's default header is X-Real-IP, weir's X-Forwarded-For.
        if !self.trusted_proxies.is_empty() {
            let list: Vec<&str> = self
                .trusted_proxies
                .iter()
                .map(|(network, _)| network.as_str())
                .collect();
            let source = self.trusted_proxies[0].1.clone();
            self.server
                .set("trusted_proxies", toml_out::strings(list), Some(&source));
            if self.real_ip_header.is_none() {
                self.server.set_with(
                    "real_ip_header",
                    toml_out::string("X-Real-IP"),
                    Some(&source),
                    Some("(nginx's default real_ip_header)"),
                );
            }
            if self.real_ip_recursive.is_none() {
                self.items.push(Item {
                    kind: Kind::Approximated,
                    sources: vec![source],
                    directive: "real_ip_recursive off (the default)".into(),
                    note: "weir is always recursive: it skips every trusted address from the right, not only the last".into(),
                });
            }
        }
        if let Some((_, value, source)) = &self.max_body_size {
            self.server
                .set("max_body_size", value.clone(), Some(source));
        }
        if self.compression.is_some() && !self.gzip_proxied_any {
            let source = self.compression_source.clone().into_iter().collect();
            self.items.push(Item {
                kind: Kind::Approximated,
                sources: source,
                directive: "gzip_proxied off (the default)".into(),
                note: "nginx does not compress for requests that came through a proxy (with a Via header); weir does".into(),
            });
        }

        // With [tls] written, a route of a server on TLS sockets only gets `scheme = "https"`, of
        // one on plain sockets only `scheme = "http"`: a route answers on the sockets nginx's
        // server block listened on, so the plain server's HTTPS redirect and the TLS server's
        // app stand side by side for one host.
        let tls_written = !self.tls_listens.is_empty() && !self.certificates.is_empty();
        let listeners = self.written_listeners(tls_written);
        let scheme = |route: &Route| route_scheme(route, tls_written);
        // One route per host, path, kind of match, scheme and listeners.
        let mut kept: Vec<Route> = Vec::new();
        let mut dropped: Vec<(Route, Source)> = Vec::new();
        for route in std::mem::take(&mut self.routes) {
            let same = kept.iter().position(|other| {
                other.host == route.host
                    && other.path == route.path
                    && other.path_match.slot() == route.path_match.slot()
                    && scheme(other) == scheme(&route)
                    && route_listen(other, &listeners) == route_listen(&route, &listeners)
            });
            match same {
                None => kept.push(route),
                Some(index) => {
                    // The TLS server holds the app; the plain one usually redirects to it.
                    if route.from_ssl && !kept[index].from_ssl {
                        let old = std::mem::replace(&mut kept[index], route);
                        let source = kept[index].source.clone();
                        dropped.push((old, source));
                    } else {
                        let source = kept[index].source.clone();
                        dropped.push((route, source));
                    }
                }
            }
        }
        for (route, winner) in dropped {
            // Said on the item of the directive the route came from, so that it stays one item.
            let directive = self
                .items
                .iter()
                .find(|item| item.sources.first() == Some(&route.target_source))
                .map_or_else(
                    || {
                        format!(
                            "route {}{}",
                            route.host.as_deref().unwrap_or("*"),
                            route.path
                        )
                    },
                    |item| item.directive.clone(),
                );
            self.items.push(Item {
                kind: Kind::Unsupported,
                sources: vec![route.target_source.clone()],
                directive,
                note: format!(
                    "left out: the location at {winner} already routes this host and path on the same listeners"
                ),
            });
        }
        // nginx binds only `*:80` when it also has `127.0.0.1:80`; weir would bind both and fail.
        let addresses: Vec<std::net::SocketAddr> = self
            .listens
            .iter()
            .filter_map(|(address, _)| address.parse().ok())
            .collect();
        let covered = |address: &std::net::SocketAddr| {
            !address.ip().is_unspecified()
                && addresses.iter().any(|other| {
                    other.ip().is_unspecified()
                        && other.port() == address.port()
                        && other.is_ipv4() == address.is_ipv4()
                })
        };
        self.listens
            .retain(|(address, _)| !address.parse().is_ok_and(|address| covered(&address)));
        if self.listens.is_empty() {
            self.items.push(Item {
                kind: Kind::Approximated,
                sources: Vec::new(),
                directive: "listen".into(),
                note: "no plain-HTTP listen address: weir's default, 127.0.0.1:8080, is used"
                    .into(),
            });
        } else {
            let list: Vec<&str> = self
                .listens
                .iter()
                .map(|(address, _)| address.as_str())
                .collect();
            let source = self.listens[0].1.clone();
            self.server.entries.insert(
                0,
                toml_out::Entry {
                    key: "listen".into(),
                    value: toml_out::strings(list),
                    source: Some(source),
                    remark: None,
                },
            );
        }

        // An HTTPS-only server block whose routes weir now serves on plain HTTP too.
        let plain: Vec<String> = if self.listens.is_empty() {
            vec!["127.0.0.1:8080".to_string()]
        } else {
            self.listens
                .iter()
                .map(|(address, _)| address.clone())
                .collect()
        };
        let mut tls_only_servers: Vec<Source> = Vec::new();
        for route in kept.iter().filter(|route| route.tls_only && !tls_written) {
            if let Some(server) = &route.server {
                if !tls_only_servers.contains(server) {
                    tls_only_servers.push(server.clone());
                }
            }
        }
        for server in tls_only_servers {
            self.less_safe_item(
                Kind::Translated,
                vec![server],
                "server".into(),
                format!(
                    "an HTTPS-only server block: weir serves its routes on the plain-HTTP listener(s) ({}), where nginx answered them over TLS only (no [tls] is written: give the certificates)",
                    plain.join(", ")
                ),
            );
        }

        // What was said to go into [tls] is not carried when no [tls] is written.
        let tls_written = !self.tls_listens.is_empty() && !self.certificates.is_empty();
        if !tls_written {
            for item in self.items.iter_mut() {
                let in_tls = item
                    .sources
                    .first()
                    .is_some_and(|source| self.tls_items.contains(source));
                if in_tls && item.kind != Kind::Unsupported && !item.note.contains("the default") {
                    item.kind = Kind::Unsupported;
                    item.note = format!(
                        "not carried: the weir config has no TLS listener (no listen ... ssl with a certificate pair), so no [tls] (it would have been: {})",
                        item.note
                    );
                }
            }
        }
        self.header_rules_carried(&mut kept, tls_written);

        // A zone that is written but that no route uses.
        for limit in self.limits.values() {
            if limit.used_by.is_some() {
                continue;
            }
            let Some(source) = limit
                .table
                .get("key")
                .and_then(|entry| entry.source.clone())
            else {
                continue;
            };
            if let Some(item) = self
                .items
                .iter_mut()
                .find(|item| item.sources.first() == Some(&source))
            {
                item.kind = Kind::Approximated;
                item.note.push_str("; but no route uses it (its limit_req are in locations weir left out, or there are none)");
            }
        }

        // A connection zone that no route uses.
        for zone in self.conn_zones.values() {
            if !zone.tables.is_empty() {
                continue;
            }
            if let Some(item) = self
                .items
                .iter_mut()
                .find(|item| item.sources.first() == Some(&zone.source))
            {
                item.kind = Kind::Approximated;
                item.note.push_str("; but no route uses it (its limit_conn are in locations weir left out, or there are none): no table is written");
            }
        }

        // Every directive is in the report.
        let mut missing = Vec::new();
        collect_unaccounted(directives, &self.accounted, &mut missing);
        for directive in missing {
            if directive.name == "limit_req" || directive.name == "limit_conn" {
                self.less_safe_item(
                    Kind::Unsupported,
                    vec![directive.source.clone()],
                    shorten(&directive.summary()),
                    if directive.name == "limit_req" {
                        "the rate limit is not applied: requests nginx delayed or refused reach the app"
                    } else {
                        "the connection limit is not applied: a client may have as many requests in flight as it likes"
                    }
                    .into(),
                );
            }
            self.items.push(Item {
                kind: Kind::Unsupported,
                sources: vec![directive.source.clone()],
                directive: shorten(&directive.summary()),
                note: if directive.name == "limit_req" || directive.name == "limit_conn" {
                    "applies to no route weir has (its locations answer by themselves or were left out)".to_string()
                } else {
                    format!("weir has no equivalent of `{}` here", directive.name)
                },
            });
        }

        merge_items(&mut self.items);

        let mut tables = Vec::new();
        if !self.server.entries.is_empty() {
            tables.push(self.server);
        }
        for (_, upstream) in self.upstreams {
            if let Some(table) = upstream.table {
                tables.push(table);
            }
        }
        for (_, limit) in self.limits {
            tables.push(limit.table);
        }
        tables.extend(self.conn_limits.into_values());
        for route in &kept {
            let mut table = Table::new("[[routes]]");
            if let Some(host) = &route.host {
                table.set("host", toml_out::string(host), Some(&route.source));
            }
            table.set("path", toml_out::string(&route.path), Some(&route.source));
            match route_listen(route, &listeners) {
                Some(listen) => table.set(
                    "listen",
                    toml_out::strings(listen.iter().map(String::as_str)),
                    Some(&route.source),
                ),
                None => {
                    if let Some(scheme) = route_scheme(route, tls_written) {
                        table.set("scheme", toml_out::string(scheme), Some(&route.source));
                    }
                }
            }
            if let Some(path_match) = route.path_match.key() {
                table.set("match", toml_out::string(path_match), Some(&route.source));
            }
            if let Some(source) = &route.internal {
                table.set("internal", "true".into(), Some(source));
            }
            match &route.target {
                RouteTarget::Upstream(name) => {
                    table.set(
                        "upstream",
                        toml_out::string(name),
                        Some(&route.target_source),
                    );
                    if let Some(path) = &route.upstream_path {
                        table.set(
                            "upstream_path",
                            toml_out::string(path),
                            Some(&route.target_source),
                        );
                    }
                }
                RouteTarget::Static(dir) => {
                    table.set("static", toml_out::string(dir), Some(&route.target_source));
                    if let Some((suffixes, source)) = &route.try_suffixes {
                        let suffixes = suffixes.iter().map(String::as_str);
                        table.set("try_suffixes", toml_out::strings(suffixes), Some(source));
                    }
                    match &route.fallback {
                        Some((StaticFallback::Upstream(name), source)) => {
                            table.set("fallback_upstream", toml_out::string(name), Some(source))
                        }
                        Some((StaticFallback::File(file), source)) => {
                            table.set("fallback_file", toml_out::string(file), Some(source))
                        }
                        None => {}
                    }
                }
                RouteTarget::Redirect { status, url } => {
                    table.set(
                        "redirect",
                        toml_out::string(url),
                        Some(&route.target_source),
                    );
                    table.set("status", status.to_string(), Some(&route.target_source));
                }
                RouteTarget::Status(status, body) => {
                    table.set_with(
                        "status",
                        status.to_string(),
                        Some(&route.target_source),
                        route.remark.as_deref(),
                    );
                    if let Some((text, content_type)) = body {
                        table.set("body", toml_out::string(text), Some(&route.target_source));
                        if content_type != "text/plain" {
                            table.set(
                                "content_type",
                                toml_out::string(content_type),
                                Some(&route.target_source),
                            );
                        }
                    }
                }
            }
            if !route.limits.is_empty() {
                let names: Vec<&str> = route.limits.iter().map(|(name, _)| name.as_str()).collect();
                table.set("limits", toml_out::strings(names), Some(&route.limits[0].1));
            }
            if !route.connection_limits.is_empty() {
                let names: Vec<&str> = route
                    .connection_limits
                    .iter()
                    .map(|(name, _)| name.as_str())
                    .collect();
                table.set(
                    "connection_limits",
                    toml_out::strings(names),
                    Some(&route.connection_limits[0].1),
                );
            }
            if let Some((on, source)) = &route.request_buffering {
                table.set("request_buffering", on.to_string(), Some(source));
            }
            if let Some((on, source)) = &route.response_buffering {
                table.set("response_buffering", on.to_string(), Some(source));
            }
            if let Some((value, source)) = &route.read_timeout {
                table.set("read_timeout", toml_out::string(value), Some(source));
            }
            if let Some(limit) = &route.limit_rate {
                table.set(
                    "limit_rate",
                    toml_out::string(&limit.rate.0),
                    Some(&limit.rate.1),
                );
                if let Some((after, source)) = &limit.after {
                    table.set("limit_rate_after", toml_out::string(after), Some(source));
                }
            }
            if let Some(cache) = &route.cache {
                table.set("cache", toml_out::string(&cache.valid), Some(&cache.source));
                if !cache.statuses.is_empty() {
                    let listed: Vec<String> = cache
                        .statuses
                        .iter()
                        .map(|(status, time)| format!("{status} = {}", toml_out::string(time)))
                        .collect();
                    table.set(
                        "cache_statuses",
                        format!("{{ {} }}", listed.join(", ")),
                        Some(&cache.source),
                    );
                }
                if let Some((stale, source)) = &cache.stale {
                    table.set("cache_stale", toml_out::string(stale), Some(source));
                }
                if let Some(source) = &cache.background_update {
                    table.set("cache_background_update", "true".into(), Some(source));
                }
                if let Some(cookies) = &cache.pass_cookies {
                    let names: Vec<String> =
                        cookies.iter().map(|name| toml_out::string(name)).collect();
                    table.set(
                        "cache_pass_cookies",
                        format!("[{}]", names.join(", ")),
                        Some(&cache.source),
                    );
                }
            }
            if let Some((_, _, source)) = route.location_rewrites.first() {
                let pairs: Vec<(&str, &str)> = route
                    .location_rewrites
                    .iter()
                    .map(|(prefix, replacement, _)| (prefix.as_str(), replacement.as_str()))
                    .collect();
                table.set(
                    "location_rewrites",
                    headers::inline_table(&pairs),
                    Some(source),
                );
            }
            route.rules.write(&mut table, route.upstream_host.as_ref());
            tables.push(table);
        }
        if let Some(table) = self.compression {
            tables.push(table);
        }
        if let Some(table) = self.access_log {
            tables.push(table);
        }
        for (_, map, directive) in &self.value_maps {
            if let Ok(map) = map {
                tables.push(map.table(directive));
            }
        }
        if !self.tls_listens.is_empty() && !self.certificates.is_empty() {
            let list: Vec<&str> = self
                .tls_listens
                .iter()
                .map(|(address, _, _)| address.as_str())
                .collect();
            let source = self.tls_listens[0].1[0].clone();
            self.tls.entries.insert(
                0,
                toml_out::Entry {
                    key: "listen".into(),
                    value: toml_out::strings(list),
                    source: Some(source),
                    remark: None,
                },
            );
            for (address, sources, summary) in &self.tls_listens {
                let note = if sources.len() > 1 {
                    format!("[tls] listen += {address:?} (every listen of this socket: in nginx ssl belongs to the socket)")
                } else {
                    format!("[tls] listen += {address:?}")
                };
                self.items.push(Item {
                    kind: Kind::Translated,
                    sources: sources.clone(),
                    directive: summary.clone(),
                    note,
                });
            }
            tables.push(self.tls);
            for (cert, key, source) in &self.certificates {
                let mut table = Table::new("[[tls.certificates]]");
                table.set("cert", toml_out::string(cert), Some(source));
                table.set("key", toml_out::string(key), Some(source));
                tables.push(table);
            }
        } else {
            for (_, sources, summary) in &self.tls_listens {
                self.items.push(Item {
                    kind: Kind::Unsupported,
                    sources: sources.clone(),
                    directive: summary.clone(),
                    note: "no ssl_certificate and ssl_certificate_key pair for it: not listened on"
                        .into(),
                });
            }
        }
        let preamble = vec![
            "Written by `weir import`: each key's comment names the nginx directive it came from.".to_string(),
            "Check it with `weir check --config FILE`; the import report lists what was approximated or left out.".to_string(),
        ];
        Import {
            toml: toml_out::render(&preamble, &tables),
            report: Report {
                items: self.items,
                less_safe: self.less_safe,
            },
        }
    }
}

/// Whether `ssl on;` (nginx 1.22's deprecated form of `listen ... ssl`) is in `block`.
/// The `scheme` a route is limited to, when `[tls]` is written and its server listened on one
/// kind of socket only.
/// The listeners weir's config has: `[server] listen`, and `[tls] listen` when written.
struct Listeners {
    plain: Vec<String>,
    tls: Vec<String>,
}

/// A route's `listen`, when it answers on some of the listeners but not all, and not exactly
/// on the plain or the TLS ones (which `scheme` says): in nginx a server answers only on its
/// own sockets, each socket's default server the hosts no server there names.
fn route_listen(route: &Route, listeners: &Listeners) -> Option<Vec<String>> {
    let own = route.sockets.of(route.host.as_deref());
    let listen: Vec<String> = listeners
        .plain
        .iter()
        .chain(&listeners.tls)
        .filter(|socket| own.contains(socket))
        .cloned()
        .collect();
    let every = listeners.plain.len() + listeners.tls.len();
    let said_by_scheme = (listen == listeners.plain && route.plain_only)
        || (listen == listeners.tls && route.tls_only);
    if listen.is_empty() || listen.len() == every || said_by_scheme {
        None
    } else {
        Some(listen)
    }
}

fn route_scheme(route: &Route, tls_written: bool) -> Option<&'static str> {
    if !tls_written {
        None
    } else if route.tls_only {
        Some("https")
    } else if route.plain_only {
        Some("http")
    } else {
        None
    }
}

/// `if ($scheme != "https") { return 301 URL; }` (or `$scheme = http`, `$https != on`,
/// `$https = ""`), whose condition holds on plain HTTP only: the `return`.
fn scheme_if(directive: &Directive) -> Option<&Directive> {
    if directive.name != "if" {
        return None;
    }
    let text: String = directive.args.concat().replace(['"', '\''], "");
    let plain = matches!(
        text.as_str(),
        "($scheme!=https)" | "($scheme=http)" | "($https!=on)" | "($https=)"
    );
    lone_redirect(directive).filter(|_| plain)
}

/// The block's one directive, when it is a redirecting `return` (301, 302, 303, 307, 308).
fn lone_redirect(directive: &Directive) -> Option<&Directive> {
    let [answer] = directive.block.as_deref()? else {
        return None;
    };
    let redirect = answer.name == "return"
        && answer
            .args
            .first()
            .is_some_and(|code| matches!(code.as_str(), "301" | "302" | "303" | "307" | "308"));
    redirect.then_some(answer)
}

/// certbot's `if ($host = NAME) { return 301 URL; }`: the host and the `return`.
fn certbot_if(directive: &Directive) -> Option<(String, &Directive)> {
    let host = if_host(&directive.args)?;
    Some((host, lone_redirect(directive)?))
}

/// The host of the condition `($host = NAME)`, however the words fall; `None` for any other
/// condition.
fn if_host(args: &[String]) -> Option<String> {
    let text: String = args.concat();
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let name = inner
        .strip_prefix("$host=")?
        .trim_matches(|c| c == '"' || c == '\'');
    (!name.is_empty() && weir_host(name) && !name.contains('$')).then(|| name.to_ascii_lowercase())
}

fn ssl_on(block: &[Directive]) -> bool {
    block.iter().any(|directive| {
        directive.name == "ssl" && directive.args.first().is_some_and(|a| a == "on")
    })
}

/// The sockets a server listens on (`0.0.0.0:80` when it has no `listen`, as nginx run as root).
fn server_sockets(server: &Directive) -> Vec<String> {
    let listens: Vec<&Directive> = server
        .block
        .iter()
        .flatten()
        .filter(|inner| inner.name == "listen")
        .collect();
    if listens.is_empty() {
        return vec!["0.0.0.0:80".to_string()];
    }
    listens
        .iter()
        .filter(|listen| !listen.args.iter().any(|arg| arg == "quic"))
        .filter_map(|listen| {
            listen
                .args
                .first()
                .and_then(|address| listen_address(address))
        })
        .collect()
}

/// The TLS sockets of an `http` block. In nginx `ssl` belongs to the socket, not to the server:
/// a socket is TLS when any `listen` of it, in any server, says `ssl`, or when a server on it
/// says `ssl on` (ngx_http_add_addresses ORs the flag per address).
fn tls_sockets(http: &[Directive]) -> HashSet<String> {
    let everywhere = ssl_on(http);
    let mut sockets = HashSet::new();
    for server in http.iter().filter(|directive| directive.name == "server") {
        let block = server.block.as_deref().unwrap_or_default();
        let server_on = everywhere || ssl_on(block);
        for listen in block.iter().filter(|inner| inner.name == "listen") {
            if listen.args.iter().any(|arg| arg == "quic") {
                continue;
            }
            let ssl = server_on || listen.args.iter().any(|arg| arg == "ssl");
            if let (true, Some(socket)) = (ssl, listen.args.first().and_then(|a| listen_address(a)))
            {
                sockets.insert(socket);
            }
        }
        if server_on && !block.iter().any(|inner| inner.name == "listen") {
            sockets.insert("0.0.0.0:80".to_string());
        }
    }
    sockets
}

/// The sockets weir will listen on, each with its default server (counted from 1), as nginx
/// picks it: the first server whose `listen` of that socket says `default_server`, else the
/// first server that listens on it. TLS sockets are left out when no certificate pair is
/// there to write `[tls]` with (the http block's, or a server's own).
fn socket_defaults(http: &[Directive], tls: &HashSet<String>) -> HashMap<String, usize> {
    let has_pair = |block: &[Directive]| {
        block.iter().any(|inner| inner.name == "ssl_certificate")
            && block
                .iter()
                .any(|inner| inner.name == "ssl_certificate_key")
    };
    let http_pair = has_pair(http);
    let servers: Vec<&Directive> = http
        .iter()
        .filter(|directive| directive.name == "server")
        .collect();
    let tls_live = !tls.is_empty()
        && (http_pair
            || servers
                .iter()
                .any(|server| has_pair(server.block.as_deref().unwrap_or_default())));
    let mut marked: HashMap<String, usize> = HashMap::new();
    let mut first: HashMap<String, usize> = HashMap::new();
    for (index, server) in servers.iter().enumerate() {
        let number = index + 1;
        let block = server.block.as_deref().unwrap_or_default();
        let listens: Vec<&Directive> = block
            .iter()
            .filter(|inner| inner.name == "listen")
            .collect();
        for socket in server_sockets(server) {
            if tls.contains(&socket) && !tls_live {
                continue;
            }
            first.entry(socket.clone()).or_insert(number);
            let says_default = listens.iter().any(|listen| {
                listen.args.first().and_then(|a| listen_address(a)).as_ref() == Some(&socket)
                    && listen
                        .args
                        .iter()
                        .any(|arg| arg == "default_server" || arg == "default")
            });
            if says_default {
                marked.entry(socket).or_insert(number);
            }
        }
    }
    for (socket, number) in marked {
        first.insert(socket, number);
    }
    first
}

/// The server (counted from 1) that answers plain-HTTP requests for hosts no server names:
/// the one whose plain `listen` says `default_server`, else the first with a plain `listen` (or
/// none, which is `listen 80`), else the first. A TLS-only server is weir's default only when
/// there is nothing else, as weir serves plain HTTP only.
fn plain_listens<'d>(server: &'d Directive, tls: &HashSet<String>) -> Vec<&'d Directive> {
    server
        .block
        .iter()
        .flatten()
        .filter(|inner| {
            inner.name == "listen"
                && !inner.args.iter().any(|arg| arg == "quic")
                && !inner
                    .args
                    .first()
                    .and_then(|address| listen_address(address))
                    .is_some_and(|socket| tls.contains(&socket))
                && !inner.args.iter().any(|arg| arg == "ssl")
        })
        .collect()
}

fn default_server(http: &[Directive], tls: &HashSet<String>) -> usize {
    let servers: Vec<&Directive> = http
        .iter()
        .filter(|directive| directive.name == "server")
        .collect();
    let has_listen = |server: &Directive| {
        server
            .block
            .iter()
            .flatten()
            .any(|inner| inner.name == "listen")
    };
    let marked = servers.iter().position(|server| {
        plain_listens(server, tls).iter().any(|listen| {
            listen
                .args
                .iter()
                .any(|arg| arg == "default_server" || arg == "default")
        })
    });
    let plain = servers
        .iter()
        .position(|server| !plain_listens(server, tls).is_empty() || !has_listen(server));
    marked.or(plain).unwrap_or(0) + 1
}

/// Directives that refuse, hide or limit something: the guards a left-out block takes with it.
fn guards(block: &[Directive], found: &mut Vec<String>) {
    for directive in block {
        let guard = match directive.name.as_str() {
            "deny" | "auth_basic" | "auth_request" | "internal" | "limit_req" | "limit_conn"
            | "limit_except" => true,
            "return" => directive
                .args
                .first()
                .and_then(|code| code.parse::<u16>().ok())
                .is_some_and(|code| (400..=499).contains(&code)),
            _ => false,
        };
        if guard {
            found.push(shorten(&directive.summary()));
        }
        if let Some(inner) = &directive.block {
            guards(inner, found);
        }
    }
}

/// Response headers added for the browser's safety: dropping one weakens what the site asks of
/// browsers.
const SECURITY_HEADERS: &[&str] = &[
    "strict-transport-security",
    "x-frame-options",
    "x-content-type-options",
    "content-security-policy",
    "content-security-policy-report-only",
    "referrer-policy",
    "permissions-policy",
    "feature-policy",
    "x-xss-protection",
    "cross-origin-opener-policy",
    "cross-origin-embedder-policy",
    "cross-origin-resource-policy",
    "x-permitted-cross-domain-policies",
];

/// One item per directive: items made for the same directive (its own, and a later remark such
/// as a second route's time-out) become one, in the worse part, with both notes. A directive is
/// its place and its text (several directives may share a line).
/// `map $http_upgrade $connection_upgrade { default upgrade; '' close; }`, the map nginx's
/// WebSocket guide (and Uvicorn's) gives: a Connection value from the client's Upgrade header.
/// What one `proxy_redirect` says.
#[derive(Debug, PartialEq)]
enum Redirect {
    Off,
    Default,
    /// `proxy_redirect PREFIX REPLACEMENT`.
    Rewrite(String, String),
}

/// A `proxy_redirect` weir can carry, or why not.
fn proxy_redirect(directive: &Directive) -> Result<Redirect, String> {
    match directive.args.as_slice() {
        [off] if off == "off" => Ok(Redirect::Off),
        [default] if default == "default" => Ok(Redirect::Default),
        [prefix, _] if prefix.starts_with('~') => Err(format!(
            "{prefix:?} is a regex: weir's location_rewrites take a literal start of the Location"
        )),
        [prefix, _] if prefix.contains('$') || prefix.is_empty() || prefix.contains(char::is_whitespace) => Err(format!(
            "{prefix:?} has variables or spaces: weir's location_rewrites take a literal start of the Location"
        )),
        [_, replacement] if replacement.is_empty() => {
            Err("an empty replacement: weir's location_rewrites need one (\"/\" for the site's root)".into())
        }
        [prefix, replacement] => {
            text::value_ok(replacement)?;
            Ok(Redirect::Rewrite(prefix.clone(), replacement.clone()))
        }
        _ => Err("expected proxy_redirect off, default, or PREFIX REPLACEMENT".into()),
    }
}

/// nginx's `proxy_redirect default` for a `proxy_pass` in a location (`None` for a regex or
/// named one): the URL with a URI part becomes the location's path (`http://app:8000/` in
/// `location /app/`: `/app/`), one without becomes `/` (`http://app` + `/`). None for a URL with
/// variables, or a Unix socket's (the app never names it).
fn default_redirect(proxy_pass: &Directive, location: Option<&str>) -> Option<(String, String)> {
    let url = proxy_pass.args.first()?;
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    if url.contains('$') || rest.starts_with("unix:") {
        return None;
    }
    match rest.find('/') {
        Some(_) => Some((url.clone(), location?.to_string())),
        None => Some((format!("{url}/"), "/".to_string())),
    }
}

/// A proxied location's `location_rewrites`: from the `proxy_redirect`s in force, or, with none,
/// nginx's default where the app is sent `$proxy_host` (`sends_proxy_host`; elsewhere it is sent
/// the client's Host and names that in its URLs). nginx takes the first that matches, weir the
/// longest: one whose prefix an earlier one starts is never reached in nginx, and is left out.
fn location_rewrites(
    scope: &Scope<'_>,
    proxy_pass: &Directive,
    location: Option<&str>,
    sends_proxy_host: bool,
) -> Vec<(String, String, Source)> {
    let mut found: Vec<(String, String, Source)> = Vec::new();
    if scope.proxy_redirect.is_empty() {
        if sends_proxy_host {
            found.extend(
                default_redirect(proxy_pass, location)
                    .map(|(prefix, to)| (prefix, to, proxy_pass.source.clone())),
            );
        }
        return found;
    }
    for directive in &scope.proxy_redirect {
        let entry = match proxy_redirect(directive) {
            Ok(Redirect::Off) => {
                found.clear();
                continue;
            }
            Ok(Redirect::Default) => default_redirect(proxy_pass, location),
            Ok(Redirect::Rewrite(prefix, to)) => Some((prefix, to)),
            Err(_) => None,
        };
        if let Some((prefix, to)) = entry {
            if !found
                .iter()
                .any(|(known, _, _)| prefix.starts_with(known.as_str()))
            {
                found.push((prefix, to, directive.source.clone()));
            }
        }
    }
    found
}

fn is_upgrade_map(directive: &Directive) -> bool {
    let [source, _] = directive.args.as_slice() else {
        return false;
    };
    source == "$http_upgrade"
        && directive.block.iter().flatten().all(|entry| {
            matches!(
                entry.args.as_slice(),
                [value] if matches!(value.as_str(), "upgrade" | "close" | "keep-alive" | "")
            )
        })
}

fn merge_items(items: &mut Vec<Item>) {
    let mut merged: Vec<Item> = Vec::with_capacity(items.len());
    let mut index: HashMap<(Source, String), usize> = HashMap::new();
    for item in items.drain(..) {
        let Some(first) = item.sources.first().cloned() else {
            merged.push(item);
            continue;
        };
        let first = (first, item.directive.clone());
        match index.get(&first) {
            Some(&at) => {
                let kept = &mut merged[at];
                kept.kind = kept.kind.max(item.kind);
                if !kept.note.contains(&item.note) {
                    kept.note.push_str("; ");
                    kept.note.push_str(&item.note);
                }
                for source in item.sources {
                    if !kept.sources.contains(&source) {
                        kept.sources.push(source);
                    }
                }
            }
            None => {
                index.insert(first, merged.len());
                merged.push(item);
            }
        }
    }
    *items = merged;
}

fn collect_unaccounted<'d>(
    directives: &'d [Directive],
    accounted: &HashSet<*const Directive>,
    out: &mut Vec<&'d Directive>,
) {
    for directive in directives {
        if !accounted.contains(&(directive as *const Directive)) {
            out.push(directive);
        }
        if let Some(block) = &directive.block {
            collect_unaccounted(block, accounted, out);
        }
    }
}

/// What weir does where a `proxy_set_header Host $host` is in force but no route carries it.
/// The comment above every upstream table: the one setting nginx has no counterpart for, and
/// whose absence leaves the app's queue in its listen backlog, as nginx did.
const CAPACITY_HINT: &str = "Declare the app's capacity here, and weir holds what its workers cannot take in a queue of its own and refuses at once what would wait too long: workers = N (Gunicorn's -w; worker_class = \"async\" for Uvicorn workers). nginx has no such setting; see docs/overload.md";

const HOST_AS_SENT: &str = "weir sends the client's Host as it came: the same name, with the port a client writes beside a non-default one, which nginx's $host leaves out";

/// `proxy_set_header Host $host`.
fn is_host_name(directive: &Directive) -> bool {
    directive.name == "proxy_set_header"
        && matches!(directive.args.as_slice(), [name, value] if name.eq_ignore_ascii_case("host") && value == "$host")
}

/// Why losing `directive` (reported as `kind` by [`Translator::simple`]) weakens the gateway.
fn less_safe_reason(directive: &Directive, kind: Kind) -> Option<String> {
    let first = directive.args.first().map(|arg| arg.to_ascii_lowercase());
    let first = first.as_deref().unwrap_or("");
    match directive.name.as_str() {
        "allow" | "deny" if kind == Kind::Unsupported => Some(format!(
            "the access rule is dropped: requests nginx {} now reach the app",
            if directive.name == "allow" { "refused to other clients" } else { "refused" }
        )),
        "auth_basic" if first != "off" && kind == Kind::Unsupported => {
            Some("the password prompt is dropped: anyone reaches what it protected".into())
        }
        "auth_basic_user_file" if kind == Kind::Unsupported => {
            Some("the password file is dropped: anyone reaches what it protected".into())
        }
        "auth_request" if first != "off" && kind == Kind::Unsupported => {
            Some("the authentication is dropped: anyone reaches what it protected".into())
        }
        "proxy_hide_header" if kind == Kind::Unsupported => Some(format!(
            "not hidden: the upstream's {} reaches clients",
            directive.args.first().map_or("header", String::as_str)
        )),
        "proxy_set_header" if kind == Kind::Unsupported => {
            let name = directive.args.first().map_or("", String::as_str);
            let value = directive.args.get(1).map_or("", String::as_str);
            match (first, value) {
                // Only what the upstream compresses changes; the client's value is harmless.
                ("accept-encoding", _) => None,
                ("x-forwarded-for", _) => Some(format!(
                    "nginx overwrote X-Forwarded-For with {value}; weir appends, so the addresses a client writes in it reach the app"
                )),
                // The client's Host is the name nginx's `$host` is, with the port it wrote.
                ("host", "$host") => None,
                ("host", _) => Some(format!(
                    "nginx sent Host {value}; weir sends the client's Host, so the app sees whatever name a client gives"
                )),
                // weir sets these itself, to the client's address and scheme: not the client's.
                ("x-real-ip" | "x-forwarded-proto", _) => None,
                // weir writes these itself: the client's never reach the app.
                (
                    "connection" | "keep-alive" | "te" | "trailer" | "transfer-encoding" | "upgrade"
                    | "content-length" | "proxy-connection",
                    _,
                ) => None,
                (_, "") => Some(format!(
                    "not stripped: the client's {name} reaches the app, where nginx removed it"
                )),
                _ => Some(format!(
                    "not set: the client's own {name} (if it sends one) reaches the app, where nginx replaced it with {value}"
                )),
            }
        }
        "add_header" if SECURITY_HEADERS.contains(&first) && kind == Kind::Unsupported => Some(
            format!("not sent: browsers no longer get {}", directive.args[0]),
        ),
        "ssl_verify_client" if first != "off" => Some(
            "client certificates are not asked for: any client connects".into(),
        ),
        "limit_except" if kind == Kind::Unsupported => Some(
            "the method restriction is dropped: every method reaches what it guarded".into(),
        ),
        "proxy_cookie_flags"
            if kind == Kind::Unsupported
                && directive.args.iter().any(|flag| {
                    let flag = flag.to_ascii_lowercase();
                    flag == "secure" || flag == "httponly" || flag.starts_with("samesite")
                }) =>
        {
            Some("the app's cookies go out without the Secure, HttpOnly or SameSite nginx set on them".into())
        }
        "limit_conn" => Some(
            "the limit is not applied: a client may open as many connections as it likes".into(),
        ),
        "limit_rate" if kind == Kind::Unsupported => Some(
            "the limit is not applied: a client may take as much bandwidth as it likes".into(),
        ),
        _ => None,
    }
}

/// `proxy_pass_header NAME`: lets through a header nginx hides from the client by default.
fn proxy_pass_header(directive: &Directive) -> (Kind, String) {
    let name = directive
        .args
        .first()
        .map(|name| name.to_ascii_lowercase())
        .unwrap_or_default();
    match name.as_str() {
        "server" | "date" => (
            Kind::Translated,
            "always: weir passes the upstream's Server and Date".into(),
        ),
        "x-pad" => (Kind::Translated, "always: weir passes X-Pad through".into()),
        name if name.starts_with("x-accel-") => (
            Kind::Translated,
            format!("always: weir does not act on {name}, and passes it through"),
        ),
        _ => (
            Kind::Translated,
            format!(
                "no effect in nginx either: nginx hides only Date, Server, X-Pad and X-Accel-* by default, so {} passes anyway, as in weir",
                directive.args.first().map_or("it", String::as_str)
            ),
        ),
    }
}

/// Said of an HSTS `add_header` that goes on the routes.
const PARTIAL_HSTS: &str = "; not [tls] hsts, which would send it on every TLS answer: some locations have add_header of their own, so nginx sends them no HSTS (they inherit none of the server's add_header), and weir does the same";
const NO_TLS_HSTS: &str = "; no TLS listener is written, so it is not [tls] hsts: weir sends it on the plain-HTTP listener, as nginx did here";

/// An `add_header`'s note, with weir's difference: it replaces the upstream's header.
fn response_note(header: &headers::ResponseHeader) -> String {
    let key = if header.always {
        "response_headers_always"
    } else {
        "response_headers"
    };
    format!(
        "{key} {} = {:?} on the routes it applies to; weir replaces an upstream's {} where nginx adds a second",
        header.name, header.value, header.name
    )
}

fn timeout_key(name: &str) -> &'static str {
    match name {
        "proxy_connect_timeout" => "connect_timeout",
        "proxy_read_timeout" => "read_timeout",
        _ => "send_timeout",
    }
}

/// A TOML-safe name for `[upstreams.NAME]` / `[limits.NAME]`.
fn weir_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|character| {
            if character.is_ascii_alphanumeric() || character == '-' || character == '_' {
                character
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "app".to_string()
    } else {
        cleaned
    }
}

/// Whether weir takes `name` as a route's `host`: letters, digits, `.`, `-`, `_`, or `[IPv6]`.
/// What a `server_name` name is to weir's `host`.
enum ServerName {
    /// A name or a wildcard (`*.example.com`, `example.*`), in lower case.
    Host(String),
    /// nginx's `.example.com`: `example.com` and `*.example.com`.
    Both(String),
}

/// A `server_name` name as weir's route `host`, or why weir cannot route it.
fn server_name_host(name: &str) -> Result<ServerName, &'static str> {
    if name.starts_with('~') {
        return Err("a regex name: weir's routes match exact names and wildcards only");
    }
    if name.contains('$') {
        return Err("a variable: weir's routes match exact names and wildcards only");
    }
    let (core, shorthand) = if let Some(rest) = name.strip_prefix("*.") {
        (rest, false)
    } else if let Some(rest) = name.strip_suffix(".*") {
        (rest, false)
    } else if let Some(rest) = name.strip_prefix('.') {
        (rest, true)
    } else {
        (name, false)
    };
    if core.contains('*') {
        return Err(
            "a wildcard weir takes only in front (*.example.com) or at the end (example.*)",
        );
    }
    if core.is_empty() || core.starts_with('[') && name != core || !weir_host(core) {
        return Err("not a host name weir can match (a port, or characters a Host has not)");
    }
    let host = name.to_ascii_lowercase();
    if shorthand {
        Ok(ServerName::Both(core.to_ascii_lowercase()))
    } else {
        Ok(ServerName::Host(host))
    }
}

fn weir_host(name: &str) -> bool {
    match name
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        Some(ipv6) => ipv6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')),
    }
}

/// An upstream server: `unix:/path`, `IP:port`, `IP` (port 80), `NAME:port`, `NAME` (port 80).
/// A name (a Compose service, `host.docker.internal`) is resolved by weir at start and every
/// `resolve_interval`; `localhost` is left to the caller, since with `[server] resolver` weir
/// does not read `/etc/hosts`.
fn upstream_address(text: &str) -> Option<String> {
    if let Some(name) = upstream_name(text) {
        return Some(name);
    }
    if let Some(path) = text.strip_prefix("unix:") {
        return (!path.is_empty()).then(|| text.to_string());
    }
    if let Ok(address) = text.parse::<std::net::SocketAddr>() {
        return Some(address.to_string());
    }
    if let Ok(ip) = text
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
    {
        return Some(std::net::SocketAddr::new(ip, 80).to_string());
    }
    None
}

/// `NAME:port` or `NAME` (port 80) where NAME is a host name: dot-separated labels of letters,
/// digits, '-' and '_', not an IP address and not `localhost`.
fn upstream_name(text: &str) -> Option<String> {
    let (name, port) = match text.rsplit_once(':') {
        Some((name, port)) => (name, port.parse::<u16>().ok()?),
        None => (text, 80),
    };
    let label_ok = |label: &str| {
        !label.is_empty()
            && !label.starts_with('-')
            && label
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
    };
    let is_name = name.split('.').all(label_ok)
        && name.chars().any(|c| c.is_ascii_alphabetic())
        && name.parse::<std::net::IpAddr>().is_err()
        && !name.eq_ignore_ascii_case("localhost");
    is_name.then(|| format!("{name}:{port}"))
}

/// A `listen` address: `80`, `*:80`, `IP:port`, `[::]:80`, `IP` (port 80), `localhost:80`.
fn listen_address(text: &str) -> Option<String> {
    if let Ok(port) = text.parse::<u16>() {
        return Some(format!("0.0.0.0:{port}"));
    }
    if let Some(port) = text.strip_prefix("*:") {
        return port
            .parse::<u16>()
            .ok()
            .map(|port| format!("0.0.0.0:{port}"));
    }
    if text == "localhost" {
        return Some("127.0.0.1:80".into());
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return port
            .parse::<u16>()
            .ok()
            .map(|port| format!("127.0.0.1:{port}"));
    }
    if let Ok(address) = text.parse::<std::net::SocketAddr>() {
        return Some(address.to_string());
    }
    if let Ok(ip) = text
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
    {
        return Some(std::net::SocketAddr::new(ip, 80).to_string());
    }
    None
}

/// nginx time (`65s`, `120`, `1m30s`, `500ms`, `1h`, `1d`) as weir text: whole seconds as `"Ns"`,
/// else milliseconds.
fn duration(text: &str) -> Option<String> {
    let mut total_ms: u64 = 0;
    let mut rest = text.trim();
    if rest.is_empty() {
        return None;
    }
    if let Ok(seconds) = rest.parse::<u64>() {
        return Some(format!("{seconds}s"));
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return None;
        }
        let number: u64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = if rest.starts_with("ms") {
            2
        } else {
            rest.chars().next().map_or(0, char::len_utf8)
        };
        let unit = &rest[..unit_len];
        let factor: u64 = match unit {
            "ms" => 1,
            "s" | "" => 1000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            "w" => 604_800_000,
            "M" => 2_592_000_000,
            "y" => 31_536_000_000,
            _ => return None,
        };
        total_ms = total_ms.checked_add(number.checked_mul(factor)?)?;
        rest = &rest[unit_len..];
    }
    Some(if total_ms % 1000 == 0 {
        format!("{}s", total_ms / 1000)
    } else {
        format!("{total_ms}ms")
    })
}

/// A route's `limit_rate` and `limit_rate_after`, as written (weir reads nginx's sizes), with
/// where each came from.
#[derive(Debug, Clone)]
struct RouteLimitRate {
    rate: (String, Source),
    after: Option<(String, Source)>,
}

impl RouteLimitRate {
    /// The `limit_rate` in force when it limits (a size above 0), and its `limit_rate_after`
    /// when that is above 0.
    fn of(scope: &Scope) -> Option<RouteLimitRate> {
        let written = |directive: Option<&Directive>| {
            let directive = directive?;
            let text = directive.args.first()?;
            (size(text)? > 0).then(|| (text.clone(), directive.source.clone()))
        };
        Some(RouteLimitRate {
            rate: written(scope.limit_rate)?,
            after: written(scope.limit_rate_after),
        })
    }
}

/// nginx size (`20M`, `8k`, `1g`, `1024`) in bytes.
fn size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (number, factor) = match text.chars().last()? {
        'k' | 'K' => (&text[..text.len() - 1], 1024),
        'm' | 'M' => (&text[..text.len() - 1], 1024 * 1024),
        'g' | 'G' => (&text[..text.len() - 1], 1024 * 1024 * 1024),
        _ => (text, 1),
    };
    number.parse::<u64>().ok()?.checked_mul(factor)
}

/// A limit's status (nginx's 503 by default) and dry run, from the `limit_req_status` /
/// `limit_conn_status` and `*_dry_run` in force.
fn status_and_dry_run(status: Option<&Directive>, dry_run: Option<&Directive>) -> (String, bool) {
    let status = status
        .and_then(|status| status.args.first().cloned())
        .unwrap_or_else(|| "503".to_string());
    let dry_run = dry_run
        .and_then(|dry_run| dry_run.args.first())
        .is_some_and(|arg| arg == "on");
    (status, dry_run)
}

/// How a zone keyed by the server's name (`$server_name`) is counted in weir.
const BY_SERVER_NAME: &str = "$server_name is key \"all\": one count for every route that uses the zone, where nginx counts each server block apart (the same where one server block uses it; a server with no server_name has an empty $server_name, which nginx does not limit)";

/// A `limit_req_zone`'s or `limit_conn_zone`'s `zone=NAME:SIZE` and key: the zone's name, the
/// key as weir's `key`, and `max_keys` (the zone's size / 64 bytes); or why weir cannot key it.
fn zone_parts<'z>(key: &str, zone: &'z str) -> Result<(&'z str, String, Option<u64>), String> {
    let (zone_name, zone_size) = zone.split_once(':').unwrap_or((zone, ""));
    let key_value = limit_key(key).ok_or_else(|| {
        format!("weir keys limits by client address, path and request headers; {key} has none of them (routes using the zone get no limit)")
    })?;
    Ok((
        zone_name,
        key_value,
        size(zone_size).map(|bytes| (bytes / 64).max(1)),
    ))
}

/// A `limit_req_zone` key as weir's `key`, when weir can count by it.
fn limit_key(key: &str) -> Option<String> {
    let mut parts = Vec::new();
    for name in text::variable_names(key)? {
        let part = match name {
            "binary_remote_addr" | "remote_addr" => "client_ip".to_string(),
            "uri" | "request_uri" | "document_uri" => "path".to_string(),
            // The same for every request of a server block: one key for the server.
            "server_name" => "all".to_string(),
            header if header.starts_with("http_") => {
                format!(
                    "header:{}",
                    headers::header_of_variable(&header["http_".len()..])
                )
            }
            _ => return None,
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    // Beside another part, the server's name adds nothing weir can count by (weir's `all` is
    // alone): the others count across servers.
    if parts.len() > 1 {
        parts.retain(|part| part != "all");
    }
    (!parts.is_empty()).then(|| parts.join("+"))
}

/// `try_files`' candidates after `$uri` as weir's `try_suffixes`: `$uri.html` is `".html"`,
/// `$uri/` is `"/"`; `None` when one is of another shape or weir refuses it (a dot-file, `..`,
/// `?`, `#`, `%`); empty when `$uri/` is all there is, which a static route does by itself.
fn try_suffixes(candidates: &[String]) -> Option<Vec<String>> {
    let mut suffixes = Vec::new();
    for candidate in candidates {
        let suffix = candidate.strip_prefix("$uri")?;
        let valid = (suffix.starts_with('.') || suffix.starts_with('/'))
            && suffix != "."
            && suffix
                .bytes()
                .all(|byte| byte.is_ascii_graphic() && !b"?#%$\\".contains(&byte))
            && !suffix.split('/').any(|segment| segment == "..")
            && !suffix
                .split('/')
                .skip(1)
                .any(|segment| segment.starts_with('.'));
        if !valid || suffixes.iter().any(|known| known == suffix) {
            return None;
        }
        suffixes.push(suffix.to_string());
    }
    if suffixes.len() > 8 {
        return None;
    }
    if suffixes.iter().all(|suffix| suffix == "/") {
        suffixes.clear();
    }
    Some(suffixes)
}

/// The `fallback_file` for `try_files ... URI` in a location of `path`: nginx looks `uri` up again
/// among the locations; weir serves a file of the route's directory. The same file when `uri`
/// falls in this location: below its prefix (which weir's static route strips), or matched by its
/// regex (a static regex route strips nothing).
fn fallback_file(uri: &str, path: &str, path_match: PathMatch) -> Result<String, String> {
    if uri.contains('$') || uri.contains('?') || uri.ends_with('/') {
        return Err(format!(
            "weir's fallback_file is one file of the route's directory; {uri} is not (a variable, a query or a directory)"
        ));
    }
    let file = if path_match.is_regex() {
        let matches = route_regex(path, path_match == PathMatch::RegexNocase).is_ok()
            && regex::RegexBuilder::new(path)
                .case_insensitive(path_match == PathMatch::RegexNocase)
                .build()
                .is_ok_and(|regex| regex.is_match(uri));
        if !matches {
            return Err(format!("nginx looks {uri} up again, and this location's regex does not match it: another location serves it, which weir's fallback_file (a file of this route's directory) cannot name"));
        }
        uri.to_string()
    } else {
        match uri.strip_prefix(path) {
            Some(rest) => format!("/{}", rest.trim_start_matches('/')),
            None => {
                return Err(format!("nginx looks {uri} up again, outside this location ({path}): another location serves it, which weir's fallback_file (a file of this route's directory) cannot name"));
            }
        }
    };
    let clean = file.len() > 1
        && file
            .split('/')
            .skip(1)
            .all(|segment| !segment.is_empty() && segment != "." && segment != "..");
    if clean {
        Ok(file)
    } else {
        Err(format!(
            "{uri} is not a file of the route's directory weir's fallback_file can name"
        ))
    }
}

/// The most a route's regex may take once compiled: weir's own limit (`routing::REGEX_SIZE_LIMIT`).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Whether a rewrite's replacement is a URL with a scheme (nginx redirects to it, whatever the
/// flag).
fn is_absolute_url(url: &str) -> bool {
    ["http://", "https://", "$scheme"]
        .iter()
        .any(|start| url.starts_with(start))
}

/// The literal every path a regex matches starts with: after `^`, up to its first
/// metacharacter (`\\` escaping a punctuation character), and the rest of the regex after
/// it (with the character a `?`, `*` or `{` makes optional); `None` without `^`.
fn regex_literal(regex: &str) -> Option<(String, &str)> {
    let body = regex.strip_prefix('^')?;
    let mut literal = String::new();
    // Where the literal's source ends in `body`, and where its last character's began.
    let (mut end, mut last) = (0, 0);
    let mut chars = body.char_indices().peekable();
    while let Some((at, char)) = chars.next() {
        let char = match char {
            '\\' => match chars.peek() {
                Some(&(_, next)) if next.is_ascii_punctuation() => {
                    chars.next();
                    next
                }
                _ => break,
            },
            // A `?`, `*` or `{` makes the character before it optional.
            '?' | '*' | '{' => {
                if literal.pop().is_some() {
                    end = last;
                }
                break;
            }
            '.' | '+' | '[' | ']' | '}' | '|' | '^' | '$' | '(' | ')' => break,
            char => char,
        };
        literal.push(char);
        last = at;
        end = chars.peek().map_or(body.len(), |&(next, _)| next);
    }
    Some((literal, &body[end..]))
}

/// The `upstream_path` of a prefix location `location` whose `rewrite REGEX REPLACEMENT break`
/// swaps a literal prefix for another on every path it takes: `^LITERAL(.*)$` (or `(/.*)`, when
/// the location's path goes on with `/` past the literal), `REPLACEMENT` a literal path ending in
/// `$1`, and the location's path starting with the literal. `None` for any other rewrite.
fn rewrite_prefix(location: &str, rewrite: &Directive) -> Option<String> {
    let [regex, replacement, flag] = rewrite.args.as_slice() else {
        return None;
    };
    if flag != "break" {
        return None;
    }
    let (literal, rest) = regex_literal(regex)?;
    let slash = match rest.strip_suffix('$').unwrap_or(rest) {
        "(.*)" => false,
        "(/.*)" => true,
        _ => return None,
    };
    let after = location.strip_prefix(literal.as_str())?;
    if slash && !after.starts_with('/') {
        return None;
    }
    let swapped = format!("{}{after}", replacement.strip_suffix("$1")?);
    (!swapped.contains('$') && is_plain_path(&swapped)).then_some(swapped)
}

/// Whether `uri` is what weir's `upstream_path` takes: a path (RFC 3986 `path-absolute`
/// characters), no query or fragment, no `..` segment, each `%` escape whole and none of them a
/// NUL.
fn is_plain_path(uri: &str) -> bool {
    let bytes = uri.as_bytes();
    if bytes.first() != Some(&b'/') || uri.split('/').any(|segment| segment == "..") {
        return false;
    }
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            let escape = bytes.get(index + 1..index + 3);
            let whole = escape.is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit));
            if !whole || escape == Some(b"00") {
                return false;
            }
            index += 3;
            continue;
        }
        if !(byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&byte)) {
            return false;
        }
        index += 1;
    }
    true
}

/// Whether `text` names an nginx variable (`$name`, `${name}`), which weir would not evaluate.
fn names_variable(text: &str) -> bool {
    text.split('$').skip(1).any(|after| {
        after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '{')
    })
}

/// Whether weir takes `pattern` as a route's regex, and if not why: weir's regexes (the `regex`
/// crate) run in linear time and have no look-around or back-references, which nginx's PCRE has.
fn route_regex(pattern: &str, nocase: bool) -> Result<(), String> {
    let pcre_only = [
        ("(?=", "look-ahead (?=...)"),
        ("(?!", "negative look-ahead (?!...)"),
        ("(?<=", "look-behind (?<=...)"),
        ("(?<!", "negative look-behind (?<!...)"),
        ("(?>", "an atomic group (?>...)"),
        ("\\k<", "a named back-reference \\k<...>"),
    ];
    for (syntax, what) in pcre_only {
        if pattern.contains(syntax) {
            return Err(format!(
                "a regex with {what}, which weir's regexes (linear time) do not have"
            ));
        }
    }
    let bytes = pattern.as_bytes();
    let mut at = 0;
    while at + 1 < bytes.len() {
        if bytes[at] == b'\\' {
            if bytes[at + 1].is_ascii_digit() && bytes[at + 1] != b'0' {
                return Err(format!(
                    "a regex with the back-reference \\{}, which weir's regexes (linear time) do not have",
                    bytes[at + 1] as char
                ));
            }
            at += 2;
        } else {
            at += 1;
        }
    }
    regex::RegexBuilder::new(pattern)
        .case_insensitive(nocase)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map(drop)
        .map_err(|error| {
            let message = error.to_string();
            let last = message
                .lines()
                .rev()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("");
            format!("a regex weir's regex syntax refuses ({})", last.trim())
        })
}

/// A suggestion for a regex location: the literal prefix it starts with, if any.
fn regex_suggestion(regex: &str) -> String {
    let literal: String = regex
        .strip_prefix('^')
        .unwrap_or("")
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_'))
        .collect();
    if literal.starts_with('/') && literal.len() > 1 {
        format!("suggestion: a prefix route, path = {literal:?}, covers what it matches (and perhaps more)")
    } else if regex.contains("\\.(") || regex.ends_with('$') {
        "suggestion: put such files under one directory and give it a prefix route with `static`"
            .to_string()
    } else {
        "suggestion: a prefix route for the paths it is meant to match".to_string()
    }
}

fn shorten(text: &str) -> String {
    const MAX: usize = 100;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let short: String = text.chars().take(MAX).collect();
    format!("{short}...")
}

/// The variables weir's access log writes (`[access_log] format`), besides `$http_NAME`.
const LOG_VARIABLES: [&str; 38] = [
    "remote_addr",
    "remote_port",
    "remote_user",
    "time_local",
    "time_iso8601",
    "msec",
    "request",
    "request_method",
    "request_uri",
    "server_protocol",
    "scheme",
    "host",
    "status",
    "body_bytes_sent",
    "http_referer",
    "http_user_agent",
    "upstream_addr",
    "upstream_header_time",
    "upstream_response_time",
    "upstream_connect_time",
    "upstream_status",
    "upstream_queue_time",
    "request_time",
    "ssl_protocol",
    "ssl_cipher",
    "ssl_server_name",
    "upstream_cache_status",
    "request_id",
    "weir_cause",
    "uri",
    "args",
    "query_string",
    "is_args",
    "server_name",
    "hostname",
    "pid",
    "request_length",
    "bytes_sent",
];

/// A `log_format` as weir's `[access_log] format` line.
struct LogLine {
    text: String,
    /// `escape`: `None` for nginx's default.
    escape: Option<&'static str>,
    note: String,
    /// Approximated when weir writes it otherwise than nginx would (`escape=none`).
    kind: Kind,
}

/// A `log_format NAME [escape=...] STRING...` as weir's `format` line; `Err` says why weir
/// cannot write it (the variables it does not write).
fn log_line(log_format: &Directive) -> Result<LogLine, String> {
    let name = log_format.args.first().map_or("", String::as_str);
    let mut strings = log_format.args.iter().skip(1).peekable();
    let escape = match strings.peek().and_then(|arg| arg.strip_prefix("escape=")) {
        Some(escape) => {
            strings.next();
            escape
        }
        None => "default",
    };
    let line: String = strings.map(String::as_str).collect();
    if line.contains(['\n', '\r']) {
        return Err("its line has a line break".to_string());
    }
    let names = text::variable_names(&line).ok_or("a `${` has no `}`")?;
    let unknown: Vec<String> = names
        .iter()
        .filter(|name| {
            !LOG_VARIABLES.contains(name)
                && name.strip_prefix("http_").is_none_or(str::is_empty)
                && name.strip_prefix("sent_http_").is_none_or(str::is_empty)
        })
        .map(|name| format!("${name}"))
        .collect();
    if !unknown.is_empty() {
        return Err(format!("weir does not write {}", unknown.join(", ")));
    }
    if names.is_empty() {
        return Err("its line has no variable".to_string());
    }
    let mut headers: Vec<&str> = names
        .iter()
        .filter(|name| name.starts_with("http_") || **name == "host")
        .map(|name| if *name == "host" { "http_host" } else { name })
        .collect();
    headers.sort_unstable();
    headers.dedup();
    if headers.len() > 16 {
        return Err("weir keeps at most 16 request header fields for a line".to_string());
    }
    let mut sent: Vec<&str> = names
        .iter()
        .filter(|name| name.starts_with("sent_http_"))
        .copied()
        .collect();
    sent.sort_unstable();
    sent.dedup();
    if sent.len() > 16 {
        return Err("weir keeps at most 16 response header fields for a line".to_string());
    }
    let mut note = format!("format = log_format {name}'s line");
    if names.contains(&"time_local") {
        note.push_str("; $time_local in UTC");
    }
    if names.contains(&"server_name") {
        note.push_str(
            "; $server_name is the route's host, empty for a server of any name (nginx writes its first server_name, `_` too)",
        );
    }
    if names.contains(&"uri") {
        note.push_str("; $uri is the request's path, not the one a rewrite made");
    }
    if names.iter().any(|name| name.starts_with("sent_http_")) {
        note.push_str(
            "; $sent_http_NAME is the answer's field before the HTTP layer frames it (Content-Length, Date, Connection it adds are not seen)",
        );
    }
    if names.contains(&"request_length") || names.contains(&"bytes_sent") {
        note.push_str("; on HTTP/2, $request_length and $bytes_sent count the head as HTTP/1 text");
    }
    let kind = if escape == "none" {
        Kind::Approximated
    } else {
        Kind::Translated
    };
    if kind == Kind::Approximated {
        note.push_str(
            "; escape=none is written as nginx's default escaping (`\"` as `\\x22`), so no client can forge a field or a line",
        );
    }
    Ok(LogLine {
        text: line,
        escape: (escape == "json").then_some("json"),
        note,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regexs_literal_is_what_every_path_it_matches_starts_with() {
        let literal = |regex: &str| regex_literal(regex).map(|(literal, _)| literal);
        let some = |text: &str| Some(text.to_string());
        assert_eq!(literal("^/old/(.*)$"), some("/old/"));
        assert_eq!(literal(r"^/blog/(\d+)$"), some("/blog/"));
        assert_eq!(literal(r"^/static\.v1/"), some("/static.v1/"));
        assert_eq!(literal("^/shop/item-x?"), some("/shop/item-"));
        assert_eq!(literal("^/ab*c"), some("/a"));
        assert_eq!(literal(r"^/a\/?b"), some("/a"));
        assert_eq!(literal("^/a.b"), some("/a"));
        assert_eq!(literal(r"^\d"), some(""));
        assert_eq!(literal("/old/"), None);
        // What follows the literal, for a rewrite's capture.
        assert_eq!(
            regex_literal(r"^/static\.v1/(.*)$"),
            Some(("/static.v1/".to_string(), "(.*)$"))
        );
        assert_eq!(
            regex_literal("^/api/?(.*)"),
            Some(("/api".to_string(), "/?(.*)"))
        );
    }

    #[test]
    fn a_rewrite_break_that_swaps_a_prefix_is_an_upstream_path() {
        let swapped = |location: &str, rewrite: &str| {
            let args: Vec<String> = rewrite.split_whitespace().map(String::from).collect();
            let directive = Directive {
                name: "rewrite".into(),
                args,
                block: None,
                source: Source {
                    file: "nginx.conf".into(),
                    line: 1,
                },
            };
            rewrite_prefix(location, &directive)
        };
        let some = |path: &str| Some(path.to_string());
        assert_eq!(swapped("/api/", "^/api/(.*)$ /$1 break"), some("/"));
        assert_eq!(swapped("/api/", "^/api/(.*) /$1 break"), some("/"));
        assert_eq!(swapped("/api/", "^/api(.*)$ $1 break"), some("/"));
        assert_eq!(swapped("/api/", "^/api(/.*)$ $1 break"), some("/"));
        assert_eq!(
            swapped("/v1/", "^/v1/(.*)$ /api/v1/$1 break"),
            some("/api/v1/")
        );
        assert_eq!(swapped("/api/v2/", "^/api/(.*)$ /$1 break"), some("/v2/"));
        assert_eq!(
            swapped("/static.v1/", r"^/static\.v1/(.*)$ /$1 break"),
            some("/")
        );
        // Not a swap of every path the location takes, or not weir's to say: none.
        for (location, rewrite) in [
            ("/api/", "^/api/(.*)$ /$1 last"),
            ("/api/", "^/api/(.*)$ /$1 permanent"),
            ("/api/", "^/api/(.*)$ /$1"),
            ("/api", "^/api(/.*)$ $1 break"),
            ("/api", "^/api(.*)$ $1 break"),
            ("/app/", "^/api/(.*)$ /$1 break"),
            ("/api/", "^/api/(.+)$ /$1 break"),
            ("/api/", "^/api/(.*)$ /$1? break"),
            ("/api/", "^/api/(.*)$ /x/$2 break"),
            ("/api/", "^/api/(.*)$ /$host/$1 break"),
            ("/api/", "^/api/(.*)$ /x break"),
            ("/api.v1/", "^/api.v1/(.*)$ /$1 break"),
            ("/api/", "/api/(.*)$ /$1 break"),
            ("/api/", "^/api/(.*)/(.*)$ /$1 break"),
            // `\d` is a digit, not a `d`.
            ("/apid/", r"^/api\d/(.*)$ /$1 break"),
        ] {
            assert_eq!(swapped(location, rewrite), None, "{location} {rewrite}");
        }
    }

    #[test]
    fn nginx_times_and_sizes() {
        assert_eq!(duration("65s").as_deref(), Some("65s"));
        assert_eq!(duration("120").as_deref(), Some("120s"));
        assert_eq!(duration("1m30s").as_deref(), Some("90s"));
        assert_eq!(duration("500ms").as_deref(), Some("500ms"));
        assert_eq!(duration("1h").as_deref(), Some("3600s"));
        assert_eq!(duration("5 s"), None);
        assert_eq!(size("20M"), Some(20 * 1024 * 1024));
        assert_eq!(size("8k"), Some(8192));
        assert_eq!(size("0"), Some(0));
        assert_eq!(size("big"), None);
    }

    #[test]
    fn limit_keys_weir_can_count_by() {
        assert_eq!(
            limit_key("$binary_remote_addr").as_deref(),
            Some("client_ip")
        );
        assert_eq!(
            limit_key("$binary_remote_addr$uri").as_deref(),
            Some("client_ip+path")
        );
        assert_eq!(
            limit_key("$http_x_api_key").as_deref(),
            Some("header:X-Api-Key")
        );
        assert_eq!(limit_key("$server_name").as_deref(), Some("all"));
        assert_eq!(
            limit_key("$server_name$binary_remote_addr").as_deref(),
            Some("client_ip")
        );
        assert_eq!(limit_key("$arg_token"), None);
    }

    #[test]
    fn addresses() {
        assert_eq!(listen_address("80").as_deref(), Some("0.0.0.0:80"));
        assert_eq!(listen_address("[::]:80").as_deref(), Some("[::]:80"));
        assert_eq!(
            listen_address("127.0.0.1:8080").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(listen_address("example.com:80"), None);
        assert_eq!(
            upstream_address("unix:/tmp/g.sock").as_deref(),
            Some("unix:/tmp/g.sock")
        );
        assert_eq!(upstream_address("10.0.0.2").as_deref(), Some("10.0.0.2:80"));
        assert_eq!(upstream_address("app:8000").as_deref(), Some("app:8000"));
        assert_eq!(
            upstream_address("host.docker.internal").as_deref(),
            Some("host.docker.internal:80")
        );
        assert_eq!(upstream_address("localhost:8000"), None);
        assert_eq!(upstream_address("app:port"), None);
        assert_eq!(upstream_address("-bad:80"), None);
        assert_eq!(weir_name("backend.v2"), "backend_v2");
    }

    fn import(text: &str) -> Import {
        crate::import_str(text, "nginx.conf").unwrap_or_else(|error| panic!("{error}"))
    }

    /// The weir config the import wrote, which must load.
    #[track_caller]
    fn loaded(imported: &Import) -> weir::config::Config {
        weir::config::from_toml(&imported.toml, None)
            .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml))
    }

    /// The item for the directive starting with `directive`, as it is in the report.
    #[track_caller]
    fn item<'r>(imported: &'r Import, directive: &str) -> &'r Item {
        imported
            .report
            .items
            .iter()
            .find(|item| item.directive.starts_with(directive))
            .unwrap_or_else(|| panic!("no item for {directive:?} in:\n{}", imported.report))
    }

    #[track_caller]
    fn less_safe<'r>(imported: &'r Import, directive: &str) -> &'r Item {
        imported
            .report
            .less_safe
            .iter()
            .find(|item| item.directive.starts_with(directive))
            .unwrap_or_else(|| panic!("no less-safe {directive:?} in:\n{}", imported.report))
    }

    const CERT: &str = "ssl_certificate /etc/ssl/site.pem; ssl_certificate_key /etc/ssl/site.key;";

    /// The `[access_log] format` line the import wrote.
    #[track_caller]
    fn log_line_of(imported: &Import) -> std::sync::Arc<weir::config::LogTemplate> {
        match loaded(imported).access_log.format {
            weir::config::AccessLogFormat::Template(line) => line,
            other => panic!("{other:?}\n{}", imported.toml),
        }
    }

    #[test]
    fn a_log_format_weir_can_write_becomes_its_format_line() {
        let server = "server { listen 80; location / { return 204; } }";
        let main = r#"'$remote_addr - $remote_user [$time_local] "$request" ' '$status "$http_x_forwarded_for" ${host}'"#;
        let imported = import(&format!(
            "http {{ log_format main {main}; access_log /var/log/a.log main; {server} }}"
        ));
        let line = log_line_of(&imported);
        assert_eq!(
            line.text,
            r#"$remote_addr - $remote_user [$time_local] "$request" $status "$http_x_forwarded_for" ${host}"#
        );
        assert_eq!(line.escape, weir::config::LogEscape::Default);
        let access_log = item(&imported, "access_log");
        assert_eq!(access_log.kind, Kind::Translated, "{}", imported.report);
        assert!(
            access_log.note.contains("$time_local in UTC"),
            "{}",
            access_log.note
        );

        let imported = import(&format!(
            "http {{ log_format j escape=json '{{\"s\":$status,\"ua\":\"$http_user_agent\"}}'; access_log /var/log/a.log j; {server} }}"
        ));
        let line = log_line_of(&imported);
        assert_eq!(line.escape, weir::config::LogEscape::Json);
        assert_eq!(item(&imported, "access_log").kind, Kind::Translated);

        // escape=none: weir escapes as nginx's default, and says so.
        let imported = import(&format!(
            "http {{ log_format raw escape=none '$status $http_referer'; access_log /var/log/a.log raw; {server} }}"
        ));
        log_line_of(&imported);
        let access_log = item(&imported, "access_log");
        assert_eq!(access_log.kind, Kind::Approximated);
        assert!(
            access_log.note.contains("escape=none"),
            "{}",
            access_log.note
        );

        // A variable weir does not write: combined, as before, saying which.
        let imported = import(&format!(
            "http {{ log_format t '$remote_addr $gzip_ratio $connection'; access_log /var/log/a.log t; {server} }}"
        ));
        assert_eq!(
            loaded(&imported).access_log.format,
            weir::config::AccessLogFormat::Combined
        );
        let access_log = item(&imported, "access_log");
        assert_eq!(access_log.kind, Kind::Approximated);
        assert!(
            access_log
                .note
                .contains("weir does not write $gzip_ratio, $connection"),
            "{}",
            access_log.note
        );
    }

    #[test]
    fn a_map_a_header_value_names_becomes_a_map_of_weirs() {
        let imported = import(concat!(
            "http {\n",
            " map $http_origin $cors_origin { default \"\"; \"https://A.test\" $http_origin; \"~*^https://(www\\.)?b\\.test$\" $http_origin; \\~odd 1; volatile; }\n",
            " map $http_origin $foreign { default 1; \"\" 0; }\n",
            " map $http_user_agent $bad_bot { default 0; ~*bot 1; }\n",
            " map $uri $captured { ~^/(?<rest>.*)$ $rest; }\n",
            " server { listen 80; if ($bad_bot) { return 403; }\n",
            "  location / { add_header Access-Control-Allow-Origin $cors_origin always; proxy_set_header X-Foreign $foreign; proxy_set_header X-Rest $captured; proxy_pass http://127.0.0.1:8000; } } }",
        ));
        let toml = &imported.toml;
        assert!(
            toml.contains(r#"entries = [{ equals = "https://A.test", value = "$http_origin" }, { equals = "~odd", value = "1" }, { matches = "(?i)^https://(www\\.)?b\\.test$", value = "$http_origin" }]"#),
            "{toml}"
        );
        assert!(toml.contains("[maps.foreign]"), "{toml}");
        assert!(toml.contains(r#"default = "1""#), "{toml}");
        // Named by no header value, or a value with a capture: not carried.
        assert!(!toml.contains("[maps.bad_bot]"), "{toml}");
        assert!(!toml.contains("[maps.captured]"), "{toml}");
        assert_eq!(
            item(&imported, "map $http_origin $cors_origin").kind,
            Kind::Translated
        );
        let captured = item(&imported, "map $uri $captured");
        assert_eq!(captured.kind, Kind::Unsupported);
        assert!(captured.note.contains("$rest"), "{}", captured.note);
        assert_eq!(
            item(&imported, "proxy_set_header X-Foreign").kind,
            Kind::Translated
        );
        weir_accepts(toml);
        // The next import does not see this one's maps.
        let next = import(
            "http { server { listen 80; location / { add_header X $cors_origin; return 204; } } }",
        );
        assert_eq!(item(&next, "add_header X").kind, Kind::Unsupported);
    }

    #[test]
    fn a_guard_on_the_host_becomes_a_deny_headers_entry_on_host() {
        let imported = import(concat!(
            "http { server { listen 80; server_name example.com www.example.com;\n",
            " if ($host !~* ^(example.com|www.example.com)$ ) { return 444; }\n",
            " location / { if ($host != $server_name) { return 421; } if ($http_host = bad.test) { return 403; } proxy_pass http://127.0.0.1:8000; } } }",
        ));
        assert!(
            imported.toml.contains(r#"deny_headers = [{ header = "Host", not_matches = "(?i)^(example.com|www.example.com)$", status = 444 }, { header = "Host", not_matches = "^example\\.com$", status = 421 }, { header = "Host", matches = "^bad\\.test$", status = 403 }]"#),
            "{}",
            imported.toml
        );
        assert_eq!(item(&imported, "if ($host !~*").kind, Kind::Translated);
        assert_eq!(item(&imported, "if ($http_host").kind, Kind::Approximated);
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        weir_accepts(&imported.toml);
    }

    #[test]
    fn an_options_answer_becomes_answer_options_on_the_routes_it_is_in_force_for() {
        let imported = import(concat!(
            "http { server { listen 80;\n",
            " if ($request_method ~ ^OPTIONS$) { return 204; }\n",
            " location /a/ { proxy_pass http://127.0.0.1:8000; }\n",
            " location /b/ { if ($request_method = \"OPTIONS\") { add_header Allow \"GET, OPTIONS\"; add_header X-Origin $http_origin; return 200; } proxy_pass http://127.0.0.1:8000; }\n",
            "} server { listen 8080;\n",
            " location /c/ { if ($request_method = OPTIONS) { add_header A 1; set $x 1; return 204; } proxy_pass http://127.0.0.1:8000; }\n",
            " location /d/ { if ($request_method = OPTIONS) { return 301 /x; } proxy_pass http://127.0.0.1:8000; }\n",
            "} }",
        ));
        let toml = &imported.toml;
        // The server's answers first, on both of its routes.
        for path in ["/a/", "/b/"] {
            assert!(
                route_table(toml, path).contains("answer_options = { status = 204 }"),
                "{path}: {toml}"
            );
        }
        assert_eq!(
            item(&imported, "if ($request_method ~ ^OPTIONS$").kind,
            Kind::Translated
        );
        // An `if` with more than headers and a return, or a redirect: an `if`, as before.
        for (path, directive) in [
            ("/c/", "if ($request_method = OPTIONS )"),
            ("/d/", "if ($request_method = OPTIONS )"),
        ] {
            assert!(
                !route_table(toml, path).contains("answer_options"),
                "{path}: {toml}"
            );
            assert!(
                imported
                    .report
                    .items
                    .iter()
                    .any(|item| item.directive.starts_with(directive)
                        && item.kind == Kind::Unsupported),
                "{}",
                imported.report
            );
        }
        let imported = import(
            "http { server { listen 80; location /b/ { if ($request_method = \"OPTIONS\") { add_header Allow \"GET, OPTIONS\"; add_header X-Origin $http_origin; add_header Content-Length 0; return 200; } proxy_pass http://127.0.0.1:8000; } } }",
        );
        assert!(
            imported.toml.contains(r#"answer_options = { status = 200, headers = { Allow = "GET, OPTIONS", X-Origin = "$http_origin" } }"#),
            "{}",
            imported.toml
        );
        assert!(
            item(&imported, "if ($request_method = OPTIONS")
                .note
                .contains("Content-Length is left out"),
            "{}",
            imported.report
        );
        weir_accepts(&imported.toml);
    }

    #[test]
    fn a_variable_set_to_an_address_is_read_into_the_proxy_pass_that_names_it() {
        let imported = import(
            "http { server { listen 80; set $app app; set $u http://$app:8000;\n location / { proxy_pass $u; }\n location /raw/ { proxy_pass $u$request_uri; }\n location /w/ { set $w http://worker:9000; proxy_pass $w; add_header X-W $w; }\n location /p/ { set $p http://app:8000/; proxy_pass $p; }\n location /c/ { if ($arg_x) { set $c http://x:1; } proxy_pass $c; } } }",
        );
        let toml = &imported.toml;
        assert!(toml.contains("[upstreams.app_8000]"), "{toml}");
        assert!(toml.contains("servers = [\"worker:9000\"]"), "{toml}");
        assert_eq!(toml.matches("upstream = \"app_8000\"").count(), 2, "{toml}");
        let read = item(&imported, "proxy_pass $u");
        assert_eq!(read.kind, Kind::Translated);
        assert!(
            read.note.contains("read as proxy_pass http://app:8000"),
            "{}",
            read.note
        );
        // Both sets did their part and are left out; `$w` is named by a header too, and stays.
        assert_eq!(item(&imported, "set $app app").kind, Kind::Translated);
        assert!(item(&imported, "set $u")
            .note
            .contains("read into the proxy_pass"));
        assert_eq!(item(&imported, "set $w").kind, Kind::Unsupported);
        // A path in the value, or a value set inside an `if`: not read in.
        for pass in ["proxy_pass $p", "proxy_pass $c"] {
            let left = item(&imported, pass);
            assert_eq!(left.kind, Kind::Unsupported, "{pass}");
            assert!(
                left.note.contains("in place of the request's whole URI"),
                "{}",
                left.note
            );
        }
    }

    #[test]
    fn server_name_is_the_server_s_first_name_in_its_redirects_and_headers() {
        let imported = import(
            "http {\n server { listen 80; server_name www.a.test a.test; return 301 https://$server_name$request_uri; }\n server { listen 8080; location / { add_header X-Served-By \"${server_name}!\"; return 204; } }\n}",
        );
        assert!(
            imported
                .toml
                .contains(r#"redirect = "https://www.a.test$request_uri""#),
            "{}",
            imported.toml
        );
        assert!(
            imported.toml.contains(r#"X-Served-By = "!""#),
            "{}",
            imported.toml
        );
        let said = item(&imported, "return 301 https://$server_name$request_uri");
        assert_eq!(said.kind, Kind::Translated);
        assert!(said.note.contains("\"www.a.test\""), "{}", said.note);
        assert!(
            item(&imported, "add_header X-Served-By ${server_name}")
                .note
                .contains("no server_name"),
            "{}",
            imported.report
        );
    }

    #[test]
    fn a_json_log_format_of_sizes_paths_and_answer_fields_is_carried() {
        let server = "server { listen 80; server_name api.test; location / { return 204; } }";
        let imported = import(&format!(
            r#"http {{ log_format j escape=json '{{"uri":"$uri","args":"$args","q":"$query_string$is_args","name":"$server_name","host":"$hostname","pid":$pid,"in":$request_length,"out":$bytes_sent,"type":"$sent_http_content_type"}}'; access_log /var/log/a.log j; {server} }}"#
        ));
        let line = log_line_of(&imported);
        assert_eq!(line.sent_headers.len(), 1, "{line:?}");
        let access_log = item(&imported, "access_log");
        assert_eq!(access_log.kind, Kind::Translated, "{}", imported.report);
        for said in [
            "$server_name is the route's host",
            "$uri is the request's path",
            "$sent_http_NAME",
            "on HTTP/2",
        ] {
            assert!(
                access_log.note.contains(said),
                "{said}: {}",
                access_log.note
            );
        }
    }

    #[test]
    fn a_file_of_server_blocks_is_the_inside_of_http() {
        // A sites-available file, as nginx reads it when nginx.conf includes it in http.
        let imported = import(
            "upstream app { server 127.0.0.1:8000; }\nserver {\n  listen 8080;\n  location / { proxy_pass http://app; proxy_set_header Host $host; }\n}\n",
        );
        assert!(
            imported.toml.contains("[upstreams.app]"),
            "{}",
            imported.toml
        );
        assert!(
            imported.toml.contains("upstream = \"app\""),
            "{}",
            imported.toml
        );
        assert!(imported.toml.contains("0.0.0.0:8080"), "{}", imported.toml);
        assert!(item(&imported, "(no http block)")
            .note
            .contains("sites-available"));
        assert!(imported.report.is_exact(), "{}", imported.report);
    }

    #[test]
    fn ssl_on_makes_the_servers_sockets_tls() {
        let imported = import(&format!(
            "http {{ server {{ listen 443; ssl on; {CERT} server_name a.test; location / {{ return 204; }} }} }}"
        ));
        assert!(imported.toml.contains("[tls]"), "{}", imported.toml);
        assert!(imported.toml.contains("0.0.0.0:443"), "{}", imported.toml);
        assert!(
            imported.toml.contains("cert = \"/etc/ssl/site.pem\""),
            "{}",
            imported.toml
        );
        assert_eq!(item(&imported, "ssl on").kind, Kind::Translated);
        assert_eq!(item(&imported, "ssl_certificate ").kind, Kind::Translated);
        assert_eq!(
            item(&imported, "listen 443").note,
            "[tls] listen += \"0.0.0.0:443\""
        );
        // Its routes answer on the TLS listener only, as nginx's server did.
        assert!(
            imported.toml.contains("scheme = \"https\""),
            "{}",
            imported.toml
        );
        assert!(!imported.report.is_less_safe(), "{}", imported.report);
    }

    #[test]
    fn the_plain_redirect_and_the_tls_app_stand_side_by_side_for_one_host() {
        // The shape certbot leaves: port 80 redirects the host, port 443 serves it.
        let imported = import(&format!(
            concat!(
                "http {{\n server {{ listen 80; server_name a.test; return 301 https://$host$request_uri; }}\n",
                " server {{ listen 443 ssl; server_name a.test; {} location / {{ proxy_pass http://127.0.0.1:8000; }} }}\n}}"
            ),
            CERT
        ));
        let config = loaded(&imported);
        assert_eq!(config.routes.len(), 2, "{}", imported.toml);
        let toml = &imported.toml;
        assert!(toml.contains("scheme = \"http\""), "{toml}");
        assert!(toml.contains("scheme = \"https\""), "{toml}");
        assert!(toml.contains("redirect = "), "{toml}");
        assert!(!imported.report.is_less_safe(), "{}", imported.report);
        // Without certificates no [tls] is written, and the TLS server's routes answering on
        // plain HTTP are said loudly.
        let plain = import(concat!(
            "http {\n server { listen 80; server_name a.test; return 301 https://$host$request_uri; }\n",
            " server { listen 443 ssl; server_name a.test; location / { proxy_pass http://127.0.0.1:8000; } }\n}"
        ));
        assert!(!plain.toml.contains("scheme ="), "{}", plain.toml);
        assert!(less_safe(&plain, "server").note.contains("HTTPS-only"));
    }

    /// The routes of `toml`'s config: host, path and the listeners each answers on.
    fn routes_by_listener(toml: &str) -> Vec<(Option<String>, String, weir::routing::Listeners)> {
        let config =
            weir::config::from_toml(toml, None).unwrap_or_else(|error| panic!("{error}\n{toml}"));
        config
            .routes
            .iter()
            .map(|route| {
                (
                    route.host.clone(),
                    route.path.clone(),
                    route.scope.listeners.clone(),
                )
            })
            .collect()
    }

    fn addrs(addresses: &[&str]) -> weir::routing::Listeners {
        weir::routing::Listeners::Addrs(
            addresses
                .iter()
                .map(|address| address.parse().expect("an address"))
                .collect(),
        )
    }

    #[test]
    fn a_server_answers_on_its_own_sockets_only() {
        // An admin app on its own port: in nginx it is not reachable on port 80.
        let imported = import(concat!(
            "http {\n server { listen 80; server_name a.test; location / { proxy_pass http://127.0.0.1:8000; } }\n",
            " server { listen 8080; server_name admin.test; location / { proxy_pass http://127.0.0.1:9000; } }\n}"
        ));
        let routes = routes_by_listener(&imported.toml);
        // Each is the default (the only) server of its socket: any host there.
        assert_eq!(
            routes,
            [
                (None, "/".to_string(), addrs(&["0.0.0.0:80"])),
                (None, "/".to_string(), addrs(&["0.0.0.0:8080"])),
            ],
            "{}",
            imported.toml
        );
        assert!(!imported.report.is_less_safe(), "{}", imported.report);
    }

    #[test]
    fn each_socket_has_its_own_default_server() {
        // a.test is the first server of :8080, so its default; b.test says default_server on
        // :80. On :80 a.test still answers its own name.
        let imported = import(concat!(
            "http {\n server { listen 80; listen 8080; server_name a.test; location / { return 204; } }\n",
            " server { listen 80 default_server; server_name b.test; location / { return 403; } }\n}"
        ));
        let routes = routes_by_listener(&imported.toml);
        let any = weir::routing::Listeners::Any;
        assert_eq!(
            routes,
            [
                (Some("a.test".to_string()), "/".to_string(), any),
                (None, "/".to_string(), addrs(&["0.0.0.0:8080"])),
                (None, "/".to_string(), addrs(&["0.0.0.0:80"])),
            ],
            "{}",
            imported.toml
        );
        // One socket: nothing to bind, the output is as before.
        let one = import(concat!(
            "http {\n server { listen 80; server_name a.test; location / { return 204; } }\n",
            " server { listen 80 default_server; location / { return 404; } }\n}"
        ));
        let routes = routes_by_listener(&one.toml);
        assert_eq!(routes.len(), 2, "{}", one.toml);
        assert!(
            routes
                .iter()
                .all(|(_, _, listeners)| *listeners == weir::routing::Listeners::Any),
            "{}",
            one.toml
        );
        assert_eq!(routes[0].0.as_deref(), Some("a.test"), "{}", one.toml);
        assert_eq!(routes[1].0, None, "{}", one.toml);
    }

    #[test]
    fn a_socket_is_tls_when_any_listen_of_it_says_ssl() {
        // nginx makes both servers TLS on *:443; the import must not bind 443 twice.
        let imported = import(&format!(
            "http {{\n server {{ listen 443 ssl; server_name a.test; {CERT} location / {{ return 204; }} }}\n server {{ listen 443; server_name b.test; {CERT} location / {{ return 204; }} }}\n}}"
        ));
        // Certificates are read by `weir run`, not by the config check.
        let config = loaded(&imported);
        let tls_443: std::net::SocketAddr = "0.0.0.0:443".parse().unwrap();
        assert!(
            !config.server.listen.contains(&tls_443),
            "{}",
            imported.toml
        );
        assert_eq!(config.tls.unwrap().listen, [tls_443]);
        let listen = item(&imported, "listen 443 ssl");
        assert_eq!(listen.sources.len(), 2, "{listen}");
        assert!(
            listen.note.contains("ssl belongs to the socket"),
            "{listen}"
        );
    }

    #[test]
    fn server_names_conflict_per_socket_only() {
        // The same name on :80 and :443 is no conflict: nginx warns of none.
        let imported = import(&format!(
            "http {{\n server {{ listen 80; server_name a.test; return 301 https://$host$request_uri; }}\n server {{ listen 443 ssl; server_name a.test; {CERT} location / {{ proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; }} }}\n}}"
        ));
        let names: Vec<&Item> = imported
            .report
            .items
            .iter()
            .filter(|item| item.directive.starts_with("server_name"))
            .collect();
        assert!(
            names.iter().all(|item| item.kind == Kind::Translated),
            "{}",
            imported.report
        );
        assert!(
            imported.toml.contains("upstream = \"127_0_0_1_8000\""),
            "{}",
            imported.toml
        );
        // Twice on one socket is a conflict, as nginx warns.
        let imported = import(
            "http {\n server { listen 80; server_name a.test; return 204; }\n server { listen 80; server_name a.test; return 404; }\n}",
        );
        let second = imported
            .report
            .items
            .iter()
            .filter(|item| item.directive.starts_with("server_name"))
            .nth(1)
            .unwrap();
        assert_eq!(second.kind, Kind::Unsupported);
        assert!(second.note.contains("conflicting server name"), "{second}");
    }

    /// The `[[routes]]` table whose `path` line is `path = "PATH"`.
    #[track_caller]
    fn route_table<'t>(toml: &'t str, path: &str) -> &'t str {
        toml.split("[[routes]]")
            .find(|table| table.contains(&format!("path = \"{path}\"")))
            .unwrap_or_else(|| panic!("no route {path}:\n{toml}"))
    }

    #[track_caller]
    fn weir_accepts(toml: &str) {
        weir::config::from_toml(toml, Some(std::path::Path::new("weir.toml")))
            .unwrap_or_else(|error| panic!("{error}\n{toml}"));
    }

    #[test]
    fn hsts_without_a_tls_listener_goes_on_the_routes() {
        let imported = import(
            "http { server { listen 80; add_header Strict-Transport-Security \"max-age=63072000\"; location / { return 204; } } }",
        );
        let toml = &imported.toml;
        let hsts = item(&imported, "add_header Strict-Transport-Security");
        // On a route that answers itself: no upstream header to add a second to.
        assert_eq!(hsts.kind, Kind::Translated, "{hsts}");
        assert!(hsts.note.contains("not [tls] hsts"), "{hsts}");
        assert!(!toml.contains("hsts ="), "{toml}");
        assert!(
            route_table(toml, "/").contains(
                r#"response_headers = { Strict-Transport-Security = "max-age=63072000" }"#
            ),
            "{toml}"
        );
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        weir_accepts(toml);
    }

    #[test]
    fn hsts_with_a_tls_listener_is_tls_hsts_and_not_on_the_routes() {
        let imported = import(&format!(
            "http {{ server {{ listen 443 ssl; {CERT} add_header Strict-Transport-Security \"max-age=63072000\" always; add_header X-Frame-Options DENY; location / {{ return 204; }} }} }}",
        ));
        let toml = &imported.toml;
        assert_eq!(
            item(&imported, "add_header Strict-Transport-Security").kind,
            Kind::Translated
        );
        assert!(toml.contains(r#"hsts = "max-age=63072000""#), "{toml}");
        let route = route_table(toml, "/");
        assert!(!route.contains("Strict-Transport-Security"), "{toml}");
        assert!(
            route.contains(r#"response_headers = { X-Frame-Options = "DENY" }"#),
            "{toml}"
        );
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
    }

    #[test]
    fn hsts_stays_on_the_routes_when_a_location_of_its_own_add_headers_drops_it() {
        // nginx: /static/ has an add_header of its own, so it inherits none of the server's:
        // no HSTS there. [tls] hsts would send it on every TLS answer.
        let imported = import(&format!(
            "http {{ server {{ listen 443 ssl; {CERT} add_header Strict-Transport-Security \"max-age=63072000\" always; location / {{ return 204; }} location /static/ {{ add_header Cache-Control public; return 204; }} }} }}",
        ));
        let toml = &imported.toml;
        assert!(!toml.contains("hsts ="), "{toml}");
        let hsts = item(&imported, "add_header Strict-Transport-Security");
        assert!(hsts.note.contains("not [tls] hsts"), "{hsts}");
        assert!(
            route_table(toml, "/").contains("Strict-Transport-Security"),
            "{toml}"
        );
        let statics = route_table(toml, "/static/");
        assert!(!statics.contains("Strict-Transport-Security"), "{toml}");
        assert!(statics.contains("Cache-Control"), "{toml}");
    }

    #[test]
    fn auth_basic_in_force_becomes_basic_auth_as_nginx_inherits_it() {
        let imported = import(concat!(
            "http {\n auth_basic_user_file /etc/nginx/htpasswd;\n server {\n  listen 80;\n",
            "  auth_basic \"Staff\";\n",
            "  location / { proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; }\n",
            "  location /health { auth_basic off; proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; }\n",
            "  location /admin/ { auth_basic \"Admins\"; auth_basic_user_file /etc/nginx/admins; proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; }\n",
            "  location = /ping { return 204; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        let report = &imported.report;
        assert!(report.less_safe.is_empty(), "{report}");
        assert!(
            route_table(toml, "/")
                .contains(r#"basic_auth = { realm = "Staff", user_file = "/etc/nginx/htpasswd" }"#),
            "{toml}"
        );
        assert!(
            route_table(toml, "/admin/")
                .contains(r#"basic_auth = { realm = "Admins", user_file = "/etc/nginx/admins" }"#),
            "{toml}"
        );
        // `auth_basic off`, and a `return`, which answers before nginx's access phase.
        assert!(
            !route_table(toml, "/health").contains("basic_auth"),
            "{toml}"
        );
        assert!(!route_table(toml, "/ping").contains("basic_auth"), "{toml}");
        assert_eq!(item(&imported, "auth_basic Staff").kind, Kind::Translated);
        assert_eq!(
            item(&imported, "auth_basic_user_file /etc/nginx/htpasswd").kind,
            Kind::Translated
        );
    }

    #[test]
    fn satisfy_any_in_force_is_the_routes_satisfy_as_nginx_inherits_it() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n  satisfy any;\n  allow 10.0.0.0/8;\n  deny all;\n",
            "  auth_basic \"Staff\";\n  auth_basic_user_file /etc/nginx/htpasswd;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; }\n",
            "  location /admin/ { satisfy all; proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; }\n",
            "  location /ping { return 200; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        let root = route_table(toml, "/");
        assert!(root.contains(r#"satisfy = "any""#), "{toml}");
        assert!(root.contains("basic_auth = "), "{toml}");
        assert!(!route_table(toml, "/admin/").contains("satisfy"), "{toml}");
        assert!(!route_table(toml, "/ping").contains("satisfy"), "{toml}");
        assert_eq!(item(&imported, "satisfy any").kind, Kind::Translated);
        assert_eq!(item(&imported, "satisfy all").kind, Kind::Translated);
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        weir_accepts(toml);
    }

    #[test]
    fn an_auth_basic_weir_cannot_carry_is_less_safe_and_one_nginx_ignores_is_not() {
        // Relative to nginx's configuration directory, which text alone does not give.
        let imported = import(
            "http { server { listen 80; location / { auth_basic Staff; auth_basic_user_file htpasswd; proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; } } }",
        );
        assert!(!imported.toml.contains("basic_auth"), "{}", imported.toml);
        let file = item(&imported, "auth_basic_user_file htpasswd");
        assert_eq!(file.kind, Kind::Unsupported);
        assert!(file.note.contains("absolute path"), "{file}");
        assert!(less_safe(&imported, "auth_basic Staff")
            .note
            .contains("password prompt is dropped"));
        assert!(less_safe(&imported, "auth_basic_user_file htpasswd")
            .note
            .contains("password file is dropped"));
        // Without a file nginx asks no password: nothing is lost.
        let imported = import(
            "http { server { listen 80; location / { auth_basic Staff; proxy_pass http://127.0.0.1:8000; proxy_set_header Host $host; } } }",
        );
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        let auth = item(&imported, "auth_basic Staff");
        assert_eq!(auth.kind, Kind::Translated);
        assert!(
            auth.note.contains("without an auth_basic_user_file"),
            "{auth}"
        );
    }

    #[test]
    fn header_and_access_rules_in_force_become_route_keys() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  add_header X-Frame-Options DENY;\n",
            "  proxy_set_header X-Forwarded-For $remote_addr;\n",
            "  proxy_set_header Host $host;\n",
            "  location /admin/ { allow 10.0.0.0/8; allow 192.168.1.7; deny all; proxy_pass http://127.0.0.1:8000; }\n",
            "  location / {\n",
            "   proxy_pass http://127.0.0.1:8000;\n",
            "   proxy_set_header X-Forwarded-Host \"\";\n",
            "   proxy_set_header X-Request-Path ${request_uri};\n",
            "   proxy_hide_header X-Powered-By;\n",
            "   add_header Cache-Control no-store always;\n",
            "  }\n",
            "  location /static/ { alias /srv/static/; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        let report = &imported.report;
        assert!(report.less_safe.is_empty(), "{report}");
        // The server's rules, inherited by the location that has none of its own.
        let admin = route_table(toml, "/admin/");
        assert!(admin.contains(r#"forwarded_for = "replace""#), "{toml}");
        assert!(
            admin.contains(r#"access = ["allow 10.0.0.0/8", "allow 192.168.1.7", "deny all"]"#),
            "{toml}"
        );
        assert!(
            admin.contains(r#"response_headers = { X-Frame-Options = "DENY" }"#),
            "{toml}"
        );
        // Host $host is the name without the client's port, as nginx's `$host` is.
        assert!(
            admin.contains(r#"request_headers = { Host = "$host" }"#),
            "{toml}"
        );
        // A location with its own proxy_set_header (add_header) loses the server's, as in nginx;
        // with no Host in force, nginx sends the proxy_pass's host.
        let root = route_table(toml, "/");
        assert!(
            root.contains(r#"request_headers = { Host = "127.0.0.1:8000", X-Forwarded-Host = "", X-Request-Path = "${request_uri}" }"#),
            "{toml}"
        );
        assert!(!root.contains("forwarded_for"), "{toml}");
        assert!(
            root.contains(r#"response_headers_always = { Cache-Control = "no-store" }"#),
            "{toml}"
        );
        assert!(!root.contains("X-Frame-Options"), "{toml}");
        assert!(
            root.contains(r#"hide_response_headers = ["X-Powered-By"]"#),
            "{toml}"
        );
        assert!(!root.contains("access"), "{toml}");
        // A static route gets the response headers, and nothing of proxy_*.
        let files = route_table(toml, "/static/");
        assert!(
            files.contains(r#"response_headers = { X-Frame-Options = "DENY" }"#),
            "{toml}"
        );
        assert!(!files.contains("forwarded_for"), "{toml}");
        assert_eq!(
            item(&imported, "proxy_set_header X-Forwarded-For").kind,
            Kind::Translated
        );
        assert_eq!(item(&imported, "deny all").kind, Kind::Translated);
        let added = item(&imported, "add_header X-Frame-Options");
        assert_eq!(added.kind, Kind::Approximated, "{added}");
        assert!(added.note.contains("adds a second"), "{added}");
        weir_accepts(toml);
    }

    #[test]
    fn a_host_of_its_own_replaces_nginx_default_and_one_weir_cannot_fill_in_is_less_safe() {
        let imported = import(concat!(
            "http {\n upstream app { server 127.0.0.1:8000; }\n server {\n  listen 80;\n",
            "  location /a/ { proxy_pass http://app; proxy_set_header Host backend.internal; }\n",
            "  location /b/ { proxy_pass http://app; proxy_set_header Host $proxy_host; }\n",
            "  location /c/ { proxy_pass http://app; proxy_set_header Host \"$server_addr:$server_port\"; }\n",
            "  location /d/ { proxy_pass http://app; satisfy any; allow 10.0.0.0/8; deny all; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        assert!(
            route_table(toml, "/a/").contains(r#"request_headers = { Host = "backend.internal" }"#),
            "{toml}"
        );
        // $proxy_host is nginx's default: the proxy_pass's host, once.
        assert!(
            route_table(toml, "/b/").contains(r#"request_headers = { Host = "app" }"#),
            "{toml}"
        );
        assert_eq!(
            item(&imported, "proxy_set_header Host $proxy_host").kind,
            Kind::Translated
        );
        // weir has no $server_addr: the client's Host goes upstream, where nginx sent its own.
        assert!(
            !route_table(toml, "/c/").contains("request_headers"),
            "{toml}"
        );
        let port = item(&imported, "proxy_set_header Host $server_addr:");
        assert_eq!(port.kind, Kind::Unsupported, "{port}");
        assert!(port.note.contains("$server_addr"), "{port}");
        assert!(
            less_safe(&imported, "proxy_set_header Host")
                .note
                .contains("client's Host"),
            "{}",
            imported.report
        );
        assert_eq!(imported.report.less_safe.len(), 1, "{}", imported.report);
        // satisfy any, carried as it is.
        let d = route_table(toml, "/d/");
        assert!(
            d.contains(r#"access = ["allow 10.0.0.0/8", "deny all"]"#),
            "{toml}"
        );
        assert!(d.contains(r#"satisfy = "any""#), "{toml}");
        assert_eq!(item(&imported, "satisfy any").kind, Kind::Translated);
        weir_accepts(toml);
    }

    #[test]
    fn a_second_value_of_one_header_is_left_out_with_the_reason() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location / { add_header Link \"</a.css>\"; add_header link \"</b.js>\"; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        assert!(
            route_table(toml, "/").contains(r#"response_headers = { Link = "</a.css>" }"#),
            "{toml}"
        );
        let second = item(&imported, "add_header link");
        assert_eq!(second.kind, Kind::Unsupported, "{second}");
        assert!(second.note.contains("keeps the first"), "{second}");
        weir_accepts(toml);
    }

    #[test]
    fn rules_that_nginx_does_not_apply_either_are_not_carried() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location /old/ { deny all; return 301 https://$host/new/; }\n",
            "  location /files/ { proxy_set_header X-Secret \"\"; proxy_hide_header X-Powered-By; alias /srv/files/; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        assert!(!toml.contains("access"), "{toml}");
        assert!(!toml.contains("request_headers"), "{toml}");
        assert!(!toml.contains("hide_response_headers"), "{toml}");
        for directive in ["deny all", "proxy_set_header X-Secret", "proxy_hide_header"] {
            let found = item(&imported, directive);
            assert_eq!(found.kind, Kind::Translated, "{found}");
            assert!(found.note.contains("no effect"), "{found}");
        }
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        weir_accepts(toml);
    }

    #[test]
    fn what_weakens_the_gateway_is_listed_as_less_safe() {
        let imported = import(concat!(
            "http {\n",
            " limit_req_zone $arg_token zone=byname:1m rate=1r/s;\n",
            " server {\n  listen 80;\n",
            "  location ~ /\\. { deny all; }\n",
            "  location /admin/ { allow unix:; deny 10.0.0.0/33; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /protected/ { internal; alias /srv/protected/; }\n",
            "  location /nothing/ { uwsgi_pass 127.0.0.1:9000; proxy_hide_header X-Powered-By; add_header X-Frame-Options DENY; }\n",
            "  location / {\n",
            "   proxy_pass http://127.0.0.1:8000;\n",
            "   proxy_set_header Host $host;\n",
            "   proxy_set_header X-Forwarded-For \"$remote_addr, $server_addr\";\n",
            "   proxy_set_header X-Connection $connection;\n",
            "   limit_req zone=byname;\n",
            "  }\n",
            " }\n",
            "}\n",
        ));
        let report = &imported.report;
        // A regex location with nothing to serve but its deny is nginx's default root behind
        // the rule: a status route that refuses everyone; nothing lost there.
        assert!(
            item(&imported, "location ~ /\\.")
                .note
                .contains("status = 404"),
            "{report}"
        );
        assert!(
            item(&imported, "deny all").kind == Kind::Translated
                && !report
                    .less_safe
                    .iter()
                    .any(|item| item.directive == "deny all"),
            "{report}"
        );
        assert!(
            less_safe(&imported, "deny 10.0.0.0/33")
                .note
                .contains("access rule"),
            "{report}"
        );
        // weir has internal routes: nothing lost there.
        assert!(
            item(&imported, "allow unix:").note.contains("IP addresses"),
            "{report}"
        );
        assert!(
            !report
                .less_safe
                .iter()
                .any(|item| item.directive.starts_with("internal")),
            "{report}"
        );
        assert!(less_safe(&imported, "proxy_set_header X-Forwarded-For")
            .note
            .contains("appends"));
        assert!(item(&imported, "proxy_set_header X-Connection")
            .note
            .contains("$connection"));
        assert!(less_safe(&imported, "proxy_set_header X-Connection")
            .note
            .contains("not set"));
        // In a location that makes no route: carried nowhere.
        assert!(item(&imported, "proxy_hide_header")
            .note
            .contains("no route"));
        assert!(less_safe(&imported, "proxy_hide_header")
            .note
            .contains("not hidden"));
        assert!(less_safe(&imported, "add_header X-Frame-Options")
            .note
            .contains("not sent"));
        assert!(less_safe(&imported, "limit_req zone=byname")
            .note
            .contains("not applied"));
    }

    #[test]
    fn without_proxy_set_header_host_the_upstream_gets_nginx_proxy_host() {
        let imported = import(concat!(
            "http {\n upstream app { server web:8000; }\n server {\n  listen 80;\n",
            "  location /a/ { proxy_pass http://app; }\n",
            "  location /b/ { proxy_pass http://127.0.0.1:8000/; }\n",
            "  location /c/ { proxy_pass http://10.0.0.2:80; }\n",
            "  location /d/ { proxy_pass http://unix:/run/g.sock:; }\n",
            "  location / { proxy_pass http://app; proxy_set_header Host $host; }\n",
            " }\n}\n",
        ));
        let toml = &imported.toml;
        for host in ["app", "127.0.0.1:8000", "10.0.0.2", "localhost"] {
            assert!(
                toml.contains(&format!("request_headers = {{ Host = \"{host}\" }}")),
                "{host}: {toml}"
            );
        }
        // The route that sets Host itself sends the client's name, as nginx does with `$host`.
        assert!(
            toml.contains(r#"request_headers = { Host = "$host" }"#),
            "{toml}"
        );
        assert_eq!(toml.matches("request_headers").count(), 5, "{toml}");
        let item = item(&imported, "proxy_pass http://app");
        assert!(item.note.contains("$proxy_host"), "{item}");
        assert!(!item.note.contains("unless"), "{item}");
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        weir::config::from_toml(toml, Some(std::path::Path::new("weir.toml")))
            .unwrap_or_else(|error| panic!("{error}\n{toml}"));
    }

    #[test]
    fn the_proxy_host_note_names_an_include_not_found_that_may_set_host() {
        let imported = import(concat!(
            "server {\n listen 80;\n",
            " location / { include snippets/proxy.conf; proxy_pass http://unix:/run/g.sock; }\n}\n",
        ));
        let item = item(&imported, "proxy_pass http://unix:/run/g.sock");
        assert!(
            item.note
                .contains("unless the include at nginx.conf:3, whose file was not found, sets one"),
            "{item}"
        );
    }

    #[test]
    fn service_names_and_the_resolver_are_translated() {
        let imported = import(concat!(
            "http {\n resolver 127.0.0.11 valid=10s ipv6=off;\n resolver_timeout 3s;\n",
            " upstream app { server web:8000; server host.docker.internal; }\n",
            " server {\n  listen 80;\n  location / { proxy_pass http://app; }\n",
            "  location /api/ { proxy_pass http://api:9000; }\n }\n}\n",
        ));
        let toml = &imported.toml;
        for key in [
            r#"resolver = "127.0.0.11""#,
            r#"resolve_interval = "10s""#,
            r#"resolve_timeout = "3s""#,
            r#""web:8000""#,
            r#""host.docker.internal:80""#,
            r#""api:9000""#,
        ] {
            assert!(toml.contains(key), "{key}: {toml}");
        }
        assert_eq!(item(&imported, "server web:8000").kind, Kind::Translated);
        let resolver = item(&imported, "resolver 127.0.0.11");
        assert_eq!(resolver.kind, Kind::Approximated, "{resolver}");
        assert!(resolver.note.contains("ipv6=off"), "{resolver}");
        assert_eq!(item(&imported, "resolver_timeout").kind, Kind::Translated);
        // A name as the resolver, or localhost as a server, is still refused with its reason.
        let refused = import(
            "http { resolver dns.local; upstream a { server localhost:8000; } server { listen 80; location / { proxy_pass http://a; } } }",
        );
        assert_eq!(item(&refused, "resolver dns.local").kind, Kind::Unsupported);
        assert!(item(&refused, "server localhost:8000")
            .note
            .contains("127.0.0.1"));
        weir::config::from_toml(toml, Some(std::path::Path::new("weir.toml")))
            .unwrap_or_else(|error| panic!("{error}\n{toml}"));
    }

    #[test]
    fn explanations_describe_the_directive() {
        let imported = import(concat!(
            "http { absolute_redirect off; port_in_redirect off; proxy_pass_header Content-Type;\n",
            " server { listen 80; server_name a.test; rewrite ^ https://a.test$request_uri permanent; }\n",
            " server { listen 80 default_server; return 204; } }",
        ));
        assert!(item(&imported, "absolute_redirect off")
            .note
            .contains("relative Location"));
        assert!(item(&imported, "port_in_redirect off")
            .note
            .contains("no host or port"));
        assert!(item(&imported, "proxy_pass_header Content-Type")
            .note
            .contains("no effect in nginx either"));
        assert!(
            imported
                .toml
                .contains("by the server's rewrite or if at nginx.conf:2"),
            "{}",
            imported.toml
        );
    }

    /// The import's `[[routes]]`, as weir's own loader reads them.
    #[track_caller]
    fn routes(imported: &Import) -> Vec<weir::config::RouteConfig> {
        weir::config::from_toml(&imported.toml, Some(std::path::Path::new("weir.toml")))
            .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml))
            .routes
    }

    #[track_caller]
    fn route<'r>(
        routes: &'r [weir::config::RouteConfig],
        path: &str,
    ) -> &'r weir::config::RouteConfig {
        routes
            .iter()
            .find(|route| route.path == path)
            .unwrap_or_else(|| panic!("no route {path:?} in {routes:#?}"))
    }

    #[test]
    fn method_guards_become_methods_on_the_routes_they_guard() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  if ($request_method !~ ^(GET|HEAD|POST|PUT)$ ) { return 444; }\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /api/ { limit_except GET POST { deny all; } proxy_pass http://127.0.0.1:8000; }\n",
            "  location /ro/ { if ($request_method !~* \"^(get|head)$\") { return 405; } proxy_pass http://127.0.0.1:8000; }\n",
            "  location /office/ { limit_except GET { allow 10.0.0.0/8; deny all; } proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let routes = routes(&imported);
        let methods = |path: &str| {
            route(&routes, path).methods.as_ref().map(|methods| {
                methods
                    .iter()
                    .map(|method| method.as_str())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(methods("/"), Some(vec!["GET", "HEAD", "POST", "PUT"]));
        // Both guards apply: what both let through (GET brings HEAD).
        assert_eq!(methods("/api/"), Some(vec!["GET", "POST", "HEAD"]));
        assert_eq!(methods("/ro/"), Some(vec!["GET", "HEAD"]));
        // The server's guard only: the location's lets some addresses through, which weir's
        // methods cannot say.
        assert_eq!(
            methods("/office/"),
            Some(vec!["GET", "HEAD", "POST", "PUT"])
        );
        let server_if = item(&imported, "if ($request_method !~ ^(GET|HEAD|POST|PUT)$ )");
        assert!(
            server_if.kind == Kind::Approximated && server_if.note.contains("nginx answers 444"),
            "{server_if:?}"
        );
        let deny = item(&imported, "limit_except GET POST");
        assert!(
            deny.kind == Kind::Approximated && deny.note.contains("nginx answers 403"),
            "{deny:?}"
        );
        assert_eq!(
            item(&imported, "if ($request_method !~*").kind,
            Kind::Translated
        );
        let office = imported
            .report
            .items
            .iter()
            .find(|item| item.directive == "limit_except GET")
            .unwrap();
        assert_eq!(office.kind, Kind::Unsupported, "{office:?}");
        assert!(imported.report.is_less_safe(), "{}", imported.report);
    }

    #[test]
    fn limit_conn_becomes_connection_limits_on_the_routes_it_is_in_force_for() {
        let imported = import(concat!(
            "http {\n limit_conn_zone $binary_remote_addr zone=perip:1m;\n",
            " limit_conn_zone $server_name zone=perserver:1m;\n",
            " limit_conn_status 429;\n",
            " server {\n  listen 80;\n  limit_conn perip 10;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /download/ { limit_conn perip 1; limit_conn_dry_run on; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /all/ { limit_conn perserver 100; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /gone { return 410; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let routes = &config.routes;
        assert_eq!(route(routes, "/").connection_limits, ["perip"]);
        assert_eq!(route(routes, "/download/").connection_limits, ["perip_1"]);
        // A level with a limit_conn of its own replaces the inherited ones, as in nginx; the
        // server's name is one key for every request of it.
        assert_eq!(route(routes, "/all/").connection_limits, ["perserver"]);
        assert_eq!(
            config.connection_limits["perserver"].key,
            [weir::config::KeyPart::All]
        );
        let by_name = item(&imported, "limit_conn_zone $server_name");
        assert_eq!(by_name.kind, Kind::Approximated);
        assert!(by_name.note.contains("key \"all\""), "{}", by_name.note);
        let perip = &config.connection_limits["perip"];
        assert_eq!(
            (
                perip.limiter.connections,
                perip.status.as_u16(),
                perip.limiter.dry_run
            ),
            (10, 429, false)
        );
        assert_eq!(perip.limiter.max_keys, 16384);
        let download = &config.connection_limits["perip_1"];
        assert_eq!(
            (download.limiter.connections, download.limiter.dry_run),
            (1, true)
        );
        let apart = imported
            .report
            .items
            .iter()
            .find(|item| item.directive == "limit_conn perip 1")
            .unwrap();
        assert!(
            apart.kind == Kind::Approximated
                && apart.note.contains("counts one zone's requests together"),
            "{apart:?}"
        );
        assert_eq!(
            item(&imported, "limit_conn perip 10").kind,
            Kind::Translated
        );
        assert!(!imported.report.is_less_safe(), "{}", imported.report);
    }

    #[test]
    fn cookie_flags_go_on_the_proxied_routes_they_are_in_force_for() {
        let imported = import(concat!(
            "http {\n proxy_cookie_flags ~ secure httponly samesite=strict;\n",
            " server {\n  listen 80;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /old/ { proxy_cookie_path / \"/; Secure; HttpOnly\"; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /lax/ { proxy_cookie_flags ~ nosecure samesite=lax; proxy_cookie_path / \"/; secure\"; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /one/ { proxy_cookie_flags session secure; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /off/ { proxy_cookie_flags off; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let routes = routes(&imported);
        let flags = |path: &str| {
            route(&routes, path)
                .rules
                .headers
                .cookie_flags
                .as_ref()
                .map(|flags| flags.len())
        };
        assert_eq!(flags("/"), Some(3));
        // The server's proxy_cookie_flags and the location's proxy_cookie_path, both in force.
        assert_eq!(flags("/old/"), Some(3));
        // The location's own flags first; the path's secure would clash with its nosecure.
        assert_eq!(
            route(&routes, "/lax/").rules.headers.cookie_flags,
            Some(vec![
                weir::config::CookieFlag::Secure(false),
                weir::config::CookieFlag::SameSite(Some(weir::config::SameSite::Lax)),
            ])
        );
        assert_eq!(flags("/one/"), None);
        assert_eq!(flags("/off/"), None);
        assert_eq!(
            item(&imported, "proxy_cookie_path / \"/; Secure").kind,
            Kind::Approximated
        );
        assert!(
            less_safe(&imported, "proxy_cookie_flags session secure")
                .note
                .contains("without the Secure"),
            "{}",
            imported.report
        );
    }

    #[test]
    fn charset_and_its_types_go_on_the_routes_they_are_in_force_for() {
        let imported = import(concat!(
            "http {\n charset utf-8;\n charset_types text/css application/json;\n",
            " source_charset koi8-r;\n",
            " server {\n  listen 80;\n  server_name a.test;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /legacy/ { charset off; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /ru/ { charset windows-1251; charset_types *; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n",
            " server {\n  listen 80;\n  server_name b.test;\n  charset off;\n",
            "  location / { charset_types text/css; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /v/ { charset $c; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let routes = routes(&imported);
        // The first server is the default one: its routes take any host.
        let headers = |path: &str, host: Option<&str>| {
            let route = routes
                .iter()
                .find(|route| route.path == path && route.host.as_deref() == host)
                .unwrap_or_else(|| panic!("no route {path:?} of {host:?} in {}", imported.toml));
            (
                route.rules.headers.charset.clone(),
                route.rules.headers.charset_types.clone(),
            )
        };
        let types = |list: &[&str]| Some(list.iter().map(|t| t.to_string()).collect());
        assert_eq!(
            headers("/", None),
            (
                Some(Some("utf-8".to_string())),
                types(&["text/css", "application/json"])
            )
        );
        assert_eq!(headers("/legacy/", None), (None, None));
        assert_eq!(
            headers("/ru/", None),
            (Some(Some("windows-1251".to_string())), types(&["*"]))
        );
        // No charset in force: its types do nothing, in nginx either.
        assert_eq!(headers("/", Some("b.test")), (None, None));
        assert_eq!(headers("/v/", Some("b.test")), (None, None));
        assert_eq!(item(&imported, "charset utf-8").kind, Kind::Translated);
        assert_eq!(item(&imported, "charset off").kind, Kind::Translated);
        let inert = imported
            .report
            .items
            .iter()
            .find(|item| item.directive == "charset_types text/css")
            .unwrap();
        assert!(
            inert.kind == Kind::Translated && inert.note.contains("no charset is in force"),
            "{inert:?}"
        );
        assert_eq!(item(&imported, "charset $c").kind, Kind::Unsupported);
        let source = item(&imported, "source_charset koi8-r");
        assert!(
            source.kind == Kind::Unsupported && source.note.contains("never recodes"),
            "{source:?}"
        );
    }

    #[test]
    fn regex_locations_become_regex_routes_in_config_order() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n  root /srv/site;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location ^~ /static/ { alias /srv/static/; }\n",
            "  location ~* \\.(css|js)$ { expires 7d; }\n",
            "  location ~^/api/v[0-9]+/ { proxy_pass http://127.0.0.1:9000; }\n",
            "  location ~ ^/(?!admin)x { proxy_pass http://127.0.0.1:9000; }\n",
            "  location ~ ^/(a)/\\1 { deny all; proxy_pass http://127.0.0.1:9000; }\n",
            "  location ~ ^/[a { proxy_pass http://127.0.0.1:9000; }\n",
            "  location ~ \\.php$ { location ~ /admin { deny all; } proxy_pass http://127.0.0.1:9000; }\n",
            "  location ~ /files/ { alias /srv/files/; }\n",
            "  location /app/ { location ~ \\.map$ { deny all; } proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let report = &imported.report;
        let routes = routes(&imported);
        // Static from root, the whole path below it: a regex route strips nothing.
        let assets = route(&routes, "\\.(css|js)$");
        assert!(assets
            .scope
            .regex
            .as_ref()
            .is_some_and(|regex| regex.nocase()));
        assert_eq!(
            assets.static_root.as_deref(),
            Some(std::path::Path::new("/srv/site"))
        );
        let api = route(&routes, "^/api/v[0-9]+/");
        assert!(api
            .scope
            .regex
            .as_ref()
            .is_some_and(|regex| !regex.nocase()));
        assert_eq!(api.upstream, "127_0_0_1_9000");
        assert!(item(&imported, "location ~^/api")
            .note
            .contains("match = \"regex\""));
        // In config order, after the prefix route, as nginx tries them.
        let order: Vec<&str> = routes.iter().map(|route| route.path.as_str()).collect();
        assert_eq!(
            order,
            [
                "/",
                "/static/",
                "\\.(css|js)$",
                "^/api/v[0-9]+/",
                "\\.php$",
                "/app/"
            ],
            "{report}"
        );
        // `^~`: the longest prefix stops the search before the regexes, in weir too.
        assert!(route(&routes, "/static/").scope.stop);
        assert!(route(&routes, "/").scope.regex.is_none() && !route(&routes, "/").scope.stop);
        assert!(item(&imported, "location ^~ /static/")
            .note
            .contains("match = \"prefix_stop\""));
        // What PCRE has and weir's regexes do not: left out with the reason and the guards.
        let lookahead = item(&imported, "location ~ ^/(?!admin)x");
        assert_eq!(lookahead.kind, Kind::Unsupported);
        assert!(lookahead.note.contains("look-ahead"), "{lookahead}");
        let backref = item(&imported, "location ~ ^/(a)/\\1");
        assert!(backref.note.contains("back-reference \\1"), "{backref}");
        assert!(less_safe(&imported, "location ~ ^/(a)/")
            .note
            .contains("deny all"));
        let invalid = item(&imported, "location ~ ^/[a");
        assert_eq!(invalid.kind, Kind::Unsupported);
        assert!(invalid.note.contains("refuses"), "{invalid}");
        // A location nested in a regex one is reported, with its guard.
        let nested = item(&imported, "location ~ /admin");
        assert_eq!(nested.kind, Kind::Unsupported);
        assert!(nested.note.contains("do not nest"), "{nested}");
        assert!(less_safe(&imported, "location ~ /admin")
            .note
            .contains("deny all"));
        assert!(item(&imported, "alias /srv/files/")
            .note
            .contains("captures"));
        // A regex nested in a prefix location is tried only below it in nginx: not a route.
        let nested = item(&imported, "location ~ \\.map$");
        assert_eq!(nested.kind, Kind::Unsupported, "{nested}");
        assert!(
            nested.note.contains("only for the paths of \"/app/\""),
            "{nested}"
        );
        assert!(less_safe(&imported, "location ~ \\.map$")
            .note
            .contains("deny all"));
    }

    #[test]
    fn internal_locations_become_internal_routes() {
        let imported = import(concat!(
            "http {\n limit_req_zone $binary_remote_addr zone=one:1m rate=5r/s;\n",
            " server {\n  listen 80;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; limit_req zone=one; }\n",
            "  location /protected/ { internal; alias /srv/protected/; limit_req zone=one; }\n",
            "  location /nothing/ { internal; }\n",
            " }\n}\n",
        ));
        let report = &imported.report;
        let routes = routes(&imported);
        let protected = route(&routes, "/protected/");
        assert!(protected.scope.internal, "{}", imported.toml);
        // weir refuses limits on an internal route; the proxied request was limited at `/`.
        assert!(protected.limits.is_empty());
        assert_eq!(route(&routes, "/").limits, ["one"]);
        assert!(!route(&routes, "/").scope.internal);
        let internal = report
            .items
            .iter()
            .find(|item| item.directive == "internal" && item.sources[0].line == 6)
            .unwrap_or_else(|| panic!("{report}"));
        assert_eq!(internal.kind, Kind::Translated, "{internal}");
        assert!(internal.note.contains("X-Accel-Redirect"), "{internal}");
        let limit = report
            .items
            .iter()
            .find(|item| item.directive.starts_with("limit_req") && item.sources[0].line == 6)
            .unwrap_or_else(|| panic!("{report}"));
        assert_eq!(limit.kind, Kind::Approximated, "{limit}");
        // An internal location weir makes no route of: its paths reach another route.
        let nothing = less_safe(&imported, "internal");
        assert_eq!(nothing.sources[0].line, 7, "{report}");
        assert!(nothing.note.contains("no route"), "{nothing}");
    }

    #[test]
    fn try_files_falls_back_to_the_app_or_a_file_of_a_static_route() {
        use weir::config::StaticFallback as Fallback;
        let imported = import(concat!(
            "http {\n upstream app { server 127.0.0.1:8000; }\n",
            " server {\n  listen 80;\n  root /srv/site;\n",
            "  location / { try_files $uri $uri/ @app; }\n",
            "  location @app { proxy_pass http://app; proxy_read_timeout 30s; }\n",
            "  location /spa/ { alias /srv/spa/; try_files $uri $uri/ /spa/index.html; }\n",
            "  location /away/ { try_files $uri /index.html; }\n",
            "  location ~ \\.html$ { try_files $uri /index.html; }\n",
            "  location ~ \\.txt$ { try_files $uri /index.html; }\n",
            " }\n",
            // One socket: b.test and c.test are named servers beside the default.
            " server {\n  listen 80;\n  server_name b.test;\n",
            "  location / { try_files $uri @b; }\n",
            "  location @b { proxy_pass http://app; }\n",
            " }\n",
            " server {\n  listen 80;\n  server_name c.test;\n  root /srv/c;\n",
            "  location / { try_files $uri @c; }\n",
            "  location @c { proxy_pass http://app; }\n",
            " }\n}\n",
        ));
        let report = &imported.report;
        let config =
            weir::config::from_toml(&imported.toml, Some(std::path::Path::new("weir.toml")))
                .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml));
        let route = |host: Option<&str>, path: &str| {
            config
                .routes
                .iter()
                .find(|route| route.host.as_deref() == host && route.path == path)
                .unwrap_or_else(|| panic!("no route {path:?} in {:#?}", config.routes))
        };
        // Files first, then the app of the named location, with its settings.
        let site = route(None, "/");
        assert_eq!(
            site.static_root.as_deref(),
            Some(std::path::Path::new("/srv/site/"))
        );
        assert_eq!(site.rules.fallback, Some(Fallback::Upstream("app".into())));
        assert_eq!(
            config.upstreams["app"].read_timeout,
            std::time::Duration::from_secs(30)
        );
        let try_files = item(&imported, "try_files $uri $uri/ @app");
        assert_eq!(try_files.kind, Kind::Translated, "{try_files}");
        assert!(
            try_files.note.contains("fallback_upstream = \"app\""),
            "{try_files}"
        );
        // A single-page app's index.html: the URI nginx looks up again, as a file of the route's
        // directory (below the alias, whose prefix weir strips).
        let spa = route(None, "/spa/");
        assert_eq!(
            spa.rules.fallback,
            Some(Fallback::File("/index.html".into()))
        );
        assert_eq!(
            route(None, "\\.html$").rules.fallback,
            Some(Fallback::File("/index.html".into()))
        );
        // A URI another location serves is no file of this route's directory.
        for (directive, line) in [
            ("try_files $uri /index.html", 9),
            ("try_files $uri /index.html", 11),
        ] {
            let item = report
                .items
                .iter()
                .find(|item| item.directive == directive && item.sources[0].line == line)
                .unwrap_or_else(|| panic!("{report}"));
            assert_eq!(item.kind, Kind::Unsupported, "{item}");
            assert!(item.note.contains("another location"), "{item}");
        }
        assert!(route(None, "/away/").rules.fallback.is_none());
        // Without root or alias, today's shape: the app answers everything.
        let app = route(Some("b.test"), "/");
        assert_eq!(app.upstream, "app");
        assert!(app.static_root.is_none());
        assert_eq!(
            item(&imported, "try_files $uri @b").kind,
            Kind::Approximated
        );
        // Gunicorn's `try_files $uri @app`, no `$uri/`: nginx finds no file for a directory and
        // asks the app; weir serves the directory, so `/` gets an exact route to the app.
        let files = route(Some("c.test"), "/");
        assert!(!files.exact, "{:#?}", config.routes);
        assert_eq!(files.rules.fallback, Some(Fallback::Upstream("app".into())));
        let home = config
            .routes
            .iter()
            .find(|route| route.host.as_deref() == Some("c.test") && route.exact)
            .unwrap_or_else(|| panic!("{}", imported.toml));
        assert_eq!((home.path.as_str(), home.upstream.as_str()), ("/", "app"));
        let try_files = item(&imported, "try_files $uri @c");
        assert_eq!(try_files.kind, Kind::Approximated, "{try_files}");
        assert!(try_files.note.contains("403"), "{try_files}");
    }

    #[test]
    fn a_server_level_try_files_is_the_fallback_of_the_servers_static_route() {
        use weir::config::StaticFallback as Fallback;
        // yga-flask's shape: no `location /`, so the server's own try_files answers.
        let imported = import(concat!(
            "server {\n  listen 8086 default_server;\n  try_files $uri $uri/ @flask;\n",
            "  root /usr/share/nginx/html;\n",
            "  location @flask { proxy_set_header Host $http_host; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /depot { alias /var/depot; }\n",
            "}\n",
        ));
        let routes = routes(&imported);
        let site = route(&routes, "/");
        assert_eq!(
            site.static_root.as_deref(),
            Some(std::path::Path::new("/usr/share/nginx/html"))
        );
        assert_eq!(
            site.rules.fallback,
            Some(Fallback::Upstream("127_0_0_1_8000".into()))
        );
        let try_files = item(&imported, "try_files $uri $uri/ @flask");
        assert_eq!(try_files.kind, Kind::Translated, "{try_files}");
        assert_eq!(item(&imported, "location @flask").kind, Kind::Translated);
        assert_eq!(
            item(&imported, "proxy_set_header Host $http_host").kind,
            Kind::Translated
        );
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
    }

    #[test]
    fn wildcard_server_names_become_wildcard_hosts() {
        let imported = import(concat!(
            "http {\n",
            " server { listen 80 default_server; return 444; }\n",
            " server { listen 80; server_name *.Example.com example.*; location / { proxy_pass http://127.0.0.1:1; } }\n",
            " server { listen 80; server_name .shop.test; location / { proxy_pass http://127.0.0.1:2; } }\n",
            " server { listen 80; server_name a.test ~^www\\d+\\.test$ a.*.test; location / { proxy_pass http://127.0.0.1:3; } }\n",
            " server { listen 80; server_name ~^(?<sub>.+)\\.regex\\.test$; location / { proxy_pass http://127.0.0.1:4; } }\n",
            " server { listen 80; server_name .both.test; location / { proxy_pass http://127.0.0.1:5; } }\n",
            " server { listen 80; server_name both.test; location / { proxy_pass http://127.0.0.1:6; } }\n",
            "}\n",
        ));
        let report = &imported.report;
        let routes = routes(&imported);
        let hosts: Vec<Option<&str>> = routes.iter().map(|route| route.host.as_deref()).collect();
        assert_eq!(
            hosts,
            [
                None,
                Some("*.example.com"),
                Some("example.*"),
                Some("shop.test"),
                Some("*.shop.test"),
                Some("a.test"),
                Some("both.test"),
                Some("*.both.test"),
            ],
            "{}",
            imported.toml
        );
        assert_eq!(
            item(&imported, "server_name *.Example.com").kind,
            Kind::Translated
        );
        let shorthand = item(&imported, "server_name .shop.test");
        assert_eq!(shorthand.kind, Kind::Translated, "{shorthand}");
        assert!(shorthand.note.contains("*.name"), "{shorthand}");
        let mixed = item(&imported, "server_name a.test");
        assert_eq!(mixed.kind, Kind::Approximated, "{mixed}");
        assert!(mixed.note.contains("a regex name"), "{mixed}");
        assert!(
            mixed.note.contains("a.*.test (a wildcard weir takes only"),
            "{mixed}"
        );
        let regex = item(&imported, "server_name ~^(?<sub>");
        assert_eq!(regex.kind, Kind::Unsupported, "{regex}");
        assert!(regex.note.contains("a regex name"), "{regex}");
        let server = report
            .items
            .iter()
            .find(|item| item.directive == "server" && item.sources[0].line == 6)
            .unwrap_or_else(|| panic!("{report}"));
        assert!(
            server.note.contains("no server_name weir can route"),
            "{server}"
        );
        // nginx 1.22 takes `.both.test` and a later `both.test` as conflicting names (it warns
        // and keeps the first), not an exact name beating a wildcard.
        let conflict = item(&imported, "server_name both.test");
        assert_eq!(conflict.kind, Kind::Unsupported, "{conflict}");
        assert!(
            conflict.note.contains("conflicting server name"),
            "{conflict}"
        );
    }

    #[test]
    fn regex_locations_get_a_suggestion() {
        assert!(regex_suggestion("^/api/v[0-9]+/").contains("\"/api/v\""));
        assert!(regex_suggestion("\\.(css|js)$").contains("static"));
    }

    #[test]
    fn the_websocket_map_is_not_needed_and_any_other_map_is_left_out() {
        let imported = import(concat!(
            "http {\n map $http_upgrade $connection_upgrade { default upgrade; '' close; }\n",
            " map $uri $backend { default app; /admin admin; }\n",
            " server {\n  listen 80;\n  location / { proxy_pass http://127.0.0.1:8000; }\n }\n}\n",
        ));
        let websocket = item(&imported, "map $http_upgrade");
        assert_eq!(websocket.kind, Kind::Translated, "{}", websocket.note);
        assert!(websocket.note.contains("WebSocket"), "{}", websocket.note);
        let other = item(&imported, "map $uri");
        assert_eq!(other.kind, Kind::Unsupported, "{}", other.note);
    }

    #[test]
    fn a_location_with_nothing_to_serve_by_is_a_404_but_where_nginx_has_a_file() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location = /favicon.ico { access_log off; log_not_found off; }\n",
            "  location = /50x.html { access_log off; }\n",
            "  location /api/ { proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let routes = routes(&imported);
        let favicon = route(&routes, "/favicon.ico");
        assert_eq!(
            favicon.answer.as_ref().map(|answer| answer.status.as_u16()),
            Some(404)
        );
        // nginx's own default root holds a 50x.html: no 404 route for it.
        assert!(routes.iter().all(|route| route.path != "/50x.html"));
        assert_eq!(
            item(&imported, "location = /50x.html").kind,
            Kind::Unsupported
        );
    }

    #[test]
    fn a_map_of_the_answers_type_becomes_headers_by_type_where_add_header_and_expires_name_it() {
        let imported = import(concat!(
            "http {\n map $sent_http_content_type $frame { ~*text/html DENY; }\n",
            " map $sent_http_content_type $expires { default 1h; \"\" off; ~*text/html|json epoch; }\n",
            " map $sent_http_content_type $cors { ~*^image/ \"*\"; }\n",
            " server {\n  listen 80;\n  add_header X-Frame-Options $frame always;\n",
            "  add_header Access-Control-Allow-Origin $cors;\n",
            "  location / { expires $expires; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /api/ { expires $expires; add_header Cache-Control private; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let typed = |path: &str| {
            route(&config.routes, path)
                .rules
                .headers
                .response_by_type
                .iter()
                .map(|header| {
                    let picks: Vec<Option<String>> = [
                        None,
                        Some("text/html; charset=utf-8"),
                        Some("application/json"),
                        Some("text/css"),
                    ]
                    .into_iter()
                    .map(|kind| {
                        header
                            .pick(kind.map(str::as_bytes))
                            .map(|value| value.as_str().to_string())
                    })
                    .collect();
                    (header.name.to_string(), header.always, picks)
                })
                .collect::<Vec<_>>()
        };
        let no_cache = Some("no-cache".to_string());
        let epoch = Some("Thu, 01 Jan 1970 00:00:01 GMT".to_string());
        assert_eq!(
            typed("/"),
            [
                (
                    "x-frame-options".to_string(),
                    true,
                    vec![None, Some("DENY".to_string()), None, None]
                ),
                (
                    "cache-control".to_string(),
                    false,
                    vec![
                        None,
                        no_cache.clone(),
                        no_cache,
                        Some("max-age=3600".to_string())
                    ]
                ),
                (
                    "expires".to_string(),
                    false,
                    vec![None, epoch.clone(), epoch, None]
                ),
            ]
        );
        // Beside an add_header Cache-Control, nginx sends two fields and weir one: expires is
        // left out there, and the location's add_header drops the server's, as in nginx.
        assert!(typed("/api/").is_empty());
        let expires = item(&imported, "expires $expires");
        assert_eq!(expires.kind, Kind::Approximated, "{}", expires.note);
        assert!(
            expires.note.contains("no Expires date for a time"),
            "{}",
            expires.note
        );
        // An anchored regex has no fragment form: the map and its header are left out, loudly
        // for a header that protects.
        let cors = item(&imported, "add_header Access-Control-Allow-Origin");
        assert_eq!(cors.kind, Kind::Unsupported);
        assert!(cors.note.contains("anchors"), "{}", cors.note);
        assert_eq!(
            item(&imported, "map $sent_http_content_type $cors").kind,
            Kind::Unsupported
        );
        assert_eq!(
            item(&imported, "map $sent_http_content_type $frame").kind,
            Kind::Translated
        );
        assert!(imported
            .report
            .less_safe
            .iter()
            .all(|item| !item.directive.contains("X-Frame-Options")));
    }

    #[test]
    fn proxy_redirect_and_its_default_become_location_rewrites() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location /app/ { proxy_pass http://app:8000/; }\n",
            "  location /root/ { proxy_pass http://app:8000; }\n",
            "  location /host/ { proxy_set_header Host $host; proxy_pass http://app:8000/; }\n",
            "  location /named/ { proxy_set_header Host $host; proxy_pass http://app:8000/;\n",
            "   proxy_redirect http://app:8000/ /named/; proxy_redirect http://app:8000/x/ /never/;\n",
            "   proxy_redirect http://other/ https://$host/; }\n",
            "  location /off/ { proxy_redirect off; proxy_pass http://app:8000/; }\n",
            "  location /re/ { proxy_redirect ~^http://(.*)$ /$1; proxy_pass http://app:8000/; }\n",
            "  location ~ ^/rx/ { proxy_pass http://app:8000; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let rewrites = |path: &str| {
            route(&config.routes, path)
                .rules
                .location_rewrites
                .iter()
                .map(|(prefix, to)| (prefix.clone(), to.as_str().to_string()))
                .collect::<Vec<_>>()
        };
        let pair = |prefix: &str, to: &str| (prefix.to_string(), to.to_string());
        // nginx's default, where the app is sent $proxy_host.
        assert_eq!(rewrites("/app/"), [pair("http://app:8000/", "/app/")]);
        assert_eq!(rewrites("/root/"), [pair("http://app:8000/", "/")]);
        // The client's Host: the app names it, and nothing needs rewriting.
        assert!(rewrites("/host/").is_empty());
        // Longest first in weir; /x/ comes after the prefix that starts it, so nginx never
        // reaches it.
        assert_eq!(
            rewrites("/named/"),
            [
                pair("http://app:8000/", "/named/"),
                pair("http://other/", "https://$host/")
            ]
        );
        assert!(rewrites("/off/").is_empty());
        assert!(rewrites("/re/").is_empty());
        assert_eq!(
            item(&imported, "proxy_redirect ~^http").kind,
            Kind::Unsupported
        );
        // A regex location's proxy_pass has no URI part: its default goes to `/`.
        let location = config
            .routes
            .iter()
            .find(|route| route.path.contains("rx"))
            .unwrap();
        assert_eq!(location.rules.location_rewrites.len(), 1);
        assert_eq!(location.rules.location_rewrites[0].1.as_str(), "/");
        assert!(item(&imported, "proxy_pass http://app:8000/")
            .note
            .contains("nginx's proxy_redirect default"));
    }

    #[test]
    fn an_if_on_the_scheme_redirects_the_plain_sockets_and_leaves_the_tls_ones_the_routes() {
        let imported = import(&format!(
            concat!(
                "http {{\n server {{\n  listen 80;\n  listen 443 ssl;\n  server_name example.com;\n  {}\n",
                "  if ($scheme != \"https\") {{ return 301 https://$host$request_uri; }}\n",
                "  location / {{ proxy_pass http://127.0.0.1:8000; }}\n }}\n",
                " server {{\n  listen 8080;\n  server_name plain.example.com;\n",
                "  if ($https != on) {{ return 308 https://example.com$request_uri; }}\n",
                "  location / {{ proxy_pass http://127.0.0.1:8000; }}\n }}\n",
                " server {{\n  listen 8443 ssl;\n  server_name tls.example.com;\n  {}\n",
                "  if ($scheme = http) {{ return 301 https://$host$request_uri; }}\n",
                "  location / {{ proxy_pass http://127.0.0.1:8000; }}\n }}\n",
                " server {{\n  listen 80;\n  listen 443 ssl;\n  server_name www.example.com;\n  {}\n",
                "  if ($scheme != 'https') {{ return 301 https://$host$request_uri; }}\n",
                "  location / {{ proxy_pass http://127.0.0.1:8000; }}\n }}\n}}\n",
            ),
            CERT, CERT, CERT
        ));
        let config = loaded(&imported);
        use weir::routing::Listeners;
        // Each route: the addresses it answers on, and the status it answers with by itself.
        let routes: Vec<(Vec<String>, Option<u16>)> = config
            .routes
            .iter()
            .map(|route| {
                let Listeners::Addrs(addrs) = &route.scope.listeners else {
                    panic!("{:?}\n{}", route.scope.listeners, imported.toml)
                };
                (
                    addrs.iter().map(ToString::to_string).collect(),
                    route.answer.as_ref().map(|answer| answer.status.as_u16()),
                )
            })
            .collect();
        let on = |addr: &str, status: Option<u16>| (vec![addr.to_string()], status);
        assert_eq!(
            routes,
            [
                // Both kinds of socket: the redirect on plain HTTP, the app on TLS.
                on("0.0.0.0:80", Some(301)),
                on("0.0.0.0:443", None),
                // Plain sockets only: always true, the server's return; its location is never
                // reached.
                on("0.0.0.0:8080", Some(308)),
                // TLS sockets only: never true.
                on("0.0.0.0:8443", None),
                // Not the default server of its sockets: its host's routes, split the same way.
                on("0.0.0.0:80", Some(301)),
                on("0.0.0.0:443", None),
            ]
        );
        assert_eq!(
            item(&imported, "if ($scheme = http)").kind,
            Kind::Translated
        );
        assert!(item(&imported, "if ($scheme = http)")
            .note
            .contains("never true"));
    }

    #[test]
    fn auth_request_and_its_set_variables_become_auth_request_with_copied_headers() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  auth_request /_auth;\n",
            "  auth_request_set $user $upstream_http_x_auth_request_user;\n",
            "  auth_request_set $cookie $upstream_http_set_cookie;\n",
            "  location = /_auth { internal; proxy_pass http://127.0.0.1:4180/verify; proxy_pass_request_body off; proxy_set_header Content-Length \"\"; }\n",
            "  location / { proxy_set_header X-User $user; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /static/ { root /srv; }\n",
            "  location /health { auth_request off; proxy_set_header X-User $user; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /ping { return 200; }\n",
            "  location /bad { auth_request /auth/$host; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let asked = |path: &str| route(&config.routes, path).rules.auth_request.clone();
        let ask = |copy: &[(&'static str, &'static str)]| {
            Some(weir::config::AuthRequest::Ask {
                target: "/_auth".to_string(),
                path: "/_auth".to_string(),
                copy_headers: copy
                    .iter()
                    .map(|(to, from)| {
                        (
                            http::HeaderName::from_static(to),
                            http::HeaderName::from_static(from),
                        )
                    })
                    .collect(),
                answer_headers: Vec::new(),
                sign_in: None,
            })
        };
        // The server's, inherited; the app gets the service's user as X-User.
        assert_eq!(asked("/"), ask(&[("x-user", "x-auth-request-user")]));
        assert_eq!(asked("/static/"), ask(&[]));
        // `auth_request off`: none, and X-User is removed (nginx's $user is empty there).
        assert_eq!(asked("/health"), None);
        assert!(
            route_table(&imported.toml, "/health").contains(r#"X-User = """#),
            "{}",
            imported.toml
        );
        // A `return` answers before nginx's access phase.
        assert_eq!(asked("/ping"), None);
        // The asking location's own keys are not asked again, and its body idiom is not needed.
        assert_eq!(
            item(&imported, "proxy_pass_request_body off").kind,
            Kind::Translated
        );
        assert_eq!(
            item(&imported, "proxy_set_header Content-Length").kind,
            Kind::Translated
        );
        assert_eq!(
            item(&imported, "auth_request /_auth").kind,
            Kind::Translated
        );
        // A variable's path weir cannot route: left out, and less safe.
        assert_eq!(asked("/bad"), None);
        assert!(less_safe(&imported, "auth_request /auth/$host")
            .note
            .contains("authentication is dropped"));
        // A set variable no proxy_set_header sends (add_header Set-Cookie $cookie, say).
        assert_eq!(
            item(&imported, "auth_request_set $cookie").kind,
            Kind::Unsupported
        );
    }

    #[test]
    fn a_proto_redirect_and_a_referer_check_become_deny_headers() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n  server_name example.com;\n",
            "  if ($http_x_forwarded_proto != \"https\") { return 301 https://$host$request_uri; }\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /img/ { valid_referers none blocked server_names; if ($invalid_referer) { return 403; } proxy_pass http://127.0.0.1:8000; }\n",
            "  location /odd/ { valid_referers ~(?<=x)y; if ($invalid_referer) { return 403; } proxy_pass http://127.0.0.1:8000; }\n",
            "  location /unread/ { valid_referers none example.org; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /other/ { if ($http_x_forwarded_proto != \"https\") { return 301 https://$remote_addr/; } proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let guards = |path: &str| {
            route(&config.routes, path)
                .rules
                .headers
                .deny_headers
                .clone()
                .unwrap_or_default()
        };
        let root = guards("/");
        assert_eq!(root.len(), 1);
        assert_eq!(root[0].status.as_u16(), 301);
        assert_eq!(
            root[0].location.as_ref().map(|url| url.as_str()),
            Some("https://$host$request_uri")
        );
        assert!(root[0].refuses(Some(b"http")) && !root[0].refuses(Some(b"https")));
        // The server's redirect, then the location's referer check.
        let img = guards("/img/");
        assert_eq!(img.len(), 2);
        assert!(img[1].refuses(Some(b"https://evil.test/")));
        assert!(!img[1].refuses(Some(b"https://EXAMPLE.com/")));
        assert!(!img[1].refuses(None));
        // A regex weir cannot take: the check is left out, and said to be less safe.
        assert_eq!(guards("/odd/").len(), 1);
        assert!(less_safe(&imported, "if ($invalid_referer)")
            .note
            .contains("left out with the guard"));
        // valid_referers that nothing reads does nothing in nginx either.
        assert!(item(&imported, "valid_referers none example.org")
            .note
            .contains("nothing reads it"));
        // A redirect to a URL with a variable weir's redirect lacks is not a guard.
        assert_eq!(guards("/other/").len(), 1);
        let unsupported = imported
            .report
            .items
            .iter()
            .filter(|item| item.directive.starts_with("if ($http_x_forwarded_proto"))
            .filter(|item| item.kind == Kind::Unsupported)
            .count();
        assert_eq!(unsupported, 1);
    }

    #[test]
    fn limit_rate_and_limit_rate_after_become_route_keys_where_they_are_in_force() {
        let imported = import(concat!(
            "http {\n limit_rate_after 1m;\n server {\n  listen 80;\n  limit_rate 512k;\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /media/ { alias /srv/media/; limit_rate 100k; limit_rate_after 0; }\n",
            "  location /api/ { limit_rate 0; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /odd/ { limit_rate $rate; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let limit = |path: &str| route(&config.routes, path).limit_rate;
        let rate = |rate: u64, after: u64| Some(weir::config::LimitRate { rate, after });
        // The server's rate and the http block's `after`; the location's own, `after` 0.
        assert_eq!(limit("/"), rate(512 * 1024, 1 << 20));
        assert_eq!(limit("/media/"), rate(100 * 1024, 0));
        assert_eq!(limit("/api/"), None);
        // A variable rate is not carried (nor the server's, which it replaced), and said to be
        // less safe.
        assert_eq!(limit("/odd/"), None);
        assert!(less_safe(&imported, "limit_rate $rate")
            .note
            .contains("bandwidth"));
        assert_eq!(item(&imported, "limit_rate 100k").kind, Kind::Translated);
        assert!(item(&imported, "limit_rate 0").note.contains("not limited"));
    }

    #[test]
    fn an_allowlist_of_a_geo_and_a_map_becomes_exempt_on_both_limits() {
        let allowlist = |geo: &str, map: &str| {
            import(&format!(
                "http {{\n geo $limit {{ {geo} }}\n map $limit $limit_key {{ {map} }}\n\
                 limit_req_zone $limit_key zone=req:10m rate=5r/s;\n\
                 limit_conn_zone $limit_key zone=conn:10m;\n\
                 server {{\n  listen 80;\n  location / {{ limit_req zone=req; limit_conn conn 10; proxy_pass http://127.0.0.1:8000; }}\n }}\n}}\n"
            ))
        };
        let imported = allowlist(
            "default 1; 10.0.0.0/8 0; 192.168.1.5 0; 172.16.0.0/12 1;",
            "0 \"\"; 1 $binary_remote_addr;",
        );
        let config = loaded(&imported);
        fn networks<T: ToString>(list: &[T]) -> Vec<String> {
            list.iter().map(ToString::to_string).collect()
        }
        let exempt = ["10.0.0.0/8", "192.168.1.5/32"];
        assert_eq!(networks(&config.limits["req"].exempt), exempt);
        assert_eq!(
            config.limits["req"].key,
            vec![weir::config::KeyPart::ClientIp]
        );
        assert_eq!(networks(&config.connection_limits["conn"].exempt), exempt);
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
        assert_eq!(
            item(&imported, "map $limit $limit_key").kind,
            Kind::Translated
        );
        assert_eq!(item(&imported, "geo $limit").kind, Kind::Translated);
        // A map without default gives "": the geo's default is what is limited.
        let imported = allowlist("default 0; 10.0.0.0/8 1;", "0 $remote_addr;");
        let config = loaded(&imported);
        assert_eq!(networks(&config.limits["req"].exempt), exempt[..1]);

        // What weir's one key and its whole networks cannot say: the zone is left out.
        for (geo, map, why) in [
            (
                "default 1; 10.0.0.0/8 0; 10.1.0.0/16 1;",
                "0 \"\"; 1 $binary_remote_addr;",
                "10.1.0.0/16 is limited inside 10.0.0.0/8",
            ),
            (
                "default 1; 10.0.0.0/8 2;",
                "1 $binary_remote_addr; 2 $http_x_api_key;",
                "two keys",
            ),
            (
                "default 0; 10.0.0.0/8 1;",
                "0 \"\"; 1 $binary_remote_addr;",
                "only the networks listed",
            ),
            (
                "default 1; 10.0.0.0/8 0;",
                "~^0 \"\"; default $binary_remote_addr;",
                "has no weir form",
            ),
        ] {
            let imported = allowlist(geo, map);
            let zone = item(&imported, "limit_req_zone $limit_key");
            assert_eq!(zone.kind, Kind::Unsupported, "{geo}");
            assert!(zone.note.contains(why), "{}", zone.note);
            assert!(!imported.report.less_safe.is_empty(), "{geo}");
        }
    }

    #[test]
    fn a_locations_own_proxy_read_timeout_becomes_its_routes_read_timeout() {
        let imported = import(concat!(
            "http {\n upstream app { server 127.0.0.1:8000; }\n server {\n  listen 80;\n",
            "  location /ws/ { proxy_pass http://app; proxy_read_timeout 1h; proxy_connect_timeout 5s; }\n",
            "  location / { proxy_pass http://app; }\n",
            "  location /report/ { proxy_pass http://app; proxy_read_timeout 1h; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let route = |path: &str| self::route(&config.routes, path).read_timeout;
        // The first location's is the upstream's; a location with another has its own.
        let hour = std::time::Duration::from_secs(3600);
        assert_eq!(config.upstreams["app"].read_timeout, hour);
        assert_eq!(route("/ws/"), None);
        assert_eq!(route("/"), Some(std::time::Duration::from_secs(60)));
        assert_eq!(route("/report/"), None);
        assert_eq!(
            item(&imported, "proxy_read_timeout (default)").kind,
            Kind::Translated
        );
        // A connect time-out stays one per upstream.
        assert_eq!(
            item(&imported, "proxy_connect_timeout (default)").kind,
            Kind::Approximated
        );
    }

    #[test]
    fn a_regex_locations_return_with_its_groups_becomes_a_captured_redirect() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location ~ ^/old/([a-z]+)/(\\d+)$ { return 301 https://$host/new/$2/$1; }\n",
            "  location ~* ^/legacy/(.+)$ { return 302 /items/$1; }\n",
            "  location ~ ^/one/(.+)$ { return 301 /x/$2; }\n",
            "  location /plain/ { return 301 https://$host/$1; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let redirect = |path: &str| {
            route(&config.routes, path)
                .answer
                .as_ref()
                .and_then(|answer| answer.location.as_ref())
                .map(|location| location.as_str().to_string())
        };
        assert_eq!(
            redirect("^/old/([a-z]+)/(\\d+)$").as_deref(),
            Some("https://$host/new/$2/$1")
        );
        // A path: nginx writes it absolute, weir as it is.
        assert_eq!(redirect("^/legacy/(.+)$").as_deref(), Some("/items/$1"));
        assert_eq!(
            item(&imported, "return 302 /items/$1").kind,
            Kind::Approximated
        );
        // A group the regex lacks, or a capture outside a regex location: left out.
        assert_eq!(item(&imported, "return 301 /x/$2").kind, Kind::Unsupported);
        assert_eq!(
            item(&imported, "return 301 https://$host/$1").kind,
            Kind::Unsupported
        );
    }

    #[test]
    fn a_servers_rewrite_that_redirects_becomes_a_regex_route_and_others_stay_out() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  rewrite ^/blog/(.*)$ https://blog.example.com/$1 permanent;\n",
            "  rewrite ^/feed$ /rss? redirect;\n",
            "  rewrite ^/x/(.*)$ $scheme://$host/y/$1;\n",
            "  rewrite ^/inner/(.*)$ /other/$1 last;\n",
            "  rewrite ^/q$ /r?a=1 permanent;\n",
            "  location / { return 204; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let redirect = |path: &str| {
            let answer = route(&config.routes, path).answer.as_ref()?;
            Some((
                answer.status.as_u16(),
                answer.location.as_ref()?.as_str().to_string(),
            ))
        };
        assert_eq!(
            redirect("^/blog/(.*)$"),
            Some((301, "https://blog.example.com/$1$is_args$args".into()))
        );
        // A URL ending in `?`: no query; a URL with a scheme redirects whatever its flag.
        assert_eq!(redirect("^/feed$"), Some((302, "/rss".into())));
        assert_eq!(
            redirect("^/x/(.*)$"),
            Some((302, "$scheme://$host/y/$1$is_args$args".into()))
        );
        // The regex routes come first, in order: before the location's.
        assert!(
            config.routes[0].path.starts_with("^/blog"),
            "{}",
            imported.toml
        );
        assert_eq!(
            item(
                &imported,
                "rewrite ^/blog/(.*)$ https://blog.example.com/$1 permanent"
            )
            .kind,
            Kind::Approximated
        );
        for left_out in [
            "rewrite ^/inner/(.*)$ /other/$1 last",
            "rewrite ^/q$ /r?a=1 permanent",
        ] {
            assert_eq!(
                item(&imported, left_out).kind,
                Kind::Unsupported,
                "{left_out}"
            );
        }
    }

    #[test]
    fn try_files_with_suffixes_becomes_try_suffixes() {
        let imported = import(concat!(
            "http {\n upstream app { server 127.0.0.1:8000; }\n server {\n  listen 80;\n  root /srv/www;\n",
            "  location /docs/ { try_files $uri $uri/ $uri.html =404; }\n",
            "  location /redoc/ { alias /srv/redoc/; try_files $uri $uri/redoc.html; }\n",
            "  location /site/ { try_files $uri $uri.html $uri/ /site/index.html; }\n",
            "  location /odd/ { try_files $uri $uri/.hidden =404; }\n",
            "  location / { try_files $uri $uri.html @app; }\n",
            "  location @app { proxy_pass http://app; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let route = |path: &str| self::route(&config.routes, path).rules.clone();
        assert_eq!(route("/docs/").try_suffixes, ["/", ".html"]);
        assert_eq!(route("/redoc/").try_suffixes, ["/redoc.html"]);
        let site = route("/site/");
        assert_eq!(site.try_suffixes, [".html", "/"]);
        assert_eq!(
            site.fallback,
            Some(weir::config::StaticFallback::File("/index.html".into()))
        );
        let root = route("/");
        assert_eq!(root.try_suffixes, [".html"]);
        assert_eq!(
            root.fallback,
            Some(weir::config::StaticFallback::Upstream("app".into()))
        );
        assert_eq!(
            item(&imported, "try_files $uri $uri/ $uri.html =404").kind,
            Kind::Translated
        );
        // nginx routes a last URI again; weir looks in the route's directory.
        assert_eq!(
            item(&imported, "try_files $uri $uri/redoc.html").kind,
            Kind::Approximated
        );
        // A suffix weir refuses (a dot-file) is left out.
        assert!(route("/odd/").try_suffixes.is_empty());
        assert_eq!(
            item(&imported, "try_files $uri $uri/.hidden =404").kind,
            Kind::Unsupported
        );
    }

    #[test]
    fn a_geo_read_by_an_if_that_returns_403_becomes_access_entries() {
        let imported = import(concat!(
            "http {\n",
            "  geo $blocked { default 0; 10.0.0.0/8 1; 192.0.2.7 1; }\n",
            "  geo $http_x_forwarded_for $proxied { default 0; 1.2.3.4 1; }\n",
            "  server {\n  listen 80;\n  if ($blocked) { return 403; }\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /staff/ { allow 127.0.0.1; deny all; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /any/ { satisfy any; allow 127.0.0.1; deny all; auth_basic Staff; auth_basic_user_file /etc/nginx/htpasswd; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /fwd/ { if ($proxied) { return 403; } proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let access = |path: &str| -> String {
            let table = route_table(&imported.toml, path);
            table
                .lines()
                .find(|line| line.starts_with("access = "))
                .unwrap_or("")
                .split('#')
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        };
        assert_eq!(
            access("/"),
            r#"access = ["deny 192.0.2.7", "deny 10.0.0.0/8", "allow all"]"#
        );
        // Before the location's own allow/deny, which nginx checks after its if.
        assert_eq!(
            access("/staff/"),
            r#"access = ["deny 192.0.2.7", "deny 10.0.0.0/8", "allow 127.0.0.1", "deny all"]"#
        );
        // With satisfy any, a password would let the refused in: not carried, and less safe.
        assert_eq!(
            access("/any/"),
            r#"access = ["allow 127.0.0.1", "deny all"]"#
        );
        assert!(less_safe(&imported, "if ($blocked)")
            .note
            .contains("left out with the guard"));
        // A geo of another variable than the client's address: left out, and less safe.
        assert_eq!(
            item(&imported, "geo $http_x_forwarded_for").kind,
            Kind::Unsupported
        );
        assert!(less_safe(&imported, "if ($proxied)")
            .note
            .contains("left out with the guard"));
        loaded(&imported);
    }

    #[test]
    fn ip_hash_and_weights_become_the_upstreams_balance_and_weights() {
        let imported = import(concat!(
            "http {\n upstream socketio { ip_hash; server 10.0.0.1:5000 weight=2; server 10.0.0.2:5000; }\n",
            " upstream other { hash $request_uri consistent; server 10.0.0.3:8000; server 10.0.0.4:8000; }\n",
            " server { listen 80; location / { proxy_pass http://socketio; } location /o/ { proxy_pass http://other; } }\n}\n",
        ));
        let config = loaded(&imported);
        let socketio = &config.upstreams["socketio"];
        assert_eq!(socketio.balance, weir::config::Balance::ClientAddress);
        assert_eq!(socketio.weights, [("10.0.0.1:5000".to_string(), 2)]);
        assert_eq!(item(&imported, "ip_hash").kind, Kind::Translated);
        assert_eq!(item(&imported, "hash $request_uri").kind, Kind::Unsupported);
        let by_address = import(
            "http { upstream app { hash $remote_addr consistent; server 10.0.0.1:8000; server 10.0.0.2:8000; } server { listen 80; location / { proxy_pass http://app; } } }",
        );
        assert_eq!(
            item(&by_address, "hash $remote_addr").kind,
            Kind::Approximated
        );
        assert!(by_address.toml.contains(r#"balance = "client_address""#));
        assert_eq!(
            config.upstreams["other"].balance,
            weir::config::Balance::RoundRobin
        );
    }

    #[test]
    fn oauth2_proxys_sign_in_and_cookie_become_auth_request_keys() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location /oauth2/ { proxy_pass http://127.0.0.1:4180; }\n",
            "  location = /oauth2/auth { internal; proxy_pass http://127.0.0.1:4180; }\n",
            "  location / {\n   auth_request /oauth2/auth;\n   error_page 401 =403 /oauth2/sign_in;\n",
            "   auth_request_set $auth_cookie $upstream_http_set_cookie;\n   add_header Set-Cookie $auth_cookie;\n",
            "   proxy_pass http://127.0.0.1:8000;\n  }\n",
            "  location /admin/ { auth_request /oauth2/auth; error_page 401 = @login; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /plain/ { auth_request /oauth2/auth; error_page 401 /oauth2/sign_in; proxy_pass http://127.0.0.1:8000; }\n",
            "  location /open/ { error_page 401 =403 /oauth2/sign_in; add_header Set-Cookie $auth_cookie; proxy_pass http://127.0.0.1:8000; }\n",
            "  location @login { return 302 https://auth.example.com/start?rd=$scheme://$host$request_uri; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let asked = |path: &str| route(&config.routes, path).rules.auth_request.clone();
        let sign_in = |path: &str| match asked(path) {
            Some(weir::config::AuthRequest::Ask { sign_in, .. }) => sign_in,
            other => panic!("{other:?}"),
        };
        let route = |status: Option<u16>| {
            Some(weir::config::SignIn::Route {
                target: "/oauth2/sign_in".to_string(),
                path: "/oauth2/sign_in".to_string(),
                status: status.map(|code| http::StatusCode::from_u16(code).unwrap()),
            })
        };
        assert_eq!(sign_in("/"), route(Some(403)));
        assert_eq!(sign_in("/plain/"), route(Some(401)));
        match sign_in("/admin/") {
            Some(weir::config::SignIn::Redirect(url)) => assert_eq!(
                url.as_str(),
                "https://auth.example.com/start?rd=$scheme://$host$request_uri"
            ),
            other => panic!("{other:?}"),
        }
        match asked("/") {
            Some(weir::config::AuthRequest::Ask { answer_headers, .. }) => {
                assert_eq!(
                    answer_headers,
                    [http::HeaderName::from_static("set-cookie")]
                )
            }
            other => panic!("{other:?}"),
        }
        // Where no auth_request is in force: nothing asked, the cookie's add_header adds nothing
        // in nginx either, and the =403 page is not carried.
        assert_eq!(asked("/open/"), None);
        assert!(item(&imported, "location @login").note.contains("sign_in"));
        assert_eq!(
            item(&imported, "add_header Set-Cookie").kind,
            Kind::Translated
        );
    }

    #[test]
    fn an_if_on_a_request_header_that_returns_an_error_becomes_deny_headers() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  if ($http_user_agent ~* (bot|crawler)) { return 403; }\n",
            "  location / { proxy_pass http://127.0.0.1:8000; }\n",
            "  location /api/ {\n   if ($http_x_api_key !~ \"^k-[0-9]+$\") { return 401; }\n",
            "   if ($http_user_agent = \"\") { return 444; }\n   proxy_pass http://127.0.0.1:8000;\n  }\n",
            "  location /x/ { if ($http_referer ~ \"(?<=a)b\") { return 403; } proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let config = loaded(&imported);
        let guards = |path: &str| {
            let route = route(&config.routes, path);
            route.rules.headers.deny_headers.clone().unwrap_or_default()
        };
        // The server's guard, then the location's, as nginx runs both.
        let api = guards("/api/");
        let outcome = |agent: Option<&str>, key: Option<&str>| {
            api.iter()
                .find(|guard| {
                    let value = if guard.name == "user-agent" {
                        agent
                    } else {
                        key
                    };
                    guard.refuses(value.map(str::as_bytes))
                })
                .map(|guard| guard.status.as_u16())
        };
        assert_eq!(api.len(), 3);
        assert_eq!(outcome(Some("GoogleBot"), Some("k-1")), Some(403));
        assert_eq!(outcome(Some("Mozilla"), Some("k-1")), None);
        assert_eq!(outcome(Some("Mozilla"), Some("key")), Some(401));
        assert_eq!(outcome(None, Some("k-1")), Some(444));
        assert_eq!(guards("/").len(), 1);
        // A look-behind weir's regex crate refuses: left out, and said to be less safe.
        assert_eq!(guards("/x/").len(), 1);
        assert_eq!(item(&imported, "if ($http_referer").kind, Kind::Unsupported);
        assert!(less_safe(&imported, "if ($http_referer")
            .note
            .contains("left out with the guard"));
        assert!(imported
            .report
            .less_safe
            .iter()
            .all(|item| !item.directive.contains("user_agent")));
    }
}
