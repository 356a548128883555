//! `auth_request` (nginx `auth_request`): before a request is served, another request asks
//! whether it may be. It is a GET (whatever the client's method, as nginx's subrequest) of the
//! configured path and query, with the client's headers and no body (nginx needs
//! `proxy_pass_request_body off` and an empty `Content-Length` for that; weir never sends the
//! body). It is routed on the client's listener and host, internal routes included, and answered
//! by its route, which is not asked again (nginx's subrequest skips the access phase). The route's
//! request rules see the client's `$request_uri`, as nginx's subrequest does; `$uri` is the
//! asking path.
//!
//! Its answer decides: 2xx lets the request in, with the `copy_headers` set from the answer's
//! headers (nginx `auth_request_set` with `proxy_set_header`; the client's own are dropped, so
//! they cannot pass for the answer's), and its `answer_headers` kept for the client's answer
//! (`add_header Set-Cookie $auth_cookie`); 401 and 403 are the client's answer (401 with the
//! answer's `WWW-Authenticate`), but a 401 with a `sign_in` goes there (nginx's `error_page 401
//! = /oauth2/sign_in`: an internal redirect, followed as an `X-Accel-Redirect` is, or a 302 to a
//! URL); any other status, or no answer, is 500. The answer's body is read (up to
//! [`MAX_BODY`]) so that its connection is kept, and dropped.
//!
//! It runs after `access`, the limits and `basic_auth` (nginx's access phase, whose
//! `auth_request` handler comes after `allow`/`deny` and `auth_basic`); with `satisfy = "any"`
//! an address `access` allows needs no asking. It does not run again for an
//! `X-Accel-Redirect`'s target.

use bytes::Bytes;
use http::header::{self, HeaderName};
use http::uri::PathAndQuery;
use http::{Method, StatusCode};

use crate::body::Body;
use crate::config::{AuthRequest, SignIn};
use crate::error::ProxyError;
use crate::head_view::{Headers, Request, Response};

/// The most of an answer's body weir reads to keep its connection; past it the connection is
/// dropped with the rest.
pub(super) const MAX_BODY: usize = 64 * 1024;

/// A route's or host's `auth_request`, as the proxy asks it.
#[derive(Debug)]
pub(super) struct Ask {
    /// The path and query sent.
    target: PathAndQuery,
    /// The normalised path, which routing sees.
    path: String,
    /// `copy_headers`: (request header, answer's header).
    copy_headers: Vec<(HeaderName, HeaderName)>,
    /// `answer_headers`.
    answer_headers: Vec<HeaderName>,
    /// `sign_in`.
    sign_in: Option<SignIn>,
}

impl Ask {
    /// The asking of `config`; `None` for `auth_request = false`.
    pub(super) fn of(config: &AuthRequest) -> Option<Ask> {
        let AuthRequest::Ask {
            target,
            path,
            copy_headers,
            answer_headers,
            sign_in,
        } = config
        else {
            return None;
        };
        Some(Ask {
            // The config's check parsed it.
            target: target.parse().ok()?,
            path: path.clone(),
            copy_headers: copy_headers.clone(),
            answer_headers: answer_headers.clone(),
            sign_in: sign_in.clone(),
        })
    }

    /// The normalised path asked, which routing sees.
    pub(super) fn path(&self) -> &str {
        &self.path
    }

    /// The query asked, if any.
    pub(super) fn query(&self) -> Option<&str> {
        self.target.query()
    }

    /// Where a 401 sends the client.
    pub(super) fn sign_in(&self) -> Option<&SignIn> {
        self.sign_in.as_ref()
    }

    /// The asking request: a GET of the target with the client's headers (its body's framing
    /// out), in the client's HTTP version. An HTTP/2 request (or one in absolute form) named its
    /// host in its target, which goes on as `Host`.
    pub(super) fn request<B>(&self, client: &Request<B>) -> Request<()> {
        super::accel::bodiless(
            Method::GET,
            self.target.clone(),
            client.version(),
            client.headers().clone(),
            client
                .uri()
                .authority()
                .map(|authority| authority.as_str().as_bytes()),
        )
    }

    /// What the answer's `status` and `headers` decide: the request headers to set (`Ok`), or the
    /// client's answer (`Err`).
    pub(super) fn decide(
        &self,
        status: StatusCode,
        headers: &Headers,
    ) -> Result<Copied, ProxyError> {
        if status.is_success() {
            let request = self
                .copy_headers
                .iter()
                .map(|(to, from)| (to.clone(), headers.get(from).map(Bytes::copy_from_slice)))
                .collect();
            let answer = self
                .answer_headers
                .iter()
                .flat_map(|name| {
                    headers
                        .get_all(name)
                        .map(move |value| (name.clone(), Bytes::copy_from_slice(value)))
                })
                .collect();
            return Ok(Copied { request, answer });
        }
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            let challenge = if status == StatusCode::UNAUTHORIZED {
                headers
                    .get_all(header::WWW_AUTHENTICATE)
                    .map(Bytes::copy_from_slice)
                    .collect()
            } else {
                Box::default()
            };
            return Err(ProxyError::AuthRequestDenied { status, challenge });
        }
        Err(failed(format!(
            "{} answered {}, where 2xx, 401 or 403 were expected",
            self.target,
            status.as_u16()
        )))
    }
}

pub(super) fn failed(reason: String) -> ProxyError {
    ProxyError::AuthRequestFailed {
        reason: reason.into_boxed_str(),
    }
}

/// What a 2xx answer gives: the request headers (each set to the answer's value, or removed when
/// the answer has none), and the headers for the client's answer.
#[derive(Debug, Default)]
pub(super) struct Copied {
    request: Vec<(HeaderName, Option<Bytes>)>,
    answer: Vec<(HeaderName, Bytes)>,
}

impl Copied {
    pub(super) fn is_empty(&self) -> bool {
        self.request.is_empty() && self.answer.is_empty()
    }

    /// Sets the request headers on `headers`; the answer's stay, for [`Copied::answer`].
    pub(super) fn apply(&mut self, headers: &mut Headers) {
        for (name, value) in self.request.drain(..) {
            headers.remove(&name);
            if let Some(value) = value {
                headers.append(&name, value.as_ref());
            }
        }
    }

    /// Adds the answer's headers to the client's answer (the caller checks its status: those
    /// `response_headers` has, nginx's `add_header` without `always`).
    pub(super) fn answer(self, response: &mut Response<Body>) {
        for (name, value) in self.answer {
            response.headers_mut().append(&name, value.as_ref());
        }
    }
}

/// What asking gave: the request may go on (what the answer gave, if anything, is in its
/// record), or the client's answer is the sign-in route's.
pub(super) enum Asked {
    Pass,
    Answer(Box<Response<Body>>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(copy: &[(&str, &str)]) -> Ask {
        Ask::of(&AuthRequest::Ask {
            target: "/_auth?from=weir".to_string(),
            path: "/_auth".to_string(),
            copy_headers: copy
                .iter()
                .map(|(to, from)| {
                    (
                        HeaderName::from_bytes(to.as_bytes()).unwrap(),
                        HeaderName::from_bytes(from.as_bytes()).unwrap(),
                    )
                })
                .collect(),
            answer_headers: Vec::new(),
            sign_in: None,
        })
        .unwrap()
    }

    /// The asking request is a GET of the target with the client's headers, without its body's
    /// framing, whatever the client's method.
    #[test]
    fn the_asking_request_is_a_get_with_the_clients_headers_and_no_body() {
        let mut client = Request::<()>::default();
        client.head.method = Method::POST;
        client.head.uri = http::Uri::from_static("/upload?x=1");
        client.headers_mut().append("host", "app.test");
        client.headers_mut().append("cookie", "session=abc");
        client.headers_mut().append("content-length", "5");
        client.headers_mut().append("transfer-encoding", "chunked");
        let asking = ask(&[]).request(&client);
        assert_eq!(asking.method(), Method::GET);
        assert_eq!(asking.uri(), "/_auth?from=weir");
        assert_eq!(asking.headers().get("cookie"), Some(&b"session=abc"[..]));
        assert_eq!(asking.headers().get("host"), Some(&b"app.test"[..]));
        assert!(!asking.headers().contains("content-length"));
        assert!(!asking.headers().contains("transfer-encoding"));
    }

    /// 2xx copies the named headers (and removes the client's of those names); 401 carries the
    /// challenge; 403 is 403; anything else fails.
    #[test]
    fn the_answers_status_decides() {
        let ask = ask(&[("x-user", "x-auth-user"), ("x-email", "x-auth-email")]);
        let mut answer = Headers::default();
        answer.append("x-auth-user", "alice");
        answer.append("www-authenticate", "Bearer realm=\"a\"");
        answer.append("www-authenticate", "Basic realm=\"b\"");
        let mut request = Headers::default();
        request.append("x-user", "mallory");
        request.append("x-email", "mallory@example.com");
        ask.decide(StatusCode::NO_CONTENT, &answer)
            .unwrap()
            .apply(&mut request);
        assert_eq!(request.get("x-user"), Some(&b"alice"[..]));
        assert_eq!(request.get("x-email"), None);

        match ask.decide(StatusCode::UNAUTHORIZED, &answer) {
            Err(ProxyError::AuthRequestDenied { status, challenge }) => {
                assert_eq!(status, StatusCode::UNAUTHORIZED);
                assert_eq!(challenge.len(), 2);
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        match ask.decide(StatusCode::FORBIDDEN, &answer) {
            Err(ProxyError::AuthRequestDenied { status, challenge }) => {
                assert_eq!(status, StatusCode::FORBIDDEN);
                assert!(challenge.is_empty());
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        for status in [
            StatusCode::FOUND,
            StatusCode::NOT_FOUND,
            StatusCode::BAD_GATEWAY,
        ] {
            let error = ask.decide(status, &answer).map(|_| ()).unwrap_err();
            assert_eq!(
                error.status(),
                StatusCode::INTERNAL_SERVER_ERROR,
                "{status}"
            );
        }
    }
}
