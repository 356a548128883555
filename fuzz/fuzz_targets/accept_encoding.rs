//! `Accept-Encoding`: `weir::compression::{quality, choose}`.
//!
//! Input: the server's `algorithms` on the first line (`br,zstd,gzip`, any order, any subset;
//! unknown names are skipped), then the header's lines.
//!
//! Properties:
//! - a quality is within 0..=1000, and does not depend on the order of the header's lines nor on
//!   a line naming another coding (`identity`);
//! - `choose` picks none exactly when every algorithm has quality 0; otherwise one of the
//!   algorithms, with the highest quality, ties going to the earliest in the server's list.
#![no_main]

#[path = "common.rs"]
mod common;

use http::header::{HeaderMap, HeaderValue, ACCEPT_ENCODING};
use libfuzzer_sys::fuzz_target;
use weir::compression::{choose, quality};
use weir::config::Encoding;

fuzz_target!(|data: &[u8]| {
    let lines = common::lines(data);
    let [algorithms, header_lines @ ..] = lines.as_slice() else {
        return;
    };
    let algorithms: Vec<Encoding> = String::from_utf8_lossy(algorithms)
        .split(',')
        .filter_map(|name| name.trim().parse().ok())
        .collect();
    let headers = common::values_of(&ACCEPT_ENCODING, header_lines.iter().copied());

    let all = [Encoding::Gzip, Encoding::Brotli, Encoding::Zstd];
    let qualities = all.map(|encoding| quality(&view(&headers), encoding));
    let q = |encoding: Encoding| qualities[all.iter().position(|&e| e == encoding).unwrap()];
    for (encoding, q) in all.iter().zip(qualities) {
        assert!(q <= 1000, "{encoding}: q = {q} for {headers:?}");
    }

    let mut reversed = HeaderMap::new();
    let values: Vec<&HeaderValue> = headers.get_all(ACCEPT_ENCODING).iter().collect();
    for value in values.into_iter().rev() {
        reversed.append(ACCEPT_ENCODING, value.clone());
    }
    let mut with_identity = headers.clone();
    with_identity.append(ACCEPT_ENCODING, HeaderValue::from_static("identity;q=0.5"));
    for encoding in all {
        assert_eq!(
            quality(&view(&reversed), encoding),
            q(encoding),
            "{encoding}: line order"
        );
        assert_eq!(
            quality(&view(&with_identity), encoding),
            q(encoding),
            "{encoding}: identity"
        );
    }

    match choose(&view(&headers), &algorithms) {
        None => {
            for &encoding in &algorithms {
                assert_eq!(q(encoding), 0, "{encoding} was acceptable in {headers:?}");
            }
        }
        Some(chosen) => {
            let position = algorithms
                .iter()
                .position(|&encoding| encoding == chosen)
                .expect("the chosen encoding is one of the algorithms");
            assert!(q(chosen) > 0, "{chosen} chosen at q=0 in {headers:?}");
            for (index, &other) in algorithms.iter().enumerate() {
                assert!(
                    q(other) <= q(chosen),
                    "{other} beats {chosen} in {headers:?}"
                );
                if q(other) == q(chosen) {
                    assert!(index >= position, "{other} ties {chosen} and comes first");
                }
            }
        }
    }
});

/// The map as the request's view, which the proxy reads.
fn view(map: &HeaderMap) -> weir::head_view::Headers {
    weir::head_view::Headers::from_map(map)
}
