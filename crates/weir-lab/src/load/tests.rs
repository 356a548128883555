//! The parsers against output captured from the tools installed here (wrk 4.1.0, ab 2.3).

use super::*;

const WRK_OK: &str = "Running 1s test @ http://127.0.0.1:18931/
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   514.96us    0.96ms   8.21ms   89.39%
    Req/Sec    18.49k     7.31k   25.45k    70.00%
  Latency Distribution
     50%  174.00us
     75%  239.00us
     90%    1.62ms
     99%    4.41ms
  18391 requests in 1.01s, 3.63MB read
Requests/sec:  18248.21
Transfer/sec:      3.60MB
";

const WRK_ERRORS_AND_STATUSES: &str = "Running 1s test @ http://127.0.0.1:18931/nope
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.13ms    1.65ms  11.48ms   85.44%
    Req/Sec     7.68k     2.94k   13.33k    80.00%
  Latency Distribution
     50%  329.00us
     75%    1.13ms
     90%    3.55ms
     99%    2.01s
  7650 requests in 1.00m, 1.27MB read
  Socket errors: connect 1, read 2, write 3, timeout 4
  Non-2xx or 3xx responses: 7650
Requests/sec:   7622.43
Transfer/sec:      1.26MB
weir-lab status 404 7600
weir-lab status 200 50
";

const AB_OUTPUT: &str = "This is ApacheBench, Version 2.3 <$Revision$>
Benchmarking 127.0.0.1 (be patient).....done


Server Software:        Python/3.11
Document Path:          /nope
Document Length:        14 bytes

Concurrency Level:      4
Time taken for tests:   1.000 seconds
Complete requests:      4030
Failed requests:        7
   (Connect: 0, Receive: 7, Length: 0, Exceptions: 0)
Non-2xx responses:      4033
Total transferred:      701742 bytes
Requests per second:    4029.40 [#/sec] (mean)
Time per request:       0.993 [ms] (mean)

Connection Times (ms)
              min  mean[+/-sd] median   max
Connect:        0    0   0.1      0       7
Total:          0    1   0.9      1      10

Percentage of the requests served within a certain time (ms)
  50%      1
  66%      1
  90%      3
  99%      5
 100%     10 (longest request)
";

#[test]
fn wrk_clean_run_is_parsed() {
    let output = parse_wrk(WRK_OK).unwrap();
    assert_eq!(output.requests, 18391);
    assert!((output.seconds - 1.01).abs() < 1e-9);
    assert!((output.requests_per_second - 18248.21).abs() < 1e-9);
    let latency = output.latency.unwrap();
    assert!((latency.p50_ms - 0.174).abs() < 1e-9);
    assert!((latency.p90_ms - 1.62).abs() < 1e-9);
    assert!((latency.p99_ms - 4.41).abs() < 1e-9);
    assert_eq!(output.non_2xx, 0);
    assert_eq!(output.errors, SocketErrors::default());
    assert!(output.statuses.is_empty());
}

#[test]
fn wrk_errors_statuses_and_long_units_are_parsed() {
    let output = parse_wrk(WRK_ERRORS_AND_STATUSES).unwrap();
    assert_eq!(output.requests, 7650);
    assert!((output.seconds - 60.0).abs() < 1e-9);
    assert_eq!(output.non_2xx, 7650);
    assert_eq!(
        output.errors,
        SocketErrors {
            connect: 1,
            read: 2,
            write: 3,
            timeout: 4,
            failed: 0
        }
    );
    assert_eq!(output.errors.total(), 10);
    assert_eq!(output.statuses.get(&404), Some(&7600));
    assert_eq!(output.statuses.get(&200), Some(&50));
    assert!((output.latency.unwrap().p99_ms - 2010.0).abs() < 1e-6);
}

#[test]
fn wrk_output_without_a_result_is_an_error() {
    let error = parse_wrk("unable to connect to 127.0.0.1:1 Connection refused\n").unwrap_err();
    assert!(error.to_string().contains("requests in"), "{error}");
}

#[test]
fn wrk_malformed_status_line_is_an_error() {
    let text = format!("{WRK_OK}weir-lab status abc 1\n");
    assert!(parse_wrk(&text).is_err());
}

#[test]
fn wrk_requests_per_second_falls_back_to_count_over_time() {
    let text: String = WRK_OK
        .lines()
        .filter(|line| !line.starts_with("Requests/sec"))
        .map(|line| format!("{line}\n"))
        .collect();
    let output = parse_wrk(&text).unwrap();
    assert!((output.requests_per_second - 18391.0 / 1.01).abs() < 1e-6);
}

#[test]
fn ab_run_is_parsed() {
    let output = parse_ab(AB_OUTPUT).unwrap();
    assert_eq!(output.requests, 4030);
    assert_eq!(output.errors.failed, 7);
    assert_eq!(output.non_2xx, 4033);
    assert!((output.seconds - 1.0).abs() < 1e-9);
    assert!((output.requests_per_second - 4029.40).abs() < 1e-9);
    assert_eq!(
        output.latency,
        Some(Latency {
            p50_ms: 1.0,
            p90_ms: 3.0,
            p99_ms: 5.0
        })
    );
}

#[test]
fn ab_output_without_a_result_is_an_error() {
    assert!(parse_ab("apr_socket_connect(): Connection refused (111)\n").is_err());
}

#[test]
fn wrk_command_carries_duration_latency_and_script() {
    let command = command(
        Tool::Wrk {
            threads: 2,
            connections: 100,
        },
        "http://127.0.0.1:1/",
        Duration::from_millis(2500),
        Some(Path::new("/x/status.lua")),
    );
    let args: Vec<String> = command
        .get_args()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        args,
        [
            "-t2",
            "-c100",
            "-d2s",
            "--timeout",
            "10s",
            "--latency",
            "-s",
            "/x/status.lua",
            "http://127.0.0.1:1/"
        ]
    );
}

/// h2load 1.52 against a gateway answering 404 to everything (the lab's `tls` scenario's tool).
const H2LOAD_NOT_FOUND: &str = "starting benchmark...
spawning thread #0: 2 total client(s). Timing-based test with 0s of warm-up time and 1s of main duration for measurements.
Main benchmark duration is over for thread #0. Stopping all clients.
Stopped all clients for thread #0

finished in 1.00s, 11264.00 req/s, 440.23KB/s
requests: 11264 total, 11268 started, 11264 done, 0 succeeded, 11264 failed, 0 errored, 0 timeout
status codes: 0 2xx, 0 3xx, 11264 4xx, 0 5xx
traffic: 440.23KB (450800) total, 88.13KB (90242) headers (space savings 91.65%), 154.00KB (157696) data
                     min         max         mean         sd        +/- sd
time for request:      113us     22.00ms       341us       589us    98.36%
";

#[test]
fn h2load_summary_is_parsed_and_its_4xx_are_not_socket_errors() {
    let output = parse_h2load(H2LOAD_NOT_FOUND).unwrap();
    assert_eq!(output.requests, 11264);
    assert_eq!(output.requests_per_second, 11264.0);
    assert_eq!(output.seconds, 1.0);
    assert_eq!(output.non_2xx, 11264);
    assert_eq!(output.errors.total(), 0);
    let broken = H2LOAD_NOT_FOUND
        .replace(
            "0 succeeded, 11264 failed, 0 errored",
            "11200 succeeded, 64 failed, 3 errored",
        )
        .replace("11264 4xx", "0 4xx");
    let output = parse_h2load(&broken).unwrap();
    assert_eq!((output.non_2xx, output.errors.failed), (0, 67));
    assert!(parse_h2load("connect: Connection refused\n").is_err());
}
