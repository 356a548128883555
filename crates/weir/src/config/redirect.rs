//! A redirect's `Location` as a route gives it (`redirect`, nginx `return 301 URL`), where
//! `$host`, `$request_uri` and `$scheme` are the request's: parsed when the config is read, filled
//! in for each request by `answer.rs`. A header rule's value (`request_headers`,
//! `response_headers`, ...) is the same template with a few more of nginx's variables
//! ([`Template::parse_header`], filled in by [`Template::render_with`]). Nothing else of nginx's
//! variables is evaluated.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;

use http::{HeaderName, HeaderValue, Method, Uri};

use crate::head_view::Headers;

/// A `Location` with the request's variables still to fill in, parsed when the config is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// As the config wrote it, for messages and `weir check`.
    text: String,
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
    /// nginx `$remote_addr`: the client's address, as `trusted_proxies` makes it.
    RemoteAddr,
    /// nginx `$server_name`: the route's `host` (or its `[[hosts]]` name); empty for a route of
    /// any host.
    ServerName,
    /// nginx `$request_method`.
    RequestMethod,
    /// nginx `$uri`: the normalised path, without the query.
    Path,
    /// nginx `$http_NAME`: the request's header `NAME` (`_` for `-`), empty when absent; several
    /// are joined with ", ".
    Http(HeaderName),
    /// nginx `$proxy_add_x_forwarded_for`: the request's `X-Forwarded-For` with the client's
    /// address appended, or the address alone.
    ProxyAddXForwardedFor,
    /// nginx `$request_id`: 32 hex digits no client can guess, the same for the request's
    /// headers and its answer's.
    RequestId,
    /// nginx `$upstream_cache_status`: `HIT`, `MISS`, `EXPIRED` or `BYPASS` on a route with `cache`, else
    /// empty (and empty in a request header: the answer is not known yet).
    UpstreamCacheStatus,
    /// nginx `$1` .. `$9`: a capture of a regex route's path (empty when it took no part).
    Capture(usize),
    /// nginx `$args`: the query as sent, without its `?` (empty when there is none).
    Args,
    /// nginx `$is_args`: `?` when the request has a query, else empty.
    IsArgs,
    /// nginx `$remote_port`: the client's port.
    RemotePort,
    /// nginx `$server_port`: the port of the listener the request came on.
    ServerPort,
    /// nginx `$https`: `on` on a TLS listener, else empty.
    Https,
    /// nginx `$msec`: the time, in seconds since the epoch with milliseconds (`t=${msec}` is
    /// the `X-Request-Start` that APM agents read the time a request queued from).
    Msec,
    /// A `[maps.NAME]`'s `$NAME`: index into [`Variables::maps`].
    Map(usize),
}

/// A `[maps.NAME]` (nginx `map $SOURCE $NAME { ... }` of a request's values): `source` filled
/// in and looked up among the `equals` strings (whatever their case, as nginx's), then the
/// `matches` regexes in order, else `default`; a header value's `$NAME` is the value found,
/// filled in. `None` as a value: empty (a header of nothing else is not sent).
#[derive(Debug, Clone)]
pub struct ValueMap {
    pub name: String,
    pub source: Template,
    /// By the string in lower case.
    pub equals: HashMap<String, Option<Template>>,
    pub matches: Vec<(regex::bytes::Regex, Option<Template>)>,
    pub default: Option<Template>,
}

impl PartialEq for ValueMap {
    fn eq(&self, other: &ValueMap) -> bool {
        let regexes = |map: &ValueMap| -> Vec<(String, Option<Template>)> {
            map.matches
                .iter()
                .map(|(regex, value)| (regex.as_str().to_string(), value.clone()))
                .collect()
        };
        self.name == other.name
            && self.source == other.source
            && self.equals == other.equals
            && regexes(self) == regexes(other)
            && self.default == other.default
    }
}

impl ValueMap {
    /// The value for a request whose `source` is `value`.
    fn choose(&self, value: &[u8]) -> Option<&Template> {
        let found = std::str::from_utf8(value)
            .ok()
            .and_then(|text| self.equals.get(&text.to_ascii_lowercase()))
            .or_else(|| {
                self.matches
                    .iter()
                    .find(|(regex, _)| regex.is_match(value))
                    .map(|(_, value)| value)
            });
        match found {
            Some(value) => value.as_ref(),
            None => self.default.as_ref(),
        }
    }
}

thread_local! {
    /// The names of the config's `[maps.NAME]` while its header values are read
    /// ([`with_map_names`]): a value's `$NAME` of one of them is that map's.
    static MAP_NAMES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Runs `read` (the reading of a config's header values) with `names` as the maps a value may
/// name. (The values are read deep in the routes' and hosts' checks; the names are the
/// config's, known before them.)
pub fn with_map_names<T>(names: Vec<String>, read: impl FnOnce() -> T) -> T {
    let before = MAP_NAMES.with(|known| known.replace(names));
    let result = read();
    MAP_NAMES.with(|known| known.replace(before));
    result
}

/// The index of map `name` among those [`with_map_names`] gives, if any.
fn map_index(name: &str) -> Option<usize> {
    MAP_NAMES.with(|known| known.borrow().iter().position(|known| known == name))
}

/// The request's values of a header rule's variables.
pub struct Variables<'a> {
    /// The request's host in lower case, without port.
    pub host: &'a str,
    pub uri: &'a Uri,
    pub secure: bool,
    pub remote_addr: IpAddr,
    pub remote_port: u16,
    /// The port of the listener the request came on.
    pub server_port: u16,
    pub server_name: &'a str,
    pub method: &'a Method,
    /// The normalised path.
    pub path: &'a str,
    /// The client's request headers, as they came.
    pub headers: &'a Headers,
    /// `$request_id`: the request's id, empty when no rule of the config names it.
    pub request_id: &'a str,
    /// `$upstream_cache_status`: how the route's `cache` answered, empty when it did not.
    pub cache_status: &'a str,
    /// The config's `[maps.NAME]`, which `$NAME` looks up.
    pub maps: &'a [ValueMap],
}

/// The variables a header rule's value may use, for messages.
const HEADER_VARIABLES: &str = "$host, $remote_addr, $remote_port, $scheme, $https, $server_port, $request_uri, $uri, $request_method, $server_name, $proxy_add_x_forwarded_for, $request_id, $upstream_cache_status, $msec, $http_NAME and a [maps.NAME]'s $NAME";

impl Template {
    /// Reads `https://$host$request_uri` or `https://${host}/new`; any other variable is an error
    /// that says which ones are known.
    pub fn parse(text: &str) -> Result<Template, String> {
        let template = Template::parse_with(text, |name| match name {
            "host" => Some(Part::Host),
            "request_uri" => Some(Part::RequestUri),
            "scheme" => Some(Part::Scheme),
            "args" => Some(Part::Args),
            "is_args" => Some(Part::IsArgs),
            _ => match name.as_bytes() {
                [digit @ b'1'..=b'9'] => Some(Part::Capture(usize::from(digit - b'0'))),
                _ => None,
            },
        })
        .map_err(|name| {
            format!("only $host, $request_uri and $scheme are evaluated in a redirect (and $args, $is_args, and a regex route's $1 to $9 in its own), found ${name} in {text:?}")
        })?;
        match template {
            Some(template) => Ok(template),
            None => Err(format!(
                "expected a URL such as \"https://$host$request_uri\" (visible ASCII), found {text:?}"
            )),
        }
    }

    /// [`Template::parse`] where no regex route's path is matched: `$1` to `$9` are refused.
    pub fn parse_uncaptured(text: &str) -> Result<Template, String> {
        let template = Template::parse(text)?;
        if template.most_capture() > 0 {
            return Err(format!(
                "$1 to $9 are a regex route's captures, in its own redirect; here there are none, in {text:?}"
            ));
        }
        Ok(template)
    }

    /// Reads a header rule's value, such as `"$remote_addr"` or `"max-age=31536000"`: any of
    /// `HEADER_VARIABLES`; another variable is an error that names the known ones.
    pub fn parse_header(text: &str) -> Result<Template, String> {
        let template = Template::parse_with(text, |name| match name {
            "host" => Some(Part::Host),
            "request_uri" => Some(Part::RequestUri),
            "scheme" => Some(Part::Scheme),
            "remote_addr" => Some(Part::RemoteAddr),
            "server_name" => Some(Part::ServerName),
            "request_method" => Some(Part::RequestMethod),
            "uri" => Some(Part::Path),
            "proxy_add_x_forwarded_for" => Some(Part::ProxyAddXForwardedFor),
            "request_id" => Some(Part::RequestId),
            "upstream_cache_status" => Some(Part::UpstreamCacheStatus),
            "remote_port" => Some(Part::RemotePort),
            "server_port" => Some(Part::ServerPort),
            "https" => Some(Part::Https),
            "msec" => Some(Part::Msec),
            _ => http_variable(name)
                .map(Part::Http)
                .or_else(|| map_index(name).map(Part::Map)),
        })
        .map_err(|name| {
            format!(
                "a header value may use {HEADER_VARIABLES}; ${name} is none of them (in {text:?})"
            )
        })?;
        template.ok_or_else(|| {
            format!("expected a header value of visible ASCII, spaces and tabs, found {text:?}")
        })
    }

    /// The highest capture (`$1` .. `$9`) the redirect names; 0 for none.
    pub fn most_capture(&self) -> usize {
        self.parts
            .iter()
            .filter_map(|part| match part {
                Part::Capture(number) => Some(*number),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether the value names `$request_id`.
    pub fn names_request_id(&self) -> bool {
        self.parts.contains(&Part::RequestId)
    }

    /// Whether the value is the same for every request (it names no variable).
    pub fn is_constant(&self) -> bool {
        self.parts.iter().all(|part| matches!(part, Part::Text(_)))
    }

    /// The template's parts, with `known` telling a variable's part from its name; `Err` is the
    /// unknown name, `None` an empty template or one whose text is no header value.
    fn parse_with(
        text: &str,
        known: impl Fn(&str) -> Option<Part>,
    ) -> Result<Option<Template>, String> {
        let Some(pieces) = pieces(text) else {
            return Ok(None);
        };
        let mut parts = Vec::with_capacity(pieces.len());
        for piece in pieces {
            parts.push(match piece {
                Piece::Text(text) => Part::Text(text.to_string()),
                Piece::Variable(name) => known(name).ok_or_else(|| name.to_string())?,
            });
        }
        let texts_valid = parts.iter().all(|part| match part {
            Part::Text(text) => HeaderValue::from_str(text).is_ok(),
            _ => true,
        });
        if parts.is_empty() || !texts_valid {
            return Ok(None);
        }
        Ok(Some(Template {
            text: text.to_string(),
            parts,
        }))
    }

    /// The template as the config wrote it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The `Location` for one request; `secure` when it came on a TLS listener.
    pub fn render(&self, host: &str, uri: &Uri, secure: bool) -> String {
        self.render_captured(host, uri, secure, &[])
    }

    /// The `Location` for one request whose path a regex route matched: `captures[n - 1]` is
    /// `$n` (empty when missing).
    pub fn render_captured(
        &self,
        host: &str,
        uri: &Uri,
        secure: bool,
        captures: &[&str],
    ) -> String {
        let mut location = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => location.push_str(text),
                Part::Host => location.push_str(host),
                Part::RequestUri => {
                    location.push_str(uri.path_and_query().map_or("/", |pq| pq.as_str()))
                }
                Part::Scheme => location.push_str(if secure { "https" } else { "http" }),
                Part::Capture(number) => {
                    location.push_str(captures.get(number - 1).copied().unwrap_or_default())
                }
                Part::Args => location.push_str(uri.query().unwrap_or_default()),
                Part::IsArgs if uri.query().is_some_and(|query| !query.is_empty()) => {
                    location.push('?')
                }
                // `parse` admits no other variable.
                _ => {}
            }
        }
        location
    }

    /// A header rule's value for one request; `None` when what the variables hold makes no
    /// header value (a client's header of obs-text, say) or an empty one, so the rule is skipped
    /// (a request header it sets is removed, as nginx's `proxy_set_header` with an empty value).
    pub fn render_with(&self, variables: &Variables<'_>) -> Option<HeaderValue> {
        if let [Part::Text(text)] = self.parts.as_slice() {
            return HeaderValue::from_str(text).ok();
        }
        let mut value: Vec<u8> = Vec::with_capacity(64);
        self.render_into(variables, &mut value);
        // An empty value makes no header, as nginx's `add_header` and `proxy_set_header` (an
        // absent `$http_NAME`, `$upstream_cache_status` where no cache answered).
        if value.is_empty() {
            return None;
        }
        HeaderValue::from_bytes(&value).ok()
    }

    /// The value's bytes for one request, appended to `value`.
    fn render_into(&self, variables: &Variables<'_>, value: &mut Vec<u8>) {
        for part in &self.parts {
            match part {
                Part::Text(text) => value.extend_from_slice(text.as_bytes()),
                Part::Host => value.extend_from_slice(variables.host.as_bytes()),
                Part::RequestUri => value.extend_from_slice(
                    variables
                        .uri
                        .path_and_query()
                        .map_or("/", |pq| pq.as_str())
                        .as_bytes(),
                ),
                Part::Scheme => {
                    value.extend_from_slice(if variables.secure { b"https" } else { b"http" })
                }
                Part::RemoteAddr => {
                    value.extend_from_slice(variables.remote_addr.to_string().as_bytes())
                }
                Part::ServerName => value.extend_from_slice(variables.server_name.as_bytes()),
                Part::RequestMethod => {
                    value.extend_from_slice(variables.method.as_str().as_bytes())
                }
                Part::Path => value.extend_from_slice(variables.path.as_bytes()),
                Part::Http(name) => variables.headers.append_joined(name, value),
                Part::RequestId => value.extend_from_slice(variables.request_id.as_bytes()),
                Part::UpstreamCacheStatus => {
                    value.extend_from_slice(variables.cache_status.as_bytes());
                }
                Part::ProxyAddXForwardedFor => {
                    let name = HeaderName::from_static("x-forwarded-for");
                    if variables.headers.contains(&name) {
                        variables.headers.append_joined(&name, value);
                        value.extend_from_slice(b", ");
                    }
                    value.extend_from_slice(variables.remote_addr.to_string().as_bytes());
                }
                Part::RemotePort => {
                    value.extend_from_slice(variables.remote_port.to_string().as_bytes())
                }
                Part::ServerPort => {
                    value.extend_from_slice(variables.server_port.to_string().as_bytes())
                }
                Part::Https if variables.secure => value.extend_from_slice(b"on"),
                Part::Https => {}
                Part::Msec => {
                    let since = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap_or_default();
                    value.extend_from_slice(
                        format!("{}.{:03}", since.as_secs(), since.subsec_millis()).as_bytes(),
                    );
                }
                // A map's source and values name no map: one level, no loop.
                Part::Map(index) => {
                    if let Some(map) = variables.maps.get(*index) {
                        let mut source = Vec::new();
                        map.source.render_into(variables, &mut source);
                        if let Some(chosen) = map.choose(&source) {
                            chosen.render_into(variables, value);
                        }
                    }
                }
                // `parse_header` admits none of these.
                Part::Capture(_) | Part::Args | Part::IsArgs => {}
            }
        }
    }
}

/// The header field nginx's `$http_NAME` names (`x-forwarded-for` of `http_x_forwarded_for`).
pub fn http_variable(name: &str) -> Option<HeaderName> {
    let header = name.strip_prefix("http_")?.replace('_', "-");
    HeaderName::from_bytes(header.as_bytes()).ok()
}

/// A piece of a text with nginx's variables: literal text, or a variable's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    /// The name after `$` (`host` of `$host` or `${host}`).
    Variable(&'a str),
}

/// `text` cut at its variables, as nginx reads them: `$name` takes letters, digits and `_`;
/// `${name}` ends at `}`. Literal runs are whole (never two `Text`s side by side). `None` when
/// a `${` has no `}`.
pub fn pieces(text: &str) -> Option<Vec<Piece<'_>>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(dollar) = rest.find('$') {
        if dollar > 0 {
            pieces.push(Piece::Text(&rest[..dollar]));
        }
        let after = &rest[dollar + 1..];
        let (name, remainder) = match after.strip_prefix('{') {
            Some(braced) => {
                let end = braced.find('}')?;
                (&braced[..end], &braced[end + 1..])
            }
            None => {
                let end = after
                    .find(|character: char| {
                        !(character.is_ascii_alphanumeric() || character == '_')
                    })
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        pieces.push(Piece::Variable(name));
        rest = remainder;
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    Some(pieces)
}

impl fmt::Display for Template {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_filled_in_braced_or_not() {
        let uri: Uri = "/a/b?x=1".parse().unwrap();
        let plain = Template::parse("https://$host$request_uri").unwrap();
        assert_eq!(plain.render("h", &uri, false), "https://h/a/b?x=1");
        let braced = Template::parse("${scheme}://${host}/new").unwrap();
        assert_eq!(braced.render("h", &uri, false), "http://h/new");
        assert_eq!(braced.render("h", &uri, true), "https://h/new");
        let args = Template::parse("/new$is_args$args").unwrap();
        assert_eq!(args.render("h", &uri, false), "/new?x=1");
        assert_eq!(args.render("h", &"/a/b".parse().unwrap(), false), "/new");
        assert_eq!(args.render("h", &"/a/b?".parse().unwrap(), false), "/new");
        assert_eq!(braced.to_string(), "${scheme}://${host}/new");
    }

    #[test]
    fn unknown_variables_are_refused_with_the_known_ones_named() {
        let error = Template::parse("https://$server_name$uri").unwrap_err();
        assert!(error.contains("$server_name"), "{error}");
        assert!(error.contains("$request_uri"), "{error}");
        assert!(Template::parse("https://${host").is_err());
        assert!(Template::parse("").is_err());
        assert!(Template::parse("https://$remote_addr/").is_err());
    }

    #[test]
    fn header_values_fill_in_their_wider_set_of_variables() {
        let uri: Uri = "/a/b?x=1".parse().unwrap();
        let mut map = http::HeaderMap::new();
        map.append("x-forwarded-for", HeaderValue::from_static("203.0.113.9"));
        map.append("origin", HeaderValue::from_static("https://app.example"));
        let headers = Headers::from_map(&map);
        let variables = Variables {
            host: "h",
            uri: &uri,
            secure: true,
            remote_addr: "192.0.2.1".parse().unwrap(),
            remote_port: 50123,
            server_port: 8443,
            server_name: "example.com",
            method: &Method::POST,
            path: "/a/b",
            headers: &headers,
            request_id: "0123456789abcdef0123456789abcdef",
            cache_status: "HIT",
            maps: &[],
        };
        let render = |text: &str| {
            Template::parse_header(text)
                .unwrap()
                .render_with(&variables)
                .unwrap()
        };
        assert_eq!(render("$remote_addr"), "192.0.2.1");
        assert_eq!(
            render("$proxy_add_x_forwarded_for"),
            "203.0.113.9, 192.0.2.1"
        );
        assert_eq!(
            render("${http_origin}|$http_x_absent|"),
            "https://app.example||"
        );
        assert_eq!(
            render("$request_method $scheme://$host$uri ($request_uri) $server_name"),
            "POST https://h/a/b (/a/b?x=1) example.com"
        );
        assert_eq!(
            render("id=$request_id"),
            "id=0123456789abcdef0123456789abcdef"
        );
        assert!(Template::parse_header("$request_id")
            .unwrap()
            .names_request_id());
        assert_eq!(render("cache $upstream_cache_status"), "cache HIT");
        assert_eq!(
            render("$host:$server_port $remote_port $https"),
            "h:8443 50123 on"
        );
        let start = render("t=${msec}");
        let (seconds, millis) = start.to_str().unwrap()["t=".len()..]
            .split_once('.')
            .unwrap();
        assert!(seconds.parse::<u64>().unwrap() > 1_600_000_000, "{start:?}");
        assert_eq!(millis.len(), 3, "{start:?}");
        // Empty, as nginx's add_header and proxy_set_header: no header.
        for empty in ["$http_x_absent", "$http_x_absent$http_y_absent"] {
            assert_eq!(
                Template::parse_header(empty)
                    .unwrap()
                    .render_with(&variables),
                None,
                "{empty}"
            );
        }
        assert!(!Template::parse_header("$host").unwrap().names_request_id());
        assert!(Template::parse_header("max-age=31536000")
            .unwrap()
            .is_constant());
        let error = Template::parse_header("$hostname").unwrap_err();
        assert!(
            error.contains("$hostname") && error.contains("$http_NAME"),
            "{error}"
        );
        assert!(Template::parse_header("a\nb").is_err());
    }
}
