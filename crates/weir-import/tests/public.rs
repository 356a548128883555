//! `weir import` on the public corpus (`tests/corpus/public`): nginx configs that nobody in this
//! project wrote, taken from public repositories of projects that deploy Python apps, each file
//! with its source (repository, path, commit) in a header comment. For each config: the import
//! reads it (includes and all), accounts for every directive once, writes a config that weir's
//! own check accepts, and would exit as pinned here (65 when the report's less-safe part is not
//! empty). With `WEIR_E2E=1`, `nginx -t` must accept the same config as it is, given what a test
//! machine lacks: certificates (generated with openssl), upstream host names (Compose service
//! names, pointed at 127.0.0.1), and the files an install ships (`/etc/nginx/proxy_params`).

use std::path::{Path, PathBuf};
use std::process::Command;

use weir_import::{parse, Directive};

/// One public config: its directory under `tests/corpus/public`, its main file, and the exit
/// status `weir import` gives it (0, or 65 when less safe than nginx).
struct Case {
    dir: &'static str,
    main: &'static str,
    exit: u8,
}

const CASES: &[Case] = &[
    Case {
        dir: "h5bp",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "gunicorn-example",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "django-on-docker",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "flask-on-docker",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "django-piscine",
        main: "ljarrahd.com",
        exit: 0,
    },
    Case {
        dir: "devops-learning-django",
        main: "django-project.com",
        exit: 0,
    },
    Case {
        dir: "cursodocker-flask",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "technoutsav-flask",
        main: "app",
        exit: 0,
    },
    Case {
        dir: "fastapi-tls-compose",
        main: "conf.d",
        exit: 0,
    },
    Case {
        dir: "fastapi-compose-monitoring",
        main: "conf.d",
        exit: 0,
    },
    Case {
        dir: "web-rl-django",
        main: "web_rl.com",
        exit: 0,
    },
    Case {
        dir: "kaloyansen-django",
        main: "nginx.app",
        exit: 0,
    },
    Case {
        dir: "certbot-managed",
        main: "example.com",
        exit: 0,
    },
    Case {
        dir: "fastapi-reverse-proxy",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "library-django-tls",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "yga-flask",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "django-docker-compose",
        main: "default.conf",
        exit: 0,
    },
    Case {
        dir: "foodgram-django",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "kittygram-django",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "shopdj-django",
        main: "nginx.conf",
        exit: 0,
    },
    Case {
        dir: "flower-basic-auth",
        main: "flower.outreacher24.com",
        exit: 0,
    },
];

fn public(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/public")
        .join(dir)
}

fn every_directive(directives: &[Directive], visit: &mut impl FnMut(&Directive)) {
    for directive in directives {
        visit(directive);
        if let Some(block) = &directive.block {
            every_directive(block, visit);
        }
    }
}

/// The exit status `weir import` gives this import (see weir-cli: 65 when less safe).
fn exit_status(imported: &weir_import::Import) -> u8 {
    if imported.report.is_less_safe() {
        65
    } else {
        0
    }
}

#[test]
fn every_public_config_keeps_its_source_in_a_header() {
    let mut files = 0;
    for case in CASES {
        for file in files_under(&public(case.dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            let header = text.lines().next().unwrap_or("");
            assert!(
                header.starts_with("# Source: https://github.com/")
                    && header.contains(", path ")
                    && header.contains(", commit "),
                "{}: no source header",
                file.display()
            );
            files += 1;
        }
    }
    assert!(CASES.len() >= 20 && files >= CASES.len());
}

#[test]
fn every_public_config_imports_to_a_config_weir_accepts() {
    let mut counts = [0, 0];
    let mut statuses = Vec::new();
    for case in CASES {
        let path = public(case.dir).join(case.main);
        let imported =
            weir_import::import(&path).unwrap_or_else(|error| panic!("{}: {error}", case.dir));
        weir::config::from_toml(&imported.toml, Some(Path::new("weir.toml"))).unwrap_or_else(
            |error| {
                panic!(
                    "{}: weir check refuses the import: {error}\n{}\n{}",
                    case.dir, imported.toml, imported.report
                )
            },
        );
        let loaded = parse::load(&path).unwrap();
        let mut missing = Vec::new();
        let mut twice = Vec::new();
        every_directive(&loaded.directives, &mut |directive| {
            if !imported.report.accounts_for(&directive.source) {
                missing.push(directive.summary());
            }
            let summary = directive.summary();
            let own_items = imported
                .report
                .items
                .iter()
                .filter(|item| {
                    item.sources.first() == Some(&directive.source)
                        && !item.directive.is_empty()
                        && summary.starts_with(item.directive.trim_end_matches("..."))
                })
                .count();
            if own_items > 1 {
                twice.push(summary);
            }
        });
        assert!(
            twice.is_empty(),
            "{}: in the report twice: {twice:?}",
            case.dir
        );
        assert!(
            missing.is_empty(),
            "{}: not in the report: {missing:?}",
            case.dir
        );
        let status = exit_status(&imported);
        if std::env::var_os("WEIR_PUBLIC_REPORTS").is_some() {
            eprintln!("==== {}\n{}\n{}", case.dir, imported.report, imported.toml);
        }
        counts[usize::from(status == 65)] += 1;
        if status != case.exit {
            statuses.push(format!(
                "{}: weir import would exit {status}, not {}:\n{}",
                case.dir, case.exit, imported.report
            ));
        }
    }
    eprintln!("exit 0: {}, exit 65: {}", counts[0], counts[1]);
    assert!(statuses.is_empty(), "{}", statuses.join("\n"));
}

/// A Compose service name (`server web:8000;`) becomes a server weir resolves by name: translated,
/// and the written config names it.
#[test]
fn compose_service_names_become_servers_weir_resolves() {
    let imported = weir_import::import(&public("django-on-docker").join("nginx.conf")).unwrap();
    let item = imported
        .report
        .items
        .iter()
        .find(|item| item.directive.starts_with("server web:8000"))
        .expect("the upstream's server");
    assert_eq!(item.kind, weir_import::Kind::Translated, "{item}");
    assert!(imported.toml.contains(r#""web:8000""#), "{}", imported.toml);
}

/// h5bp keeps its HTTPS default server in `conf.d/.default.conf`: nginx's glob skips dot-files,
/// so the import must not read it either.
#[test]
fn h5bp_dot_file_site_is_skipped_as_nginx_skips_it() {
    let loaded = parse::load(&public("h5bp").join("nginx.conf")).unwrap();
    let read: Vec<&PathBuf> = loaded
        .includes
        .iter()
        .flat_map(|include| include.files.iter())
        .collect();
    assert!(read
        .iter()
        .any(|file| file.ends_with("conf.d/no-ssl.default.conf")));
    assert!(!read
        .iter()
        .any(|file| file.ends_with("conf.d/.default.conf")));
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

// ---------------------------------------------------------------------------------------------
// nginx -t (WEIR_E2E=1)
// ---------------------------------------------------------------------------------------------

/// What a test machine supplies for `nginx -t`.
struct Supplied {
    cert: PathBuf,
    key: PathBuf,
    logs: PathBuf,
    upstream_names: Vec<String>,
}

/// `HOST:PORT` with a host name that only Compose resolves -> `127.0.0.1:PORT`.
fn local_address(authority: &str, supplied: &Supplied) -> Option<String> {
    if authority.starts_with("unix:") || supplied.upstream_names.iter().any(|n| n == authority) {
        return None;
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if port.parse::<u16>().is_ok() => (host, Some(port)),
        _ => (authority, None),
    };
    if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') || host == "localhost" {
        return None;
    }
    Some(match port {
        Some(port) => format!("127.0.0.1:{port}"),
        None => "127.0.0.1".to_string(),
    })
}

fn supply(block: Vec<Directive>, supplied: &Supplied, dir: &Path) -> Vec<Directive> {
    let mut out = Vec::new();
    for mut directive in block {
        let first = directive.args.first().cloned().unwrap_or_default();
        match directive.name.as_str() {
            // Files a test machine has no copy of; nginx needs them to exist.
            "ssl_dhparam" | "user" => continue,
            "ssl_certificate" => directive.args = vec![supplied.cert.display().to_string()],
            "ssl_certificate_key" => directive.args = vec![supplied.key.display().to_string()],
            "ssl_trusted_certificate" => directive.args = vec![supplied.cert.display().to_string()],
            "error_log" | "pid" => {
                let name = if directive.name == "pid" {
                    "nginx.pid"
                } else {
                    "error.log"
                };
                directive.args = vec![supplied.logs.join(name).display().to_string()];
            }
            "access_log" if first != "off" => {
                directive.args[0] = supplied.logs.join("access.log").display().to_string();
            }
            "include" => {
                let full = if Path::new(&first).is_absolute() {
                    PathBuf::from(&first)
                } else {
                    dir.join(&first)
                };
                let is_glob = first.contains(['*', '?', '[']);
                if !is_glob && !full.exists() {
                    // What an install ships (proxy_params, uwsgi_params, mime.types), or a file
                    // of certbot's that this machine has not.
                    let shipped = Path::new("/etc/nginx")
                        .join(Path::new(&first).file_name().unwrap_or_default());
                    if !shipped.exists() {
                        continue;
                    }
                    directive.args = vec![shipped.display().to_string()];
                }
            }
            "proxy_pass" | "uwsgi_pass" => {
                if let Some(rest) = first.strip_prefix("http://") {
                    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
                    if let Some(local) = local_address(authority, supplied) {
                        directive.args[0] = format!("http://{local}{path}");
                    }
                }
            }
            "server" if directive.block.is_none() => {
                if let Some(local) = local_address(&first, supplied) {
                    directive.args[0] = local;
                }
            }
            _ => {}
        }
        if let Some(block) = directive.block.take() {
            directive.block = Some(supply(block, supplied, dir));
        }
        out.push(directive);
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn nginx_accepts_every_public_config() {
    if std::env::var_os("WEIR_E2E").is_none() {
        eprintln!("skipped: set WEIR_E2E=1 to run nginx -t on the public corpus");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let (cert, key) = weir_testkit::certificate::self_signed(work.path(), "example.com");
    let mut refused = Vec::new();
    for case in CASES {
        let dir = work.path().join(case.dir);
        copy_tree(&public(case.dir), &dir);
        let logs = dir.join("logs");
        std::fs::create_dir_all(&logs).unwrap();
        let mut upstream_names = Vec::new();
        let files = files_under(&dir);
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let directives = parse::parse_str(&text, &file.display().to_string()).unwrap();
            every_directive(&directives, &mut |directive| {
                if directive.name == "upstream" {
                    upstream_names.extend(directive.args.first().cloned());
                }
            });
        }
        let supplied = Supplied {
            cert: cert.clone(),
            key: key.clone(),
            logs,
            upstream_names,
        };
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            let directives = parse::parse_str(&text, &file.display().to_string()).unwrap();
            let rewritten = supply(directives, &supplied, &dir);
            std::fs::write(file, parse::to_nginx(&rewritten)).unwrap();
        }
        // A file of server blocks is included inside http, as a sites-available file is.
        let main = dir.join(case.main);
        let main_text = std::fs::read_to_string(&main).unwrap();
        let main_directives = parse::parse_str(&main_text, "main").unwrap();
        let has_main_context = main_directives
            .iter()
            .any(|directive| matches!(directive.name.as_str(), "http" | "events"));
        let conf = if has_main_context {
            main.clone()
        } else {
            let wrapper = dir.join("nginx-test-main.conf");
            std::fs::write(
                &wrapper,
                format!(
                    "events {{}}\nhttp {{\n    include {};\n}}\n",
                    main.display()
                ),
            )
            .unwrap();
            wrapper
        };
        let output = Command::new("nginx")
            .arg("-t")
            .arg("-q")
            .arg("-e")
            .arg(dir.join("logs/stderr.log"))
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(&conf)
            .output()
            .expect("WEIR_E2E=1 needs nginx-light (apt-get install -y nginx-light)");
        if !output.status.success() {
            refused.push(format!(
                "{}: {}",
                case.dir,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(
        refused.is_empty(),
        "nginx -t refuses:\n{}",
        refused.join("\n")
    );
}
