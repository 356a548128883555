//! Routes that answer by themselves, as nginx `return`: a redirect (`return 301 URL`) whose
//! `Location` may use `$host`, `$request_uri` and `$scheme`, a bare status (`return 404`), or a
//! status with a body (`return 200 "ok"`), sent as written. Nothing else of nginx's variables is
//! evaluated.

use http::header;
use http::{StatusCode, Uri};

use crate::body::Body;
use crate::config::{AnswerConfig, Template};
use crate::head_view::Response;
use crate::routing::strip_port;

/// What a `redirect`/`status` route answers.
#[derive(Debug)]
pub struct Answer {
    status: StatusCode,
    location: Option<Template>,
    /// `body` and `content_type`: a status route's own answer.
    body: Option<(Box<[u8]>, http::HeaderValue)>,
    /// `$host` when the request names none: the route's host, as nginx falls back to the
    /// server's name.
    fallback_host: String,
    /// The route's regex, when its redirect names its captures (`$1`).
    regex: Option<crate::routing::PathRegex>,
}

impl Answer {
    /// `regex`: the route's, for the captures its redirect names.
    pub fn new(
        config: &AnswerConfig,
        route_host: Option<&str>,
        regex: Option<&crate::routing::PathRegex>,
    ) -> Answer {
        let captured = config
            .location
            .as_ref()
            .is_some_and(|template| template.most_capture() > 0);
        Answer {
            status: config.status,
            location: config.location.clone(),
            body: config
                .body
                .as_ref()
                .map(|body| (body.text.as_bytes().into(), body.content_type.clone())),
            fallback_host: route_host.unwrap_or("localhost").to_string(),
            regex: regex.filter(|_| captured).cloned(),
        }
    }

    /// The response to `request`, by its `Host` header (else `host`, the checked host, which
    /// over HTTP/2 is the `:authority`) and URI; `secure` when it came on a TLS listener.
    /// Generic over the body, which it never reads.
    /// `path`: the request's normalised path, which the route's regex matched.
    pub fn respond_to<B>(
        &self,
        request: &crate::head_view::Request<B>,
        host: Option<&str>,
        path: &str,
        secure: bool,
    ) -> Response<Body> {
        let header_host = request.headers().get(header::HOST);
        let host = header_host.and_then(crate::head_view::text).or(host);
        let captures = self
            .regex
            .as_ref()
            .and_then(|regex| regex.captures(path))
            .unwrap_or_default();
        self.respond(host, request.uri(), secure, &captures)
    }

    /// The response to a request with this `Host` header (if any) and URI; `secure` when it came
    /// on a TLS listener; `captures`, its path's by the route's regex.
    pub fn respond(
        &self,
        host: Option<&str>,
        uri: &Uri,
        secure: bool,
        captures: &[&str],
    ) -> Response<Body> {
        let Some(template) = &self.location else {
            if let Some((text, content_type)) = &self.body {
                // A copy per answer: the text's own bytes, shared, would be a reference count
                // that every thread writes.
                let mut response = Response::new(Body::full(bytes::Bytes::copy_from_slice(text)));
                *response.status_mut() = self.status;
                response
                    .headers_mut()
                    .set(header::CONTENT_TYPE, content_type);
                return response;
            }
            if self.status.as_u16() >= 400 {
                return crate::error::status_response(self.status).map(Body::full);
            }
            let mut response = Response::new(Body::empty());
            *response.status_mut() = self.status;
            return response;
        };
        let mut response = Response::new(Body::empty());
        *response.status_mut() = self.status;
        if let Some(location) =
            location_captured(template, host, &self.fallback_host, uri, secure, captures)
        {
            response.headers_mut().set(header::LOCATION, location);
        }
        response
    }
}

/// A redirect's `Location` for a request with this `Host` (else the target's host, else
/// `fallback_host`), without its port and in lower case, and URI; `None` when it makes no header
/// value.
pub fn location(
    template: &Template,
    host: Option<&str>,
    fallback_host: &str,
    uri: &Uri,
    secure: bool,
) -> Option<String> {
    location_captured(template, host, fallback_host, uri, secure, &[])
}

/// [`location`] with a regex route's captures.
fn location_captured(
    template: &Template,
    host: Option<&str>,
    fallback_host: &str,
    uri: &Uri,
    secure: bool,
    captures: &[&str],
) -> Option<String> {
    let host = uri
        .host()
        .or(host)
        .map(strip_port)
        .filter(|host| !host.is_empty())
        .unwrap_or(fallback_host)
        .to_ascii_lowercase();
    let location = template.render_captured(&host, uri, secure, captures);
    crate::head_view::text(location.as_bytes())
        .is_some()
        .then_some(location)
}

/// `[tls] redirect_http`: a `301` to the same host and target over HTTPS, on `port` (left out
/// when 443).
pub fn https_redirect(host: Option<&str>, port: u16, uri: &Uri) -> Response<Body> {
    let host = uri
        .host()
        .or(host)
        .map(strip_port)
        .filter(|host| !host.is_empty())
        .unwrap_or("localhost")
        .to_ascii_lowercase();
    let target = uri.path_and_query().map_or("/", |target| target.as_str());
    // Port 0 (a test's listener) has no port to name: the default one is the best guess.
    let location = if port == 443 || port == 0 {
        format!("https://{host}{target}")
    } else {
        format!("https://{host}:{port}{target}")
    };
    let mut response = Response::new(Body::empty());
    *response.status_mut() = http::StatusCode::MOVED_PERMANENTLY;
    if crate::head_view::text(location.as_bytes()).is_some() {
        response.headers_mut().set(header::LOCATION, location);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, location: Option<&str>) -> Answer {
        let config = AnswerConfig {
            status: StatusCode::from_u16(status).unwrap(),
            location: location.map(|text| Template::parse(text).expect("a valid template")),
            body: None,
        };
        Answer::new(&config, Some("example.com"), None)
    }

    #[test]
    fn a_redirect_fills_in_host_request_uri_and_scheme() {
        let answer = answer(301, Some("https://$host$request_uri"));
        let uri: Uri = "/a/b?x=1".parse().unwrap();
        let response = answer.respond(Some("WWW.Example.com:8080"), &uri, false, &[]);
        assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY);
        assert_eq!(
            response.headers().get(header::LOCATION),
            Some(&b"https://www.example.com/a/b?x=1"[..])
        );
        let braced = Template::parse("${scheme}://${host}/new").unwrap();
        assert_eq!(braced.render("h", &uri, false), "http://h/new");
        assert_eq!(braced.render("h", &uri, true), "https://h/new");
    }

    #[test]
    fn without_a_host_the_route_host_stands_in() {
        let answer = answer(302, Some("https://$host/"));
        let response = answer.respond(None, &"/".parse().unwrap(), false, &[]);
        assert_eq!(
            response.headers().get(header::LOCATION),
            Some(&b"https://example.com/"[..])
        );
    }

    #[test]
    fn a_bare_status_answers_with_that_status() {
        let not_found = answer(404, None).respond(Some("x"), &"/".parse().unwrap(), false, &[]);
        assert_eq!(not_found.status(), StatusCode::NOT_FOUND);
        assert!(!not_found.headers().contains(header::LOCATION));
        let no_content = answer(204, None).respond(Some("x"), &"/".parse().unwrap(), false, &[]);
        assert_eq!(no_content.status(), StatusCode::NO_CONTENT);
    }
}
