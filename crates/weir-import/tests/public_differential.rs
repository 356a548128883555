//! The differential over the public corpus (`tests/corpus/public`, issue 20 point 4): nginx with
//! each public config and weir with its import, in front of the same test upstream, moved onto
//! the test's addresses as `tests/differential.rs` moves its own corpus (`tests/common/mod.rs`),
//! answer the same requests alike, or as the report announced. Gated by `WEIR_E2E=1`.
//!
//! Plain and TLS per host: a server that listens with `ssl` keeps TLS on a test listener of its
//! own on both sides, with a certificate the test makes (nginx's `ssl_certificate`, weir's
//! `[[tls.certificates]]`), and every host is asked there over HTTPS (curl, with SNI), as on a
//! plain listener over HTTP. Compose service names are resolved by weir through the test's DNS
//! server.

mod common;

use std::path::{Path, PathBuf};

use common::{
    announced_generally, differences, exchanges, location_paths, one_side_only, socket_count, Run,
    Tls, Watched,
};
use weir_import::{parse, Directive};
use weir_testkit::nginx;

/// One public config: its directory under `tests/corpus/public` and its main file.
struct Case {
    dir: &'static str,
    main: &'static str,
    /// Differences the report must have announced: requests whose path starts with the first
    /// string may differ when some report item says the second.
    announced: &'static [(&'static str, &'static str)],
    /// Headers only one side sends that the report must have announced: at paths starting with
    /// the first string, the header named second, when some report item says the third.
    announced_headers: &'static [(&'static str, &'static str, &'static str)],
}

const CASES: &[Case] = &[
    Case {
        dir: "h5bp",
        main: "nginx.conf",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "gunicorn-example",
        main: "nginx.conf",
        announced: &[
            ("/.", "a path with a dot-file segment gets 404"),
            ("/static/.", "a path with a dot-file segment gets 404"),
        ],
        announced_headers: &[],
    },
    Case {
        dir: "django-on-docker",
        main: "nginx.conf",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "flask-on-docker",
        main: "nginx.conf",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "django-piscine",
        main: "ljarrahd.com",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "devops-learning-django",
        main: "django-project.com",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "cursodocker-flask",
        main: "nginx.conf",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "technoutsav-flask",
        main: "app",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "fastapi-tls-compose",
        main: "conf.d",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "fastapi-compose-monitoring",
        main: "conf.d",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "web-rl-django",
        main: "web_rl.com",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "kaloyansen-django",
        main: "nginx.app",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "certbot-managed",
        main: "example.com",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "fastapi-reverse-proxy",
        main: "nginx.conf",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "library-django-tls",
        main: "nginx.conf",
        announced: &[("/static/", "Cache-Control max-age")],
        announced_headers: &[("/media/", "cache-control", "Cache-Control max-age")],
    },
    Case {
        dir: "yga-flask",
        main: "nginx.conf",
        announced: &[
            ("/.", "a path with a dot-file segment gets 404"),
            ("/static/.", "a path with a dot-file segment gets 404"),
        ],
        announced_headers: &[],
    },
    Case {
        dir: "django-docker-compose",
        main: "default.conf",
        announced: &[],
        announced_headers: &[],
    },
    Case {
        dir: "foodgram-django",
        main: "nginx.conf",
        announced: &[
            ("/.", "a path with a dot-file segment gets 404"),
            ("/static/.", "a path with a dot-file segment gets 404"),
            ("/api/docs/", "nginx routes its last"),
        ],
        announced_headers: &[],
    },
    Case {
        dir: "kittygram-django",
        main: "nginx.conf",
        announced: &[("/.", "a path with a dot-file segment gets 404")],
        announced_headers: &[],
    },
    Case {
        dir: "shopdj-django",
        main: "nginx.conf",
        announced: &[("/static/", "Cache-Control max-age")],
        announced_headers: &[("/media/", "cache-control", "Cache-Control max-age")],
    },
];

/// Differences found here that the report does not announce yet, each to be fixed (in weir or
/// in the import's report) and then taken off: config, path, what differs. They are printed, not
/// failed; one that no longer differs, or that the report now announces, fails the test so that
/// it is taken off.
const NOT_YET_ANNOUNCED: &[(&str, &str, &str)] = &[];

/// The requests asked of every config, on every host it names, beside its own locations'
/// ([`paths`]).
const PATHS: &[&str] = &[
    "/",
    "/status/201",
    "/api/status/201",
    "/static/app.css",
    "/static/missing.css",
    "/media/app.css",
    "/.env",
    "/.git/config",
    "/.htaccess",
    "/static/.env",
    "/.well-known/acme-challenge/token",
    "/nope/",
    "/admin/",
    "/api/",
    "/index.html",
    "/text?bytes=3000",
];

fn public(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/public")
        .join(dir)
}

/// `directives` inside an `http` block (a file of server blocks is the inside of `http`, as
/// nginx reads it when nginx.conf includes it).
fn in_http(directives: Vec<Directive>) -> Vec<Directive> {
    if directives.iter().any(|directive| directive.name == "http") {
        return directives;
    }
    let source = directives[0].source.clone();
    vec![Directive {
        name: "http".into(),
        args: Vec::new(),
        block: Some(directives),
        source,
    }]
}

/// The exact names of the config's servers, and a name none of them has.
fn hosts(directives: &[Directive]) -> Vec<String> {
    fn visit(block: &[Directive], hosts: &mut Vec<String>) {
        for directive in block {
            if directive.name == "server_name" {
                for name in &directive.args {
                    let exact = !name.is_empty()
                        && name != "_"
                        && !name.starts_with(['~', '*', '.', '$'])
                        && !name.ends_with('*');
                    if exact && !hosts.contains(name) {
                        hosts.push(name.clone());
                    }
                }
            }
            if let Some(inner) = &directive.block {
                visit(inner, hosts);
            }
        }
    }
    let mut hosts = Vec::new();
    visit(directives, &mut hosts);
    hosts.push("other.test".into());
    hosts
}

fn count_servers(directives: &[Directive]) -> usize {
    directives
        .iter()
        .map(|directive| {
            usize::from(directive.name == "server" && directive.block.is_some())
                + directive.block.as_deref().map_or(0, count_servers)
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_and_weir_answer_public_configs_alike_or_as_the_report_announced() {
    if std::env::var_os("WEIR_E2E").is_none() {
        eprintln!("skipped: set WEIR_E2E=1 to run nginx against weir on the public corpus");
        return;
    }
    assert!(
        nginx::available(),
        "WEIR_E2E=1 needs nginx-light (apt-get install -y nginx-light)"
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut still_differ = Vec::new();
    let certificate = tempfile::tempdir().unwrap();
    let tls = Tls::generate(certificate.path());
    let (mut sent_over_tls, mut asked_over_tls, mut proxied_over_tls) = (0, 0, 0);
    let mut asked_in_bursts = 0;
    for case in CASES {
        let main = public(case.dir).join(case.main);
        let directives = in_http(parse::load(&main).unwrap().directives);
        assert!(count_servers(&directives) > 0, "{}: no server", case.dir);
        let hosts = hosts(&directives);
        let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
        let mut paths: Vec<String> = PATHS.iter().map(|path| path.to_string()).collect();
        for path in location_paths(&directives) {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let name = format!("{}/{}", case.dir, case.main);
        // Each socket of the servers on a listener of its own, as nginx binds them.
        let listeners = socket_count(&directives).max(1);
        let run = Run {
            name: &name,
            directives,
            original_report: weir_import::import(&main).unwrap().report.to_string(),
            listeners,
            hosts: &hosts,
            paths: &paths,
            tls: Some(&tls),
        };
        let (report, answers, bursts) = exchanges(&run).await;
        for burst in &bursts {
            asked_in_bursts += burst.nginx.len();
            failures.extend(burst.unannounced(&report, case.announced));
        }
        let watched = Watched::of(&run.directives);
        for exchange in &answers {
            compared += 1;
            // Over HTTPS and answered by nginx: curl got through the TLS handshake.
            let over_tls = exchange.request.contains(" HTTPS ");
            sent_over_tls += usize::from(over_tls);
            asked_over_tls += usize::from(over_tls && exchange.nginx.is_some());
            // ... and proxied by both to the test upstream (a TLS server that serves).
            let proxied = |reply: &Option<weir_testkit::Reply>| {
                reply
                    .as_ref()
                    .is_some_and(|reply| reply.header("x-upstream").is_some())
            };
            proxied_over_tls +=
                usize::from(over_tls && proxied(&exchange.nginx) && proxied(&exchange.weir));
            for difference in differences(&exchange.nginx, &exchange.weir, &watched) {
                eprintln!("{}: {difference}", exchange.request);
                let announced =
                    announced_generally(&report, exchange, &difference).unwrap_or_else(|| {
                        // A header only one side sends is its own difference, not covered by
                        // what the report says of the path's other ones, but by what it says
                        // of that header.
                        if one_side_only(&difference) {
                            case.announced_headers.iter().any(|(prefix, name, words)| {
                                exchange.path.starts_with(prefix)
                                    && difference.starts_with(&format!("header {name}: "))
                                    && report.contains(words)
                            })
                        } else {
                            case.announced.iter().any(|(prefix, words)| {
                                exchange.path.starts_with(prefix) && report.contains(words)
                            })
                        }
                    });
                let known = NOT_YET_ANNOUNCED
                    .iter()
                    .position(|(dir, path, _)| *dir == case.dir && exchange.path == *path);
                // A known path may differ in announced ways too; once only those are left, the
                // path is no longer listed as differing below, and fails there.
                match known {
                    _ if announced => {}
                    Some(index) => still_differ.push(index),
                    None => failures.push(format!("{}: {difference}", exchange.request)),
                }
            }
        }
    }
    for (index, (dir, path, what)) in NOT_YET_ANNOUNCED.iter().enumerate() {
        if still_differ.contains(&index) {
            eprintln!("not yet announced: {dir} GET {path}: {what}");
        } else {
            failures.push(format!(
                "{dir} GET {path} no longer differs: take it off NOT_YET_ANNOUNCED"
            ));
        }
    }
    eprintln!("{compared} requests compared over {} configs", CASES.len());
    eprintln!(
        "{} of them over HTTP, {sent_over_tls} over HTTPS ({asked_over_tls} answered by nginx there, {proxied_over_tls} proxied by both)",
        compared - sent_over_tls
    );
    eprintln!("{asked_in_bursts} requests asked in bursts on rate-limited locations");
    assert!(compared > 100, "only {compared} requests compared");
    assert!(
        asked_over_tls > 50,
        "only {asked_over_tls} requests compared over HTTPS"
    );
    assert!(
        proxied_over_tls > 20,
        "only {proxied_over_tls} requests proxied over HTTPS"
    );
    assert!(
        failures.is_empty(),
        "differences the report did not announce:\n{}",
        failures.join("\n")
    );
}
