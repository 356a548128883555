//! Buffering for Gunicorn's sync workers, as nginx does by default:
//! - `request_buffering`: the whole request body is read before the upstream is contacted, in
//!   memory up to [`MEMORY_LIMIT`] and in an unlinked temp file past it, so a slow upload never
//!   holds a worker;
//! - `response_buffering`: the upstream's response is read ahead of the client, so a worker is
//!   freed as soon as it has written its answer, however slowly the client reads.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use http_body::{Body as _, Frame, SizeHint};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use tokio::io::{AsyncRead, AsyncWriteExt, ReadBuf};

use crate::body::{Body, BoxError, RequestBody};
use crate::error::ProxyError;
use crate::upstream::UpstreamBody;

/// Request bodies up to this size stay in memory; larger ones go to a temp file.
pub const MEMORY_LIMIT: usize = 1 << 20;

/// Responses whose `Content-Length` is at most this fit in the socket buffers between the upstream
/// and weir, so the worker is free at once without a read-ahead task.
pub const READ_AHEAD_THRESHOLD: u64 = 64 * 1024;

/// Frames the read-ahead task may hold for a slow client (hyper's frames are up to 16 KiB or so,
/// so this is roughly 16 MiB per response); past it, the upstream is read at the client's pace.
pub const READ_AHEAD_FRAMES: usize = 1024;

/// Reads the client's whole body, failing with 413 past `limit` (0 = no limit) and with 408 when
/// no bytes come for `timeout` (`body_timeout`).
pub async fn read_request_body(
    mut incoming: Incoming,
    limit: u64,
    timeout: std::time::Duration,
) -> Result<RequestBody, ProxyError> {
    let limit = if limit == 0 { u64::MAX } else { limit };
    let mut memory = BytesMut::new();
    let mut spill: Option<(tokio::fs::File, u64)> = None;
    while let Some(frame) = tokio::time::timeout(timeout, incoming.frame())
        .await
        .map_err(|_elapsed| ProxyError::BodyTimeout)?
    {
        let frame = frame.map_err(|_| ProxyError::ClientGone)?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let received = memory.len() as u64
            + spill.as_ref().map_or(0, |(_, written)| *written)
            + data.len() as u64;
        if received > limit {
            return Err(ProxyError::BodyTooLarge { limit });
        }
        match &mut spill {
            Some((file, written)) => {
                file.write_all(&data).await.map_err(spool_error)?;
                *written += data.len() as u64;
            }
            None if memory.len() + data.len() > MEMORY_LIMIT => {
                let mut file = spool_file().await.map_err(spool_error)?;
                file.write_all(&memory).await.map_err(spool_error)?;
                file.write_all(&data).await.map_err(spool_error)?;
                let written = (memory.len() + data.len()) as u64;
                memory.clear();
                spill = Some((file, written));
            }
            None => memory.extend_from_slice(&data),
        }
    }
    match spill {
        None => Ok(RequestBody::Full(
            Some(memory.freeze()).filter(|bytes| !bytes.is_empty()),
        )),
        Some((mut file, written)) => {
            file.flush().await.map_err(spool_error)?;
            use tokio::io::AsyncSeekExt;
            file.seek(io::SeekFrom::Start(0))
                .await
                .map_err(spool_error)?;
            Ok(RequestBody::Spooled(Box::new(Spooled {
                file,
                remaining: written,
            })))
        }
    }
}

fn spool_error(error: io::Error) -> ProxyError {
    tracing::error!(%error, "cannot buffer a request body in a temp file");
    ProxyError::Spool
}

/// A temp file already unlinked, so nothing is left behind whatever happens.
async fn spool_file() -> io::Result<tokio::fs::File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "weir-body-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = tokio::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .await?;
    tokio::fs::remove_file(&path).await?;
    Ok(file)
}

/// A request body read back from its temp file.
pub struct Spooled {
    file: tokio::fs::File,
    remaining: u64,
}

impl http_body::Body for Spooled {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        if this.remaining == 0 {
            return Poll::Ready(None);
        }
        let mut buffer = vec![0u8; (this.remaining.min(64 * 1024)) as usize];
        let mut read_buf = ReadBuf::new(&mut buffer);
        match Pin::new(&mut this.file).poll_read(context, &mut read_buf) {
            Poll::Ready(Ok(())) => {
                let filled = read_buf.filled().len();
                if filled == 0 {
                    return Poll::Ready(Some(Err("request body temp file ended early".into())));
                }
                this.remaining -= filled as u64;
                buffer.truncate(filled);
                Poll::Ready(Some(Ok(Frame::data(Bytes::from(buffer)))))
            }
            Poll::Ready(Err(error)) => Poll::Ready(Some(Err(Box::new(error)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.remaining == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

/// Reads the upstream's body ahead of the client when it may not fit in the socket buffers.
pub fn read_ahead(body: UpstreamBody) -> Body {
    let small = body
        .size_hint()
        .exact()
        .is_some_and(|length| length <= READ_AHEAD_THRESHOLD);
    if small || body.is_end_stream() {
        return Body::Upstream(body);
    }
    let (sender, receiver) = tokio::sync::mpsc::channel(READ_AHEAD_FRAMES);
    let size_hint = body.size_hint();
    tokio::spawn(async move {
        let mut body = body;
        while let Some(frame) = body.frame().await {
            let failed = frame.is_err();
            // The client went away: dropping the body closes the upstream connection.
            if sender.send(frame).await.is_err() || failed {
                return;
            }
        }
    });
    Body::boxed(ReadAhead {
        receiver,
        size_hint,
    })
}

struct ReadAhead {
    receiver: tokio::sync::mpsc::Receiver<Result<Frame<Bytes>, BoxError>>,
    size_hint: SizeHint,
}

impl http_body::Body for ReadAhead {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.get_mut().receiver.poll_recv(context)
    }

    fn size_hint(&self) -> SizeHint {
        self.size_hint
    }
}
