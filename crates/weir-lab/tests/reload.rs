//! The reload scenario against real processes: nginx, HAProxy (master-worker, listeners passed to
//! the new worker) and weir are each reloaded four times under a small wrk load, and every reload
//! must take effect (the other version's route answers on a new connection). Gated by WEIR_LAB=1
//! because it needs wrk, nginx, HAProxy and a built `weir` (scripts/lab-quick builds it first).

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use weir_lab::components;
use weir_lab::guard;
use weir_lab::load::{self, Tool};
use weir_lab::measurements::reloads;
use weir_lab::record::Expect;
use weir_lab::reload::{self, Version};
use weir_lab::scenario::Schedule;
use weir_lab::spec::{
    App, AppSpec, CeilingBody, Env, Gateway, GatewaySpec, HaproxyOptions, NginxOptions, Transport,
    WeirOptions,
};

fn enabled() -> bool {
    std::env::var("WEIR_LAB").is_ok_and(|value| value == "1")
}

/// The `weir` binary of this build's profile (or the other one), beside this test's directory.
fn weir_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/reload-HASH -> target/<profile>
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let target = profile_dir.parent().unwrap();
    [
        profile_dir.join("weir"),
        target.join("release/weir"),
        target.join("debug/weir"),
    ]
    .into_iter()
    .find(|path| path.exists())
    .unwrap_or_else(|| {
        panic!(
            "no weir binary near {}: run `cargo build -p weir-cli` (or --release) first",
            profile_dir.display()
        )
    })
}

fn lab_env(temp: &tempfile::TempDir) -> Env {
    std::fs::set_permissions(temp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    Env {
        root: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        temp: temp.path().to_path_buf(),
        weir: weir_binary(),
        ceiling: PathBuf::from(env!("CARGO_BIN_EXE_weir-lab-ceiling")),
        static_file: temp.path().join("unused"),
    }
}

/// The inodes, sorted, of the sockets listening on `addr` (an IPv4 loopback address), from /proc/net/tcp.
fn listeners(addr: std::net::SocketAddr) -> Vec<u64> {
    let local = format!("0100007F:{:04X}", addr.port());
    let mut inodes: Vec<u64> = std::fs::read_to_string("/proc/net/tcp")
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // local_address, st (0A is LISTEN), inode.
            (fields.get(1) == Some(&local.as_str()) && fields.get(3) == Some(&"0A"))
                .then(|| fields.get(9)?.parse().ok())?
        })
        .collect();
    inodes.sort_unstable();
    inodes
}

const TOOL: Tool = Tool::Wrk {
    threads: 1,
    connections: 8,
};

#[test]
fn every_gateway_takes_every_reload_under_load() {
    if !enabled() {
        eprintln!("skipped: set WEIR_LAB=1 to run the lab's process tests");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let env = lab_env(&temp);
    let app = components::start_app(
        &env,
        &AppSpec {
            id: "fast".to_string(),
            app: App::Ceiling {
                status: 200,
                body: CeilingBody::Small,
            },
        },
        None,
    )
    .unwrap();
    // Four reloads due in the first 2 s; the load runs 10 s so that every one is made even on a
    // busy machine (HAProxy's re-execution can take most of a second there): this test checks
    // that reloads take effect, not how fast.
    let schedule = Schedule {
        duration: Duration::from_secs(2),
        interval: Duration::from_millis(500),
    };
    let load_duration = Duration::from_secs(10);
    for spec in [
        GatewaySpec::new(
            "nginx",
            Gateway::Nginx(NginxOptions {
                workers_auto: true,
                keepalive: Some(64),
                ..NginxOptions::SEED
            }),
            "fast",
            Transport::Unix,
        ),
        GatewaySpec::new(
            "haproxy",
            Gateway::Haproxy(HaproxyOptions::DEFAULT),
            "fast",
            Transport::Unix,
        ),
        GatewaySpec::new(
            "weir",
            Gateway::Weir(WeirOptions::SEED),
            "fast",
            Transport::Unix,
        ),
    ] {
        let gateway = components::start_reloadable_gateway(&env, &spec, &app)
            .unwrap_or_else(|error| panic!("{}: {error:#}", spec.label));
        assert_eq!(
            reload::probe(gateway.addr).unwrap(),
            (200, Version::A.letter().to_string())
        );
        let listening_before = listeners(gateway.addr);
        // weir may listen with a socket per core (SO_REUSEPORT); nginx and HAProxy with one.
        assert!(!listening_before.is_empty(), "{}", spec.label);
        let handle = gateway.reload.as_ref().unwrap();
        let url = format!("http://{}/", gateway.addr);
        let (output, outcome) = reloads::during(handle, gateway.addr, schedule, || {
            load::run(TOOL, &url, load_duration, None)
        });
        let output = output.unwrap();
        assert!(output.requests > 0, "{}: {output:?}", spec.label);
        assert_eq!(outcome.planned, 4);
        assert!(
            outcome.void_reasons().is_empty(),
            "{}: {outcome:?}",
            spec.label
        );
        // Four reloads from A: A again.
        assert_eq!(
            reload::probe(gateway.addr).unwrap(),
            (200, Version::A.letter().to_string()),
            "{}",
            spec.label
        );
        // The listening socket is the one from before the reloads: nginx's master keeps it,
        // HAProxy's new workers took it from the old ones (socket transfer), weir never let go.
        assert_eq!(
            listeners(gateway.addr),
            listening_before,
            "{}: the listener was bound again",
            spec.label
        );
        // weir reloads in place: no client connection is dropped, so wrk sees no error.
        if spec.label == "weir" {
            let verdict = guard::judge(&output, Expect::Success);
            assert!(verdict.is_valid(), "{verdict}\n{}", output.text);
        }
    }
}
