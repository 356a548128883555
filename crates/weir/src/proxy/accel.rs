//! The `X-Accel-*` headers of an upstream's response, read as nginx reads them: they speak to the
//! proxy, not to the client.
//!
//! - `X-Accel-Redirect: /path?query`, followed when the config has an `internal` route (keeping
//!   the client's head for it costs every proxied request, so a config without one, which has no
//!   use for it, does not pay; the header then passes to the client, as it always did): the
//!   upstream's body is dropped and `/path` is routed again, internal routes included (a
//!   protected file behind an `internal` static route, as Django's sendfile backends use it);
//!   the target's `access` and `basic_auth` hold (nginx's access phase runs again), its limits
//!   do not (the request was counted once). From there the answer is the target route's: its
//!   error pages and response headers, and the metrics count it under it.
//!   The method becomes GET (HEAD stays HEAD) and the request has no body; the client's other
//!   headers stay (`Range`, `If-None-Match`). Of the redirecting response the answer keeps what
//!   nginx keeps (its `ngx_http_upstream_headers_in` entries with the `redirect` flag):
//!   `Content-Type`, `Content-Disposition`, `Cache-Control`, `Expires`, `Accept-Ranges` and every
//!   `Set-Cookie`. A path that does not normalise, or holds a `..` segment, is 404 (nginx's
//!   `ngx_http_parse_unsafe_uri`); a named location (`@name`) is 404, weir has none. At most
//!   [`MAX_REDIRECTS`] in a row, as nginx's `NGX_HTTP_MAX_URI_CHANGES`; one more is a 500.
//! - `X-Accel-Buffering: yes | no` turns the route's `response_buffering` on or off for this
//!   response, as nginx's `proxy_buffering`.
//! - `X-Accel-Limit-Rate: bytes a second` sends this response at that rate (`0`: not limited),
//!   in place of the route's `limit_rate` (whose `limit_rate_after` holds), as nginx's.
//!   On a redirecting response it holds for the redirect's answer (Django's sendfile backends
//!   set both), unless a proxied target's own says otherwise. A value that is not a number is
//!   ignored, as nginx ignores it (`off` too, whatever nginx's docs say: nginx 1.22 keeps its
//!   location's rate for it).
//! - `X-Accel-Buffering`, `X-Accel-Expires`, `X-Accel-Limit-Rate`, `X-Accel-Charset` are removed
//!   from every response, as nginx hides them. `X-Accel-Expires` was read before, by a route's
//!   `cache` (`cache.rs`); `X-Accel-Charset` is ignored: weir has no charset conversion.

use http::header::{self, HeaderName, HeaderValue};
use http::uri::PathAndQuery;
use http::{Method, Uri, Version};

use crate::error::ProxyError;
use crate::head_view::{Headers, Request, RequestHead, Response};

/// The most `X-Accel-Redirect`s one request follows (nginx: `NGX_HTTP_MAX_URI_CHANGES`, 10).
pub(super) const MAX_REDIRECTS: usize = 10;

const X_ACCEL_REDIRECT: HeaderName = HeaderName::from_static("x-accel-redirect");
const X_ACCEL_BUFFERING: HeaderName = HeaderName::from_static("x-accel-buffering");
const X_ACCEL_EXPIRES: HeaderName = HeaderName::from_static("x-accel-expires");
const X_ACCEL_LIMIT_RATE: HeaderName = HeaderName::from_static("x-accel-limit-rate");
const X_ACCEL_CHARSET: HeaderName = HeaderName::from_static("x-accel-charset");

/// The headers of a redirecting response the answer keeps (nginx's `redirect` flag).
const KEPT: [HeaderName; 6] = [
    header::CONTENT_TYPE,
    header::CONTENT_DISPOSITION,
    header::CACHE_CONTROL,
    header::EXPIRES,
    header::ACCEPT_RANGES,
    header::SET_COOKIE,
];

/// What of the client's request a redirect needs once the request itself went upstream.
pub(super) struct Head {
    method: Method,
    version: Version,
    headers: Headers,
    /// The target's authority, when the request had one.
    authority: Option<HeaderValue>,
    /// The client's target, for the redirect's `$request_uri` (nginx keeps it across an
    /// internal redirect).
    pub(super) uri: Uri,
    /// The request's host, for routing the redirect in the same server.
    pub(super) host: Option<String>,
}

impl Head {
    pub(super) fn of<B>(request: &Request<B>, host: Option<&str>) -> Head {
        Head {
            method: request.method().clone(),
            version: request.version(),
            headers: request.headers().clone(),
            authority: request
                .uri()
                .authority()
                .and_then(|authority| HeaderValue::from_str(authority.as_str()).ok()),
            uri: request.uri().clone(),
            host: host.map(str::to_string),
        }
    }

    /// The request a redirect makes: GET (or HEAD) of its target, with the client's headers and
    /// no body.
    pub(super) fn request(&self, redirect: &Redirect) -> Request<()> {
        let method = if self.method == Method::HEAD {
            Method::HEAD
        } else {
            Method::GET
        };
        bodiless(
            method,
            redirect.target.clone(),
            self.version,
            self.headers.clone(),
            self.authority.as_ref().map(HeaderValue::as_bytes),
        )
    }
}

/// A request without a body of `target` with a client's `headers` (its body's framing out): an
/// internal redirect's, or an `auth_request`'s. An HTTP/2 request (or one in absolute form) named
/// its host in its target (`authority`), which `target` replaces: the host goes on as `Host`.
pub(super) fn bodiless(
    method: Method,
    target: PathAndQuery,
    version: Version,
    mut headers: Headers,
    authority: Option<&[u8]>,
) -> Request<()> {
    headers.remove(header::CONTENT_LENGTH);
    headers.remove(header::TRANSFER_ENCODING);
    if let (Some(authority), false) = (authority, headers.contains(header::HOST)) {
        headers.set(header::HOST, authority);
    }
    let head = RequestHead {
        method,
        uri: Uri::from(target),
        version,
        headers,
    };
    Request::from_parts(head, ())
}

/// An `X-Accel-Redirect` to follow.
pub(super) struct Redirect {
    /// The path and query as the upstream wrote them: the target of a proxied redirect.
    target: PathAndQuery,
    /// The normalised path, which routing sees.
    pub(super) path: String,
    /// The redirecting response's headers the answer keeps.
    kept: Headers,
    /// Its `X-Accel-Limit-Rate`, for the answer.
    limit_rate: Option<LimitRate>,
}

/// An upstream's `X-Accel-Limit-Rate`: bytes a second, 0 when it says the answer is not
/// limited. Kept in the answer's extensions until the answer leaves ([`LimitRate::take`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LimitRate(pub(super) u64);

impl LimitRate {
    /// What `X-Accel-Limit-Rate` says, if it says something nginx reads: digits.
    fn of(headers: &Headers) -> Option<LimitRate> {
        let value = headers.get(X_ACCEL_LIMIT_RATE)?.trim_ascii();
        let text = std::str::from_utf8(value).ok()?;
        text.bytes()
            .all(|byte| byte.is_ascii_digit())
            .then(|| text.parse().ok())
            .flatten()
            .map(LimitRate)
    }

    /// The rate an answer's upstream gave, taken out of it.
    pub(super) fn take<B>(response: &mut Response<B>) -> Option<LimitRate> {
        response.extensions_mut().remove::<LimitRate>()
    }

    fn keep<B>(self, response: &mut Response<B>) {
        response.extensions_mut().insert(self);
    }
}

/// The redirect an upstream's response asks for, if any: `Err` (404) when its target is not a
/// path weir serves.
pub(super) fn redirect(headers: &Headers) -> Option<Result<Redirect, ProxyError>> {
    let value = headers.get(X_ACCEL_REDIRECT)?;
    Some(parse(value).map(|(target, path)| {
        let mut kept = Headers::default();
        for name in &KEPT {
            for value in headers.get_all(name) {
                kept.append(name, value);
            }
        }
        Redirect {
            target,
            path,
            kept,
            limit_rate: LimitRate::of(headers),
        }
    }))
}

fn parse(value: &[u8]) -> Result<(PathAndQuery, String), ProxyError> {
    let unsafe_target = ProxyError::FileNotFound {
        reason: "X-Accel-Redirect to a path that is not served",
    };
    let target = crate::head_view::text(value)
        .filter(|text| text.starts_with('/'))
        .and_then(|text| PathAndQuery::try_from(text).ok())
        .ok_or(unsafe_target)?;
    // nginx refuses any `..` segment here, not only one that climbs above the root.
    if target.path().split('/').any(|segment| segment == "..") {
        return Err(ProxyError::FileNotFound {
            reason: "X-Accel-Redirect to a path with '..'",
        });
    }
    let path = crate::path::normalize(target.path())
        .map_err(|_| ProxyError::FileNotFound {
            reason: "X-Accel-Redirect to a path that does not normalise",
        })?
        .into_owned();
    Ok((target, path))
}

impl Redirect {
    /// An internal redirect to `target` (an `auth_request`'s `sign_in`), with no headers kept.
    pub(super) fn to(target: &str) -> Result<Redirect, ProxyError> {
        let (target, path) = parse(target.as_bytes())?;
        Ok(Redirect {
            target,
            path,
            kept: Headers::default(),
            limit_rate: None,
        })
    }

    /// The next redirect of a chain: this one's `X-Accel-Limit-Rate` holds unless it has its own.
    pub(super) fn then(self, mut next: Redirect) -> Redirect {
        next.limit_rate = next.limit_rate.or(self.limit_rate);
        next
    }

    /// The target's query, which goes on to a proxied target.
    pub(super) fn query(&self) -> Option<&str> {
        self.target.query()
    }

    /// Puts the kept headers on the answer of a static file or a `redirect`/`status` route: they
    /// replace the answer's own (the app's `Content-Type` wins over the file's, as in nginx),
    /// `Set-Cookie`s are added.
    pub(super) fn keep_over<B>(self, response: &mut Response<B>) {
        if let Some(rate) = self.limit_rate {
            rate.keep(response);
        }
        let headers = response.headers_mut();
        let mut replaced: Vec<&[u8]> = Vec::new();
        for (name, value) in self.kept.iter() {
            if name != header::SET_COOKIE.as_str().as_bytes() && !replaced.contains(&name) {
                headers.remove(name);
                replaced.push(name);
            }
            headers.append(name, value);
        }
    }

    /// Puts the kept headers (and the rate) on a proxied answer where it has none of its own;
    /// `Set-Cookie`s are added.
    pub(super) fn keep_under<B>(self, response: &mut Response<B>) {
        if let Some(rate) = self.limit_rate {
            if response.extensions().get::<LimitRate>().is_none() {
                rate.keep(response);
            }
        }
        let headers = response.headers_mut();
        for (name, value) in self.kept.iter() {
            if name == header::SET_COOKIE.as_str().as_bytes() || !headers.contains(name) {
                headers.append(name, value);
            }
        }
    }
}

/// Takes the `X-Accel-*` headers out of a response that goes to the client, and says whether to
/// read it ahead (`X-Accel-Buffering` if it says `yes` or `no`, else the route's setting); an
/// `X-Accel-Limit-Rate` goes into its extensions.
pub(super) fn read_ahead<B>(response: &mut Response<B>, route_buffering: bool) -> bool {
    let headers = response.headers_mut();
    // Most responses carry none: one look at the names first.
    if !headers.any_name(|name| name.len() > 8 && name[..8].eq_ignore_ascii_case(b"x-accel-")) {
        return route_buffering;
    }
    let buffering = match headers.get(X_ACCEL_BUFFERING) {
        Some(value) if value.eq_ignore_ascii_case(b"yes") => true,
        Some(value) if value.eq_ignore_ascii_case(b"no") => false,
        _ => route_buffering,
    };
    let rate = LimitRate::of(headers);
    // Those nginx hides from the client (but `X-Accel-Redirect`, which reaches here only when
    // it is not followed).
    for name in [
        X_ACCEL_BUFFERING,
        X_ACCEL_EXPIRES,
        X_ACCEL_LIMIT_RATE,
        X_ACCEL_CHARSET,
    ] {
        headers.remove(name);
    }
    if let Some(rate) = rate {
        rate.keep(response);
    }
    buffering
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> Headers {
        let mut headers = Headers::default();
        for (name, value) in pairs {
            headers.append(name, value);
        }
        headers
    }

    #[test]
    fn a_redirect_keeps_what_nginx_keeps_and_refuses_dot_dot() {
        let response = headers(&[
            ("x-accel-redirect", "/protected/a%20b.txt?x=1"),
            ("content-type", "text/csv"),
            ("set-cookie", "a=1"),
            ("set-cookie", "b=2"),
            ("etag", "\"dropped\""),
        ]);
        let followed = redirect(&response)
            .expect("a redirect")
            .expect("a valid one");
        assert_eq!(followed.path, "/protected/a%20b.txt");
        assert_eq!(followed.target.as_str(), "/protected/a%20b.txt?x=1");
        let mut answer = Response::new(());
        answer.headers_mut().set(header::CONTENT_TYPE, "text/plain");
        followed.keep_over(&mut answer);
        assert_eq!(
            answer.headers().get(header::CONTENT_TYPE),
            Some(&b"text/csv"[..])
        );
        assert_eq!(answer.headers().get_all(header::SET_COOKIE).count(), 2);
        assert!(answer.headers().get(header::ETAG).is_none());

        for bad in ["/a/../b", "relative", "/a/%zz", "@named"] {
            let response = headers(&[("x-accel-redirect", bad)]);
            let refused = redirect(&response).expect("a redirect");
            assert!(refused.is_err(), "{bad} was followed");
        }
        assert!(redirect(&headers(&[("content-type", "text/plain")])).is_none());
    }

    fn response(pairs: &[(&'static str, &'static str)]) -> Response<()> {
        let mut response = Response::new(());
        *response.headers_mut() = headers(pairs);
        response
    }

    #[test]
    fn x_accel_buffering_overrides_the_route_and_x_accel_headers_are_removed() {
        let mut no = response(&[("x-accel-buffering", "no"), ("x-accel-expires", "60")]);
        assert!(!read_ahead(&mut no, true));
        assert!(no.headers().is_empty());
        let mut yes = response(&[("x-accel-buffering", "YES")]);
        assert!(read_ahead(&mut yes, false));
        let mut neither = response(&[("x-accel-buffering", "maybe")]);
        assert!(read_ahead(&mut neither, true));
        assert!(!read_ahead(&mut response(&[]), false));
    }

    #[test]
    fn x_accel_limit_rate_is_read_as_nginx_reads_it_and_removed() {
        for (value, read) in [
            ("102400", Some(LimitRate(102_400))),
            (" 512 ", Some(LimitRate(512))),
            ("0", Some(LimitRate(0))),
            // nginx's `ngx_atoi` takes digits only: no units, no sign, no `off`.
            ("off", None),
            ("100k", None),
            ("-5", None),
            ("", None),
        ] {
            let mut answer = response(&[("x-accel-limit-rate", value), ("x-other", "1")]);
            assert!(read_ahead(&mut answer, true), "{value:?}");
            assert_eq!(LimitRate::take(&mut answer), read, "{value:?}");
            assert!(
                answer.headers().get(X_ACCEL_LIMIT_RATE).is_none(),
                "{value:?}"
            );
            assert!(answer.headers().contains("x-other"));
        }
    }

    #[test]
    fn a_redirects_rate_holds_for_its_answer_unless_a_proxied_one_has_its_own() {
        let first = redirect(&headers(&[
            ("x-accel-redirect", "/protected/a"),
            ("x-accel-limit-rate", "1000"),
        ]))
        .expect("a redirect")
        .expect("followed");
        let plain = || {
            redirect(&headers(&[("x-accel-redirect", "/protected/b")]))
                .expect("a redirect")
                .expect("followed")
        };
        // A static file's answer, after a chain whose second step says nothing.
        let mut file = response(&[]);
        first.then(plain()).keep_over(&mut file);
        assert_eq!(LimitRate::take(&mut file), Some(LimitRate(1000)));
        // A proxied answer with its own rate keeps it; one without gets the redirect's.
        let first = || {
            redirect(&headers(&[
                ("x-accel-redirect", "/protected/a"),
                ("x-accel-limit-rate", "1000"),
            ]))
            .expect("a redirect")
            .expect("followed")
        };
        let mut own = response(&[("x-accel-limit-rate", "0")]);
        read_ahead(&mut own, true);
        first().keep_under(&mut own);
        assert_eq!(LimitRate::take(&mut own), Some(LimitRate(0)));
        let mut proxied = response(&[]);
        first().keep_under(&mut proxied);
        assert_eq!(LimitRate::take(&mut proxied), Some(LimitRate(1000)));
        let mut unlimited = response(&[]);
        plain().keep_over(&mut unlimited);
        assert_eq!(LimitRate::take(&mut unlimited), None);
    }
}
