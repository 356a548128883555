//! An access log line of the user's (`[access_log] format = "$remote_addr ..."`), in nginx's
//! `log_format` syntax: literal text and nginx's variables, read when the config is read and
//! filled in by `access_log.rs` for each request. A variable weir does not know is an error that
//! names the known ones.

use http::HeaderName;

use super::redirect::{http_variable, pieces, Piece};

/// A `log_format` line, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogTemplate {
    /// As the config wrote it, for `weir check`.
    pub text: String,
    pub pieces: Vec<LogPiece>,
    pub escape: LogEscape,
    /// The request header fields the line names (`$http_NAME`, `$host`), kept from each request
    /// in this order; a [`LogPiece::Header`] is an index into it.
    pub headers: Vec<HeaderName>,
    /// The response header fields the line names (`$sent_http_NAME`), kept from each answer in
    /// this order; a [`LogPiece::SentHeader`] is an index into it.
    pub sent_headers: Vec<HeaderName>,
}

/// How a variable's value is written (nginx's `log_format ... escape=`); literal text is
/// written as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogEscape {
    /// nginx's default: `"`, `\`, control bytes and bytes past ASCII as `\xHH`; a value the
    /// request does not have (no `Referer`, no upstream) as `-`.
    Default,
    /// nginx's `escape=json`: escaped for a JSON string; a value the request does not have as
    /// nothing.
    Json,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogPiece {
    Text(String),
    Variable(LogVariable),
    /// `$http_NAME`: the request's header (several joined with `, `); index into
    /// [`LogTemplate::headers`].
    Header(usize),
    /// `$host`: the request's `Host` (or HTTP/2 authority) in lower case, without port; index
    /// into [`LogTemplate::headers`].
    Host(usize),
    /// `$sent_http_NAME`: the answer's header as weir's phases made it (several joined with
    /// `, `); index into [`LogTemplate::sent_headers`].
    SentHeader(usize),
}

/// The variables of a request's line, by nginx's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogVariable {
    RemoteAddr,
    RemotePort,
    RemoteUser,
    TimeLocal,
    TimeIso8601,
    Msec,
    Request,
    RequestMethod,
    RequestUri,
    ServerProtocol,
    Scheme,
    Status,
    BodyBytesSent,
    HttpReferer,
    HttpUserAgent,
    UpstreamAddr,
    UpstreamHeaderTime,
    UpstreamResponseTime,
    UpstreamConnectTime,
    UpstreamStatus,
    /// weir's: the time the request waited in weir's queue for a place at the server.
    UpstreamQueueTime,
    RequestTime,
    SslProtocol,
    SslCipher,
    SslServerName,
    UpstreamCacheStatus,
    RequestId,
    /// weir's: why weir answered in the upstream's place (`connect`, `queue_timeout`, ...).
    WeirCause,
    /// `$uri`: the normalised path (`path::normalize`), without the query.
    Uri,
    /// `$args` and `$query_string`: the query, without its `?`.
    Args,
    /// `$is_args`: `?` when the request has a query, else empty.
    IsArgs,
    /// `$server_name`: the route's `host` (or its `[[hosts]]` name); empty for a route of any
    /// host, as for the header rules.
    ServerName,
    /// `$hostname`: the machine's name.
    Hostname,
    /// `$pid`: weir's process id.
    Pid,
    /// `$request_length`: the request's bytes, head and body.
    RequestLength,
    /// `$bytes_sent`: the answer's bytes, head and body.
    BytesSent,
}

/// The variables by name, in the order messages list them.
const VARIABLES: [(&str, LogVariable); 37] = [
    ("remote_addr", LogVariable::RemoteAddr),
    ("remote_port", LogVariable::RemotePort),
    ("remote_user", LogVariable::RemoteUser),
    ("time_local", LogVariable::TimeLocal),
    ("time_iso8601", LogVariable::TimeIso8601),
    ("msec", LogVariable::Msec),
    ("request", LogVariable::Request),
    ("request_method", LogVariable::RequestMethod),
    ("request_uri", LogVariable::RequestUri),
    ("server_protocol", LogVariable::ServerProtocol),
    ("scheme", LogVariable::Scheme),
    ("status", LogVariable::Status),
    ("body_bytes_sent", LogVariable::BodyBytesSent),
    ("http_referer", LogVariable::HttpReferer),
    ("http_user_agent", LogVariable::HttpUserAgent),
    ("upstream_addr", LogVariable::UpstreamAddr),
    ("upstream_header_time", LogVariable::UpstreamHeaderTime),
    ("upstream_response_time", LogVariable::UpstreamResponseTime),
    ("upstream_connect_time", LogVariable::UpstreamConnectTime),
    ("upstream_status", LogVariable::UpstreamStatus),
    ("upstream_queue_time", LogVariable::UpstreamQueueTime),
    ("request_time", LogVariable::RequestTime),
    ("ssl_protocol", LogVariable::SslProtocol),
    ("ssl_cipher", LogVariable::SslCipher),
    ("ssl_server_name", LogVariable::SslServerName),
    ("upstream_cache_status", LogVariable::UpstreamCacheStatus),
    ("request_id", LogVariable::RequestId),
    ("weir_cause", LogVariable::WeirCause),
    ("uri", LogVariable::Uri),
    ("args", LogVariable::Args),
    ("query_string", LogVariable::Args),
    ("is_args", LogVariable::IsArgs),
    ("server_name", LogVariable::ServerName),
    ("hostname", LogVariable::Hostname),
    ("pid", LogVariable::Pid),
    ("request_length", LogVariable::RequestLength),
    ("bytes_sent", LogVariable::BytesSent),
];

/// Request header fields a line may name, and response header fields: each is kept from every
/// request (or answer), so a line cannot make weir keep more than this of either.
pub const MOST_LOG_HEADERS: usize = 16;

/// Every variable name a line may use, for messages.
fn variable_names() -> String {
    let mut names: Vec<String> = VARIABLES
        .iter()
        .map(|(name, _)| format!("${name}"))
        .collect();
    names.push("$host".to_string());
    names.push("$http_NAME".to_string());
    names.push("$sent_http_NAME".to_string());
    names.join(", ")
}

impl LogTemplate {
    /// Reads a line such as `$remote_addr - [$time_local] "$request" $status`; an unknown
    /// variable, a `${` without `}`, a line with no variable or one across lines is an error
    /// that says what would be valid.
    pub fn parse(text: &str, escape: LogEscape) -> Result<LogTemplate, String> {
        if text.contains(['\n', '\r']) {
            return Err(format!(
                "a log line is one line: write it without line breaks, found {text:?}"
            ));
        }
        let Some(found) = pieces(text) else {
            return Err(format!("a `${{` has no `}}` in {text:?}"));
        };
        let mut template = LogTemplate {
            text: text.to_string(),
            pieces: Vec::with_capacity(found.len()),
            escape,
            headers: Vec::new(),
            sent_headers: Vec::new(),
        };
        for piece in found {
            let piece = match piece {
                Piece::Text(text) => LogPiece::Text(text.to_string()),
                Piece::Variable("host") => LogPiece::Host(template.header(http::header::HOST)?),
                Piece::Variable(name) => match VARIABLES.iter().find(|(known, _)| *known == name) {
                    Some((_, variable)) => LogPiece::Variable(*variable),
                    None => match http_variable(name) {
                        Some(header) => LogPiece::Header(template.header(header)?),
                        None if name.starts_with("sent_http_") => {
                            match http_variable(&name["sent_".len()..]) {
                                Some(header) => LogPiece::SentHeader(template.sent_header(header)?),
                                None => return Err(unknown(name, text)),
                            }
                        }
                        None => return Err(unknown(name, text)),
                    },
                },
            };
            template.pieces.push(piece);
        }
        if template
            .pieces
            .iter()
            .all(|piece| matches!(piece, LogPiece::Text(_)))
        {
            return Err(format!(
                "expected \"combined\", \"json\", or a line of nginx variables such as \"$remote_addr [$time_local] \\\"$request\\\" $status\", found {text:?}"
            ));
        }
        Ok(template)
    }

    /// The index of `name` among the request headers kept, added when new.
    fn header(&mut self, name: HeaderName) -> Result<usize, String> {
        keep(&mut self.headers, name).ok_or_else(|| {
            format!(
                "a log line may name at most {MOST_LOG_HEADERS} request header fields ($http_NAME and $host)"
            )
        })
    }

    /// The index of `name` among the response headers kept, added when new.
    fn sent_header(&mut self, name: HeaderName) -> Result<usize, String> {
        keep(&mut self.sent_headers, name).ok_or_else(|| {
            format!("a log line may name at most {MOST_LOG_HEADERS} response header fields ($sent_http_NAME)")
        })
    }

    /// Whether the line writes `variable`.
    pub fn writes(&self, variable: LogVariable) -> bool {
        self.pieces.contains(&LogPiece::Variable(variable))
    }
}

/// The index of `name` in `kept`, added when new; `None` when `kept` is full.
fn keep(kept: &mut Vec<HeaderName>, name: HeaderName) -> Option<usize> {
    if let Some(index) = kept.iter().position(|known| *known == name) {
        return Some(index);
    }
    if kept.len() == MOST_LOG_HEADERS {
        return None;
    }
    kept.push(name);
    Some(kept.len() - 1)
}

/// The error of a variable weir does not write.
fn unknown(name: &str, text: &str) -> String {
    format!(
        "a log line may use {}; ${name} is none of them (in {text:?})",
        variable_names()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_into_text_variables_and_headers() {
        let template = LogTemplate::parse(
            "$remote_addr [${time_local}] \"$http_x_forwarded_for\" $host $http_X_Forwarded_For",
            LogEscape::Default,
        )
        .unwrap();
        assert_eq!(
            template.pieces,
            vec![
                LogPiece::Variable(LogVariable::RemoteAddr),
                LogPiece::Text(" [".into()),
                LogPiece::Variable(LogVariable::TimeLocal),
                LogPiece::Text("] \"".into()),
                LogPiece::Header(0),
                LogPiece::Text("\" ".into()),
                LogPiece::Host(1),
                LogPiece::Text(" ".into()),
                LogPiece::Header(0),
            ]
        );
        assert_eq!(
            template.headers,
            vec![
                HeaderName::from_static("x-forwarded-for"),
                http::header::HOST
            ]
        );
    }

    #[test]
    fn what_weir_cannot_write_is_refused_with_what_it_can() {
        for (text, expected) in [
            ("$remote_addr $gzip_ratio", "$gzip_ratio is none of them"),
            ("$sent_http_", "$sent_http_ is none of them"),
            ("$remote_addr ${status", "has no `}`"),
            ("$remote_addr $", "$ is none of them"),
            ("$http_", "$http_ is none of them"),
            ("main", "expected \"combined\", \"json\", or a line"),
            ("$status\n$status", "one line"),
        ] {
            let error = LogTemplate::parse(text, LogEscape::Default).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
        let many: String = (0..=MOST_LOG_HEADERS)
            .map(|n| format!("$http_x_{n} "))
            .collect();
        let error = LogTemplate::parse(&many, LogEscape::Default).unwrap_err();
        assert!(error.contains("at most 16"), "{error}");
    }
}
