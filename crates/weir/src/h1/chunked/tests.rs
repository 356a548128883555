use super::*;

/// Decodes `input` fed in pieces of `step` bytes; returns the body or the error.
fn decode(input: &[u8], step: usize) -> Result<Vec<u8>, ChunkError> {
    let mut decoder = Decoder::new();
    let mut buffer = BytesMut::new();
    let mut body = Vec::new();
    let mut fed = 0;
    loop {
        match decoder.decode(&mut buffer)? {
            Step::Data(data) => body.extend_from_slice(&data),
            Step::Done => return Ok(body),
            Step::More => {
                if fed == input.len() {
                    return Err(ChunkError("incomplete"));
                }
                let end = (fed + step).min(input.len());
                buffer.extend_from_slice(&input[fed..end]);
                fed = end;
            }
        }
    }
}

#[test]
fn decodes_in_any_split() {
    let input = b"5\r\nhello\r\n1;name=value;q=\"a\\\"b\"\r\n \r\n0\r\nTrailer: x\r\n\r\n";
    for step in 1..input.len() {
        assert_eq!(decode(input, step).unwrap(), b"hello ", "step {step}");
    }
}

#[test]
fn leaves_the_bytes_after_the_body() {
    let mut decoder = Decoder::new();
    let mut buffer = BytesMut::from(&b"2\r\nab\r\n0\r\n\r\nGET / HTTP/1.1\r\n"[..]);
    assert_eq!(
        decoder.decode(&mut buffer).unwrap(),
        Step::Data(Bytes::from_static(b"ab"))
    );
    assert_eq!(decoder.decode(&mut buffer).unwrap(), Step::Done);
    assert_eq!(&buffer[..], b"GET / HTTP/1.1\r\n");
}

#[test]
fn refuses_what_smuggling_relies_on() {
    let cases: &[&[u8]] = &[
        b"5\nhello\r\n0\r\n\r\n",               // bare LF after the size
        b"5\r\nhello\n0\r\n\r\n",               // bare LF after the data
        b"5\r\nhelloXX0\r\n\r\n",               // data longer than its size
        b"\r\n0\r\n\r\n",                       // empty size line
        b"-5\r\nhello\r\n0\r\n\r\n",            // sign
        b"0x5\r\nhello\r\n0\r\n\r\n",           // 0x prefix
        b"1000000000000000\r\n",                // 16 hex digits
        b"5;a\nb\r\nhello\r\n0\r\n\r\n",        // LF inside an extension
        b"5;\x01\r\nhello\r\n0\r\n\r\n",        // control byte in an extension
        b"5\r\nhello\r\n0\r\nTrailer: x\n\r\n", // bare LF in the trailers
        b"5\r\nhello\r\n0\r\n\n",               // bare LF as the last line
        b"5\r\rhello\r\n0\r\n\r\n",             // CR without LF
    ];
    for case in cases {
        assert!(
            decode(case, case.len()).is_err(),
            "accepted {:?}",
            String::from_utf8_lossy(case)
        );
    }
}

#[test]
fn bounds_the_size_line_and_the_trailers() {
    let mut long_extension = b"1;".to_vec();
    long_extension.extend(std::iter::repeat_n(b'a', MAX_SIZE_LINE));
    long_extension.extend_from_slice(b"\r\nx\r\n0\r\n\r\n");
    assert_eq!(
        decode(&long_extension, 1000),
        Err(ChunkError("chunk size line too long"))
    );
    let mut trailers = b"0\r\n".to_vec();
    for _ in 0..(MAX_TRAILERS / 8 + 1) {
        trailers.extend_from_slice(b"x-t: abc\r\n");
    }
    trailers.extend_from_slice(b"\r\n");
    assert_eq!(
        decode(&trailers, 1000),
        Err(ChunkError("trailer section too large"))
    );
}

#[test]
fn the_largest_size_is_fifteen_hex_digits() {
    let mut decoder = Decoder::new();
    let mut buffer = BytesMut::from(&b"fffffffffffffff\r\nab"[..]);
    assert_eq!(
        decoder.decode(&mut buffer).unwrap(),
        Step::Data(Bytes::from_static(b"ab"))
    );
}
