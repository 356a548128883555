//! The guard against real processes: wrk run against an upstream that answers 502, directly and
//! through nginx, must be void; the same run against one that answers 200 must be valid (so the
//! void is the guard's doing, not a broken harness). Gated by WEIR_LAB=1 because it needs wrk and
//! nginx and takes a few seconds.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use weir_lab::components;
use weir_lab::configs;
use weir_lab::guard;
use weir_lab::load::{self, Tool};
use weir_lab::record::{Expect, Verdict};
use weir_lab::spec::{
    self, App, AppSpec, CeilingBody, Env, Gateway, GatewaySpec, NginxOptions, Transport,
};

fn enabled() -> bool {
    std::env::var("WEIR_LAB").is_ok_and(|value| value == "1")
}

fn lab_env(temp: &tempfile::TempDir) -> Env {
    std::fs::set_permissions(temp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let static_file = temp.path().join("static").join("file");
    std::fs::create_dir_all(temp.path().join("static")).unwrap();
    components::write_static_file(&static_file).unwrap();
    Env {
        root,
        temp: temp.path().to_path_buf(),
        weir: PathBuf::from("weir-not-used-here"),
        ceiling: PathBuf::from(env!("CARGO_BIN_EXE_weir-lab-ceiling")),
        static_file,
    }
}

fn static_server(status: u16) -> AppSpec {
    AppSpec {
        id: format!("static{status}"),
        app: App::Ceiling {
            status,
            body: CeilingBody::Small,
        },
    }
}

const TOOL: Tool = Tool::Wrk {
    threads: 1,
    connections: 4,
};

#[test]
fn guard_voids_a_run_against_an_upstream_answering_502() {
    if !enabled() {
        eprintln!("skipped: set WEIR_LAB=1 to run the lab's process tests");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let env = lab_env(&temp);

    let bad = components::start_app(&env, &static_server(502), None).unwrap();
    let good = components::start_app(&env, &static_server(200), None).unwrap();

    // Direct.
    let output = load::run(
        TOOL,
        &format!("http://{}/", bad.tcp),
        Duration::from_secs(1),
        None,
    )
    .unwrap();
    assert!(output.requests > 0, "{output:?}");
    let verdict = guard::judge(&output, Expect::Success);
    assert!(
        matches!(&verdict, Verdict::Void(reasons) if reasons.iter().any(|reason| reason.contains("non-2xx"))),
        "{verdict}"
    );
    // A 502 is unexpected even where 429s are expected.
    let script = env.root.join("lab/wrk/status.lua");
    let output = load::run(
        TOOL,
        &format!("http://{}/", bad.tcp),
        Duration::from_secs(1),
        Some(&script),
    )
    .unwrap();
    assert!(
        output.statuses.get(&502).is_some_and(|count| *count > 0),
        "{output:?}"
    );
    let verdict = guard::judge(&output, Expect::SuccessOr429);
    assert!(
        matches!(&verdict, Verdict::Void(reasons) if reasons.iter().any(|reason| reason.contains("status 502"))),
        "{verdict}"
    );

    // Through nginx with the seed's config, over the Unix socket.
    let nginx = GatewaySpec::new(
        "nginx",
        Gateway::Nginx(NginxOptions::SEED),
        &bad.spec.id,
        Transport::Unix,
    );
    let gateway = components::start_gateway(&env, &nginx, &bad).unwrap();
    let output = load::run(
        TOOL,
        &format!("http://{}/", gateway.addr),
        Duration::from_secs(1),
        None,
    )
    .unwrap();
    assert!(
        !guard::judge(&output, Expect::Success).is_valid(),
        "{output:?}"
    );
    drop(gateway);

    // The control: the same path to an upstream answering 200 is valid.
    let nginx = GatewaySpec::new(
        "nginx",
        Gateway::Nginx(NginxOptions::SEED),
        &good.spec.id,
        Transport::Unix,
    );
    let gateway = components::start_gateway(&env, &nginx, &good).unwrap();
    let output = load::run(
        TOOL,
        &format!("http://{}/", gateway.addr),
        Duration::from_secs(1),
        None,
    )
    .unwrap();
    assert_eq!(
        guard::judge(&output, Expect::Success),
        Verdict::Valid,
        "{output:?}"
    );
}

#[test]
fn generated_nginx_and_haproxy_configs_pass_their_own_checks() {
    if !enabled() {
        eprintln!("skipped: set WEIR_LAB=1 to run the lab's process tests");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let env = lab_env(&temp);
    let listen: std::net::SocketAddr = "127.0.0.1:1".parse().unwrap();
    let upstream = weir_lab::process::Addr::Unix(temp.path().join("app.sock"));
    let limit = Some(spec::Limit {
        rate_per_second: 1,
        burst: 0,
    });
    for (index, options) in [
        NginxOptions::SEED,
        NginxOptions {
            limit,
            keepalive: None,
            ..NginxOptions::FLOOD
        },
        NginxOptions {
            static_file: true,
            ..NginxOptions::SEED
        },
        NginxOptions {
            workers_auto: true,
            worker_connections: 16_384,
            slow_client_timeout: Some(10),
            ..NginxOptions::SEED
        },
    ]
    .iter()
    .enumerate()
    {
        let prefix = temp.path().join(format!("nginx{index}"));
        std::fs::create_dir_all(&prefix).unwrap();
        let path = prefix.join("nginx.conf");
        std::fs::write(
            &path,
            configs::nginx_config(&env, options, &prefix, listen, &upstream),
        )
        .unwrap();
        let output = std::process::Command::new(weir_testkit::nginx::binary())
            .arg("-p")
            .arg(&prefix)
            .args(["-e", "stderr", "-t", "-c"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{options:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for (index, options) in [
        spec::HaproxyOptions::DEFAULT,
        spec::HaproxyOptions {
            reuse: false,
            limit,
            maxconn: 21_024,
            tls: false,
        },
    ]
    .iter()
    .enumerate()
    {
        let path = temp.path().join(format!("haproxy{index}.cfg"));
        std::fs::write(&path, configs::haproxy_config(options, listen, &upstream)).unwrap();
        let output = std::process::Command::new(components::haproxy_binary())
            .arg("-c")
            .arg("-f")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{options:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
