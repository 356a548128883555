//! What an operator sees: `/metrics` on the admin listener, parsed by a Prometheus text-format
//! parser with exact counts after known traffic; `/healthz` and `/readyz` through a shutdown;
//! the access log written through the gateway as JSON lines and reopened after a rename.

use std::net::SocketAddr;

use prometheus_parse::{LineInfo, Scrape, Value};

use crate::support::*;

fn observed_config(live: &str, dead: &str, extra: &str) -> String {
    format!(
        r#"
[server]
listen = ["127.0.0.1:0"]
shutdown_grace = "5s"

[admin]
listen = "127.0.0.1:0"

[upstreams.app]
servers = ["{live}"]

[upstreams.dead]
servers = ["{dead}"]

[limits.roomy]
rate = "1000r/s"
burst = 100
nodelay = true

[limits.tight]
rate = "1r/m"

[[routes]]
path = "/api/"
upstream = "app"
limits = ["roomy"]

# The test upstream answers by path: /status/CODE and /slow?ms=N; anything else is 200 "hello".
[[routes]]
path = "/status/"
upstream = "app"
limits = ["roomy"]

[[routes]]
path = "/slow"
upstream = "app"

[[routes]]
path = "/limited/"
upstream = "app"
limits = ["tight"]

[[routes]]
path = "/dead/"
upstream = "dead"

{extra}
"#
    )
}

/// Scrapes `/metrics`, checks it line by line, and parses it.
async fn scrape(admin: SocketAddr) -> Scrape {
    let reply = Client::connect(admin).await.get("/metrics").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    let text = reply.text();
    // The parser skips what it cannot read: make sure it read every line.
    for line in text.lines() {
        assert_ne!(LineInfo::parse(line), LineInfo::Ignored, "unparsed: {line}");
        assert!(!line.is_empty(), "empty line in the exposition");
    }
    Scrape::parse(text.lines().map(|line| Ok(line.to_string()))).unwrap()
}

/// The value of the one sample of `metric` whose labels include all of `labels`.
fn value(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let matching: Vec<_> = scrape
        .samples
        .iter()
        .filter(|sample| sample.metric == metric)
        .filter(|sample| {
            labels
                .iter()
                .all(|(name, value)| sample.labels.get(name) == Some(value))
        })
        .collect();
    assert!(matching.len() <= 1, "{metric} {labels:?}: {matching:?}");
    matching.first().map(|sample| match &sample.value {
        Value::Counter(value) | Value::Gauge(value) | Value::Untyped(value) => *value,
        Value::Histogram(buckets) => buckets
            .iter()
            .find(|bucket| bucket.less_than.is_infinite())
            .map_or(f64::NAN, |bucket| bucket.count),
        Value::Summary(_) => f64::NAN,
    })
}

fn kind(scrape: &Scrape, metric: &str) -> &'static str {
    match scrape
        .samples
        .iter()
        .find(|sample| sample.metric == metric)
        .map(|sample| &sample.value)
    {
        Some(Value::Counter(_)) => "counter",
        Some(Value::Gauge(_)) => "gauge",
        Some(Value::Histogram(_)) => "histogram",
        Some(Value::Summary(_)) => "summary",
        Some(Value::Untyped(_)) => "untyped",
        None => "absent",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_failures_pools_and_limits() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&observed_config(&upstream.address, &dead.address, "")).await;
    let admin = gateway.admin_addr.expect("admin listener");
    let mut client = Client::connect(gateway.addr).await;
    for path in ["/api/one", "/api/two", "/api/three"] {
        assert_eq!(client.get(path).await.status, StatusCode::OK);
    }
    assert_eq!(
        client.get("/status/404").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(client.get("/nowhere").await.status, StatusCode::NOT_FOUND);
    assert_eq!(client.get("/dead/x").await.status, StatusCode::BAD_GATEWAY);
    assert_eq!(client.get("/limited/a").await.status, StatusCode::OK);
    assert_eq!(
        client.get("/limited/b").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    gateway.wait_pools_quiet(Duration::from_secs(2)).await;

    let scrape = scrape(admin).await;
    let requests = |route: &str, status: &str| {
        value(
            &scrape,
            "weir_requests_total",
            &[("route", route), ("status", status)],
        )
    };
    assert_eq!(kind(&scrape, "weir_requests_total"), "counter");
    assert_eq!(requests("/api/", "200"), Some(3.0));
    assert_eq!(requests("/status/", "404"), Some(1.0));
    assert_eq!(requests("", "404"), Some(1.0));
    assert_eq!(requests("/dead/", "502"), Some(1.0));
    assert_eq!(requests("/limited/", "200"), Some(1.0));
    assert_eq!(requests("/limited/", "429"), Some(1.0));
    assert_eq!(requests("/api/", "502"), None);
    let total_requests: f64 = scrape
        .samples
        .iter()
        .filter(|sample| sample.metric == "weir_requests_total")
        .map(|sample| match sample.value {
            Value::Counter(count) => count,
            _ => f64::NAN,
        })
        .sum();
    assert_eq!(total_requests, 8.0);

    assert_eq!(kind(&scrape, "weir_request_duration_seconds"), "histogram");
    let request_count = |route: &str| {
        value(
            &scrape,
            "weir_request_duration_seconds",
            &[("route", route)],
        )
    };
    assert_eq!(request_count("/api/"), Some(3.0));
    assert_eq!(request_count("/status/"), Some(1.0));
    assert_eq!(request_count(""), Some(1.0));
    assert_eq!(request_count("/dead/"), Some(1.0));
    assert_eq!(
        value(
            &scrape,
            "weir_request_duration_seconds_count",
            &[("route", "/api/")]
        ),
        Some(3.0)
    );
    assert_eq!(
        value(
            &scrape,
            "weir_upstream_duration_seconds",
            &[("route", "/api/")]
        ),
        Some(3.0)
    );
    // No upstream answered these: no upstream time.
    assert_eq!(
        value(
            &scrape,
            "weir_upstream_duration_seconds",
            &[("route", "/dead/")]
        ),
        None
    );
    assert_eq!(
        value(&scrape, "weir_upstream_duration_seconds", &[("route", "")]),
        None
    );

    assert_eq!(
        value(
            &scrape,
            "weir_upstream_failures_total",
            &[("upstream", "dead"), ("cause", "connect")]
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &scrape,
            "weir_upstream_failures_total",
            &[("upstream", "app")]
        ),
        None
    );

    let live = [("upstream", "app"), ("server", upstream.address.as_str())];
    assert_eq!(kind(&scrape, "weir_pool_open_connections"), "gauge");
    let open = value(&scrape, "weir_pool_open_connections", &live).unwrap();
    assert!(open >= 1.0, "{open}");
    assert_eq!(
        value(&scrape, "weir_pool_idle_connections", &live),
        Some(open)
    );
    assert_eq!(
        value(&scrape, "weir_pool_in_use_connections", &live),
        Some(0.0)
    );
    assert_eq!(
        value(&scrape, "weir_pool_waiting_requests", &live),
        Some(0.0)
    );
    assert_eq!(
        value(&scrape, "weir_pool_queue_timeouts_total", &live),
        Some(0.0)
    );
    let dead_labels = [("upstream", "dead")];
    assert_eq!(
        value(&scrape, "weir_pool_open_connections", &dead_labels),
        Some(0.0)
    );
    // A lone server is never marked down (as in nginx), its connect failure notwithstanding;
    // no active check runs. (balance.rs's active-check test sees a 0.)
    assert_eq!(kind(&scrape, "weir_upstream_server_up"), "gauge");
    assert_eq!(value(&scrape, "weir_upstream_server_up", &live), Some(1.0));
    assert_eq!(
        value(&scrape, "weir_upstream_server_up", &dead_labels),
        Some(1.0)
    );
    assert_eq!(kind(&scrape, "weir_health_checks_total"), "absent");

    let decisions = |limit: &str, decision: &str| {
        value(
            &scrape,
            "weir_ratelimit_decisions_total",
            &[("limit", limit), ("decision", decision)],
        )
    };
    assert_eq!(decisions("roomy", "passed"), Some(4.0));
    assert_eq!(decisions("roomy", "rejected"), Some(0.0));
    assert_eq!(decisions("tight", "passed"), Some(1.0));
    assert_eq!(decisions("tight", "rejected"), Some(1.0));
    assert_eq!(decisions("tight", "delayed"), Some(0.0));
    assert_eq!(decisions("tight", "dry_run"), Some(0.0));

    // Every family is documented.
    for sample in &scrape.samples {
        let family = sample
            .metric
            .strip_suffix("_count")
            .or_else(|| sample.metric.strip_suffix("_sum"))
            .filter(|family| scrape.docs.contains_key(*family))
            .unwrap_or(&sample.metric);
        assert!(scrape.docs.contains_key(family), "no HELP for {family}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_turns_503_when_shutdown_begins_and_healthz_stays_200() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dead = RefusingPort::new();
    let gateway = TestGateway::start(&observed_config(&upstream.address, &dead.address, "")).await;
    let admin = gateway.admin_addr.expect("admin listener");
    let mut probe = Client::connect(admin).await;
    assert_eq!(probe.get("/healthz").await.status, StatusCode::OK);
    assert_eq!(probe.get("/readyz").await.status, StatusCode::OK);
    assert_eq!(probe.get("/elsewhere").await.status, StatusCode::NOT_FOUND);

    // A request in flight keeps the gateway draining while the probes look.
    let in_flight = spawn_get(gateway.addr, "/slow?ms=1000");
    wait_until(
        "the request to reach the upstream",
        Duration::from_secs(5),
        || upstream.requests() > 0,
    )
    .await;
    let stopped = gateway.begin_shutdown();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let status = probe.get("/readyz").await.status;
        if status == StatusCode::SERVICE_UNAVAILABLE {
            break;
        }
        assert_eq!(status, StatusCode::OK);
        assert!(tokio::time::Instant::now() < deadline, "readyz stayed 200");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(probe.get("/healthz").await.status, StatusCode::OK);
    assert!(!stopped.is_finished(), "the drain should still be waiting");
    assert_eq!(in_flight.await.unwrap(), StatusCode::OK);
    stopped.await.unwrap();
    // Once the gateway has stopped, so has its admin listener.
    wait_until_async(
        "the admin listener to close",
        Duration::from_secs(5),
        || async { tokio::net::TcpStream::connect(admin).await.is_err() },
    )
    .await;
}

/// Reads `path` until it has `lines` lines, for up to five seconds: the writer thread writes
/// shortly after the response ends.
async fn wait_lines(path: &std::path::Path, lines: usize) -> String {
    wait_for(
        format!("{lines} lines in {}", path.display()),
        Duration::from_secs(5),
        || std::fs::read_to_string(path).unwrap_or_default(),
        |text| text.lines().count() >= lines,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_access_log_carries_times_and_is_reopened_after_rename() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let extra = format!(
        "[access_log]\nenabled = true\nformat = \"json\"\npath = \"{}\"\n",
        path.display()
    );
    let dead = RefusingPort::new();
    let dead_address = dead.address.clone();
    let gateway =
        TestGateway::start(&observed_config(&upstream.address, &dead.address, &extra)).await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(client.get("/slow?ms=30").await.status, StatusCode::OK);
    assert_eq!(client.get("/dead/x").await.status, StatusCode::BAD_GATEWAY);
    let text = wait_lines(&path, 2).await;
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let slow = &lines[0];
    assert_eq!(slow["request_uri"], "/slow?ms=30");
    assert_eq!(slow["status"], 200);
    assert_eq!(slow["remote_addr"], "127.0.0.1");
    assert_eq!(slow["upstream_addr"], upstream.address.as_str());
    assert_eq!(slow["body_bytes_sent"], 4);
    let header_time = slow["upstream_header_time"].as_f64().unwrap();
    let response_time = slow["upstream_response_time"].as_f64().unwrap();
    let request_time = slow["request_time"].as_f64().unwrap();
    assert!(header_time >= 0.030, "{slow}");
    assert!(response_time >= header_time, "{slow}");
    assert!(request_time >= response_time, "{slow}");
    assert!(slow["cause"].is_null(), "the upstream answered: {slow}");
    let dead = &lines[1];
    assert_eq!(dead["status"], 502);
    assert_eq!(dead["cause"], "connect", "{dead}");
    assert!(dead["request_time"].as_f64().is_some(), "{dead}");
    // The server that refused, as nginx's `$upstream_addr` and `$upstream_status` name it.
    assert_eq!(dead["upstream_addr"], dead_address.as_str(), "{dead}");
    assert_eq!(dead["upstream_status"], 502, "{dead}");
    assert!(dead["upstream_connect_time"].is_null(), "{dead}");
    assert_eq!(slow["upstream_status"], 200, "{slow}");
    assert!(slow["upstream_connect_time"].as_f64().is_some(), "{slow}");

    // logrotate: rename, then what SIGUSR1 does.
    let rotated = dir.path().join("access.log.1");
    std::fs::rename(&path, &rotated).unwrap();
    assert!(weir::access_log::reopen_all() >= 1);
    assert_eq!(client.get("/api/after").await.status, StatusCode::OK);
    let text = wait_lines(&path, 1).await;
    assert!(text.contains("\"/api/after\""), "{text}");
    assert_eq!(
        std::fs::read_to_string(&rotated).unwrap().lines().count(),
        2
    );
}

/// A request refused by an upstream's queue says so in the access log, with how long it queued:
/// the wait that made it a 503 would otherwise be invisible (`uqt` was written only for a request
/// that reached the upstream).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_log_says_why_a_queue_refused_and_how_long_it_waited() {
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let config = format!(
        r#"
[server]
listen = ["127.0.0.1:0"]

[access_log]
enabled = true
format = "json"
path = "{}"

[upstreams.app]
servers = ["{}"]
max_connections = 1
queue_timeout = "100ms"

[[routes]]
path = "/"
upstream = "app"
"#,
        path.display(),
        upstream.address
    );
    let gateway = TestGateway::start(&config).await;
    let holding = spawn_get(gateway.addr, "/slow?ms=1000");
    wait_until(
        "the first request to hold the one place",
        Duration::from_secs(5),
        || upstream.requests() > 0,
    )
    .await;
    let mut client = Client::connect(gateway.addr).await;
    assert_eq!(
        client.get("/queued").await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    let text = wait_lines(&path, 1).await;
    let refused: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(refused["request_uri"], "/queued", "{refused}");
    assert_eq!(refused["status"], 503);
    assert_eq!(refused["cause"], "queue_timeout", "{refused}");
    let queued = refused["upstream_queue_time"].as_f64().unwrap();
    assert!(
        queued >= 0.1,
        "it waited its whole queue_timeout: {refused}"
    );
    assert_eq!(holding.await.unwrap(), StatusCode::OK);
}

/// nginx's `log_format main` of its Docker image, and more of its variables, carried as
/// `[access_log] format`: the same requests make the same lines on weir and, with `WEIR_E2E=1`,
/// on nginx with the same `log_format` (the time and the connect time aside); a second log
/// writes the values for JSON (`escape=json`), parsed back on both. An app that refuses the
/// connection is `$upstream_status` 502, as in nginx.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_format_line_is_written_as_nginx_writes_it() {
    const MAIN: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for" $host $request_method $request_uri $server_protocol $scheme $upstream_addr $upstream_status $upstream_cache_status uct=$upstream_connect_time"#;
    const JSON: &str = r#"{"ua":"$http_user_agent","xff":"$http_x_forwarded_for","user":"$remote_user","status":$status,"request":"$request"}"#;
    const REQUESTS: [&str; 2] = [
        "GET /status/201?x=1 HTTP/1.1\r\nHost: Example.COM:8080\r\nUser-Agent: a\"b\\c\r\nX-Forwarded-For: 203.0.113.9\r\nX-Forwarded-For: 10.0.0.1\r\nAuthorization: Basic YWxpY2U6cHc=\r\nConnection: close\r\n\r\n",
        "HEAD /status/404 HTTP/1.1\r\nHost: b.test\r\nReferer: http://r.test/\r\nConnection: close\r\n\r\n",
    ];
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dead = RefusingPort::new();
    let dir = tempfile::tempdir().unwrap();
    let mut logs = Vec::new();
    for (name, line, escape) in [("main", MAIN, "default"), ("json", JSON, "json")] {
        let path = dir.path().join(format!("weir-{name}.log"));
        let gateway = TestGateway::start(&format!(
            "[server]\nlisten = [\"127.0.0.1:0\"]\n\n[upstreams.app]\nservers = [\"{}\"]\n\n[upstreams.dead]\nservers = [\"{}\"]\n\n[[routes]]\npath = \"/\"\nupstream = \"app\"\n\n[[routes]]\npath = \"/dead/\"\nupstream = \"dead\"\n\n[access_log]\nenabled = true\npath = \"{}\"\nformat = '{line}'\nescape = \"{escape}\"\n",
            upstream.address,
            dead.address,
            path.display()
        ))
        .await;
        for request in REQUESTS {
            raw_exchange(gateway.addr, request.as_bytes(), Duration::from_secs(5)).await;
        }
        let mut lines = REQUESTS.len();
        if name == "main" {
            raw_exchange(
                gateway.addr,
                b"GET /dead/x HTTP/1.1\r\nHost: d.test\r\nConnection: close\r\n\r\n",
                Duration::from_secs(5),
            )
            .await;
            lines += 1;
        }
        logs.push(wait_lines(&path, lines).await);
    }
    // `$time_local` and `$upstream_connect_time` (a number of seconds, or `-`) aside.
    let timeless = |text: &str| -> Vec<String> {
        text.lines()
            .map(|line| {
                let (before, rest) = line.split_once(" [").unwrap();
                let (_, after) = rest.split_once("] ").unwrap();
                let (after, connect) = after.rsplit_once(" uct=").unwrap();
                let connect = match connect {
                    "-" => "-",
                    seconds => {
                        let parsed: f64 = seconds.parse().unwrap_or_else(|_| panic!("{line}"));
                        assert!(parsed < 1.0 && seconds.len() == 5, "{line}");
                        "T"
                    }
                };
                format!("{before} [TIME] {after} uct={connect}")
            })
            .collect()
    };
    let address = &upstream.address;
    let refusing = &dead.address;
    assert_eq!(
        timeless(&logs[0]),
        [
            format!("127.0.0.1 - alice [TIME] \"GET /status/201?x=1 HTTP/1.1\" 201 10 \"-\" \"a\\x22b\\x5Cc\" \"203.0.113.9, 10.0.0.1\" example.com GET /status/201?x=1 HTTP/1.1 http {address} 201 - uct=T"),
            format!("127.0.0.1 - - [TIME] \"HEAD /status/404 HTTP/1.1\" 404 0 \"http://r.test/\" \"-\" \"-\" b.test HEAD /status/404 HTTP/1.1 http {address} 404 - uct=T"),
            format!("127.0.0.1 - - [TIME] \"GET /dead/x HTTP/1.1\" 502 16 \"-\" \"-\" \"-\" d.test GET /dead/x HTTP/1.1 http {refusing} 502 - uct=-"),
        ]
    );
    let parsed = |text: &str| -> Vec<serde_json::Value> {
        text.lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|error| panic!("{line}: {error}"))
            })
            .collect()
    };
    let json = parsed(&logs[1]);
    assert_eq!(json[0]["ua"], "a\"b\\c");
    assert_eq!(json[0]["xff"], "203.0.113.9, 10.0.0.1");
    assert_eq!(json[0]["user"], "alice");
    assert_eq!(json[1]["ua"], "", "absent: empty, as nginx's escape=json");
    assert_eq!(json[1]["status"], 404);

    if !differential_enabled() {
        return;
    }
    let nginx = weir_testkit::nginx::Nginx::start(
        &format!("    log_format main '{MAIN}';\n    log_format json escape=json '{JSON}';\n"),
        &format!(
            "        access_log {dir}/nginx-main.log main;\n        access_log {dir}/nginx-json.log json;\n        location / {{ proxy_pass http://{address}; }}\n",
            dir = dir.path().display()
        ),
    )
    .unwrap();
    for request in REQUESTS {
        raw_exchange(nginx.addr, request.as_bytes(), Duration::from_secs(5)).await;
    }
    let main = wait_lines(&dir.path().join("nginx-main.log"), REQUESTS.len()).await;
    assert_eq!(
        timeless(&main),
        timeless(&logs[0])[..REQUESTS.len()],
        "{}",
        nginx.logs()
    );
    let json_nginx = wait_lines(&dir.path().join("nginx-json.log"), REQUESTS.len()).await;
    assert_eq!(parsed(&json_nginx), json);
}

/// The line's sizes, path and names, as nginx writes them (JSON log formats carry them):
/// `$request_length` is the request's bytes (a chunked body's framing too) and `$bytes_sent` the
/// answer's, head and body, as the client received them, on weir and, with `WEIR_E2E=1`, on
/// nginx; `$uri` is the normalised path with every escape decoded, `$args` the query,
/// `$server_name` the route's host, `$sent_http_NAME` the answer's field. Apart from
/// `$bytes_sent` (each writes its own head) and `$pid`, both write the same line. An empty query
/// (`/consume?`) is none, as in nginx.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_s_sizes_path_and_names_are_logged_as_nginx_logs_them() {
    const LINE: &str = r#"$uri|$args|$query_string|"$is_args"|$server_name|$hostname|$request_length|$body_bytes_sent|"$sent_http_content_type"|$sent_http_x_none|$bytes_sent|$pid"#;
    const REQUESTS: [&str; 4] = [
        "GET /typed?type=text/x-a&q=%41 HTTP/1.1\r\nHost: b.test\r\nConnection: close\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: b.test\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "POST /consume? HTTP/1.1\r\nHost: b.test\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
        "GET /x/..//a%41%20b%3f HTTP/1.1\r\nHost: b.test\r\nConnection: close\r\n\r\n",
    ];
    let upstream = UpstreamServer::start(Transport::Tcp).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weir.log");
    let gateway = TestGateway::start(&format!(
        "[server]\nlisten = [\"127.0.0.1:0\"]\n\n[upstreams.app]\nservers = [\"{}\"]\n\n[[routes]]\nhost = \"b.test\"\npath = \"/\"\nupstream = \"app\"\n\n[access_log]\nenabled = true\npath = \"{}\"\nformat = '{LINE}'\n",
        upstream.address,
        path.display()
    ))
    .await;
    // Each line, its `$bytes_sent` checked against what the client received and its `$pid`
    // against `pid`, then cut off.
    async fn logged(addr: SocketAddr, log: &std::path::Path, pid: Option<u32>) -> Vec<String> {
        let mut received = Vec::new();
        for request in REQUESTS {
            received.push(raw_exchange(addr, request.as_bytes(), Duration::from_secs(5)).await);
        }
        let text = wait_lines(log, REQUESTS.len()).await;
        text.lines()
            .zip(&received)
            .map(|(line, answer)| {
                let (line, logged_pid) = line.rsplit_once('|').unwrap();
                if let Some(pid) = pid {
                    assert_eq!(logged_pid, pid.to_string(), "{line}");
                }
                let (line, bytes_sent) = line.rsplit_once('|').unwrap();
                assert_eq!(bytes_sent, answer.len().to_string(), "{line}: {answer:?}");
                line.to_string()
            })
            .collect()
    }
    let lines = logged(gateway.addr, &path, Some(std::process::id())).await;
    let host = String::from_utf8(std::fs::read("/proc/sys/kernel/hostname").unwrap()).unwrap();
    let host = host.trim();
    assert_eq!(
        lines,
        [
            format!("/typed|type=text/x-a&q=%41|type=text/x-a&q=%41|\"?\"|b.test|{host}|{}|5|\"text/x-a\"|-", REQUESTS[0].len()),
            format!("/echo|-|-|\"\"|b.test|{host}|{}|5|\"-\"|-", REQUESTS[1].len()),
            format!("/consume|-|-|\"\"|b.test|{host}|{}|7|\"-\"|-", REQUESTS[2].len()),
            format!("/aA b?|-|-|\"\"|b.test|{host}|{}|5|\"-\"|-", REQUESTS[3].len()),
        ]
    );

    if !differential_enabled() {
        return;
    }
    let nginx = weir_testkit::nginx::Nginx::start(
        &format!("    log_format sizes '{LINE}';\n"),
        &format!(
            "        server_name b.test;\n        access_log {}/nginx.log sizes;\n        location / {{ proxy_pass http://{}; }}\n",
            dir.path().display(),
            upstream.address
        ),
    )
    .unwrap();
    let nginx_lines = logged(nginx.addr, &dir.path().join("nginx.log"), None).await;
    assert_eq!(nginx_lines, lines, "{}", nginx.logs());
}
