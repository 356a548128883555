//! Routes that answer by themselves, as nginx `return`: a redirect (`return 301 URL`) whose
//! `Location` may use `$host`, `$request_uri` and `$scheme`, or a bare status (`return 404`).
//! Nothing else of nginx's variables is evaluated.

use http::header::{self, HeaderValue};
use http::{Response, StatusCode, Uri};

use crate::body::Body;
use crate::config::AnswerConfig;

/// A `Location` with the request's variables still to fill in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    /// nginx `$host`: the request's host in lower case, without port.
    Host,
    /// nginx `$request_uri`: the path and query as the client sent them.
    RequestUri,
    /// nginx `$scheme`: `https` on a TLS listener, else `http`.
    Scheme,
}

impl Template {
    /// Reads `https://$host$request_uri` or `https://${host}/new`; any other variable is an error
    /// that says which ones are known.
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(dollar) = rest.find('$') {
            literal.push_str(&rest[..dollar]);
            let after = &rest[dollar + 1..];
            let (name, remainder) = match after.strip_prefix('{') {
                Some(braced) => match braced.find('}') {
                    Some(end) => (&braced[..end], &braced[end + 1..]),
                    None => return Err(format!("unclosed \"${{\" in {text:?}")),
                },
                None => {
                    let end = after
                        .find(|character: char| {
                            !(character.is_ascii_alphanumeric() || character == '_')
                        })
                        .unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            let part = match name {
                "host" => Part::Host,
                "request_uri" => Part::RequestUri,
                "scheme" => Part::Scheme,
                _ => {
                    return Err(format!(
                        "only $host, $request_uri and $scheme are evaluated in a redirect, found ${name} in {text:?}"
                    ))
                }
            };
            if !literal.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut literal)));
            }
            parts.push(part);
            rest = remainder;
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        let texts_valid = parts.iter().all(|part| match part {
            Part::Text(text) => HeaderValue::from_str(text).is_ok(),
            _ => true,
        });
        if parts.is_empty() || !texts_valid {
            return Err(format!(
                "expected a URL such as \"https://$host$request_uri\" (visible ASCII), found {text:?}"
            ));
        }
        Ok(Template { parts })
    }

    /// The `Location` for one request.
    pub fn render(&self, host: &str, uri: &Uri, secure: bool) -> String {
        let mut location = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => location.push_str(text),
                Part::Host => location.push_str(host),
                Part::RequestUri => {
                    location.push_str(uri.path_and_query().map_or("/", |pq| pq.as_str()))
                }
                Part::Scheme => location.push_str(if secure { "https" } else { "http" }),
            }
        }
        location
    }
}

/// What a `redirect`/`status` route answers.
#[derive(Debug)]
pub struct Answer {
    status: StatusCode,
    location: Option<Template>,
    /// `$host` when the request names none: the route's host, as nginx falls back to the
    /// server's name.
    fallback_host: String,
}

impl Answer {
    pub fn new(config: &AnswerConfig, route_host: Option<&str>) -> Answer {
        Answer {
            status: config.status,
            // Validation parsed the same text, so it parses here too; a failure would only lose
            // the header, never panic.
            location: config
                .location
                .as_deref()
                .and_then(|text| Template::parse(text).ok()),
            fallback_host: route_host.unwrap_or("localhost").to_string(),
        }
    }

    /// The response to a request with this `Host` header (if any) and URI; `secure` when it came
    /// on a TLS listener.
    pub fn respond(&self, host: Option<&str>, uri: &Uri, secure: bool) -> Response<Body> {
        let Some(template) = &self.location else {
            if self.status.as_u16() >= 400 {
                return crate::error::status_response(self.status);
            }
            let mut response = Response::new(Body::empty());
            *response.status_mut() = self.status;
            return response;
        };
        let host = uri
            .host()
            .or(host)
            .map(strip_port)
            .filter(|host| !host.is_empty())
            .unwrap_or(&self.fallback_host)
            .to_ascii_lowercase();
        let mut response = Response::new(Body::empty());
        *response.status_mut() = self.status;
        if let Ok(location) = HeaderValue::from_str(&template.render(&host, uri, secure)) {
            response.headers_mut().insert(header::LOCATION, location);
        }
        response
    }
}

/// `[tls] redirect_http`: a 301 to the same host and request target over HTTPS on `port`, as
/// nginx's `return 301 https://$host$request_uri` (with the port when it is not 443 or 0).
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
    if let Ok(location) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}

fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.rfind(':').map_or(host, |colon| &host[..colon])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, location: Option<&str>) -> Answer {
        let config = AnswerConfig {
            status: StatusCode::from_u16(status).unwrap(),
            location: location.map(str::to_string),
        };
        Answer::new(&config, Some("example.com"))
    }

    #[test]
    fn a_redirect_fills_in_host_request_uri_and_scheme() {
        let answer = answer(301, Some("https://$host$request_uri"));
        let uri: Uri = "/a/b?x=1".parse().unwrap();
        let response = answer.respond(Some("WWW.Example.com:8080"), &uri, false);
        assert_eq!(response.status(), StatusCode::MOVED_PERMANENTLY);
        assert_eq!(
            response.headers()[header::LOCATION],
            "https://www.example.com/a/b?x=1"
        );
        let braced = Template::parse("${scheme}://${host}/new").unwrap();
        assert_eq!(braced.render("h", &uri, false), "http://h/new");
        assert_eq!(braced.render("h", &uri, true), "https://h/new");
    }

    #[test]
    fn without_a_host_the_route_host_stands_in() {
        let answer = answer(302, Some("https://$host/"));
        let response = answer.respond(None, &"/".parse().unwrap(), false);
        assert_eq!(response.headers()[header::LOCATION], "https://example.com/");
    }

    #[test]
    fn unknown_variables_are_refused_with_the_known_ones_named() {
        let error = Template::parse("https://$server_name$uri").unwrap_err();
        assert!(error.contains("$server_name"), "{error}");
        assert!(error.contains("$request_uri"), "{error}");
        assert!(Template::parse("https://${host").is_err());
        assert!(Template::parse("").is_err());
    }

    #[test]
    fn a_bare_status_answers_with_that_status() {
        let not_found = answer(404, None).respond(Some("x"), &"/".parse().unwrap(), false);
        assert_eq!(not_found.status(), StatusCode::NOT_FOUND);
        assert!(!not_found.headers().contains_key(header::LOCATION));
        let no_content = answer(204, None).respond(Some("x"), &"/".parse().unwrap(), false);
        assert_eq!(no_content.status(), StatusCode::NO_CONTENT);
    }
}
