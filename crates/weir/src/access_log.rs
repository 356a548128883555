//! The access log: one line per request, written when the response body is done (or dropped),
//! in nginx's `combined` format extended with upstream and total times, or as JSON.
//! Off unless `[access_log] enabled = true`; stderr unless `path` is set.

use std::fs::OpenOptions;
use std::io::{self, LineWriter, Write};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::{header, Request, Response, StatusCode};
use http_body::{Frame, SizeHint};
use tokio::time::Instant;

use crate::body::{Body, BoxError};
use crate::config::{AccessLogConfig, AccessLogFormat};

/// Where lines go.
pub struct AccessLog {
    format: AccessLogFormat,
    sink: Mutex<Box<dyn Write + Send>>,
}

/// What is known of a request when its line is written.
#[derive(Debug, Clone)]
pub struct Entry {
    pub client: SocketAddr,
    pub method: String,
    pub target: String,
    pub version: http::Version,
    pub referer: String,
    pub user_agent: String,
    pub status: StatusCode,
    pub upstream: Option<String>,
    pub upstream_time: Option<Duration>,
    pub started: Instant,
    pub bytes: u64,
}

impl Entry {
    pub fn start<B>(client: SocketAddr, request: &Request<B>) -> Entry {
        let header_text = |name: header::HeaderName| {
            request
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .unwrap_or("-")
                .to_string()
        };
        Entry {
            client,
            method: request.method().to_string(),
            target: request
                .uri()
                .path_and_query()
                .map_or_else(|| request.uri().to_string(), |pq| pq.to_string()),
            version: request.version(),
            referer: header_text(header::REFERER),
            user_agent: header_text(header::USER_AGENT),
            status: StatusCode::OK,
            upstream: None,
            upstream_time: None,
            started: Instant::now(),
            bytes: 0,
        }
    }

    fn line(&self, format: AccessLogFormat) -> String {
        let total = self.started.elapsed().as_secs_f64();
        let upstream_time = self.upstream_time.map_or_else(
            || "-".to_string(),
            |time| format!("{:.3}", time.as_secs_f64()),
        );
        let upstream = self.upstream.as_deref().unwrap_or("-");
        match format {
            AccessLogFormat::Combined => format!(
                "{} - - [{}] \"{} {} {:?}\" {} {} \"{}\" \"{}\" rt={:.3} uct=- urt={} ua=\"{}\"\n",
                self.client.ip(),
                clf_time(SystemTime::now()),
                self.method,
                self.target,
                self.version,
                self.status.as_u16(),
                self.bytes,
                self.referer,
                self.user_agent,
                total,
                upstream_time,
                upstream,
            ),
            AccessLogFormat::Json => format!(
                "{{\"time\":\"{}\",\"client\":\"{}\",\"method\":{},\"path\":{},\"status\":{},\"bytes\":{},\"upstream\":{},\"upstream_time\":{},\"total_time\":{:.6},\"user_agent\":{}}}\n",
                clf_time(SystemTime::now()),
                self.client.ip(),
                json_string(&self.method),
                json_string(&self.target),
                self.status.as_u16(),
                self.bytes,
                self.upstream.as_deref().map_or_else(|| "null".to_string(), json_string),
                self.upstream_time.map_or_else(|| "null".to_string(), |t| format!("{:.6}", t.as_secs_f64())),
                total,
                json_string(&self.user_agent),
            ),
        }
    }
}

impl AccessLog {
    pub fn open(config: &AccessLogConfig) -> io::Result<AccessLog> {
        let sink: Box<dyn Write + Send> = match &config.path {
            Some(path) => Box::new(LineWriter::new(
                OpenOptions::new().create(true).append(true).open(path)?,
            )),
            None => Box::new(io::stderr()),
        };
        Ok(AccessLog {
            format: config.format,
            sink: Mutex::new(sink),
        })
    }

    fn write(&self, entry: &Entry) {
        let line = entry.line(self.format);
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        // A failing log must not fail the request; nginx likewise only reports it.
        let _ = sink.write_all(line.as_bytes());
    }

    /// Wraps the response body so the line is written once the body is done or dropped.
    pub fn wrap(self: &Arc<Self>, response: Response<Body>, entry: Entry) -> Response<Body> {
        let (parts, body) = response.into_parts();
        Response::from_parts(
            parts,
            Body::boxed(LoggedBody {
                inner: body,
                entry,
                log: Arc::clone(self),
            }),
        )
    }
}

struct LoggedBody {
    inner: Body,
    entry: Entry,
    log: Arc<AccessLog>,
}

impl Drop for LoggedBody {
    fn drop(&mut self) {
        self.log.write(&self.entry);
    }
}

impl http_body::Body for LoggedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(context);
        if let Poll::Ready(Some(Ok(frame))) = &polled {
            if let Some(data) = frame.data_ref() {
                this.entry.bytes += data.len() as u64;
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `10/Oct/2000:13:55:36 +0000`, in UTC.
fn clf_time(now: SystemTime) -> String {
    let seconds = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (seconds / 86_400) as i64;
    let (year, month, day) = civil_from_days(days);
    let rest = seconds % 86_400;
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{:02}/{}/{}:{:02}:{:02}:{:02} +0000",
        day,
        MONTHS[(month - 1) as usize],
        year,
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to (year, month 1..=12, day 1..=31), proleptic Gregorian.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        let time = UNIX_EPOCH + Duration::from_secs(971_186_136);
        assert_eq!(clf_time(time), "10/Oct/2000:13:55:36 +0000");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
