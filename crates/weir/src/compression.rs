//! Response compression: which encoding a client accepts (`Accept-Encoding` q-values), whether a
//! response may be compressed at all (nginx's gzip filter rules), the header edits that go with it,
//! and [`CompressedBody`], which compresses a streamed body frame by frame without holding it whole.
//!
//! The proxy calls [`choose`] when the request arrives (the request headers are gone by the time the
//! response comes back), then [`compress_response`] on the response head and body.

use std::io::{self, Write};
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::buf::Writer;
use bytes::{BufMut, Bytes, BytesMut};
use http::header::{
    HeaderMap, ACCEPT_ENCODING, ACCEPT_RANGES, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH,
    CONTENT_RANGE, CONTENT_TYPE, ETAG, VARY,
};
use http::StatusCode;
use http_body::{Body, Frame, SizeHint};

use crate::config::{CompressionConfig, Encoding};
use crate::head_view::{text, Headers, Response};

#[cfg(test)]
mod tests;

/// A boxed error: the upstream body's own error, or the encoder's.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Compressed output waiting past this many bytes is sent at once even while the upstream still
/// has data ready, so a fast upstream does not make us collect a large response in memory.
const HIGH_WATER: usize = 64 * 1024;

/// brotli's window: 512 KiB (lgwin 19), as ngx_brotli's default `brotli_window`. The format's
/// 4 MiB default would cost several MiB of encoder memory per response in flight.
const BROTLI_WINDOW_LOG: u32 = 19;

/// zstd's window: 512 KiB, for the same reason as brotli's.
const ZSTD_WINDOW_LOG: u32 = 19;

/// brotli's internal output buffer; its size only sets how often the encoder hands bytes on.
const BROTLI_BUFFER_SIZE: usize = 16 * 1024;

/// The HTTP side of [`Encoding`] (a value of the config, shared with static files).
impl Encoding {
    /// Whether an `Accept-Encoding` coding names this encoding (`x-gzip` is gzip, RFC 9110 8.4.1.3).
    fn matches(self, coding: &str) -> bool {
        coding.eq_ignore_ascii_case(self.as_str())
            || (self == Encoding::Gzip && coding.eq_ignore_ascii_case("x-gzip"))
    }
}

/// Checks a `[compression]` table beyond its types, for the config parser: `level` within 1..=9,
/// no encoding listed twice in `algorithms`, and each of `types` of the form `type/subtype`,
/// `type/*` or `*/*`. The error says what would be valid.
pub fn validate(config: &CompressionConfig) -> Result<(), String> {
    if !(1..=9).contains(&config.level) {
        return Err(format!(
            "level = {} is out of range; use 1 (fastest) to 9 (smallest)",
            config.level
        ));
    }
    for (index, encoding) in config.algorithms.iter().enumerate() {
        if config.algorithms[..index].contains(encoding) {
            return Err(format!("algorithms lists \"{encoding}\" twice"));
        }
    }
    for pattern in &config.types {
        let valid = pattern.split_once('/').is_some_and(|(main, sub)| {
            let token = |text: &str| {
                !text.is_empty()
                    && text
                        .bytes()
                        .all(|byte| byte.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&byte))
            };
            (main == "*" && sub == "*") || (token(main) && (sub == "*" || token(sub)))
        });
        if !valid {
            return Err(format!(
                "types entry {pattern:?} is not a media type; use \"type/subtype\" or \"type/*\", as in \"text/*\" or \"application/json\""
            ));
        }
    }
    Ok(())
}

/// The quality, in thousandths (0..=1000), that the request's `Accept-Encoding` gives `encoding`.
///
/// An explicit entry wins over `*`; with neither, or with no `Accept-Encoding` at all, the answer
/// is 0. (RFC 9110 lets a server read a missing header as "anything goes", but like nginx we
/// compress only for clients that say they can decode.) Every header line counts. A malformed
/// q-value counts as 0, the safe reading.
pub fn quality(request_headers: &Headers, encoding: Encoding) -> u16 {
    let mut explicit: Option<u16> = None;
    let mut wildcard: Option<u16> = None;
    for value in request_headers.get_all(ACCEPT_ENCODING) {
        let Some(text) = crate::head_view::text(value) else {
            continue;
        };
        for element in text.split(',') {
            let mut parts = element.split(';');
            let coding = parts.next().unwrap_or_default().trim();
            if coding.is_empty() {
                continue;
            }
            let mut q = 1000;
            for parameter in parts {
                if let Some((name, value)) = parameter.split_once('=') {
                    if name.trim().eq_ignore_ascii_case("q") {
                        q = parse_qvalue(value.trim()).unwrap_or(0);
                    }
                }
            }
            let slot = if encoding.matches(coding) {
                &mut explicit
            } else if coding == "*" {
                &mut wildcard
            } else {
                continue;
            };
            *slot = Some(slot.map_or(q, |previous| previous.max(q)));
        }
    }
    explicit.or(wildcard).unwrap_or(0)
}

/// Parses an RFC 9110 qvalue (`0`, `0.5`, `1.000`) into thousandths.
fn parse_qvalue(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let mut thousandths: u16 = 0;
    for (index, digit) in fraction.bytes().enumerate() {
        thousandths += u16::from(digit - b'0') * [100, 10, 1][index];
    }
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// The encoding to use for a request: among `algorithms`, the one with the highest q-value above 0,
/// ties going to the earlier entry of `algorithms` (the server's preference). `None` means send the
/// response as it is; even `identity;q=0` gets an uncompressed response rather than a 406, as
/// nginx does.
pub fn choose(request_headers: &Headers, algorithms: &[Encoding]) -> Option<Encoding> {
    let mut best: Option<(Encoding, u16)> = None;
    for &encoding in algorithms {
        let q = quality(request_headers, encoding);
        if q > 0 && best.is_none_or(|(_, best_q)| q > best_q) {
            best = Some((encoding, q));
        }
    }
    best.map(|(encoding, _)| encoding)
}

/// Whether a response may be compressed, whatever the client accepts. When it may, the response
/// varies by `Accept-Encoding` and must say so even to a client that gets it uncompressed.
///
/// Not compressed: answers to HEAD (`is_head`; nginx does the same), statuses without a body or
/// with a partial one (1xx, 204, 205, 206, 304, any `Content-Range`), a body already encoded
/// (any `Content-Encoding`), `Cache-Control: no-transform`, a `Content-Type` missing or not in
/// `types`, and a `Content-Length` below `min_length`. Unlike nginx, which compresses only 200,
/// 403 and 404, other statuses with a body (201, 422 JSON errors, 500 pages) are compressed too.
pub fn should_compress(
    is_head: bool,
    status: StatusCode,
    response_headers: &Headers,
    config: &CompressionConfig,
) -> bool {
    if is_head
        || status.is_informational()
        || matches!(status.as_u16(), 204 | 205 | 206 | 304)
        || response_headers.contains(CONTENT_RANGE)
    {
        return false;
    }
    let already_encoded = response_headers
        .get_all(CONTENT_ENCODING)
        .any(|value| !value.trim_ascii().is_empty());
    if already_encoded || has_no_transform(response_headers) {
        return false;
    }
    let type_listed = response_headers
        .get(CONTENT_TYPE)
        .and_then(text)
        .is_some_and(|content_type| type_matches(content_type, &config.types));
    if !type_listed {
        return false;
    }
    match response_headers.get(CONTENT_LENGTH) {
        None => true,
        Some(value) => text(value)
            .and_then(|text| text.trim().parse::<u64>().ok())
            // An unreadable length is left alone rather than guessed at.
            .is_some_and(|length| length >= config.min_length),
    }
}

/// Whether `Cache-Control` forbids transforming the body (RFC 9111 5.2.2.6).
fn has_no_transform(response_headers: &Headers) -> bool {
    response_headers
        .get_all(CACHE_CONTROL)
        .filter_map(text)
        .flat_map(|text| text.split(','))
        .any(|directive| directive.trim().eq_ignore_ascii_case("no-transform"))
}

/// Whether a `Content-Type` value is one of `types` (`type/subtype`, `type/*`, or `*/*`).
pub fn type_matches(content_type: &str, types: &[String]) -> bool {
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    let Some((main_type, _)) = media_type.split_once('/') else {
        return false;
    };
    types
        .iter()
        .any(|pattern| match pattern.strip_suffix("/*") {
            Some("*") => true,
            Some(pattern_main) => pattern_main.eq_ignore_ascii_case(main_type),
            None => pattern.eq_ignore_ascii_case(media_type),
        })
}

/// Adds `Accept-Encoding` to `Vary`, merged into one line with what is there, unless `Vary`
/// already names it or is `*`.
pub fn add_vary(response_headers: &mut Headers) {
    let mut existing: Vec<&str> = Vec::new();
    for value in response_headers.get_all(VARY) {
        // A Vary line that is not text cannot be merged safely; leave the header as it is.
        let Some(text) = text(value) else {
            return;
        };
        for field in text.split(',').map(str::trim) {
            if field == "*" || field.eq_ignore_ascii_case("accept-encoding") {
                return;
            }
            if !field.is_empty() {
                existing.push(field);
            }
        }
    }
    if existing.is_empty() {
        response_headers.set(VARY, "Accept-Encoding");
        return;
    }
    // The fields came from text values, so the join is one too.
    let merged = format!("{}, Accept-Encoding", existing.join(", "));
    response_headers.set(VARY, merged);
}

/// The header edits for a body about to be compressed with `encoding`: `Content-Encoding` set,
/// `Content-Length` and `Accept-Ranges` removed (the length is unknown until the end and byte
/// ranges of the compressed body are not offered), a strong `ETag` weakened (the bytes differ
/// from the identity representation's, but the meaning does not, as nginx does), `Vary` merged.
pub fn set_encoding_headers(response_headers: &mut Headers, encoding: Encoding) {
    response_headers.set(CONTENT_ENCODING, encoding.as_str());
    response_headers.remove(CONTENT_LENGTH);
    response_headers.remove(ACCEPT_RANGES);
    if let Some(etag) = response_headers.get(ETAG) {
        if etag.starts_with(b"\"") {
            let mut weak = Vec::with_capacity(etag.len() + 2);
            weak.extend_from_slice(b"W/");
            weak.extend_from_slice(etag);
            // A valid value with two visible ASCII bytes in front is still valid.
            response_headers.set(ETAG, weak);
        }
    }
    add_vary(response_headers);
}

/// Compresses a response if it may be and the client accepts an encoding: `accepted` is what
/// [`choose`] returned for the request. The body is wrapped either way, so the caller has one type.
pub fn compress_response<B>(
    config: &CompressionConfig,
    accepted: Option<Encoding>,
    is_head: bool,
    response: Response<B>,
) -> Response<CompressedBody<B>>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    let (mut parts, body) = response.into_parts();
    if !should_compress(is_head, parts.status, &parts.headers, config) {
        return Response::from_parts(parts, CompressedBody::identity(body));
    }
    let Some(encoding) = accepted else {
        add_vary(&mut parts.headers);
        return Response::from_parts(parts, CompressedBody::identity(body));
    };
    compress_with(config, encoding, Response::from_parts(parts, body))
}

/// Compresses a response the caller has already found compressible ([`should_compress`]) with
/// the `encoding` the client accepts, so a caller that checked once does not check twice.
pub fn compress_with<B>(
    config: &CompressionConfig,
    encoding: Encoding,
    response: Response<B>,
) -> Response<CompressedBody<B>>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    let (mut parts, body) = response.into_parts();
    match CompressedBody::new(body, encoding, config.level) {
        Ok(body) => {
            set_encoding_headers(&mut parts.headers, encoding);
            Response::from_parts(parts, body)
        }
        Err((body, error)) => {
            // An encoder that cannot start (zstd refusing a parameter) costs compression, not the
            // response.
            tracing::warn!(%encoding, %error, "compression encoder failed to start; sending the body as it is");
            add_vary(&mut parts.headers);
            Response::from_parts(parts, CompressedBody::identity(body))
        }
    }
}

/// One encoder writing into a growable buffer that the body drains after each step.
enum Encoder {
    Gzip(flate2::write::GzEncoder<Writer<BytesMut>>),
    // Boxed: the brotli state is a few KiB, the other variants a few words.
    Brotli(Box<brotli::CompressorWriter<Writer<BytesMut>>>),
    Zstd(zstd::stream::write::Encoder<'static, Writer<BytesMut>>),
}

impl Encoder {
    /// An encoder at `level` on gzip's 1..=9 scale (clamped to it); see `CompressionConfig::level`.
    fn new(encoding: Encoding, level: u32) -> io::Result<Encoder> {
        let level = level.clamp(1, 9);
        let output = BytesMut::new().writer();
        Ok(match encoding {
            Encoding::Gzip => Encoder::Gzip(flate2::write::GzEncoder::new(
                output,
                flate2::Compression::new(level),
            )),
            Encoding::Brotli => Encoder::Brotli(Box::new(brotli::CompressorWriter::new(
                output,
                BROTLI_BUFFER_SIZE,
                level - 1,
                BROTLI_WINDOW_LOG,
            ))),
            Encoding::Zstd => {
                // `level` is at most 9, so the cast cannot wrap.
                let mut encoder = zstd::stream::write::Encoder::new(output, level as i32)?;
                encoder.window_log(ZSTD_WINDOW_LOG)?;
                Encoder::Zstd(encoder)
            }
        })
    }

    fn write(&mut self, data: &[u8]) -> io::Result<()> {
        match self {
            Encoder::Gzip(encoder) => encoder.write_all(data),
            Encoder::Brotli(encoder) => encoder.write_all(data),
            Encoder::Zstd(encoder) => encoder.write_all(data),
        }
    }

    /// Emits everything written so far as complete, decodable output (a sync flush).
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Gzip(encoder) => encoder.flush(),
            Encoder::Brotli(encoder) => encoder.flush(),
            Encoder::Zstd(encoder) => encoder.flush(),
        }
    }

    fn output(&mut self) -> &mut BytesMut {
        match self {
            Encoder::Gzip(encoder) => encoder.get_mut().get_mut(),
            Encoder::Brotli(encoder) => encoder.get_mut().get_mut(),
            Encoder::Zstd(encoder) => encoder.get_mut().get_mut(),
        }
    }

    /// Takes the compressed bytes produced so far; the encoder only ever appends.
    fn take_output(&mut self) -> Bytes {
        self.output().split().freeze()
    }

    /// Ends the stream and returns what is left of the output.
    fn finish(self) -> io::Result<Bytes> {
        let output = match self {
            Encoder::Gzip(encoder) => encoder.finish()?,
            Encoder::Brotli(encoder) => encoder.into_inner(),
            Encoder::Zstd(encoder) => encoder.finish()?,
        };
        Ok(output.into_inner().freeze())
    }
}

/// Where a [`CompressedBody`] is in its stream.
enum State {
    /// Frames pass through untouched.
    Identity,
    /// Data frames go into the encoder. `dirty` says input went in since the last flush.
    Compressing { encoder: Encoder, dirty: bool },
    /// The encoder has finished; the upstream's trailers, if any, are still to be sent.
    Finished { trailers: Option<HeaderMap> },
}

/// A response body compressed on the fly, or passed through as it is.
///
/// Each upstream data frame goes into the encoder as it arrives. While the upstream has more data
/// ready the output is held only up to `HIGH_WATER`; as soon as the upstream has nothing ready,
/// the encoder is sync-flushed and everything so far is sent, so a streaming response (server-sent
/// events, a slow report) reaches the client as it is produced. Trailers pass through after the
/// end of the compressed stream.
pub struct CompressedBody<B> {
    inner: B,
    state: State,
}

impl<B> CompressedBody<B> {
    /// A body passed through without compression.
    pub fn identity(inner: B) -> CompressedBody<B> {
        CompressedBody {
            inner,
            state: State::Identity,
        }
    }

    /// A body compressed with `encoding` at `level` (gzip's 1..=9 scale). On failure the body is
    /// handed back with the error, so the caller can still send it as it is.
    pub fn new(
        inner: B,
        encoding: Encoding,
        level: u32,
    ) -> Result<CompressedBody<B>, (B, io::Error)> {
        match Encoder::new(encoding, level) {
            Ok(encoder) => Ok(CompressedBody {
                inner,
                state: State::Compressing {
                    encoder,
                    dirty: false,
                },
            }),
            Err(error) => Err((inner, error)),
        }
    }

    /// Ends the encoder's stream and moves to `Finished`, returning the last compressed bytes.
    fn finish(&mut self, trailers: Option<HeaderMap>) -> Result<Bytes, BoxError> {
        let state = std::mem::replace(&mut self.state, State::Finished { trailers });
        match state {
            State::Compressing { encoder, .. } => Ok(encoder.finish()?),
            // Only called while compressing; anything else has no stream to end.
            State::Identity | State::Finished { .. } => Ok(Bytes::new()),
        }
    }
}

fn data_frame(bytes: Bytes) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
    Poll::Ready(Some(Ok(Frame::data(bytes))))
}

impl<B> Body for CompressedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        loop {
            let (encoder, dirty) = match &mut this.state {
                State::Identity => {
                    return Pin::new(&mut this.inner)
                        .poll_frame(context)
                        .map(|frame| frame.map(|frame| frame.map_err(Into::into)));
                }
                State::Finished { trailers } => {
                    return Poll::Ready(
                        trailers
                            .take()
                            .map(|trailers| Ok(Frame::trailers(trailers))),
                    );
                }
                State::Compressing { encoder, dirty } => (encoder, dirty),
            };
            match Pin::new(&mut this.inner).poll_frame(context) {
                Poll::Pending => {
                    // The upstream has nothing ready: send what we have, decodable up to here.
                    if *dirty {
                        encoder.flush()?;
                        *dirty = false;
                    }
                    let output = encoder.take_output();
                    if output.is_empty() {
                        return Poll::Pending;
                    }
                    return data_frame(output);
                }
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => {
                        if data.is_empty() {
                            continue;
                        }
                        encoder.write(&data)?;
                        *dirty = true;
                        if encoder.output().len() >= HIGH_WATER {
                            return data_frame(encoder.take_output());
                        }
                    }
                    Err(frame) => {
                        // Trailers end the body; frames of other kinds carry nothing we can send.
                        if let Ok(trailers) = frame.into_trailers() {
                            let output = this.finish(Some(trailers))?;
                            if !output.is_empty() {
                                return data_frame(output);
                            }
                        }
                    }
                },
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error.into()))),
                Poll::Ready(None) => {
                    let output = this.finish(None)?;
                    if !output.is_empty() {
                        return data_frame(output);
                    }
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.state {
            State::Identity => self.inner.is_end_stream(),
            State::Compressing { .. } => false,
            State::Finished { trailers } => trailers.is_none(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.state {
            State::Identity => self.inner.size_hint(),
            // The compressed size is known only at the end.
            State::Compressing { .. } | State::Finished { .. } => SizeHint::default(),
        }
    }
}
