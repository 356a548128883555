//! The logging phase (pingora's `logging`): the one exit every request leaves by, answered or
//! refused. It counts the request in the metrics and writes its access-log line: at once for a
//! request refused before [`super::Proxy::handle`] (a bad head) or dropped unanswered (the
//! client left: 499), when its body is done for an answer.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use http::StatusCode;
use tokio::time::Instant;

use crate::access_log::{AccessLog, Entry};
use crate::body::Body;
use crate::error::ProxyError;
use crate::head_view::{Request, Response};
use crate::metrics::Metrics;
use crate::tls::TlsInfo;

/// nginx's status for a client that closed its connection before the answer.
pub const CLIENT_CLOSED: u16 = 499;

/// Where requests are counted and logged.
pub(super) struct Logging {
    pub(super) metrics: Arc<Metrics>,
    pub(super) access_log: Option<Arc<AccessLog>>,
}

/// What one request did, for metrics and the access log.
#[derive(Debug, Default)]
pub(super) struct Record<'proxy> {
    /// The route's index (see [`Record::route`]): 32 bits, which leave room in the request's
    /// future for `places`.
    route: Option<u32>,
    /// The upstream group asked, once the exchange began.
    pub(super) upstream_name: Option<&'proxy str>,
    /// The time from sending the request upstream to the response head.
    pub(super) upstream: Option<Duration>,
    /// How long the request queued for a place at the server.
    pub(super) queued: Option<Duration>,
    /// The access-log entry, when the log is on (the exchange writes the server that answered
    /// into it). Held across the whole request phase, so boxed: made, with its allocation, only
    /// when the log is on (which allocates per request anyway, for the entry's strings).
    pub(super) entry: Option<Box<Entry>>,
    /// The request's places under its route's connection limits, which hold its answer's body
    /// (or go to its tunnel) at the exit; given back here if the request ends without one.
    pub(super) places: Option<Box<crate::body::Holding>>,
    /// What only some requests keep ([`Rare`]), boxed together: the request's future holds one
    /// pointer for all of it.
    pub(super) rare: Option<Box<Rare>>,
}

/// What only some requests keep.
#[derive(Debug, Default)]
pub(super) struct Rare {
    /// The request headers an `auth_request`'s answer gave, kept here (not in the request's
    /// future, where they took 280 bytes) until the request is taken to be sent.
    pub(super) auth_copied: Option<super::auth_request::Copied>,
    /// `$request_id`, made when the config names it.
    pub(super) request_id: Option<crate::request_id::RequestId>,
    /// The request's part in filling its route's `cache`, from the lookup to its answer.
    pub(super) filler: Option<crate::cache::Filler>,
    /// `$upstream_cache_status`: how the route's `cache` answered.
    pub(super) cache_status: &'static str,
}

/// A request not answered yet. Dropped unanswered (the client left and the HTTP layer dropped
/// the request's future), it leaves by the logging exit as 499.
pub(super) struct Unanswered<'proxy> {
    logging: &'proxy Logging,
    pub(super) record: Record<'proxy>,
    started: Instant,
    client_ip: IpAddr,
    armed: bool,
}

impl Record<'_> {
    /// `$request_id`: the request's id, or empty when the config names it nowhere.
    pub(super) fn request_id(&self) -> &str {
        self.rare
            .as_ref()
            .and_then(|rare| rare.request_id.as_ref())
            .map_or("", crate::request_id::RequestId::as_str)
    }

    /// What only some requests keep, made when first asked for.
    pub(super) fn rare(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }

    /// The headers an `auth_request`'s answer gave, if it gave some.
    pub(super) fn auth_copied(&mut self) -> Option<&mut super::auth_request::Copied> {
        self.rare.as_mut()?.auth_copied.as_mut()
    }

    /// `$upstream_cache_status`: `HIT`, `MISS` or `BYPASS`, or empty.
    pub(super) fn cache_status(&self) -> &'static str {
        self.rare.as_ref().map_or("", |rare| rare.cache_status)
    }

    /// Whether the request fills its route's `cache`.
    pub(super) fn fills(&self) -> bool {
        self.filler().is_some()
    }

    /// The request's part in filling its route's `cache`.
    pub(super) fn filler(&self) -> Option<&crate::cache::Filler> {
        self.rare.as_ref()?.filler.as_ref()
    }

    /// The request's part in filling its route's `cache`, taken.
    pub(super) fn take_filler(&mut self) -> Option<crate::cache::Filler> {
        self.rare.as_mut()?.filler.take()
    }

    /// The index of the request's route, once routed.
    pub(super) fn route(&self) -> Option<usize> {
        self.route.map(|index| index as usize)
    }

    /// Notes the request's route (or none: the request found none).
    pub(super) fn set_route(&mut self, index: Option<usize>) {
        self.route = index.and_then(|index| u32::try_from(index).ok());
    }
}

impl Logging {
    /// The guard of a request that has just come in from `client` (its port is the
    /// connection's, its address the client's as `real_ip` sees it).
    pub(super) fn start<B>(
        &self,
        client: SocketAddr,
        tls: Option<&Arc<TlsInfo>>,
        request: &Request<B>,
        started: Instant,
    ) -> Unanswered<'_> {
        // An update weir makes in the background is not written (nginx's `log_subrequest off`).
        let entry = self
            .access_log
            .as_ref()
            .filter(|_| !crate::cache::updating_in_background())
            .map(|access_log| {
                let mut entry = Entry::start(client, request);
                entry.started = started;
                entry.tls = tls.cloned();
                entry.headers = access_log.kept_headers(request);
                Box::new(entry)
            });
        Unanswered {
            logging: self,
            record: Record {
                entry,
                ..Record::default()
            },
            started,
            client_ip: client.ip(),
            armed: true,
        }
    }

    /// A request the HTTP layer refused before the phases saw it, with its status and cause.
    pub(super) fn refused(&self, peer: SocketAddr, status: StatusCode, cause: &'static str) {
        let entry = self.access_log.as_ref().map(|_| {
            let mut entry = Entry::unparsed(peer, status);
            entry.cause = Some(cause);
            entry
        });
        let record = Record {
            entry: entry.map(Box::new),
            ..Record::default()
        };
        if let Some((access_log, entry)) = self.exit(record, status, None) {
            access_log.write_now(entry);
        }
    }

    /// The exit: the request is counted, and its access-log line, when the log is on, is
    /// finished and handed back to be written now (refused, unanswered) or carried by the
    /// answer's body until it is done.
    fn exit(
        &self,
        record: Record<'_>,
        status: StatusCode,
        started: Option<Instant>,
    ) -> Option<(&Arc<AccessLog>, Entry)> {
        self.metrics.record_request(
            record.route(),
            status,
            started.map_or(Duration::ZERO, |started| started.elapsed()),
            record.upstream,
        );
        let (Some(access_log), Some(mut entry)) = (&self.access_log, record.entry) else {
            return None;
        };
        entry.status = status;
        if let Some(rare) = &record.rare {
            entry.cache_status = rare.cache_status;
            entry.request_id = rare.request_id;
        }
        if let Some(upstream_time) = record.upstream {
            entry.upstream_time = Some(upstream_time);
            entry.upstream_queue_time = record.queued;
        }
        Some((access_log, *entry))
    }
}

impl<'proxy> Unanswered<'proxy> {
    /// The client's address as `real_ip` sees it.
    pub(super) fn client_ip(&self) -> IpAddr {
        self.client_ip
    }

    /// The upstream group the request went to, once it did.
    pub(super) fn upstream_name(&self) -> Option<&'proxy str> {
        self.record.upstream_name
    }

    /// weir answers in the upstream's place (`error.rs` makes the answer): the access-log line
    /// says why, and, for a request a queue refused, how long it queued first.
    pub(super) fn failed(&mut self, error: &ProxyError) {
        if let Some(entry) = self.record.entry.as_deref_mut() {
            entry.cause = Some(error.cause());
            if let Some(queued) = error.queued() {
                entry.upstream_queue_time = Some(queued);
            }
            // The app was asked and gave no answer: the server is logged, as nginx logs it, and
            // `$upstream_status` is weir's own 502 or 504.
            if let Some(addr) = error.unanswered_server() {
                entry.upstream.get_or_insert_with(|| addr.to_string());
                entry.upstream_status = Some(error.status());
            }
        }
    }

    /// `$server_name` for the access log's line, when its `format` writes it.
    pub(super) fn wants_server_name(&self) -> bool {
        self.record.entry.is_some()
            && self
                .logging
                .access_log
                .as_ref()
                .is_some_and(|log| log.writes_server_name())
    }

    /// Notes the request's `$server_name` (its route's or host's).
    pub(super) fn set_server_name(&mut self, name: &Arc<str>) {
        if let Some(entry) = self.record.entry.as_deref_mut() {
            entry.server_name = Some(Arc::clone(name));
        }
    }

    /// The answer is ready: it leaves by the exit, its line written when its body is done.
    /// (The answer is borrowed, not moved through: its body changes only when it is logged.)
    pub(super) fn answered(mut self, response: &mut Response<Body>) {
        self.armed = false;
        let mut record = std::mem::take(&mut self.record);
        let places = record.places.take();
        if let Some((access_log, mut entry)) =
            self.logging
                .exit(record, response.status(), Some(self.started))
        {
            entry.sent_headers = access_log.kept_sent_headers(response.headers());
            let body = std::mem::replace(response.body_mut(), Body::empty());
            *response.body_mut() = Body::Logged(Box::new(access_log.wrap(body, entry)));
        }
        if let Some(places) = places {
            hold(response, places);
        }
    }
}

/// Moves a request's connection-limit places into its answer: a WebSocket's tunnel holds them
/// while it runs, any other answer's body until it is done.
fn hold(response: &mut Response<Body>, places: Box<crate::body::Holding>) {
    if response.status() == StatusCode::SWITCHING_PROTOCOLS {
        if let Some(upgrade) = response
            .extensions_mut()
            .get_mut::<crate::tunnel::Upgrade>()
        {
            upgrade.keep((*places).into_places());
            return;
        }
    }
    let body = std::mem::replace(response.body_mut(), Body::empty());
    *response.body_mut() = places.around(body);
}

impl Drop for Unanswered<'_> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        // 499 is within 100..=999: from_u16 cannot fail.
        let status = StatusCode::from_u16(CLIENT_CLOSED).unwrap_or(StatusCode::BAD_REQUEST);
        let record = std::mem::take(&mut self.record);
        if let Some((access_log, entry)) = self.logging.exit(record, status, Some(self.started)) {
            access_log.write_now(entry);
        }
        tracing::debug!(client = %self.client_ip, "client closed the connection before the answer");
    }
}
