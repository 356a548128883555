//! What `tests/differential.rs` (the corpus written here) and `tests/public_differential.rs` (the
//! public corpus) share: nginx with a config and weir with its import, moved onto the test's
//! addresses the same way, in front of the same test upstream, asked the same requests
//! ([`exchanges`]); and what differs between two answers ([`differences`]).
//!
//! Both sides are moved onto the test's addresses the same way: every `listen` becomes one free
//! loopback port (or, for a run with two listeners, the config's first socket one and its second
//! another, asked alike), every upstream server and `proxy_pass` address becomes the test
//! upstream, and every `root`/`alias` directory moves under a temp dir. An upstream host name
//! (Compose's `web:8000`) stays a name on weir's side, on the test upstream's port, and weir
//! resolves it through a real DNS server (`[server] resolver`) that points it at 127.0.0.1. Log
//! directives, which need system paths, are dropped from the nginx side only. TLS directives,
//! which need certificates, are dropped too, unless the run gives a certificate ([`Run::tls`]):
//! then a server that listens with `ssl` keeps TLS on its listener on both sides, with that
//! certificate, and is asked over HTTPS.

use std::io::Read;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use http::{Method, Request};
use http_body_util::Full;
use weir_import::{parse, Directive, Import};
use weir_testkit::dns::DnsServer;
use weir_testkit::nginx::Nginx;
use weir_testkit::upstream;
use weir_testkit::{Client, Reply, TestGateway, Transport, UpstreamServer};

/// One config to run on both sides.
pub struct Run<'a> {
    /// The config's name in messages and in the import's source comments.
    pub name: &'a str,
    /// The config as loaded (includes read), with an `http` block.
    pub directives: Vec<Directive>,
    /// The report of the config's own import: its notes announce what the move does not change.
    pub original_report: String,
    /// Plain listeners both sides get: 1 moves every server onto one; 2 keeps the config's
    /// first socket (by port) on listener A and its second on B.
    pub listeners: usize,
    pub hosts: &'a [&'a str],
    pub paths: &'a [&'a str],
    /// The certificate both sides' TLS servers get: with it, a server that listens with `ssl`
    /// keeps its TLS on its test listener and is asked over HTTPS; without it, TLS directives
    /// are dropped and every listener is plain.
    pub tls: Option<&'a Tls>,
}

/// A certificate and its key, as files, for both sides' TLS servers.
pub struct Tls {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl Tls {
    /// A self-signed certificate for `example.com`, made with `openssl` under `dir` (as
    /// `tests/public.rs` makes one for `nginx -t`); the clients do not check it.
    #[allow(dead_code)] // used by public_differential.rs; differential.rs's cases are plain
    pub fn generate(dir: &Path) -> Tls {
        let (cert, key) = weir_testkit::certificate::self_signed(dir, "example.com");
        Tls { cert, key }
    }
}

/// How many sockets (distinct `listen` ports) the config's servers have.
pub fn socket_count(directives: &[Directive]) -> usize {
    Sockets::of(directives, 1, false).ports.len()
}

/// One request asked of both sides, and their answers.
pub struct Exchange {
    /// The listener asked (0 is A).
    #[allow(dead_code)] // read by differential.rs, whose cases expect answers per listener
    pub listener: usize,
    /// `NAME [on listener B] [HTTPS] Host: HOST GET PATH`, for messages.
    pub request: String,
    pub path: String,
    pub nginx: Option<Reply>,
    pub weir: Option<Reply>,
}

/// A burst asked of both sides on a rate-limited location, and the statuses each side answered.
pub struct Burst {
    /// `NAME Host: HOST burst of N GET PATH (HOW)`, for messages.
    pub request: String,
    pub path: String,
    /// Asked one after the other, the statuses in order; asked at once, sorted (counts only).
    pub ordered: bool,
    pub nginx: Vec<u16>,
    pub weir: Vec<u16>,
    /// Requests the fastest limit on the path may let pass on either side while the burst ran,
    /// beyond what it allows at once (its rate times the burst's duration, plus one for the
    /// token that may come between nginx's request and weir's): on a slow machine a burst of
    /// 10r/s that takes over 100 ms lets one more pass, at a moment neither side chooses.
    pub refilled: usize,
}

impl Burst {
    /// The difference, when there is one and no `(path prefix, words)` of `announced` covers it
    /// (its path starts with the prefix and the report says the words); printed either way.
    pub fn unannounced(&self, report: &str, announced: &[(&str, &str)]) -> Option<String> {
        let difference = self.difference()?;
        eprintln!("{}: {difference}", self.request);
        let covered = announced
            .iter()
            .any(|(prefix, words)| self.path.starts_with(prefix) && report.contains(words));
        (!covered).then(|| format!("{}: {difference}", self.request))
    }

    /// How many of nginx's answers refused (429 or 503): a burst nginx refuses nothing of
    /// compares nothing of the limit.
    #[allow(dead_code)] // read by differential.rs, whose corpus has a limit
    pub fn refused_by_nginx(&self) -> usize {
        self.nginx
            .iter()
            .filter(|status| matches!(status, 429 | 503))
            .count()
    }

    /// What differs between the two sequences of statuses (which requests passed and which were
    /// refused, in order), in words; `None` when they agree.
    ///
    /// Sequences that are not identical still agree when both sides refused, with the same
    /// statuses, and the numbers they let pass differ by no more than the limit refilled while
    /// the burst ran ([`Burst::refilled`]); a limit one side does not apply refuses nothing there.
    pub fn difference(&self) -> Option<String> {
        if self.nginx == self.weir {
            return None;
        }
        let how = if self.ordered { "in order" } else { "sorted" };
        let refusals = |statuses: &[u16]| -> std::collections::BTreeSet<u16> {
            statuses
                .iter()
                .copied()
                .filter(|status| matches!(status, 429 | 503))
                .collect()
        };
        let passes = |statuses: &[u16]| {
            statuses
                .iter()
                .filter(|status| (200..400).contains(*status))
                .count()
        };
        let agree = !refusals(&self.nginx).is_empty()
            && refusals(&self.nginx) == refusals(&self.weir)
            && passes(&self.nginx).abs_diff(passes(&self.weir)) <= self.refilled
            && self.nginx.len() == self.weir.len();
        (!agree).then(|| {
            format!(
                "statuses {how}: nginx {:?}, weir {:?} (refill allowed: {})",
                self.nginx, self.weir, self.refilled
            )
        })
    }
}

/// A location limited by `limit_req`, and the burst it is asked.
struct Limited {
    path: String,
    /// rate + burst + 3: above what nginx lets through at once.
    count: usize,
    /// Some limit on it delays (no `nodelay`): one after the other, its requests would each
    /// pass after waiting, so the burst is asked all at once and compared by counts.
    delays: bool,
    /// The fastest rate among its limits, in requests per second.
    fastest_rate: f64,
}

/// The client address bursts come from: a key of its own for limits keyed by the client
/// address, which the other requests (from 127.0.0.1) have not counted against.
const BURST_CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// A burst whose limit delays is asked only when nginx would make none of it wait longer than
/// this (burst / rate), so that the test stays short.
const MAX_DELAYED_BURST_SECONDS: f64 = 6.0;

/// The locations limited by `limit_req` (prefix or exact, or a server's `/`), each with its
/// burst. A limit whose key is a request header (`$http_x_api_key`) counts nothing here (the
/// test sends none, and nginx does not account an empty key), so it is left aside.
fn limited(directives: &[Directive]) -> Vec<Limited> {
    fn zones(block: &[Directive], found: &mut Vec<(String, String, f64)>) {
        for directive in block {
            if directive.name == "limit_req_zone" {
                let key = directive.args.first().cloned().unwrap_or_default();
                let arg = |prefix: &str| {
                    directive
                        .args
                        .iter()
                        .find_map(|arg| arg.strip_prefix(prefix).map(str::to_string))
                };
                let name = arg("zone=").unwrap_or_default();
                let name = name.split(':').next().unwrap_or("").to_string();
                let rate = arg("rate=").unwrap_or_default();
                let per_second = match rate.strip_suffix("r/s") {
                    Some(number) => number.parse().unwrap_or(1.0),
                    None => rate
                        .strip_suffix("r/m")
                        .and_then(|number| number.parse::<f64>().ok())
                        .map_or(1.0, |number| number / 60.0),
                };
                found.push((name, key, per_second));
            }
            if let Some(inner) = &directive.block {
                zones(inner, found);
            }
        }
    }
    fn visit(
        block: &[Directive],
        path: Option<&str>,
        zones: &[(String, String, f64)],
        found: &mut Vec<Limited>,
    ) {
        let mut counted = Vec::new();
        let mut delays = false;
        // The longest wait nginx may make a delayed request of the burst do, in seconds.
        let mut longest_wait: f64 = 0.0;
        let mut fastest_rate: f64 = 0.0;
        for directive in block.iter().filter(|inner| inner.name == "limit_req") {
            let arg = |prefix: &str| {
                directive
                    .args
                    .iter()
                    .find_map(|arg| arg.strip_prefix(prefix).map(str::to_string))
            };
            let zone = arg("zone=").unwrap_or_default();
            let Some((_, key, rate)) = zones.iter().find(|(name, _, _)| *name == zone) else {
                continue;
            };
            if key.starts_with("$http_") {
                continue;
            }
            let burst: usize = arg("burst=").and_then(|n| n.parse().ok()).unwrap_or(0);
            delays |= !directive.args.iter().any(|arg| arg == "nodelay");
            longest_wait = longest_wait.max(burst as f64 / rate);
            fastest_rate = fastest_rate.max(*rate);
            counted.push(rate.ceil() as usize + burst + 3);
        }
        if let (Some(path), Some(count)) = (path, counted.iter().min()) {
            if delays && longest_wait > MAX_DELAYED_BURST_SECONDS {
                eprintln!("{path}: not asked in a burst: nginx would delay it {longest_wait} s");
            } else {
                found.push(Limited {
                    path: path.to_string(),
                    count: *count,
                    delays,
                    fastest_rate,
                });
            }
        }
        for directive in block {
            let Some(inner) = &directive.block else {
                continue;
            };
            let inner_path = match (directive.name.as_str(), directive.args.as_slice()) {
                ("server", _) => Some("/"),
                ("location", [path]) | ("location", [_, path])
                    if path.starts_with('/')
                        && !matches!(directive.args[0].as_str(), "~" | "~*") =>
                {
                    Some(path.as_str())
                }
                ("location", _) => None,
                _ => path,
            };
            visit(inner, inner_path, zones, found);
        }
    }
    let mut known = Vec::new();
    zones(directives, &mut known);
    let mut found = Vec::new();
    visit(directives, None, &known, &mut found);
    found
}

/// Runs nginx on `run`'s config and weir on its import, asks both every host and path on every
/// listener, and then a burst on every rate-limited location ([`limited`]); returns
/// both import reports (the original's first), the answers and the bursts.
pub async fn exchanges(run: &Run<'_>) -> (String, Vec<Exchange>, Vec<Burst>) {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let files = tempfile::tempdir().unwrap();
    // nginx runs the config moved onto one plain listener; so does weir, with the import of the
    // config moved the same way (its `listen`s and `ssl*` lines only): a server bound to its own
    // sockets (weir's route `listen`) answers there as nginx's server, moved onto the one
    // listener, does.
    let sockets = Sockets::of(&run.directives, run.listeners, run.tls.is_some());
    let keep_listens = run.listeners > 1;
    let moved_config = parse::to_nginx(&onto_one_listener(
        run.directives.clone(),
        false,
        keep_listens,
        run.tls.is_some(),
    ));
    let imported = weir_import::import_str(&moved_config, run.name)
        .unwrap_or_else(|error| panic!("{}: {error}\n{moved_config}", run.name));
    let report = format!("{}\n{}", run.original_report, imported.report);
    // Upstream host names (Compose's `web:8000`) are resolved by weir through a real DNS server
    // that points them at the test upstream; nginx's side names its address.
    let names = host_names(&imported.toml);
    let dns = (!names.is_empty()).then(|| {
        let mut dns = DnsServer::start().expect("the test DNS server starts");
        for name in &names {
            dns.set(name, &[Ipv4Addr::LOCALHOST.into()], 60).unwrap();
        }
        dns
    });
    let resolver = dns.as_ref().map(DnsServer::addr);
    let toml = weir_toml(
        &imported,
        &sockets,
        &upstream.address,
        files.path(),
        resolver,
        run.tls,
        &moved_proxy_hosts(&run.directives),
    );
    make_files(&toml);
    let http = |listens: &[SocketAddr]| {
        nginx_http(
            &run.directives,
            listens,
            &sockets,
            &upstream.address,
            files.path(),
            run.tls,
        )
    };
    let nginx = Nginx::start_on(run.listeners, &http)
        .unwrap_or_else(|error| panic!("{}: {error}", run.name));
    let gateway = TestGateway::start(&toml).await;
    let tls_listeners: Vec<usize> = (0..run.listeners)
        .filter(|listener| sockets.is_tls(*listener))
        .collect();
    assert!(
        tls_listeners.len() <= 1,
        "{}: one TLS listener at most",
        run.name
    );
    assert_eq!(gateway.addrs.len(), run.listeners, "{}\n{toml}", run.name);
    assert_eq!(
        gateway.tls_addr.is_some(),
        !tls_listeners.is_empty(),
        "{}\n{toml}",
        run.name
    );
    let watched = Watched::of(&run.directives);
    let mut answers = Vec::new();
    for listener in 0..run.listeners {
        let on = match run.listeners {
            1 => String::new(),
            _ => format!(" on listener {}", ["A", "B"].get(listener).unwrap_or(&"C+")),
        };
        let tls = tls_listeners.contains(&listener);
        let weir_addr = weir_addr_of(&gateway.addrs, listener, run.name, &toml);
        assert_eq!(tls, gateway.tls_addr == Some(weir_addr), "{}", run.name);
        let https = if tls { " HTTPS" } else { "" };
        for host in run.hosts {
            for path in run.paths {
                let (nginx_reply, weir_reply) = if tls {
                    (
                        ask_tls(nginx.addrs[listener], host, path, &watched).await,
                        ask_tls(weir_addr, host, path, &watched).await,
                    )
                } else {
                    (
                        ask(nginx.addrs[listener], host, path, &watched).await,
                        ask(weir_addr, host, path, &watched).await,
                    )
                };
                answers.push(Exchange {
                    listener,
                    request: format!("{}{on}{https} Host: {host} GET {path}", run.name),
                    path: path.to_string(),
                    nginx: nginx_reply,
                    weir: weir_reply,
                });
            }
        }
    }
    // The bursts come last, on the first listener and host, from a client address of their own
    // ([`BURST_CLIENT`]): each limit starts them with nothing counted, and what they exhaust
    // leaves the other requests alone.
    let mut bursts = Vec::new();
    let weir_first = weir_addr_of(&gateway.addrs, 0, run.name, &toml);
    let tls_first = tls_listeners.contains(&0);
    let host = run.hosts[0];
    for Limited {
        path,
        count,
        delays,
        fastest_rate,
    } in limited(&run.directives)
    {
        let (mut nginx_statuses, mut weir_statuses) = (Vec::new(), Vec::new());
        let started = std::time::Instant::now();
        // At once, every request arrives before the first delayed one is let through, so only
        // the token between the two sides' arrivals may differ; one after the other, the limit
        // refills at its rate for as long as the burst takes.
        let refilled = |delays: bool| {
            if delays {
                1
            } else {
                (started.elapsed().as_secs_f64() * fastest_rate).floor() as usize + 1
            }
        };
        if delays {
            // All at once, on both sides together: nginx and weir each let some through at
            // once, hold some (delayed) and refuse the rest; which ones is not told, how many is.
            let mut burst = tokio::task::JoinSet::new();
            for _ in 0..count {
                for (side, addr) in [(0, nginx.addrs[0]), (1, weir_first)] {
                    let (host, path, watched) = (host.to_string(), path.clone(), watched.clone());
                    burst.spawn(async move {
                        let from = Some(BURST_CLIENT);
                        let reply = if tls_first {
                            ask_tls_from(addr, from, &host, &path, &watched).await
                        } else {
                            ask_from(addr, from, &host, &path, &watched).await
                        };
                        (side, reply.map_or(0, |reply| reply.status.as_u16()))
                    });
                }
            }
            while let Some(answered) = burst.join_next().await {
                let (side, status) = answered.expect("a burst request");
                [&mut nginx_statuses, &mut weir_statuses][side].push(status);
            }
            nginx_statuses.sort_unstable();
            weir_statuses.sort_unstable();
        } else {
            // Request by request, nginx then weir, so that both limits see the same pace.
            for _ in 0..count {
                for (addr, statuses) in [
                    (nginx.addrs[0], &mut nginx_statuses),
                    (weir_first, &mut weir_statuses),
                ] {
                    let from = Some(BURST_CLIENT);
                    let reply = if tls_first {
                        ask_tls_from(addr, from, host, &path, &watched).await
                    } else {
                        ask_from(addr, from, host, &path, &watched).await
                    };
                    statuses.push(reply.map_or(0, |reply| reply.status.as_u16()));
                }
            }
        }
        let how = if delays {
            "at once"
        } else {
            "one after the other"
        };
        bursts.push(Burst {
            request: format!(
                "{} Host: {host} burst of {count} GET {path} ({how})",
                run.name
            ),
            path,
            ordered: !delays,
            nginx: nginx_statuses,
            weir: weir_statuses,
            refilled: refilled(delays),
        });
    }
    if let Some(mut dns) = dns {
        for name in &names {
            let queries = dns.queries(name).unwrap();
            assert!(
                queries > 0,
                "{}: weir never asked the DNS server for {name}",
                run.name
            );
        }
    }
    gateway.shutdown().await;
    drop(nginx);
    (report, answers, bursts)
}

/// weir's listener `index`, plain or TLS: the one on its loopback IP ([`Sockets::weir_listen`]).
fn weir_addr_of(addrs: &[SocketAddr], index: usize, name: &str, toml: &str) -> SocketAddr {
    let ip = Sockets::weir_listen(index)
        .parse::<SocketAddr>()
        .unwrap()
        .ip();
    *addrs
        .iter()
        .find(|addr| addr.ip() == ip)
        .unwrap_or_else(|| panic!("{name}: no weir listener on {ip}\n{toml}"))
}

/// A directory as the test places it: under `files`.
fn moved(files: &Path, dir: &str) -> String {
    format!("{}{dir}", files.display())
}

/// The port of a `listen` argument (`80`, `127.0.0.1:8000`, `[::]:443`, `*:80`; an address
/// alone is port 80, as in nginx), or of an imported listen address.
fn listen_port(arg: &str) -> u16 {
    if let Ok(port) = arg.parse() {
        return port;
    }
    match arg.rsplit_once(':') {
        Some((_, port)) if !arg.ends_with(']') => port.parse().unwrap_or(80),
        _ => 80,
    }
}

/// The config's sockets as the test places them: their ports in the order the config first
/// names them, and how many listeners the case has. Socket `i` goes on listener `i` (the last
/// listener takes the rest); with one listener, every socket is on it.
struct Sockets {
    ports: Vec<u16>,
    /// The ports that a `listen ... ssl` names, when the run keeps TLS.
    tls_ports: Vec<u16>,
    listeners: usize,
}

impl Sockets {
    fn of(directives: &[Directive], listeners: usize, keep_tls: bool) -> Sockets {
        fn visit(block: &[Directive], ports: &mut Vec<u16>, tls_ports: &mut Vec<u16>) {
            for directive in block {
                if directive.name == "listen" {
                    let port = listen_port(directive.args.first().map_or("80", String::as_str));
                    if !ports.contains(&port) {
                        ports.push(port);
                    }
                    if directive.args.iter().any(|arg| arg == "ssl") && !tls_ports.contains(&port) {
                        tls_ports.push(port);
                    }
                }
                if let Some(inner) = &directive.block {
                    visit(inner, ports, tls_ports);
                }
            }
        }
        let (mut ports, mut tls_ports) = (Vec::new(), Vec::new());
        visit(directives, &mut ports, &mut tls_ports);
        if !keep_tls {
            tls_ports.clear();
        }
        Sockets {
            ports,
            tls_ports,
            listeners,
        }
    }

    /// Whether listener `index` speaks TLS: the sockets moved onto it listen with `ssl`.
    fn is_tls(&self, index: usize) -> bool {
        let tls = self
            .tls_ports
            .iter()
            .any(|port| self.listener(*port) == index);
        let plain = self
            .ports
            .iter()
            .any(|port| !self.tls_ports.contains(port) && self.listener(*port) == index);
        assert!(
            !(tls && plain),
            "listener {index} has TLS and plain sockets: give the case more listeners"
        );
        tls
    }

    /// The listener (0 is A) that the socket on `port` goes on.
    fn listener(&self, port: u16) -> usize {
        let index = self.ports.iter().position(|known| *known == port);
        index.unwrap_or(0).min(self.listeners - 1)
    }

    /// weir's `[server] listen` address for listener `index`: port 0 on its own loopback IP,
    /// so that the route `listen` keys that name it tell the listeners apart.
    fn weir_listen(index: usize) -> String {
        format!("127.0.0.{}:0", index + 1)
    }
}

/// The nginx side: the `http` block of `directives`, rewritten onto the test's addresses.
fn nginx_http(
    directives: &[Directive],
    listens: &[SocketAddr],
    sockets: &Sockets,
    upstream: &str,
    files: &Path,
    tls: Option<&Tls>,
) -> String {
    let http = directives
        .iter()
        .find(|directive| directive.name == "http")
        .and_then(|http| http.block.clone())
        .expect("an http block");
    let upstream_names: Vec<String> = http
        .iter()
        .filter(|directive| directive.name == "upstream")
        .filter_map(|directive| directive.args.first().cloned())
        .collect();
    let place = Place {
        listens,
        sockets,
        upstream,
        files,
        upstream_names: &upstream_names,
        tls,
    };
    let rewritten = rewrite(http, &place, false);
    format!(
        "    include /etc/nginx/mime.types;\n{}",
        parse::to_nginx(&rewritten)
    )
}

/// `directives` with each server's `listen`s made one, as [`rewrite`] makes them for nginx
/// (the first, with its `default_server`), and the `ssl*` lines left out; nothing else changed.
/// With `keep_listens`, only the `ssl*` lines are left out (a case on several listeners); with
/// `keep_tls` too, they stay (the weir side points the certificates at the test's).
fn onto_one_listener(
    block: Vec<Directive>,
    in_server: bool,
    keep_listens: bool,
    keep_tls: bool,
) -> Vec<Directive> {
    let mut out = Vec::new();
    let mut listened = false;
    for mut directive in block {
        if directive.name.starts_with("ssl") && !keep_tls {
            continue;
        }
        if in_server && directive.name == "listen" && !keep_listens {
            if listened {
                continue;
            }
            listened = true;
            let default = directive.args.iter().any(|arg| arg == "default_server");
            directive.args = vec!["127.0.0.1:1".into()];
            if default {
                directive.args.push("default_server".into());
            }
        }
        if let Some(inner) = directive.block.take() {
            let server = directive.name == "server";
            directive.block = Some(onto_one_listener(inner, server, keep_listens, keep_tls));
        }
        out.push(directive);
    }
    out
}

/// Where [`rewrite`] moves a config: its listeners, the test upstream, the files' directory.
struct Place<'a> {
    listens: &'a [SocketAddr],
    sockets: &'a Sockets,
    upstream: &'a str,
    files: &'a Path,
    upstream_names: &'a [String],
    /// With it, a `listen ... ssl` keeps `ssl` and its server gets this certificate.
    tls: Option<&'a Tls>,
}

impl Place<'_> {
    /// The test listener that a config's socket on `port` moves onto.
    fn listen(&self, port: u16) -> SocketAddr {
        self.listens[self.sockets.listener(port)]
    }
}

fn rewrite(block: Vec<Directive>, place: &Place, in_upstream: bool) -> Vec<Directive> {
    let tcp = place.upstream.to_string();
    let (files, upstream_names) = (place.files, place.upstream_names);
    let mut out = Vec::new();
    // The test listeners this block's `listen`s moved onto: one `listen` each.
    let mut listened: Vec<SocketAddr> = Vec::new();
    for mut directive in block {
        let name = directive.name.as_str();
        if name.starts_with("ssl") || matches!(name, "access_log" | "error_log") {
            continue;
        }
        match name {
            "listen" => {
                let listen = place.listen(listen_port(&directive.args[0]));
                if listened.contains(&listen) {
                    continue;
                }
                listened.push(listen);
                let default = directive.args.iter().any(|arg| arg == "default_server");
                let ssl = directive.args.iter().any(|arg| arg == "ssl");
                directive.args = vec![listen.to_string()];
                if default {
                    directive.args.push("default_server".into());
                }
                if ssl && place.tls.is_some() {
                    directive.args.push("ssl".into());
                }
            }
            "server" if in_upstream => directive.args[0] = tcp.clone(),
            "proxy_pass" => {
                let url = directive.args[0].trim_start_matches("http://").to_string();
                let (authority, uri) = match url.strip_prefix("unix:") {
                    Some(unix) => match unix.find(':') {
                        Some(colon) => (String::new(), unix[colon + 1..].to_string()),
                        None => (String::new(), String::new()),
                    },
                    None => match url.find('/') {
                        Some(slash) => (url[..slash].to_string(), url[slash..].to_string()),
                        None => (url.clone(), String::new()),
                    },
                };
                if !upstream_names.contains(&authority) {
                    directive.args[0] = format!("http://{tcp}{uri}");
                }
            }
            "root" | "alias" => directive.args[0] = moved(files, &directive.args[0]),
            // Each run's cache starts empty, in the run's own directory.
            "proxy_cache_path" => directive.args[0] = format!("{}/nginx-cache", files.display()),
            _ => {}
        }
        if let Some(inner) = directive.block.take() {
            let is_upstream = directive.name == "upstream";
            directive.block = Some(rewrite(inner, place, is_upstream));
            if directive.name == "server" && !in_upstream {
                let block = directive.block.as_mut().unwrap();
                if !block.iter().any(|inner| inner.name == "listen") {
                    block.insert(
                        0,
                        Directive {
                            name: "listen".into(),
                            args: vec![place.listen(80).to_string()],
                            block: None,
                            source: directive.source.clone(),
                        },
                    );
                }
                let ssl = block.iter().any(|inner| {
                    inner.name == "listen" && inner.args.iter().any(|arg| arg == "ssl")
                });
                if let (true, Some(tls)) = (ssl, place.tls) {
                    for (name, file) in [
                        ("ssl_certificate", &tls.cert),
                        ("ssl_certificate_key", &tls.key),
                    ] {
                        block.push(Directive {
                            name: name.into(),
                            args: vec![file.display().to_string()],
                            block: None,
                            source: directive.source.clone(),
                        });
                    }
                }
            }
        }
        out.push(directive);
    }
    out
}

/// nginx's `$proxy_host` for each `proxy_pass` that names no `upstream` block, which the test
/// moves onto the test upstream (so nginx's default Host becomes its address): the address as
/// written (`127.0.0.1:8000`, `web:8000`; without `:80`, as nginx leaves it out), or `localhost`
/// for a Unix socket.
fn moved_proxy_hosts(directives: &[Directive]) -> Vec<String> {
    fn visit(block: &[Directive], upstreams: &[String], hosts: &mut Vec<String>) {
        for directive in block {
            if directive.name == "proxy_pass" {
                let url = directive.args.first().map_or("", String::as_str);
                let rest = url
                    .strip_prefix("http://")
                    .or_else(|| url.strip_prefix("https://"))
                    .unwrap_or(url);
                let authority = rest.split('/').next().unwrap_or("");
                let host = if rest.starts_with("unix:") {
                    Some("localhost".to_string())
                } else if upstreams.iter().any(|name| name == authority) {
                    None
                } else {
                    Some(
                        authority
                            .strip_suffix(":80")
                            .unwrap_or(authority)
                            .to_string(),
                    )
                };
                if let Some(host) = host.filter(|host| !hosts.contains(host)) {
                    hosts.push(host);
                }
            }
            if let Some(inner) = &directive.block {
                visit(inner, upstreams, hosts);
            }
        }
    }
    fn upstreams(block: &[Directive], names: &mut Vec<String>) {
        for directive in block {
            if directive.name == "upstream" {
                names.extend(directive.args.first().cloned());
            }
            if let Some(inner) = &directive.block {
                upstreams(inner, names);
            }
        }
    }
    let mut names = Vec::new();
    upstreams(directives, &mut names);
    let mut hosts = Vec::new();
    visit(directives, &names, &mut hosts);
    hosts
}

/// The addresses of a `servers = [...]` line.
fn server_addresses(line: &str) -> Vec<&str> {
    let list = line.split('#').next().unwrap_or("");
    list.split('"').skip(1).step_by(2).collect()
}

/// The host of `address` when it is a name (`web:8000`, `api`), not an IP or a Unix socket.
fn host_name(address: &str) -> Option<&str> {
    if address.starts_with("unix:") || address.starts_with('[') {
        return None;
    }
    let host = address.rsplit_once(':').map_or(address, |(host, _)| host);
    host.parse::<std::net::IpAddr>().is_err().then_some(host)
}

/// The upstream host names of the imported TOML, which the test's DNS server answers.
fn host_names(toml: &str) -> Vec<String> {
    let mut names: Vec<String> = toml
        .lines()
        .filter(|line| line.starts_with("servers = "))
        .flat_map(server_addresses)
        .filter_map(host_name)
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// An upstream server moved onto the test upstream: a host name keeps its name, on the test
/// upstream's port (the test's DNS server points the name at it); an IP or socket becomes it.
fn moved_server(address: &str, upstream: &str) -> String {
    match (host_name(address), upstream.rsplit_once(':')) {
        (Some(name), Some((_, port))) if !upstream.starts_with("unix:") => format!("{name}:{port}"),
        _ => upstream.to_string(),
    }
}

/// The weir side: the imported TOML on port 0, the test upstream, the moved directories, and no
/// access log file. With `resolver` (the test's DNS server), upstream host names stay names,
/// resolved there.
fn weir_toml(
    imported: &Import,
    sockets: &Sockets,
    upstream: &str,
    files: &Path,
    resolver: Option<SocketAddr>,
    tls: Option<&Tls>,
    moved_hosts: &[String],
) -> String {
    let mut out = String::new();
    // The access log is left out; so is TLS without `tls` (its certificates name files of the
    // machine the config came from): then the comparison is over plain HTTP. With `tls`, the
    // certificates are the test's.
    let mut skipped = false;
    for line in imported.toml.lines() {
        if line.starts_with('[') {
            let tls_table = line == "[tls]" || line == "[[tls.certificates]]";
            skipped = line == "[access_log]" || (tls_table && tls.is_none());
        }
        if skipped {
            continue;
        }
        let key = line.split(" = ").next().unwrap_or("");
        // Without TLS, both sides answer on plain listeners only: a route bound to TLS or plain
        // sockets (`scheme`) answers there as nginx's server, moved onto it, does.
        if key == "pid_file" || (key == "scheme" && tls.is_none()) {
            continue;
        }
        let line = match (key, tls) {
            ("cert", Some(tls)) => format!("cert = {:?}", tls.cert.display().to_string()),
            ("key", Some(tls)) => format!("key = {:?}", tls.key.display().to_string()),
            _ => line.to_string(),
        };
        let line = match key {
            // `[server] listen` and a route's `listen`, each address on its test listener.
            "listen" => {
                let mut listens: Vec<String> = server_addresses(&line)
                    .into_iter()
                    .map(|address| {
                        let listener = sockets.listener(listen_port(address));
                        format!("{:?}", Sockets::weir_listen(listener))
                    })
                    .collect();
                listens.sort();
                listens.dedup();
                format!("listen = [{}]", listens.join(", "))
            }
            // nginx's default Host (`$proxy_host`) of a `proxy_pass` the test moved is the test
            // upstream's address on nginx's side: the imported one moves with it.
            "request_headers" => {
                let mut line = line;
                for host in moved_hosts {
                    let quoted = format!("Host = {host:?}");
                    if line.contains(&quoted) {
                        line = line.replace(&quoted, &format!("Host = {upstream:?}"));
                    }
                }
                line
            }
            // nginx's proxy_redirect default names the moved proxy_pass URL too.
            "location_rewrites" => {
                let mut line = line;
                for host in moved_hosts {
                    line = line.replace(
                        &format!("\"http://{host}/"),
                        &format!("\"http://{upstream}/"),
                    );
                }
                line
            }
            "servers" => {
                let mut servers: Vec<String> = server_addresses(&line)
                    .into_iter()
                    .map(|address| format!("{:?}", moved_server(address, upstream)))
                    .collect();
                servers.dedup();
                format!("servers = [{}]", servers.join(", "))
            }
            // Every server is the test upstream: one server, whose weight is no matter.
            "weights" => continue,
            "resolver" => match resolver {
                Some(resolver) => format!("resolver = \"{resolver}\""),
                None => continue,
            },
            "static" => {
                let dir = line.split('"').nth(1).unwrap();
                format!("static = \"{}\"", moved(files, dir))
            }
            // Each page's file (every quoted absolute path), under `files` as nginx's root is.
            "error_pages" => line
                .split('"')
                .enumerate()
                .map(
                    |(index, part)| match index % 2 == 1 && part.starts_with('/') {
                        true => moved(files, part),
                        false => part.to_string(),
                    },
                )
                .collect::<Vec<_>>()
                .join("\""),
            _ => line,
        };
        out.push_str(&line);
        out.push('\n');
        if line == "[server]" && !imported.toml.contains("\nresolver = ") {
            if let Some(resolver) = resolver {
                out.push_str(&format!("resolver = \"{resolver}\"\n"));
            }
        }
    }
    if !out.contains("listen = ") {
        let resolver = resolver.map_or(String::new(), |addr| format!("resolver = \"{addr}\"\n"));
        out = format!("[server]\nlisten = [\"127.0.0.1:0\"]\n{resolver}{out}");
    }
    first_route_per_host_and_path(&out)
}

/// On the one listener both sides share, nginx answers a name with the first server that has it
/// ("conflicting server name"): of the routes that differed by `scheme` alone, the first stays.
fn first_route_per_host_and_path(toml: &str) -> String {
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    for (index, table) in toml.split("\n[").enumerate() {
        let table = if index == 0 {
            table.to_string()
        } else {
            format!("\n[{table}")
        };
        if table.starts_with("\n[[routes]]") {
            let key: Vec<&str> = table
                .lines()
                .filter(|line| {
                    let key = line.split(" = ").next().unwrap_or("");
                    matches!(
                        key,
                        "host" | "path" | "exact" | "match" | "listen" | "scheme"
                    )
                })
                .map(|line| line.split('#').next().unwrap_or("").trim())
                .collect();
            if !seen.insert(key.join("\n")) {
                continue;
            }
        }
        out.push_str(&table);
    }
    out
}

/// Files in every directory weir serves, so both gateways find the same ones, and every error
/// page, each with its own text.
fn make_files(toml: &str) {
    for line in toml
        .lines()
        .filter(|line| line.starts_with("error_pages = "))
    {
        for (index, part) in line.split('"').enumerate() {
            if index % 2 == 1 && part.starts_with('/') {
                let file = PathBuf::from(part);
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, format!("<h1>the page {part}</h1>\n")).unwrap();
            }
        }
    }
    for line in toml.lines().filter(|line| line.starts_with("static = ")) {
        let dir = PathBuf::from(line.split('"').nth(1).unwrap());
        // An exact route's one file (a name with an extension): an error page written above,
        // or a file of its own.
        let one_file = dir
            .file_name()
            .is_some_and(|name| name.to_string_lossy().contains('.'));
        if one_file {
            if !dir.is_file() {
                std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
                std::fs::write(&dir, "<h1>one file</h1>\n").unwrap();
            }
            continue;
        }
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<h1>index</h1>\n".repeat(10)).unwrap();
        std::fs::write(dir.join("app.css"), "body { color: black; }\n".repeat(50)).unwrap();
        std::fs::write(dir.join("file.txt"), "a protected file\n").unwrap();
    }
}

async fn ask(addr: SocketAddr, host: &str, path: &str, watched: &Watched) -> Option<Reply> {
    ask_from(addr, None, host, path, watched).await
}

/// [`ask`], from `from` when given (a client address of its own: [`BURST_CLIENT`]).
async fn ask_from(
    addr: SocketAddr,
    from: Option<IpAddr>,
    host: &str,
    path: &str,
    watched: &Watched,
) -> Option<Reply> {
    let mut request = Request::builder()
        .method(Method::GET)
        .uri(path)
        .header("host", host)
        .header("accept-encoding", "gzip")
        .header(upstream::ECHO, "1");
    if !watched.hidden.is_empty() {
        request = request.header(upstream::RESPOND_WITH, watched.hidden.join(", "));
    }
    let request = request.body(Full::new(Bytes::new())).unwrap();
    let mut client = match from {
        Some(local) => Client::connect_from(addr, local).await,
        None => Client::connect(addr).await,
    };
    client.send(request).await.ok()
}

/// `GET path` over HTTPS with `curl` (SNI and Host `host`, the certificate not checked, HTTP/1.1
/// as [`ask`] speaks), its answer parsed into a [`Reply`]; `None` when curl gets no answer.
async fn ask_tls(addr: SocketAddr, host: &str, path: &str, watched: &Watched) -> Option<Reply> {
    ask_tls_from(addr, None, host, path, watched).await
}

/// [`ask_tls`], from `from` when given (curl's `--interface`).
async fn ask_tls_from(
    addr: SocketAddr,
    from: Option<IpAddr>,
    host: &str,
    path: &str,
    watched: &Watched,
) -> Option<Reply> {
    let port = addr.port();
    let resolve = format!("{host}:{port}:{}", addr.ip());
    let url = format!("https://{host}:{port}{path}");
    let mut curl = tokio::process::Command::new("curl");
    curl.args(["-sk", "--http1.1", "--path-as-is", "--max-time", "10"])
        .args(["-H", &format!("{}: 1", upstream::ECHO)]);
    if let Some(local) = from {
        curl.args(["--interface", &local.to_string()]);
    }
    if !watched.hidden.is_empty() {
        let names = watched.hidden.join(", ");
        curl.args(["-H", &format!("{}: {names}", upstream::RESPOND_WITH)]);
    }
    let output = curl
        .args(["-H", "Accept-Encoding: gzip", "-D", "-", "--resolve"])
        .arg(&resolve)
        .arg(&url)
        .output()
        .await
        .expect("WEIR_E2E=1 needs curl");
    if !output.status.success() {
        return None;
    }
    let out = output.stdout;
    let end = out.windows(4).position(|window| window == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&out[..end]).expect("an HTTP head");
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let mut headers = http::HeaderMap::new();
    for line in lines {
        let (name, value) = line.split_once(':')?;
        headers.append(
            http::header::HeaderName::from_bytes(name.trim().as_bytes()).ok()?,
            http::HeaderValue::from_str(value.trim()).ok()?,
        );
    }
    Some(Reply {
        status,
        headers,
        body: Bytes::copy_from_slice(&out[end + 4..]),
    })
}

pub fn body(reply: &Reply) -> Vec<u8> {
    if reply.header("content-encoding") == Some("gzip") {
        let mut decoded = Vec::new();
        flate2::read::GzDecoder::new(&reply.body[..])
            .read_to_end(&mut decoded)
            .expect("gzip body");
        decoded
    } else {
        reply.body.to_vec()
    }
}

/// Headers not compared: framing, dates, and those the report's general notes announce.
const NOT_COMPARED: &[&str] = &[
    "date",
    "server",
    "connection",
    "keep-alive",
    "content-length",
    "transfer-encoding",
    "etag",
];

/// The header names a config itself sets or hides, whose presence on one side only is a
/// difference too (losing one of them is what makes a gateway less safe); the other headers are
/// compared only when both sides send them.
#[derive(Clone)]
pub struct Watched {
    /// Response headers: `add_header` and `proxy_hide_header` names, and HSTS (which weir's
    /// `[tls] hsts` sends on every TLS response and nginx's `add_header` where inherited).
    response: Vec<String>,
    /// Request headers set toward the upstream (`proxy_set_header` names), which the test
    /// upstream answers back as `x-request-NAME` ([`upstream::ECHO`]).
    upstream: Vec<String>,
    /// `proxy_hide_header` names, which the test upstream is asked to send
    /// ([`upstream::RESPOND_WITH`]) so that hiding them shows.
    hidden: Vec<String>,
}

impl Watched {
    pub fn of(directives: &[Directive]) -> Watched {
        fn visit(block: &[Directive], watched: &mut Watched) {
            for directive in block {
                let name = directive.args.first().map(|name| name.to_ascii_lowercase());
                let lists: &mut [&mut Vec<String>] = match directive.name.as_str() {
                    "add_header" => &mut [&mut watched.response],
                    "proxy_hide_header" => &mut [&mut watched.response, &mut watched.hidden],
                    // Hop-by-hop headers are each proxy's own connection to the upstream (nginx
                    // speaks HTTP/1.0 with `close` unless told otherwise, weir its pool's), not
                    // something passed on to the app.
                    "proxy_set_header" if !name.as_deref().is_some_and(hop_by_hop) => {
                        &mut [&mut watched.upstream]
                    }
                    _ => &mut [],
                };
                for list in lists.iter_mut() {
                    if let Some(name) = &name {
                        if !list.contains(name) {
                            list.push(name.clone());
                        }
                    }
                }
                // `expires` (not `off`) writes both: losing either is a difference.
                if directive.name == "expires" && name.as_deref() != Some("off") {
                    for header in ["expires", "cache-control"] {
                        if !watched.response.iter().any(|known| known == header) {
                            watched.response.push(header.to_string());
                        }
                    }
                }
                if let Some(inner) = &directive.block {
                    visit(inner, watched);
                }
            }
        }
        let mut watched = Watched {
            response: vec!["strict-transport-security".into()],
            // nginx sends a Host of its own choosing where no `proxy_set_header Host` says
            // which (`$proxy_host`): it is compared everywhere.
            upstream: vec!["host".into()],
            hidden: Vec::new(),
        };
        visit(directives, &mut watched);
        watched
    }

    /// The response headers whose presence is compared: the config's own, and, when both sides
    /// reached the upstream, the echoes of those it sets toward the upstream (when one side
    /// answered by itself, that is the difference, in status or body).
    fn presence(&self, both_proxied: bool) -> Vec<String> {
        let echoes = self
            .upstream
            .iter()
            .filter(|_| both_proxied)
            .map(|name| format!("x-request-{name}"));
        self.response.iter().cloned().chain(echoes).collect()
    }

    /// Whether a header both send is compared: an echo of a request header only when the config
    /// sets that one (the others, `Connection` and the like, are how each proxy speaks HTTP).
    fn compares(&self, name: &str) -> bool {
        match name.strip_prefix("x-request-") {
            Some(request) => self.upstream.iter().any(|set| set == request),
            None => !NOT_COMPARED.contains(&name),
        }
    }
}

/// Whether a request header is hop-by-hop: about the connection it is sent on.
fn hop_by_hop(name: &str) -> bool {
    matches!(
        name,
        "connection"
            | "keep-alive"
            | "proxy-connection"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
    )
}

/// How [`differences`] says that one side sends a header the other does not.
const ONLY: &str = "only";

/// Whether `difference` is a header that one side sends and the other does not.
#[allow(dead_code)] // used by public_differential.rs
pub fn one_side_only(difference: &str) -> bool {
    difference.starts_with("header ") && difference.contains(&format!(": {ONLY} "))
}

/// What differs between two answers, in words; empty when they agree.
pub fn differences(nginx: &Option<Reply>, weir: &Option<Reply>, watched: &Watched) -> Vec<String> {
    let (Some(nginx), Some(weir)) = (nginx, weir) else {
        return match (nginx, weir) {
            (None, None) => Vec::new(),
            _ => vec![format!(
                "one side did not answer: nginx {:?}, weir {:?}",
                nginx.as_ref().map(|r| r.status),
                weir.as_ref().map(|r| r.status)
            )],
        };
    };
    let mut found = Vec::new();
    if nginx.status != weir.status {
        found.push(format!(
            "status: nginx {}, weir {}",
            nginx.status, weir.status
        ));
    }
    if body(nginx) != body(weir) {
        found.push(format!(
            "body: nginx {:?}, weir {:?}",
            String::from_utf8_lossy(&body(nginx))
                .chars()
                .take(80)
                .collect::<String>(),
            String::from_utf8_lossy(&body(weir))
                .chars()
                .take(80)
                .collect::<String>()
        ));
    }
    // Headers are compared where both send them; the config's own also where only one does.
    let proxied = |reply: &Reply| {
        reply
            .headers
            .contains_key(format!("x-request-{}", upstream::ECHO))
    };
    for name in watched.presence(proxied(nginx) && proxied(weir)) {
        match (
            nginx.headers.contains_key(&name),
            weir.headers.contains_key(&name),
        ) {
            (true, false) => found.push(format!("header {name}: {ONLY} nginx sends it")),
            (false, true) => found.push(format!("header {name}: {ONLY} weir sends it")),
            _ => {}
        }
    }
    for name in nginx.headers.keys() {
        if !watched.compares(name.as_str()) || !weir.headers.contains_key(name) {
            continue;
        }
        // Several fields of one name are one list (RFC 9110 5.3): nginx's `expires` and an
        // `add_header Cache-Control` send two, weir one with both values. Set-Cookie is no list.
        let values = |reply: &Reply| -> Vec<String> {
            let values = reply
                .headers
                .get_all(name)
                .iter()
                .map(|value| value.to_str().unwrap_or("?").to_string());
            if name == http::header::SET_COOKIE {
                values.collect()
            } else {
                vec![values.collect::<Vec<_>>().join(", ")]
            }
        };
        // An Expires a time after the answer is dated per answer on each side: the same when
        // it is as long after each side's Date, within the second the clock moved between them.
        if name == http::header::EXPIRES {
            let offset = |reply: &Reply| -> Option<i64> {
                let date =
                    |name| httpdate::parse_http_date(reply.headers.get(name)?.to_str().ok()?).ok();
                let (expires, date) = (date(http::header::EXPIRES)?, date(http::header::DATE)?);
                Some(match expires.duration_since(date) {
                    Ok(after) => after.as_secs() as i64,
                    Err(before) => -(before.duration().as_secs() as i64),
                })
            };
            if let (Some(nginx), Some(weir)) = (offset(nginx), offset(weir)) {
                if (nginx - weir).abs() <= 1 {
                    continue;
                }
            }
        }
        if values(nginx) != values(weir) {
            found.push(format!(
                "header {name}: nginx {:?}, weir {:?}",
                values(nginx),
                values(weir)
            ));
        }
    }
    found
}

/// Whether the report's general notes announced this difference (weir's own error pages and
/// redirects have bodies of their own); `None` when the difference is not of those kinds.
pub fn announced_generally(report: &str, exchange: &Exchange, difference: &str) -> Option<bool> {
    let generated_by_both = |reply: &Reply| reply.header("x-upstream").is_none();
    let (Some(nginx), Some(weir)) = (&exchange.nginx, &exchange.weir) else {
        return None;
    };
    // weir adds its forwarding headers on every proxied request; nginx only where a
    // `proxy_set_header` in force for the location says so.
    let forwarding = ["x-forwarded-for", "x-real-ip", "x-forwarded-proto"]
        .iter()
        .any(|name| difference == format!("header x-request-{name}: {ONLY} weir sends it"));
    if forwarding {
        return Some(report.contains(
            "to the upstream on every proxied request, where nginx sends only the `proxy_set_header`s in force",
        ));
    }
    let body_or_type =
        difference.starts_with("body") || difference.starts_with("header content-type");
    let same_status = nginx.status == weir.status;
    let error_page = same_status
        && nginx.status.as_u16() >= 400
        && generated_by_both(nginx)
        && generated_by_both(weir);
    if error_page && body_or_type {
        return Some(report.contains("short plain-text body where nginx sends an HTML error page"));
    }
    // A header by type goes by that body's type: nginx's HTML page gets what text/html gets.
    let typed_header = difference
        .strip_prefix("header ")
        .and_then(|rest| rest.split(':').next())
        .filter(|name| {
            report
                .to_ascii_lowercase()
                .contains(&format!("response_headers_by_type {name} "))
        });
    if error_page && typed_header.is_some() {
        return Some(report.contains("goes by that plain-text type"));
    }
    // weir's redirect of a directory to its slash is relative (`./media/`), nginx's absolute
    // (`http://host:port/media/`): the same target.
    let same_directory = match (nginx.header("location"), weir.header("location")) {
        (Some(absolute), Some(relative)) => relative
            .strip_prefix("./")
            .is_some_and(|name| absolute.ends_with(&format!("/{name}"))),
        _ => false,
    };
    // A Location weir rewrote (or a rewrite redirects) to a path stays a path; nginx's
    // absolute_redirect writes the client's host and nginx's port before it: the same place.
    let same_path = match (nginx.header("location"), weir.header("location")) {
        (Some(absolute), Some(path)) => {
            path.starts_with('/')
                && absolute
                    .strip_prefix("http://")
                    .and_then(|rest| rest.find('/').map(|at| &rest[at..]))
                    == Some(path)
        }
        _ => false,
    };
    let redirect = same_status
        && nginx.status.is_redirection()
        && (nginx.header("location") == weir.header("location") || same_directory || same_path);
    if redirect && body_or_type {
        return Some(report.contains("a redirect from weir has an empty body"));
    }
    if same_path && difference.starts_with("header location") {
        return Some(report.contains("stays a path"));
    }
    if redirect && same_directory && difference.starts_with("header location") {
        return Some(report.contains("a relative `Location`, where nginx writes the absolute URL"));
    }
    None
}

/// Paths a regex location is asked with: the first two of these that its regex matches.
const REGEX_CANDIDATES: &[&str] = &[
    "/app.css",
    "/static/app.js",
    "/media/photo.jpg",
    "/logo.png",
    "/image.svgz",
    "/app.1234.css",
    "/font.woff2",
    "/favicon.ico",
    "/robots.txt",
    "/data.json",
    "/feed.xml",
    "/index.php",
    "/backup.sql",
    "/nginx.conf",
    "/app.log",
    "/deploy.sh",
    "/index.html~",
    "/.env",
    "/.git/config",
    "/.htaccess",
    "/static/.env",
    "/admin/",
    "/api/",
    "/api/v1/status/201",
];

/// Whether a location's block sets or hides a header, or denies, or limits: what the paths
/// under it are asked for.
fn guarded(block: &[Directive]) -> bool {
    block.iter().any(|inner| {
        matches!(
            inner.name.as_str(),
            "add_header" | "proxy_set_header" | "proxy_hide_header" | "deny" | "limit_req"
        )
    })
}

/// The paths of [`REGEX_CANDIDATES`] a regex location (`~` or `~*`) is asked with; none when
/// the regex crate cannot read it (lookaround) or none matches, printed so that it is seen.
fn regex_paths(modifier: &str, regex: &str) -> Vec<String> {
    let flags = if modifier == "~*" { "(?i)" } else { "" };
    match regex::Regex::new(&format!("{flags}{regex}")) {
        Ok(compiled) => {
            let paths: Vec<String> = REGEX_CANDIDATES
                .iter()
                .filter(|path| compiled.is_match(path))
                .take(2)
                .map(|path| path.to_string())
                .collect();
            if paths.is_empty() {
                eprintln!("location {modifier} {regex}: no candidate path matches it");
            }
            paths
        }
        Err(_) => {
            eprintln!(
                "location {modifier} {regex}: no path picked (the regex crate cannot read it)"
            );
            Vec::new()
        }
    }
}

/// For each location of the config's servers that is not named: a regex
/// location's [`regex_paths`]; any other's path, below a prefix ending in `/` a file and an app
/// path (`app.css`, `status/201`), and below one that does not, when it sets or hides headers,
/// denies or limits ([`guarded`]), an app path.
pub fn location_paths(directives: &[Directive]) -> Vec<String> {
    fn visit(block: &[Directive], paths: &mut Vec<String>) {
        for directive in block {
            if directive.name == "location" {
                let (modifier, path) = match directive.args.as_slice() {
                    [path] => ("", path.as_str()),
                    [modifier, path] => (modifier.as_str(), path.as_str()),
                    _ => ("~", ""),
                };
                // An alias to one file (`alias .../favicon.ico`) is not asked: the test gives
                // both sides directories only (`make_files`).
                let one_file = directive.block.iter().flatten().any(|inner| {
                    inner.name == "alias"
                        && inner.args.first().is_some_and(|target| {
                            target
                                .rsplit('/')
                                .next()
                                .is_some_and(|last| last.contains('.'))
                        })
                });
                let block = directive.block.as_deref().unwrap_or_default();
                let mut found = Vec::new();
                if matches!(modifier, "~" | "~*") {
                    found = regex_paths(modifier, path);
                } else if matches!(modifier, "" | "=" | "^~") && path.starts_with('/') && !one_file
                {
                    found.push(path.to_string());
                    if modifier != "=" && path.ends_with('/') {
                        found.push(format!("{path}app.css"));
                        found.push(format!("{path}status/201"));
                    }
                    let last = path.rsplit('/').next().unwrap_or("");
                    if modifier != "="
                        && !path.ends_with('/')
                        && !last.contains('.')
                        && guarded(block)
                    {
                        found.push(format!("{path}/status/201"));
                    }
                }
                for path in found {
                    if !paths.contains(&path) {
                        paths.push(path);
                    }
                }
            }
            if let Some(inner) = &directive.block {
                visit(inner, paths);
            }
        }
    }
    let mut paths = Vec::new();
    visit(directives, &mut paths);
    paths
}
