//! Line formats checked byte for byte against nginx's `combined`, JSON lines parsed back, and a
//! file log reopened after a rename, as logrotate does it.

use super::*;

/// 2000-10-10 13:55:36 UTC.
const TIME: u64 = 971_186_136;

fn record(upstream: bool) -> Record {
    let request = Request::from_http(
        http::Request::builder()
            .method("GET")
            .uri("/api/items?page=2")
            .header("referer", "http://example.com/start")
            .header("user-agent", "curl/8.0")
            .body(())
            .unwrap(),
    );
    let mut entry = Entry::start("192.0.2.7:50000".parse().unwrap(), &request);
    entry.status = StatusCode::OK;
    entry.bytes = 1234;
    if upstream {
        entry.upstream = Some("unix:/run/app.sock".into());
        entry.upstream_status = Some(StatusCode::OK);
        entry.upstream_connect_time = Some(Duration::ZERO);
        entry.upstream_time = Some(Duration::from_micros(12_345));
        entry.upstream_queue_time = Some(Duration::from_micros(4_000));
    }
    Record {
        entry,
        time: UNIX_EPOCH + Duration::from_secs(TIME) + Duration::from_micros(45_678),
        total: Duration::from_micros(20_500),
        upstream_response: upstream.then(|| Duration::from_micros(19_000)),
    }
}

fn line(format: AccessLogFormat, record: &Record) -> String {
    let mut out = Vec::new();
    format_line(&mut out, &mut ClockCache::default(), &format, record);
    String::from_utf8(out).unwrap()
}

#[test]
fn dates_are_civil() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    assert_eq!(clf_time(TIME), "10/Oct/2000:13:55:36 +0000");
    assert_eq!(iso_time(TIME), "2000-10-10T13:55:36+00:00");
}

#[test]
fn combined_is_nginx_combined_followed_by_times() {
    assert_eq!(
        line(AccessLogFormat::Combined, &record(true)),
        "192.0.2.7 - - [10/Oct/2000:13:55:36 +0000] \"GET /api/items?page=2 HTTP/1.1\" 200 1234 \
         \"http://example.com/start\" \"curl/8.0\" rt=0.021 uht=0.012 urt=0.019 \
         uqt=0.004 upstream=\"unix:/run/app.sock\" cause=-\n"
    );
}

#[test]
fn combined_writes_dashes_for_what_is_missing() {
    let mut record = record(false);
    record.entry.referer.clear();
    record.entry.user_agent.clear();
    assert_eq!(
        line(AccessLogFormat::Combined, &record),
        "192.0.2.7 - - [10/Oct/2000:13:55:36 +0000] \"GET /api/items?page=2 HTTP/1.1\" 200 1234 \
         \"-\" \"-\" rt=0.021 uht=- urt=- uqt=- upstream=\"-\" cause=-\n"
    );
}

#[test]
fn a_refusal_says_why_and_how_long_it_queued() {
    let mut record = record(false);
    record.entry.status = StatusCode::SERVICE_UNAVAILABLE;
    record.entry.bytes = 20;
    record.entry.cause = Some("standing_drop");
    record.entry.upstream_queue_time = Some(Duration::from_millis(412));
    assert_eq!(
        line(AccessLogFormat::Combined, &record),
        "192.0.2.7 - - [10/Oct/2000:13:55:36 +0000] \"GET /api/items?page=2 HTTP/1.1\" 503 20 \
         \"http://example.com/start\" \"curl/8.0\" rt=0.021 uht=- urt=- uqt=0.412 \
         upstream=\"-\" cause=standing_drop\n"
    );
    let value: serde_json::Value =
        serde_json::from_str(&line(AccessLogFormat::Json, &record)).unwrap();
    assert_eq!(value["cause"], "standing_drop");
    assert_eq!(value["upstream_queue_time"], 0.412);
    assert!(value["upstream_addr"].is_null());
}

#[test]
fn combined_escapes_what_could_forge_a_field_or_a_line() {
    let mut record = record(false);
    record.entry.user_agent = "a\"b\\c\nd\u{e9}".into();
    let text = line(AccessLogFormat::Combined, &record);
    assert!(text.contains("\"a\\x22b\\x5Cc\\x0Ad\\xC3\\xA9\""), "{text}");
    assert_eq!(text.matches('\n').count(), 1);
}

#[test]
fn json_lines_parse_and_carry_the_times() {
    let text = line(AccessLogFormat::Json, &record(true));
    assert!(text.ends_with('\n') && text.matches('\n').count() == 1);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["time"], "2000-10-10T13:55:36+00:00");
    // nginx's `$msec`: whole milliseconds, truncated as nginx's are.
    assert_eq!(
        text.split("\"msec\":")
            .nth(1)
            .and_then(|rest| rest.split(',').next()),
        Some("971186136.045")
    );
    assert_eq!(value["remote_addr"], "192.0.2.7");
    assert_eq!(value["method"], "GET");
    assert_eq!(value["request_uri"], "/api/items?page=2");
    assert_eq!(value["protocol"], "HTTP/1.1");
    assert_eq!(value["status"], 200);
    assert_eq!(value["body_bytes_sent"], 1234);
    assert_eq!(value["http_referer"], "http://example.com/start");
    assert_eq!(value["http_user_agent"], "curl/8.0");
    assert_eq!(value["upstream_addr"], "unix:/run/app.sock");
    assert_eq!(value["upstream_status"], 200);
    assert_eq!(value["upstream_connect_time"], 0.0);
    assert_eq!(value["upstream_header_time"], 0.012345);
    assert_eq!(value["upstream_response_time"], 0.019);
    assert_eq!(value["upstream_queue_time"], 0.004);
    assert_eq!(value["request_time"], 0.0205);

    let text = line(AccessLogFormat::Json, &record(false));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(value["upstream_addr"].is_null());
    assert!(value["upstream_status"].is_null());
    assert!(value["upstream_connect_time"].is_null());
    assert!(value["upstream_header_time"].is_null());
    assert!(value["upstream_response_time"].is_null());
    assert!(value["upstream_queue_time"].is_null());
    assert!(value["cause"].is_null());
}

#[test]
fn json_strings_are_escaped() {
    let mut record = record(false);
    record.entry.user_agent = "a\"b\\c\nd\u{1}\u{e9}".into();
    let text = line(AccessLogFormat::Json, &record);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["http_user_agent"], "a\"b\\c\nd\u{1}\u{e9}");
}

fn template(text: &str, escape: LogEscape) -> AccessLogFormat {
    AccessLogFormat::Template(Arc::new(LogTemplate::parse(text, escape).unwrap()))
}

/// The entry of a request as the log keeps it for `format`.
fn kept_record(format: &AccessLogFormat, headers: &[(&str, &str)]) -> Record {
    let mut builder = http::Request::builder().uri("/");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let request = Request::from_http(builder.body(()).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let log = AccessLog::open(&file_config(&dir.path().join("log"), format.clone())).unwrap();
    let mut record = record(true);
    record.entry.headers = log.kept_headers(&request);
    record
}

#[test]
fn a_line_of_nginx_variables_is_written_as_nginx_writes_it() {
    // nginx's `log_format main` of the Docker image's nginx.conf.
    let main = template(
        "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent \"$http_referer\" \"$http_user_agent\" \"$http_x_forwarded_for\"",
        LogEscape::Default,
    );
    let record = kept_record(
        &main,
        &[
            ("x-forwarded-for", "203.0.113.9"),
            ("x-forwarded-for", "10.0.0.1"),
        ],
    );
    assert_eq!(
        line(main.clone(), &record),
        "192.0.2.7 - - [10/Oct/2000:13:55:36 +0000] \"GET /api/items?page=2 HTTP/1.1\" 200 1234 \
         \"http://example.com/start\" \"curl/8.0\" \"203.0.113.9, 10.0.0.1\"\n"
    );
    // What the request does not have is `-`; what could forge a field is escaped.
    let mut record = kept_record(&main, &[]);
    record.entry.user_agent = "a\"b\n".into();
    record.entry.referer.clear();
    assert_eq!(
        line(main, &record),
        "192.0.2.7 - - [10/Oct/2000:13:55:36 +0000] \"GET /api/items?page=2 HTTP/1.1\" 200 1234 \
         \"-\" \"a\\x22b\\x0A\" \"-\"\n"
    );
    let timed = template(
        "$host:$remote_port $scheme $request_method $request_uri $server_protocol $msec rt=$request_time uht=$upstream_header_time urt=$upstream_response_time uqt=$upstream_queue_time $upstream_addr $upstream_cache_status $weir_cause $time_iso8601",
        LogEscape::Default,
    );
    let record = kept_record(&timed, &[("host", "Example.COM:8080")]);
    assert_eq!(
        line(timed.clone(), &record),
        "example.com:50000 http GET /api/items?page=2 HTTP/1.1 971186136.045 rt=0.021 uht=0.012 \
         urt=0.019 uqt=0.004 unix:/run/app.sock - - 2000-10-10T13:55:36+00:00\n"
    );
    let record = kept_record(&timed, &[]);
    assert!(line(timed, &record).starts_with("-:50000 "));
}

#[test]
fn a_json_line_escapes_its_values_for_json_and_leaves_missing_ones_empty() {
    let json = template(
        "{\"ua\":\"$http_user_agent\",\"xff\":\"$http_x_forwarded_for\",\"upstream\":\"$upstream_addr\",\"status\":$status,\"urt\":\"$upstream_response_time\"}",
        LogEscape::Json,
    );
    let mut record = kept_record(&json, &[]);
    record.entry.user_agent = "a\"b\\c\nd\u{1}".into();
    record.entry.upstream = None;
    record.upstream_response = None;
    let text = line(json, &record);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["ua"], "a\"b\\c\nd\u{1}");
    assert_eq!(value["xff"], "");
    assert_eq!(value["upstream"], "");
    assert_eq!(value["status"], 200);
    assert_eq!(value["urt"], "");
}

#[test]
fn a_host_loses_its_port_and_its_case() {
    for (host, expected) in [
        ("example.com", "example.com"),
        ("example.com:8080", "example.com"),
        ("[::1]:8080", "[::1]"),
        ("[::1]", "[::1]"),
    ] {
        assert_eq!(crate::routing::strip_port(host), expected);
    }
}

fn file_config(path: &std::path::Path, format: AccessLogFormat) -> AccessLogConfig {
    AccessLogConfig {
        enabled: true,
        path: Some(path.to_path_buf()),
        format,
    }
}

fn entry(target: &str) -> Entry {
    let request = Request::from_http(http::Request::get(target).body(()).unwrap());
    Entry::start("127.0.0.1:1".parse().unwrap(), &request)
}

#[tokio::test]
async fn a_renamed_file_is_reopened_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let log = AccessLog::open(&file_config(&path, AccessLogFormat::Json)).unwrap();
    log.write(entry("/before"), Instant::now());
    assert!(log.flush());
    let rotated = dir.path().join("access.log.1");
    std::fs::rename(&path, &rotated).unwrap();
    // Until reopened, lines follow the renamed file, as they do with nginx.
    log.write(entry("/renamed"), Instant::now());
    assert!(log.flush());
    log.reopen();
    log.write(entry("/after"), Instant::now());
    assert!(log.flush());
    let old = std::fs::read_to_string(&rotated).unwrap();
    let new = std::fs::read_to_string(&path).unwrap();
    assert_eq!(old.lines().count(), 2, "{old}");
    assert!(old.contains("/before") && old.contains("/renamed"), "{old}");
    assert_eq!(new.lines().count(), 1, "{new}");
    assert!(new.contains("/after"), "{new}");
    assert_eq!(log.dropped(), 0);
}

#[tokio::test]
async fn reopen_all_reaches_every_open_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let log = AccessLog::open(&file_config(&path, AccessLogFormat::Combined)).unwrap();
    std::fs::rename(&path, dir.path().join("access.log.1")).unwrap();
    // Other tests' logs may be open too: at least this one was asked.
    assert!(reopen_all() >= 1);
    log.write(entry("/after"), Instant::now());
    assert!(log.flush());
    let new = std::fs::read_to_string(&path).unwrap();
    assert!(new.starts_with("127.0.0.1 - - ["), "{new}");
    assert!(new.contains("\"GET /after HTTP/1.1\" 200 0"), "{new}");
}

#[tokio::test]
async fn a_failed_reopen_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let path = logs.join("access.log");
    let log = AccessLog::open(&file_config(&path, AccessLogFormat::Json)).unwrap();
    let moved = dir.path().join("moved");
    std::fs::rename(&logs, &moved).unwrap();
    // The directory is gone: the open fails and the writer stays on the file it has.
    log.reopen();
    log.write(entry("/still"), Instant::now());
    assert!(log.flush());
    let kept = std::fs::read_to_string(moved.join("access.log")).unwrap();
    assert!(kept.contains("/still"), "{kept}");
}

#[tokio::test]
async fn dropping_the_log_writes_what_was_queued() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let log = AccessLog::open(&file_config(&path, AccessLogFormat::Json)).unwrap();
    for index in 0..100 {
        log.write(entry(&format!("/{index}")), Instant::now());
    }
    drop(log);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 100);
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
}

/// `$remote_user`: the user of Basic credentials, whether or not a route asked for them, as
/// nginx logs it; escaped as any field.
#[test]
fn the_user_of_basic_credentials_is_logged_as_remote_user() {
    let entry_for = |authorization: &str| {
        let request = Request::from_http(
            http::Request::builder()
                .uri("/")
                .header("authorization", authorization)
                .body(())
                .unwrap(),
        );
        Entry::start("192.0.2.7:50000".parse().unwrap(), &request).remote_user
    };
    // alice:secret, al"ice:x, and a value that is not Basic credentials.
    assert_eq!(entry_for("Basic YWxpY2U6c2VjcmV0"), "alice");
    assert_eq!(entry_for("basic  YWwiaWNlOng="), "al\"ice");
    assert_eq!(entry_for("Bearer YWxpY2U6c2VjcmV0"), "");
    assert_eq!(entry_for("Basic YWxpY2U="), "", "no ':'");
    let mut record = record(false);
    record.entry.remote_user = "al\"ice".into();
    assert!(line(AccessLogFormat::Combined, &record).starts_with("192.0.2.7 - al\\x22ice [10/Oct"));
    let value: serde_json::Value =
        serde_json::from_str(&line(AccessLogFormat::Json, &record)).unwrap();
    assert_eq!(value["remote_user"], "al\"ice");
}

#[test]
fn a_cache_status_and_a_request_id_are_logged_when_there_are_some() {
    let mut record = record(false);
    let combined = line(AccessLogFormat::Combined, &record);
    assert!(combined.ends_with("cause=-\n"), "{combined}");
    let value: serde_json::Value =
        serde_json::from_str(&line(AccessLogFormat::Json, &record)).unwrap();
    assert!(value["upstream_cache_status"].is_null());
    assert!(value["request_id"].is_null());
    record.entry.cache_status = "HIT";
    record.entry.request_id = Some(crate::request_id::RequestId::from_digits(
        *b"0123456789abcdef0123456789abcdef",
    ));
    let combined = line(AccessLogFormat::Combined, &record);
    assert!(
        combined.ends_with(" cause=- cache=HIT id=0123456789abcdef0123456789abcdef\n"),
        "{combined}"
    );
    let value: serde_json::Value =
        serde_json::from_str(&line(AccessLogFormat::Json, &record)).unwrap();
    assert_eq!(value["upstream_cache_status"], "HIT");
    assert_eq!(value["request_id"], "0123456789abcdef0123456789abcdef");
}

#[test]
fn sizes_paths_names_and_answer_fields_are_written() {
    let format = template(
        "$uri|$args|$is_args|$server_name|$request_length|$bytes_sent|$sent_http_content_type|$sent_http_x_none",
        LogEscape::Default,
    );
    let AccessLogFormat::Template(line_of) = &format else {
        unreachable!()
    };
    let dir = tempfile::tempdir().unwrap();
    let log = AccessLog::open(&file_config(&dir.path().join("log"), format.clone())).unwrap();
    assert!(log.writes_server_name());
    let mut answer = http::HeaderMap::new();
    answer.append("content-type", "text/html".parse().unwrap());
    answer.append("content-type", "charset=utf-8".parse().unwrap());
    let mut record = record(true);
    record.entry.sent_headers =
        log.kept_sent_headers(&crate::head_view::Headers::from_map(&answer));
    assert_eq!(line_of.sent_headers.len(), 2);
    record.entry.target = "/a/./b%41%20c?x=1".into();
    record.entry.request_length = 80;
    record.entry.note_sent_head(100, Some(7));
    record.entry.server_name = Some("a.test".into());
    assert_eq!(
        line(format.clone(), &record),
        "/a/bA c|x=1|?|a.test|87|1334|text/html, charset=utf-8|-\n"
    );
    // No query (an empty one is none, as nginx has it), no name: `-`, nothing, nothing.
    record.entry.target = "/b?".into();
    record.entry.server_name = None;
    assert_eq!(
        line(format, &record),
        "/b|-|||87|1334|text/html, charset=utf-8|-\n"
    );
}
