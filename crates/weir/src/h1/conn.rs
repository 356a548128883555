//! One client connection's task: read a head, hand the request to the proxy (boxed, only while
//! it runs), write the response, and again while keep-alive allows. Nothing else runs for the
//! connection: no task of its own for the body, no channel between reader and writer.

use std::future::poll_fn;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use bytes::Buf;
use http::{Method, Request, Version};
use tokio::time::Instant;

use super::body::BodyReader;
use super::head::{self, Framing, Parsed, Refusal};
use super::io::{read_into_scratch, BodyState, Inner, Shared, SharedStream, Stream, CONTINUE};
use super::write::{write_response, RequestFacts};
use crate::body::ClientBody;
use crate::proxy::{ClientInfo, Proxy};

/// The connection settings in force when the connection came.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    pub header_timeout: Duration,
    pub keepalive_timeout: Duration,
    pub keepalive_requests: u64,
    pub max_header_size: usize,
}

/// After an answer that ends the connection, how long unread request bytes are read and thrown
/// away so that closing does not reset the connection before the client has read the answer
/// (nginx's lingering close).
const LINGER_TIME: Duration = Duration::from_secs(2);
/// The most bytes thrown away while lingering.
const LINGER_BYTES: usize = 1024 * 1024;

/// Serves requests on `io` until the client closes, keep-alive ends, or `stop` turns true
/// (after the response in progress). `proxy` gives the proxy in force when a request starts.
/// `tls` is the TLS connection `io` runs over, if any (for forwarding headers and the log).
pub async fn serve<F>(
    io: Box<dyn Stream>,
    peer: SocketAddr,
    settings: Settings,
    proxy: F,
    mut stop: tokio::sync::watch::Receiver<bool>,
    tls: Option<Arc<crate::tls::TlsInfo>>,
) where
    F: Fn() -> Arc<Proxy>,
{
    let shared = Shared::new(io);
    let mut requests: u64 = 0;
    let linger = loop {
        if *stop.borrow() {
            break false;
        }
        // The first head must come within header_timeout of the accept; later ones may wait
        // keepalive_timeout for their first byte, and then header_timeout for the rest.
        let idle = if requests == 0 {
            settings.header_timeout
        } else {
            settings.keepalive_timeout
        };
        let read = tokio::select! {
            read = read_head(&shared, settings, idle) => read,
            _ = stop.changed() => break false,
        };
        let head = match read {
            Ok(Some(head)) => head,
            Ok(None) => break false,
            Err(refusal) => {
                let proxy = proxy();
                proxy.record_refused(peer, refusal.status());
                if refusal == Refusal::HeadTimeout {
                    // nginx closes without an answer too.
                    break false;
                }
                tracing::debug!(client = %peer, %refusal, "request refused");
                let response = crate::error::status_response(refusal.status());
                let facts = RequestFacts {
                    head: false,
                    version: Version::HTTP_11,
                    keep_alive: false,
                };
                let _ =
                    write_response(&mut SharedStream(Arc::clone(&shared)), response, facts).await;
                break true;
            }
        };
        requests += 1;
        let proxy = proxy();
        let last = !head.keep_alive
            || settings.keepalive_timeout.is_zero()
            || (settings.keepalive_requests != 0 && requests >= settings.keepalive_requests)
            || *stop.borrow();
        let facts = RequestFacts {
            head: head.parts.method == Method::HEAD,
            version: head.parts.version,
            keep_alive: !last,
        };
        let framing = head.framing;
        let body = {
            let mut inner = shared.lock();
            inner.request = requests;
            inner.body = match framing {
                Framing::Empty => BodyState::Done,
                Framing::Length(length) => BodyState::Length(length),
                Framing::Chunked => BodyState::Chunked(super::chunked::Decoder::new()),
            };
            if head.expect_continue {
                inner.continue_due = CONTINUE.len();
            }
            match framing {
                Framing::Empty => ClientBody::Empty,
                Framing::Length(length) => {
                    ClientBody::H1(BodyReader::new(Arc::clone(&shared), requests, Some(length)))
                }
                Framing::Chunked => {
                    ClientBody::H1(BodyReader::new(Arc::clone(&shared), requests, None))
                }
            }
        };
        let request = Request::from_parts(head.parts, body);
        let client = ClientInfo {
            peer,
            last_request: last,
            tls: tls.clone(),
        };
        let mut handling = Box::pin(proxy.handle(client, request));
        let response = if framing == Framing::Empty {
            // With no body to read, a read that finds the connection closed means the client
            // left: the request is dropped (and logged as 499).
            tokio::select! {
                response = &mut handling => response,
                () = closed(&shared, settings.max_header_size) => break false,
            }
        } else {
            (&mut handling).await
        };
        drop(handling);
        let mut response = response;
        let upgrade = response
            .extensions_mut()
            .remove::<crate::tunnel::Upgrade>()
            .filter(|_| response.status() == http::StatusCode::SWITCHING_PROTOCOLS);
        let mut stream = SharedStream(Arc::clone(&shared));
        let Ok(written) = write_response(&mut stream, response, facts).await else {
            break false;
        };
        if let Some(upgrade) = upgrade {
            {
                let mut inner = shared.lock();
                inner.body = BodyState::Done;
                inner.request = 0;
            }
            crate::tunnel::run(stream, upgrade).await;
            break false;
        }
        if !written.keep_alive || last {
            break !body_done(&shared);
        }
        if !body_done(&shared) {
            // The answer came before the body was read whole (a 413, an early answer from the
            // upstream): the rest of it cannot be told from a next request.
            break true;
        }
        shared.lock().release_buffer();
    };
    let mut stream = SharedStream(shared);
    close(&mut stream, linger).await;
}

fn body_done(shared: &Shared) -> bool {
    matches!(shared.lock().body, BodyState::Done)
}

/// Reads until a whole head is in. `Ok(None)`: the client closed, or sent nothing for `idle`.
async fn read_head(
    shared: &Shared,
    settings: Settings,
    idle: Duration,
) -> Result<Option<Box<head::Head>>, Refusal> {
    let mut deadline = Instant::now() + idle;
    let mut started = false;
    loop {
        {
            let mut inner = shared.lock();
            if !inner.leftover.is_empty() {
                match head::parse(&inner.leftover, settings.max_header_size)? {
                    Parsed::Complete(head, length) => {
                        inner.leftover.advance(length);
                        inner.release_buffer();
                        return Ok(Some(head));
                    }
                    Parsed::Partial if !started => {
                        started = true;
                        deadline = Instant::now() + settings.header_timeout;
                    }
                    Parsed::Partial => {}
                }
            }
        }
        let read = tokio::time::timeout_at(
            deadline,
            poll_fn(|context| {
                let mut inner = shared.lock();
                let Inner { io, leftover, .. } = &mut *inner;
                read_into_scratch(&mut **io, context, |bytes| {
                    if bytes.is_empty() {
                        return Read::Closed;
                    }
                    if !leftover.is_empty() {
                        leftover.extend_from_slice(bytes);
                        return Read::More;
                    }
                    // The common case: a whole head in one read, parsed where it landed.
                    match head::parse(bytes, settings.max_header_size) {
                        Ok(Parsed::Complete(head, length)) => {
                            leftover.extend_from_slice(&bytes[length..]);
                            Read::Head(head)
                        }
                        Ok(Parsed::Partial) => {
                            leftover.extend_from_slice(bytes);
                            Read::More
                        }
                        Err(refusal) => Read::Refused(refusal),
                    }
                })
            }),
        )
        .await;
        match read {
            Err(_elapsed) if started => return Err(Refusal::HeadTimeout),
            Err(_elapsed) => return Ok(None),
            Ok(Err(error)) => {
                tracing::debug!(%error, "client connection read failed");
                return Ok(None);
            }
            Ok(Ok(Read::Closed)) => return Ok(None),
            Ok(Ok(Read::Head(head))) => return Ok(Some(head)),
            Ok(Ok(Read::Refused(refusal))) => return Err(refusal),
            Ok(Ok(Read::More)) => {
                if !started {
                    started = true;
                    deadline = Instant::now() + settings.header_timeout;
                }
            }
        }
    }
}

enum Read {
    Closed,
    More,
    Head(Box<head::Head>),
    Refused(Refusal),
}

/// Completes when the client closes the connection (or it fails). Bytes that come meanwhile
/// (a pipelined request) are kept, up to one head's worth; past that, reading stops.
async fn closed(shared: &Shared, limit: usize) {
    poll_fn(|context| loop {
        let mut inner = shared.lock();
        let Inner { io, leftover, .. } = &mut *inner;
        if leftover.len() > limit {
            return Poll::Pending;
        }
        match read_into_scratch(&mut **io, context, |bytes| {
            leftover.extend_from_slice(bytes);
            bytes.is_empty()
        }) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(false)) => continue,
            Poll::Ready(Ok(true) | Err(_)) => return Poll::Ready(()),
        }
    })
    .await;
}

/// Ends the connection: our side is shut, and when `linger`, the client's unread bytes are
/// read and dropped for a while, so the answer is not lost to a reset.
async fn close(stream: &mut SharedStream, linger: bool) {
    use tokio::io::AsyncWriteExt;
    let _ = stream.shutdown().await;
    if !linger {
        return;
    }
    let discard = async {
        let mut thrown = 0;
        loop {
            let read = poll_fn(|context| {
                let mut inner = stream.0.lock();
                inner.leftover.clear();
                read_into_scratch(&mut *inner.io, context, <[u8]>::len)
            })
            .await;
            match read {
                Ok(0) | Err(_) => return,
                Ok(read) => thrown += read,
            }
            if thrown > LINGER_BYTES {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, discard).await;
}
