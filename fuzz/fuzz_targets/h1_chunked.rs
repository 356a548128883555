//! The chunked decoder of weir's HTTP/1 codec: `weir::h1::chunked::Decoder`, which reads every
//! chunked request body.
//!
//! Input: the first byte picks how the rest is cut into reads (1 to 256 bytes each); the rest is
//! a chunked body as a client would send it, maybe followed by anything.
//!
//! Properties:
//! - the outcome (the data, where the body ends, or the error) does not depend on how the bytes
//!   are cut into reads: fed whole and fed in pieces, the decoder agrees;
//! - the bytes after the body are left in the buffer untouched;
//! - encoding the input as a chunked body (chunk sizes taken from the input) and decoding it
//!   gives the input back.
#![no_main]

use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use weir::h1::chunked::{ChunkError, Decoder, Step};

/// Decodes `input` fed in reads of `piece` bytes: the body, and what was left after it (or the
/// error).
fn decode(input: &[u8], piece: usize) -> Result<Option<(Vec<u8>, Vec<u8>)>, ChunkError> {
    let mut decoder = Decoder::new();
    let mut buffer = BytesMut::new();
    let mut body = Vec::new();
    let mut fed = 0;
    loop {
        match decoder.decode(&mut buffer)? {
            Step::Data(data) => {
                assert!(!data.is_empty(), "an empty data step");
                body.extend_from_slice(&data);
            }
            Step::Done => {
                let mut rest = buffer.to_vec();
                rest.extend_from_slice(&input[fed..]);
                return Ok(Some((body, rest)));
            }
            Step::More if fed == input.len() => return Ok(None),
            Step::More => {
                let end = (fed + piece).min(input.len());
                buffer.extend_from_slice(&input[fed..end]);
                fed = end;
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let piece = usize::from(first) + 1;
    let whole = decode(input, input.len().max(1));
    let pieces = decode(input, piece);
    let bytewise = decode(input, 1);
    assert_eq!(whole, pieces, "whole vs reads of {piece}");
    assert_eq!(whole, bytewise, "whole vs bytewise");
    if let Ok(Some((_, rest))) = &whole {
        assert!(input.ends_with(rest), "the bytes after the body were changed");
    }

    // Round trip: the input as data, in chunks of sizes from 1 to `piece`.
    let mut encoded = Vec::new();
    for chunk in input.chunks(piece) {
        encoded.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        encoded.extend_from_slice(chunk);
        encoded.extend_from_slice(b"\r\n");
    }
    encoded.extend_from_slice(b"0\r\n\r\nnext");
    let decoded = decode(&encoded, piece).expect("a well-formed body decodes");
    assert_eq!(decoded, Some((input.to_vec(), b"next".to_vec())));
});
