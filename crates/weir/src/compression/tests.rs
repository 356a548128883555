//! Tests for compression: q-value negotiation, every rule that leaves a response alone, the header
//! edits, and round trips through real decoders for each algorithm, whole and streamed.

use std::collections::VecDeque;
use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::{
    HeaderMap, HeaderName, HeaderValue, ACCEPT_ENCODING, ACCEPT_RANGES, CACHE_CONTROL,
    CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, ETAG, VARY,
};
use http::{Response, StatusCode};
use http_body::{Body, Frame};
use http_body_util::{BodyExt, Full};

use super::*;
use crate::head_view::Headers;

const ALL: [Encoding; 3] = [Encoding::Brotli, Encoding::Zstd, Encoding::Gzip];

fn accept(values: &[&str]) -> Headers {
    let mut headers = HeaderMap::new();
    for value in values {
        headers.append(
            ACCEPT_ENCODING,
            HeaderValue::from_str(value).expect("a literal header value is valid"),
        );
    }
    Headers::from_map(&headers)
}

fn chosen(values: &[&str]) -> Option<Encoding> {
    choose(&accept(values), &ALL)
}

#[test]
fn negotiation_table() {
    use Encoding::{Brotli, Gzip, Zstd};
    let table: &[(&[&str], Option<Encoding>)] = &[
        (&[], None),
        (&[""], None),
        (&["identity"], None),
        (&["gzip"], Some(Gzip)),
        (&["GZIP"], Some(Gzip)),
        (&["x-gzip"], Some(Gzip)),
        (&["deflate"], None),
        (&["gzip, deflate, br"], Some(Brotli)),
        (&["gzip, deflate, br, zstd"], Some(Brotli)),
        (&["gzip;q=1.0, br;q=0.5"], Some(Gzip)),
        (&["br;q=0.8, zstd;q=0.9, gzip;q=0.1"], Some(Zstd)),
        (&["gzip;q=0, br;q=0"], None),
        (&["*"], Some(Brotli)),
        (&["*;q=0.5, gzip"], Some(Gzip)),
        (&["*, br;q=0"], Some(Zstd)),
        (&["*;q=0"], None),
        (&["identity;q=0"], None),
        (&["identity;q=0, gzip;q=0.2"], Some(Gzip)),
        (&["gzip ; q=0.5 , zstd ; q=0.6"], Some(Zstd)),
        (&["gzip;q=2"], None),
        (&["gzip;q=0.1234"], None),
        (&["gzip;q=abc, br;q=0.001"], Some(Brotli)),
        (&["gzip", "br"], Some(Brotli)),
        (&["gzip;q=0.5", "gzip;q=0.9, zstd;q=0.8"], Some(Gzip)),
        (&[",, gzip ,"], Some(Gzip)),
    ];
    for (values, expected) in table {
        assert_eq!(chosen(values), *expected, "Accept-Encoding {values:?}");
    }
}

#[test]
fn ties_go_to_the_configured_preference() {
    let headers = accept(&["gzip, br, zstd"]);
    assert_eq!(
        choose(&headers, &[Encoding::Gzip, Encoding::Brotli]),
        Some(Encoding::Gzip)
    );
    assert_eq!(
        choose(&headers, &[Encoding::Zstd, Encoding::Gzip]),
        Some(Encoding::Zstd)
    );
    // An encoding the config leaves out is never chosen, whatever the client prefers.
    assert_eq!(choose(&accept(&["br"]), &[Encoding::Gzip]), None);
    assert_eq!(choose(&headers, &[]), None);
}

#[test]
fn qvalues_parse_as_rfc_9110_says() {
    assert_eq!(parse_qvalue("1"), Some(1000));
    assert_eq!(parse_qvalue("1."), Some(1000));
    assert_eq!(parse_qvalue("1.000"), Some(1000));
    assert_eq!(parse_qvalue("0"), Some(0));
    assert_eq!(parse_qvalue("0.5"), Some(500));
    assert_eq!(parse_qvalue("0.05"), Some(50));
    assert_eq!(parse_qvalue("0.001"), Some(1));
    assert_eq!(parse_qvalue("1.001"), None);
    assert_eq!(parse_qvalue("0.0001"), None);
    assert_eq!(parse_qvalue("-0"), None);
    assert_eq!(parse_qvalue(""), None);
    assert_eq!(parse_qvalue(".5"), None);
}

#[test]
fn algorithms_parse_from_config_tokens() {
    assert_eq!("gzip".parse::<Encoding>(), Ok(Encoding::Gzip));
    assert_eq!("BR".parse::<Encoding>(), Ok(Encoding::Brotli));
    assert_eq!("zstd".parse::<Encoding>(), Ok(Encoding::Zstd));
    let error = "deflate"
        .parse::<Encoding>()
        .expect_err("deflate is not offered");
    assert!(error.contains("\"br\""), "{error}");
    for encoding in ALL {
        assert_eq!(encoding.to_string().parse::<Encoding>(), Ok(encoding));
    }
}

fn response_headers(pairs: &[(HeaderName, &str)]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in pairs {
        headers.append(
            name.clone(),
            HeaderValue::from_str(value).expect("a literal header value is valid"),
        );
    }
    headers
}

fn compressible(status: u16, pairs: &[(HeaderName, &str)]) -> bool {
    should_compress(
        false,
        StatusCode::from_u16(status).expect("a literal status is valid"),
        &Headers::from_map(&response_headers(pairs)),
        &CompressionConfig::default(),
    )
}

#[test]
fn a_plain_html_response_is_compressible() {
    assert!(compressible(200, &[(CONTENT_TYPE, "text/html")]));
    assert!(compressible(
        200,
        &[(CONTENT_TYPE, "application/json"), (CONTENT_LENGTH, "200")]
    ));
    assert!(compressible(
        404,
        &[(CONTENT_TYPE, "text/html; charset=utf-8")]
    ));
    assert!(compressible(
        422,
        &[(CONTENT_TYPE, "application/problem+json")]
    ));
}

#[test]
fn head_requests_are_not_compressed() {
    assert!(!should_compress(
        true,
        StatusCode::OK,
        &Headers::from_map(&response_headers(&[(CONTENT_TYPE, "text/html")])),
        &CompressionConfig::default(),
    ));
}

#[test]
fn statuses_without_a_whole_body_are_not_compressed() {
    for status in [101, 103, 204, 205, 206, 304] {
        assert!(
            !compressible(status, &[(CONTENT_TYPE, "text/html")]),
            "status {status}"
        );
    }
}

#[test]
fn a_range_is_not_compressed() {
    assert!(!compressible(
        200,
        &[
            (CONTENT_TYPE, "text/html"),
            (CONTENT_RANGE, "bytes 0-9/100")
        ]
    ));
}

#[test]
fn an_encoded_body_is_not_compressed_twice() {
    assert!(!compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_ENCODING, "gzip")]
    ));
    assert!(!compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_ENCODING, "br")]
    ));
    // An empty Content-Encoding says nothing, as nginx reads it.
    assert!(compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_ENCODING, "")]
    ));
}

#[test]
fn no_transform_is_respected() {
    assert!(!compressible(
        200,
        &[
            (CONTENT_TYPE, "text/html"),
            (CACHE_CONTROL, "public, No-Transform")
        ]
    ));
    assert!(!compressible(
        200,
        &[
            (CONTENT_TYPE, "text/html"),
            (CACHE_CONTROL, "max-age=60"),
            (CACHE_CONTROL, "no-transform")
        ]
    ));
    assert!(compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CACHE_CONTROL, "no-cache")]
    ));
}

#[test]
fn only_listed_types_are_compressed() {
    assert!(!compressible(200, &[]));
    assert!(!compressible(200, &[(CONTENT_TYPE, "image/png")]));
    assert!(!compressible(200, &[(CONTENT_TYPE, "application/zip")]));
    assert!(!compressible(200, &[(CONTENT_TYPE, "nonsense")]));
    assert!(compressible(200, &[(CONTENT_TYPE, "TEXT/CSS")]));
    assert!(compressible(200, &[(CONTENT_TYPE, "image/svg+xml")]));
}

#[test]
fn type_patterns_match_exactly_or_by_main_type() {
    let types = vec!["text/*".to_string(), "application/json".to_string()];
    assert!(type_matches("text/plain", &types));
    assert!(type_matches("Text/Event-Stream; charset=utf-8", &types));
    assert!(type_matches("application/json ; charset=utf-8", &types));
    assert!(!type_matches("application/jsonx", &types));
    assert!(!type_matches("textual/plain", &types));
    assert!(!type_matches("text", &types));
    assert!(type_matches("anything/at-all", &["*/*".to_string()]));
}

#[test]
fn short_bodies_are_not_compressed() {
    assert!(!compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_LENGTH, "199")]
    ));
    assert!(!compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_LENGTH, "0")]
    ));
    assert!(!compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_LENGTH, "banana")]
    ));
    assert!(compressible(
        200,
        &[(CONTENT_TYPE, "text/html"), (CONTENT_LENGTH, "100000")]
    ));
}

fn vary_after(values: &[&str]) -> Vec<String> {
    let headers = response_headers(
        &values
            .iter()
            .map(|value| (VARY, *value))
            .collect::<Vec<_>>(),
    );
    let mut view = Headers::from_map(&headers);
    add_vary(&mut view);
    let headers = view.to_map();
    headers
        .get_all(VARY)
        .iter()
        .map(|value| value.to_str().expect("ASCII").to_string())
        .collect()
}

#[test]
fn vary_is_added_or_merged_once() {
    assert_eq!(vary_after(&[]), ["Accept-Encoding"]);
    assert_eq!(vary_after(&["Origin"]), ["Origin, Accept-Encoding"]);
    assert_eq!(
        vary_after(&["Origin", "Cookie, "]),
        ["Origin, Cookie, Accept-Encoding"]
    );
    assert_eq!(vary_after(&["accept-encoding"]), ["accept-encoding"]);
    assert_eq!(
        vary_after(&["Origin, Accept-Encoding"]),
        ["Origin, Accept-Encoding"]
    );
    assert_eq!(vary_after(&["*"]), ["*"]);
    assert_eq!(vary_after(&[""]), ["Accept-Encoding"]);
}

#[test]
fn encoding_headers_are_set_and_the_etag_weakened() {
    let headers = response_headers(&[
        (CONTENT_TYPE, "text/html"),
        (CONTENT_LENGTH, "5000"),
        (ACCEPT_RANGES, "bytes"),
        (ETAG, "\"abc\""),
    ]);
    let mut view = Headers::from_map(&headers);
    set_encoding_headers(&mut view, Encoding::Brotli);
    let headers = view.to_map();
    assert_eq!(headers[CONTENT_ENCODING], "br");
    assert!(!headers.contains_key(CONTENT_LENGTH));
    assert!(!headers.contains_key(ACCEPT_RANGES));
    assert_eq!(headers[ETAG], "W/\"abc\"");
    assert_eq!(headers[VARY], "Accept-Encoding");

    let mut weak = Headers::from_map(&response_headers(&[(ETAG, "W/\"abc\"")]));
    set_encoding_headers(&mut weak, Encoding::Gzip);
    let weak = weak.to_map();
    assert_eq!(weak[ETAG], "W/\"abc\"");
}

/// Some text that compresses the way real pages do: repetitive but not constant.
fn sample_text(length: usize) -> Vec<u8> {
    let mut text = Vec::with_capacity(length);
    let mut counter: u64 = 0;
    while text.len() < length {
        counter = counter
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        writeln!(
            text,
            "<tr><td class=\"item\">{}</td><td>{}</td></tr>",
            counter % 1000,
            counter >> 50
        )
        .expect("writing to a Vec cannot fail");
    }
    text.truncate(length);
    text
}

/// Decodes `compressed` as far as it goes, tolerating a stream that has not ended yet.
fn decode(encoding: Encoding, compressed: &[u8]) -> Vec<u8> {
    match encoding {
        Encoding::Gzip => {
            let mut decoder = flate2::write::GzDecoder::new(Vec::new());
            decoder.write_all(compressed).expect("valid gzip");
            decoder.flush().expect("valid gzip");
            decoder.get_ref().clone()
        }
        Encoding::Brotli => {
            let mut decoder = brotli::DecompressorWriter::new(Vec::new(), 4096);
            decoder.write_all(compressed).expect("valid brotli");
            decoder.flush().expect("valid brotli");
            decoder.get_ref().clone()
        }
        Encoding::Zstd => {
            let mut decoder = zstd::stream::write::Decoder::new(Vec::new()).expect("zstd decoder");
            decoder.write_all(compressed).expect("valid zstd");
            decoder.flush().expect("valid zstd");
            decoder.get_ref().clone()
        }
    }
}

/// Decodes a complete stream strictly: a truncated stream is an error here.
fn decode_complete(encoding: Encoding, compressed: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut output = Vec::new();
    match encoding {
        Encoding::Gzip => flate2::read::GzDecoder::new(compressed)
            .read_to_end(&mut output)
            .map(drop),
        Encoding::Brotli => brotli::Decompressor::new(compressed, 4096)
            .read_to_end(&mut output)
            .map(drop),
        Encoding::Zstd => zstd::stream::read::Decoder::new(compressed)
            .and_then(|mut decoder| decoder.read_to_end(&mut output))
            .map(drop),
    }
    .expect("a complete, valid stream");
    output
}

fn html_response(body: Vec<u8>) -> Response<Full<Bytes>> {
    Response::builder()
        .header(CONTENT_TYPE, "text/html")
        .header(CONTENT_LENGTH, body.len())
        .header(ETAG, "\"v1\"")
        .body(Full::new(Bytes::from(body)))
        .expect("a literal response is valid")
}

#[tokio::test]
async fn every_algorithm_round_trips_a_large_body() {
    let text = sample_text(300 * 1024);
    for encoding in ALL {
        let response = compress_response(
            &CompressionConfig::default(),
            Some(encoding),
            false,
            crate::head_view::Response::from_http(html_response(text.clone())),
        )
        .into_http();
        assert_eq!(response.headers()[CONTENT_ENCODING], encoding.as_str());
        assert_eq!(response.headers()[VARY], "Accept-Encoding");
        assert_eq!(response.headers()[ETAG], "W/\"v1\"");
        assert!(!response.headers().contains_key(CONTENT_LENGTH));
        let compressed = response
            .into_body()
            .collect()
            .await
            .expect("compression does not fail")
            .to_bytes();
        assert!(
            compressed.len() < text.len() / 3,
            "{encoding}: {} bytes from {}",
            compressed.len(),
            text.len()
        );
        assert_eq!(decode_complete(encoding, &compressed), text, "{encoding}");
    }
}

#[tokio::test]
async fn every_level_and_an_empty_body_round_trip() {
    for encoding in ALL {
        for level in [0, 1, 5, 9, 42] {
            let body =
                CompressedBody::new(Full::new(Bytes::from_static(b"hi hi hi")), encoding, level)
                    .map_err(|(_, error)| error)
                    .expect("the encoder starts");
            let compressed = body.collect().await.expect("no failure").to_bytes();
            assert_eq!(decode_complete(encoding, &compressed), b"hi hi hi");
        }
        let body = CompressedBody::new(Full::new(Bytes::new()), encoding, 6)
            .map_err(|(_, error)| error)
            .expect("the encoder starts");
        let compressed = body.collect().await.expect("no failure").to_bytes();
        assert_eq!(decode_complete(encoding, &compressed), b"");
    }
}

#[tokio::test]
async fn without_an_accepted_encoding_only_vary_is_added() {
    let text = sample_text(1000);
    let response = compress_response(
        &CompressionConfig::default(),
        None,
        false,
        crate::head_view::Response::from_http(html_response(text.clone())),
    )
    .into_http();
    assert_eq!(response.headers()[VARY], "Accept-Encoding");
    assert!(!response.headers().contains_key(CONTENT_ENCODING));
    assert_eq!(response.headers()[ETAG], "\"v1\"");
    assert_eq!(response.body().size_hint().exact(), Some(1000));
    let body = response
        .into_body()
        .collect()
        .await
        .expect("no failure")
        .to_bytes();
    assert_eq!(body, text);
}

#[tokio::test]
async fn a_response_that_may_not_be_compressed_is_untouched() {
    let mut response = html_response(sample_text(1000));
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-transform"));
    let response = compress_response(
        &CompressionConfig::default(),
        Some(Encoding::Gzip),
        false,
        crate::head_view::Response::from_http(response),
    )
    .into_http();
    assert!(!response.headers().contains_key(VARY));
    assert!(!response.headers().contains_key(CONTENT_ENCODING));
    assert_eq!(response.headers()[CONTENT_LENGTH], "1000");

    let head = compress_response(
        &CompressionConfig::default(),
        Some(Encoding::Gzip),
        true,
        crate::head_view::Response::from_http(html_response(sample_text(1000))),
    )
    .into_http();
    assert!(!head.headers().contains_key(CONTENT_ENCODING));
}

/// One step of a scripted upstream body.
enum Step {
    Data(&'static str),
    /// Nothing ready yet; the waker is woken at once so the test's poll loop carries on.
    Pending,
    Trailers(&'static str, &'static str),
    Error,
}

/// A body that yields its steps in order, for watching what the compressor does between frames.
struct Scripted(VecDeque<Step>);

impl Body for Scripted {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        match self.0.pop_front() {
            None => Poll::Ready(None),
            Some(Step::Data(text)) => {
                Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(text.as_bytes())))))
            }
            Some(Step::Pending) => {
                context.waker().wake_by_ref();
                Poll::Pending
            }
            Some(Step::Trailers(name, value)) => {
                let mut trailers = HeaderMap::new();
                trailers.insert(
                    HeaderName::from_static(name),
                    HeaderValue::from_static(value),
                );
                Poll::Ready(Some(Ok(Frame::trailers(trailers))))
            }
            Some(Step::Error) => Poll::Ready(Some(Err(std::io::Error::other("upstream reset")))),
        }
    }
}

/// Polls once, as hyper would, turning `Pending` into `None` for the test's bookkeeping.
async fn next_frame<B: Body + Unpin>(
    body: &mut B,
) -> Option<Option<Result<Frame<B::Data>, B::Error>>> {
    std::future::poll_fn(|context| match Pin::new(&mut *body).poll_frame(context) {
        Poll::Pending => Poll::Ready(None),
        Poll::Ready(frame) => Poll::Ready(Some(frame)),
    })
    .await
}

#[tokio::test]
async fn a_streamed_body_is_flushed_whenever_the_upstream_pauses() {
    for encoding in ALL {
        let script = VecDeque::from([
            Step::Pending,
            Step::Data("first event\n"),
            Step::Pending,
            Step::Data("second "),
            Step::Data("event\n"),
            Step::Pending,
            Step::Data("last\n"),
        ]);
        let mut body = CompressedBody::new(Scripted(script), encoding, 6)
            .map_err(|(_, error)| error)
            .expect("the encoder starts");
        let mut sent = Vec::new();

        // Before the upstream sends anything there is nothing to send.
        assert!(next_frame(&mut body).await.is_none(), "{encoding}");

        // The next poll meets a pause after the first event and hands on everything so far,
        // decodable.
        let frame = next_frame(&mut body)
            .await
            .expect("ready")
            .expect("a frame");
        sent.extend_from_slice(&frame.expect("no error").into_data().expect("data"));
        assert_eq!(decode(encoding, &sent), b"first event\n", "{encoding}");

        // Both frames that were ready together arrive as one flushed frame.
        let frame = next_frame(&mut body)
            .await
            .expect("ready")
            .expect("a frame");
        sent.extend_from_slice(&frame.expect("no error").into_data().expect("data"));
        assert_eq!(
            decode(encoding, &sent),
            b"first event\nsecond event\n",
            "{encoding}"
        );

        // The rest is the end of the stream.
        while let Some(frame) = body.frame().await {
            sent.extend_from_slice(&frame.expect("no error").into_data().expect("data"));
        }
        assert!(body.is_end_stream());
        assert_eq!(
            decode_complete(encoding, &sent),
            b"first event\nsecond event\nlast\n",
            "{encoding}"
        );
    }
}

#[tokio::test]
async fn trailers_follow_the_end_of_the_compressed_stream() {
    for encoding in ALL {
        let script = VecDeque::from([
            Step::Data("some data "),
            Step::Data("and more"),
            Step::Trailers("grpc-status", "0"),
        ]);
        let body = CompressedBody::new(Scripted(script), encoding, 6)
            .map_err(|(_, error)| error)
            .expect("the encoder starts");
        let collected = body.collect().await.expect("no failure");
        let trailers = collected
            .trailers()
            .cloned()
            .expect("trailers passed through");
        assert_eq!(trailers["grpc-status"], "0");
        assert_eq!(
            decode_complete(encoding, &collected.to_bytes()),
            b"some data and more"
        );
    }
}

#[tokio::test]
async fn an_upstream_error_is_passed_on() {
    let script = VecDeque::from([Step::Data("partial"), Step::Error]);
    let body = CompressedBody::new(Scripted(script), Encoding::Gzip, 6)
        .map_err(|(_, error)| error)
        .expect("the encoder starts");
    let error = body.collect().await.expect_err("the upstream failed");
    assert_eq!(error.to_string(), "upstream reset");

    let identity = CompressedBody::identity(Scripted(VecDeque::from([Step::Error])));
    assert!(identity.collect().await.is_err());
}

#[tokio::test]
async fn a_fast_upstream_is_sent_in_bounded_pieces() {
    // Many frames, all ready at once: output leaves at least every HIGH_WATER bytes rather than
    // piling up until the end.
    let text = sample_text(2 * 1024 * 1024);
    let frames: VecDeque<Step> = text
        .chunks(16 * 1024)
        .map(|chunk| {
            let leaked: &'static [u8] = Box::leak(chunk.to_vec().into_boxed_slice());
            Step::Data(std::str::from_utf8(leaked).expect("the sample is ASCII"))
        })
        .collect();
    // Random-looking data would be needed to reach HIGH_WATER quickly; plain text at level 1
    // still produces more than 64 KiB over 2 MiB.
    let mut body = CompressedBody::new(Scripted(frames), Encoding::Gzip, 1)
        .map_err(|(_, error)| error)
        .expect("the encoder starts");
    let mut pieces = 0;
    let mut sent = Vec::new();
    while let Some(frame) = body.frame().await {
        let data = frame.expect("no error").into_data().expect("data");
        assert!(
            data.len() < HIGH_WATER + 64 * 1024,
            "piece of {}",
            data.len()
        );
        sent.extend_from_slice(&data);
        pieces += 1;
    }
    assert!(pieces > 1, "{pieces} pieces for {} bytes", sent.len());
    assert_eq!(decode_complete(Encoding::Gzip, &sent), text);
}

#[test]
fn the_default_config_is_the_documented_one() {
    let config = CompressionConfig::default();
    assert_eq!(config.level, 6);
    assert_eq!(config.min_length, 200);
    assert_eq!(config.algorithms, ALL);
    assert!(config.types.iter().any(|media_type| media_type == "text/*"));
}

#[test]
fn validation_names_what_would_be_valid() {
    assert_eq!(validate(&CompressionConfig::default()), Ok(()));
    let level = CompressionConfig {
        level: 10,
        ..CompressionConfig::default()
    };
    assert!(validate(&level)
        .expect_err("10 is too high")
        .contains("1 (fastest) to 9"));
    let twice = CompressionConfig {
        algorithms: vec![Encoding::Gzip, Encoding::Gzip],
        ..CompressionConfig::default()
    };
    assert!(validate(&twice)
        .expect_err("a duplicate")
        .contains("\"gzip\" twice"));
    let none = CompressionConfig {
        algorithms: Vec::new(),
        ..CompressionConfig::default()
    };
    assert_eq!(validate(&none), Ok(()));
    for bad in [
        "text",
        "text/",
        "/html",
        "te xt/html",
        "*/html",
        "text/html; charset=utf-8",
    ] {
        let config = CompressionConfig {
            types: vec![bad.to_string()],
            ..CompressionConfig::default()
        };
        assert!(validate(&config).is_err(), "{bad:?}");
    }
    let good = CompressionConfig {
        types: vec![
            "*/*".into(),
            "application/vnd.api+json".into(),
            "text/*".into(),
        ],
        ..CompressionConfig::default()
    };
    assert_eq!(validate(&good), Ok(()));
}
