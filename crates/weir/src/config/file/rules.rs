//! The keys of header rules, access rules, dot-files and static fallbacks, on a route and in
//! `[[hosts]]`: their serde mirror (beyond `RawRoute`'s fields) and their validation. A header
//! name or value, a variable, an access entry or a fallback that cannot work is refused here,
//! with its key's span.

use std::collections::BTreeMap;

use http::{HeaderName, StatusCode};
use ipnet::IpNet;
use toml::Spanned;

// Nothing of the parent `file.rs` is imported (it imports this module): it hands a route's
// keys over as a `RouteKeys`, and its host check as a function.
use crate::config::error::{ConfigErrorKind, Problem};
use crate::config::{
    AccessRule, AuthRequest, BasicAuth, CookieFlag, ErrorPages, Expires, ForwardedFor, HeaderGuard,
    HeaderRules, HostConfig, OptionsAnswer, RouteConfig, RouteRules, SameSite, Satisfy, SignIn,
    StaticFallback, Template, TypeMatch, TypedEntry, TypedHeader,
};

/// `request_headers = { "X-Real-IP" = "$remote_addr" }` and the like.
pub(super) type RawHeaderMap = BTreeMap<Spanned<String>, Spanned<String>>;

/// `[[hosts]]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHost {
    name: Spanned<String>,
    request_headers: Option<RawHeaderMap>,
    append_request_headers: Option<RawHeaderMap>,
    response_headers: Option<RawHeaderMap>,
    response_headers_always: Option<RawHeaderMap>,
    hide_response_headers: Option<Vec<Spanned<String>>>,
    forwarded_for: Option<Spanned<String>>,
    charset: Option<Spanned<String>>,
    charset_types: Option<Vec<Spanned<String>>>,
    cookie_flags: Option<Vec<Spanned<String>>>,
    response_headers_by_type: Option<Vec<RawTyped>>,
    deny_headers: Option<Vec<RawGuard>>,
    expires: Option<Spanned<String>>,
    access: Option<Vec<Spanned<String>>>,
    basic_auth: Option<Spanned<toml::Value>>,
    satisfy: Option<Spanned<String>>,
    auth_request: Option<Spanned<toml::Value>>,
    error_pages: Option<RawPageMap>,
    intercept_errors: Option<Spanned<bool>>,
}

/// One entry of `response_headers_by_type = [{ header = "X-Frame-Options", types =
/// ["text/html"], value = "DENY", always = true }]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTyped {
    header: Spanned<String>,
    types: Spanned<Vec<Spanned<String>>>,
    value: Spanned<String>,
    always: Option<Spanned<bool>>,
}

/// One entry of `deny_headers = [{ header = "User-Agent", matches = "(?i)bot", status = 403 }]`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGuard {
    header: Spanned<String>,
    matches: Option<Spanned<String>>,
    not_matches: Option<Spanned<String>>,
    status: Option<Spanned<u16>>,
    location: Option<Spanned<String>>,
}

/// `answer_options = { status = 204, headers = { "Access-Control-Allow-Origin" = "*" } }`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOptions {
    status: Option<Spanned<u16>>,
    headers: Option<RawHeaderMap>,
}

/// `error_pages = { 502 = "/srv/app/public/500.html" }`.
pub(super) type RawPageMap = BTreeMap<Spanned<String>, Spanned<String>>;

/// A route's keys that this module reads, as `file.rs` hands them over (its `RawRoute`'s).
pub(super) struct RouteKeys<'a> {
    pub(super) upstream: Option<&'a Spanned<String>>,
    pub(super) static_root: Option<&'a Spanned<String>>,
    pub(super) request_headers: Option<&'a RawHeaderMap>,
    pub(super) append_request_headers: Option<&'a RawHeaderMap>,
    pub(super) response_headers: Option<&'a RawHeaderMap>,
    pub(super) response_headers_always: Option<&'a RawHeaderMap>,
    pub(super) hide_response_headers: Option<&'a Vec<Spanned<String>>>,
    pub(super) forwarded_for: Option<&'a Spanned<String>>,
    pub(super) charset: Option<&'a Spanned<String>>,
    pub(super) charset_types: Option<&'a Vec<Spanned<String>>>,
    pub(super) cookie_flags: Option<&'a Vec<Spanned<String>>>,
    pub(super) response_headers_by_type: Option<&'a [RawTyped]>,
    pub(super) deny_headers: Option<&'a [RawGuard]>,
    pub(super) expires: Option<&'a Spanned<String>>,
    pub(super) location_rewrites: Option<&'a RawHeaderMap>,
    pub(super) access: Option<&'a [Spanned<String>]>,
    pub(super) basic_auth: Option<&'a Spanned<toml::Value>>,
    pub(super) satisfy: Option<&'a Spanned<String>>,
    pub(super) auth_request: Option<&'a Spanned<toml::Value>>,
    pub(super) dotfiles: Option<&'a Spanned<bool>>,
    pub(super) try_suffixes: Option<&'a Spanned<Vec<Spanned<String>>>>,
    pub(super) fallback_upstream: Option<&'a Spanned<String>>,
    pub(super) fallback_file: Option<&'a Spanned<String>>,
    pub(super) error_pages: Option<&'a RawPageMap>,
    pub(super) intercept_errors: Option<&'a Spanned<bool>>,
    pub(super) answer_options: Option<&'a Spanned<RawOptions>>,
}

/// A table key that is a status `allowed` takes; a problem saying `expected` otherwise.
pub(super) fn status_key(
    key: &Spanned<String>,
    allowed: impl Fn(u16) -> bool,
    expected: &str,
) -> Result<StatusCode, Problem> {
    key.get_ref()
        .parse::<u16>()
        .ok()
        .filter(|code| allowed(*code))
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| {
            invalid(
                key.span(),
                format!("expected {expected}, found {:?}", key.get_ref()),
            )
        })
}

fn invalid(span: std::ops::Range<usize>, message: impl Into<String>) -> Problem {
    Problem::new(ConfigErrorKind::InvalidValue, span, message)
}

fn defined_upstreams<T>(upstreams: &BTreeMap<String, T>) -> String {
    if upstreams.is_empty() {
        "no [upstreams.NAME] table is defined".to_string()
    } else {
        format!(
            "defined: {}",
            upstreams.keys().cloned().collect::<Vec<_>>().join(", ")
        )
    }
}

/// The header keys, as a route or a host has them.
struct RawHeaderKeys<'a> {
    request_headers: Option<&'a RawHeaderMap>,
    append_request_headers: Option<&'a RawHeaderMap>,
    response_headers: Option<&'a RawHeaderMap>,
    response_headers_always: Option<&'a RawHeaderMap>,
    hide_response_headers: Option<&'a Vec<Spanned<String>>>,
    forwarded_for: Option<&'a Spanned<String>>,
    charset: Option<&'a Spanned<String>>,
    charset_types: Option<&'a Vec<Spanned<String>>>,
    cookie_flags: Option<&'a Vec<Spanned<String>>>,
    response_headers_by_type: Option<&'a [RawTyped]>,
    deny_headers: Option<&'a [RawGuard]>,
    expires: Option<&'a Spanned<String>>,
}

/// Headers that describe the connection or the framing, which weir writes itself: a rule on
/// one of them would break the exchange, not change it.
const MANAGED: &[&str] = &[
    "connection",
    "keep-alive",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
    "proxy-connection",
];

/// A route's rules; `upstreams` to check `fallback_upstream`.
/// `try_suffixes`: each appended to a path that names no file, as nginx's `try_files $uri
/// $uri.html $uri/`: it starts with `.` or `/` (`"/"` alone is the directory), holds no `..`
/// segment, no dot-file and no `?`, `#`, `%` or `$`, and is listed once; at most
/// [`crate::config::MOST_TRY_SUFFIXES`].
fn validate_try_suffixes(list: &Spanned<Vec<Spanned<String>>>) -> Result<Vec<String>, Problem> {
    let most = crate::config::MOST_TRY_SUFFIXES;
    if list.get_ref().is_empty() || list.get_ref().len() > most {
        return Err(invalid(
            list.span(),
            format!("expected 1 to {most} suffixes, such as [\".html\", \"/index.html\"]"),
        ));
    }
    let mut suffixes: Vec<String> = Vec::new();
    for entry in list.get_ref() {
        let text = entry.get_ref();
        let valid = (text.starts_with('.') || text.starts_with('/'))
            && text != "."
            && text
                .bytes()
                .all(|byte| byte.is_ascii_graphic() && !b"?#%$\\".contains(&byte))
            && !text.split('/').any(|segment| segment == "..")
            && !text
                .split('/')
                .skip(1)
                .any(|segment| segment.starts_with('.'));
        if !valid {
            return Err(invalid(
                entry.span(),
                format!("expected what follows a path, starting with '.' or '/' (\".html\", \"/index.html\"), without a dot-file, `..`, `?`, `#`, `%` or `$`, found {text:?}"),
            ));
        }
        if suffixes.contains(text) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                entry.span(),
                format!("{text:?} is listed twice"),
            ));
        }
        suffixes.push(text.clone());
    }
    Ok(suffixes)
}

pub(super) fn validate_route<T>(
    raw: &RouteKeys<'_>,
    upstreams: &BTreeMap<String, T>,
) -> Result<RouteRules, Problem> {
    let headers = validate_headers(&RawHeaderKeys {
        request_headers: raw.request_headers,
        append_request_headers: raw.append_request_headers,
        response_headers: raw.response_headers,
        response_headers_always: raw.response_headers_always,
        hide_response_headers: raw.hide_response_headers,
        forwarded_for: raw.forwarded_for,
        charset: raw.charset,
        charset_types: raw.charset_types,
        cookie_flags: raw.cookie_flags,
        response_headers_by_type: raw.response_headers_by_type,
        deny_headers: raw.deny_headers,
        expires: raw.expires,
    })?;
    let access = raw.access.map(validate_access).transpose()?;
    let basic_auth = raw.basic_auth.map(validate_basic_auth).transpose()?;
    let satisfy = raw.satisfy.map(validate_satisfy).transpose()?;
    let auth_request = raw.auth_request.map(validate_auth_request).transpose()?;

    let location_rewrites = match (raw.location_rewrites, raw.upstream) {
        (Some(map), Some(_)) => validate_location_rewrites(map)?,
        (Some(map), None) => {
            let span = map.keys().next().map_or(0..0, Spanned::span);
            return Err(Problem::new(
                ConfigErrorKind::Conflict,
                span,
                "`location_rewrites` edits the upstream's Location; this route has no `upstream`",
            ));
        }
        (None, _) => Vec::new(),
    };
    let is_static = raw.static_root.is_some();
    let only_static = [
        raw.dotfiles.map(|value| ("dotfiles", value.span())),
        raw.try_suffixes.map(|value| ("try_suffixes", value.span())),
        raw.fallback_upstream
            .map(|value| ("fallback_upstream", value.span())),
        raw.fallback_file
            .map(|value| ("fallback_file", value.span())),
    ];
    if let (false, Some((key, span))) = (is_static, only_static.iter().flatten().next()) {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            span.clone(),
            format!("`{key}` belongs to a route with `static` (a directory); this route has none"),
        ));
    }
    let fallback = match (&raw.fallback_upstream, &raw.fallback_file) {
        (Some(_), Some(file)) => {
            return Err(Problem::new(
                ConfigErrorKind::Conflict,
                file.span(),
                "a static route has one fallback: `fallback_upstream` or `fallback_file`, not both",
            ))
        }
        (Some(upstream), None) => {
            let name = upstream.get_ref();
            if !upstreams.contains_key(name) {
                return Err(Problem::new(
                    ConfigErrorKind::UnknownName,
                    upstream.span(),
                    format!(
                        "unknown upstream {name:?}; {}",
                        defined_upstreams(upstreams)
                    ),
                ));
            }
            Some(StaticFallback::Upstream(name.clone()))
        }
        (None, Some(file)) => {
            let text = file.get_ref();
            let valid = text.starts_with('/')
                && text.len() > 1
                && !text.ends_with('/')
                && text
                    .split('/')
                    .skip(1)
                    .all(|segment| !segment.is_empty() && segment != "." && segment != "..");
            if !valid {
                return Err(invalid(
                    file.span(),
                    format!("expected a file of the route's directory, as in \"/index.html\" (no `..`, no trailing '/'), found {text:?}"),
                ));
            }
            Some(StaticFallback::File(text.clone()))
        }
        (None, None) => None,
    };

    // A rule on the upstream request (or response) of a route that has no upstream does nothing:
    // nginx takes `proxy_set_header` in any location silently; weir says so.
    let proxied = raw.upstream.is_some() || raw.fallback_upstream.is_some();
    let upstream_only = [
        raw.request_headers
            .and_then(|map| map.keys().next())
            .map(|key| ("request_headers", key.span())),
        raw.append_request_headers
            .and_then(|map| map.keys().next())
            .map(|key| ("append_request_headers", key.span())),
        raw.hide_response_headers
            .and_then(|list| list.first())
            .map(|name| ("hide_response_headers", name.span())),
        raw.forwarded_for
            .map(|value| ("forwarded_for", value.span())),
        raw.intercept_errors
            .map(|value| ("intercept_errors", value.span())),
    ];
    if let (false, Some((key, span))) = (proxied, upstream_only.iter().flatten().next()) {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            span.clone(),
            format!("`{key}` acts on the upstream's request or response; this route has no `upstream` (nor `fallback_upstream`)"),
        ));
    }

    Ok(RouteRules {
        headers,
        access,
        basic_auth,
        satisfy,
        auth_request,
        dotfiles: raw.dotfiles.is_some_and(|value| *value.get_ref()),
        try_suffixes: raw
            .try_suffixes
            .map(validate_try_suffixes)
            .transpose()?
            .unwrap_or_default(),
        fallback,
        pages: validate_pages(raw.error_pages, raw.intercept_errors)?,
        location_rewrites,
        answer_options: raw.answer_options.map(validate_options).transpose()?,
    })
}

/// `answer_options`: a status of 2xx, 4xx or 5xx (204 when not given), and headers as
/// `response_headers` takes them.
fn validate_options(raw: &Spanned<RawOptions>) -> Result<OptionsAnswer, Problem> {
    let status = match &raw.get_ref().status {
        Some(status) => Some(*status.get_ref())
            .filter(|code| matches!(code, 200..=299 | 400..=599))
            .and_then(|code| StatusCode::from_u16(code).ok())
            .ok_or_else(|| {
                invalid(
                    status.span(),
                    format!("expected a status of 200 to 299 or 400 to 599, such as 204 (nginx's `return 204`), found {}", status.get_ref()),
                )
            })?,
        None => StatusCode::NO_CONTENT,
    };
    let mut headers: Vec<(HeaderName, Template)> = Vec::new();
    for (name, value) in raw.get_ref().headers.iter().flatten() {
        let header = header_name(name, &headers)?;
        if value.get_ref().is_empty() {
            return Err(invalid(
                value.span(),
                "expected a value; leave the header out to send none",
            ));
        }
        headers.push((header, template(value)?));
    }
    Ok(OptionsAnswer { status, headers })
}

/// `error_pages` (each key a status 400 to 599 but 444, each value an absolute file) and
/// `intercept_errors`.
pub(super) fn validate_pages(
    raw: Option<&RawPageMap>,
    intercept: Option<&Spanned<bool>>,
) -> Result<ErrorPages, Problem> {
    let mut files = Vec::new();
    for (key, value) in raw.into_iter().flatten() {
        let status = status_key(
            key,
            |code| (400..=599).contains(&code) && code != 444,
            "a status from 400 to 599 (not 444, which answers nothing) as the key, as in `502 = \"/srv/app/public/500.html\"`",
        )?;
        let path = std::path::Path::new(value.get_ref());
        if !path.is_absolute() || value.get_ref().ends_with('/') {
            return Err(invalid(
                value.span(),
                format!(
                    "expected the absolute path of a file, as \"/srv/app/public/500.html\", found {:?}",
                    value.get_ref()
                ),
            ));
        }
        files.push((status, path.to_path_buf()));
    }
    Ok(ErrorPages {
        files,
        intercept: intercept.map(|value| *value.get_ref()),
    })
}

/// `satisfy = "all"` or `"any"`.
fn validate_satisfy(raw: &Spanned<String>) -> Result<Satisfy, Problem> {
    match raw.get_ref().as_str() {
        "all" => Ok(Satisfy::All),
        "any" => Ok(Satisfy::Any),
        other => Err(invalid(
            raw.span(),
            format!("expected \"all\" (access and basic_auth must each let a request in, the default) or \"any\" (either does: an allowed address needs no password, as nginx's satisfy any); found {other:?}"),
        )),
    }
}

/// `basic_auth = { realm = "Staff", user_file = "/etc/weir/htpasswd" }`, or `false`.
fn validate_basic_auth(raw: &Spanned<toml::Value>) -> Result<BasicAuth, Problem> {
    const EXPECTED: &str = "expected `{ realm = \"Staff\", user_file = \"/etc/weir/htpasswd\" }` (a password asked of every request, as nginx's auth_basic and auth_basic_user_file), or `false` (none, though the host asks for one)";
    let table = match raw.get_ref() {
        toml::Value::Boolean(false) => return Ok(BasicAuth::Off),
        toml::Value::Table(table) => table,
        other => return Err(invalid(raw.span(), format!("{EXPECTED}; found {other}"))),
    };
    if let Some(key) = table
        .keys()
        .find(|key| !matches!(key.as_str(), "realm" | "user_file"))
    {
        return Err(Problem::new(
            ConfigErrorKind::UnknownKey,
            raw.span(),
            format!("unknown key `{key}` in basic_auth; {EXPECTED}"),
        ));
    }
    let text = |key: &str| match table.get(key) {
        Some(toml::Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(invalid(
            raw.span(),
            format!("basic_auth.{key} is a string; found {other}. {EXPECTED}"),
        )),
        None => Err(Problem::new(
            ConfigErrorKind::MissingKey,
            raw.span(),
            format!("basic_auth needs `{key}`; {EXPECTED}"),
        )),
    };
    let realm = text("realm")?;
    // The realm is written into a quoted string of `WWW-Authenticate`.
    if realm.chars().any(|c| c.is_control()) {
        return Err(invalid(
            raw.span(),
            format!("basic_auth.realm is shown in the browser's prompt and may not hold control characters; found {realm:?}"),
        ));
    }
    let user_file = text("user_file")?;
    let path = std::path::Path::new(&user_file);
    if !path.is_absolute() || user_file.ends_with('/') {
        return Err(invalid(
            raw.span(),
            format!("basic_auth.user_file is the absolute path of a password file (as `htpasswd` writes), as \"/etc/weir/htpasswd\"; found {user_file:?}"),
        ));
    }
    Ok(BasicAuth::Required {
        realm,
        user_file: path.to_path_buf(),
    })
}

/// `auth_request = "/_auth"`, `{ path = "/_auth", copy_headers = { "X-User" =
/// "X-Auth-Request-User" }, answer_headers = ["Set-Cookie"], sign_in = "/oauth2/sign_in",
/// sign_in_status = 403 }`, or `false`.
fn validate_auth_request(raw: &Spanned<toml::Value>) -> Result<AuthRequest, Problem> {
    const EXPECTED: &str = "expected the path of a route that answers whether a request may pass, as \"/_auth\" (nginx's auth_request), or `{ path = \"/_auth\", copy_headers = { \"X-User\" = \"X-Auth-Request-User\" }, answer_headers = [\"Set-Cookie\"], sign_in = \"/oauth2/sign_in\", sign_in_status = 403 }` (request headers the upstream gets from that answer's headers, as auth_request_set with proxy_set_header; headers of that answer the client gets; where a 401 sends the client), or `false` (none, though the host asks for one)";
    let empty = toml::map::Map::new();
    let (target, table) = match raw.get_ref() {
        toml::Value::Boolean(false) => return Ok(AuthRequest::Off),
        toml::Value::String(target) => (target.clone(), &empty),
        toml::Value::Table(table) => {
            if let Some(key) = table.keys().find(|key| {
                !matches!(
                    key.as_str(),
                    "path" | "copy_headers" | "answer_headers" | "sign_in" | "sign_in_status"
                )
            }) {
                return Err(Problem::new(
                    ConfigErrorKind::UnknownKey,
                    raw.span(),
                    format!("unknown key `{key}` in auth_request; {EXPECTED}"),
                ));
            }
            let target = match table.get("path") {
                Some(toml::Value::String(target)) => target.clone(),
                Some(other) => {
                    return Err(invalid(
                        raw.span(),
                        format!("auth_request.path is a string; found {other}. {EXPECTED}"),
                    ))
                }
                None => {
                    return Err(Problem::new(
                        ConfigErrorKind::MissingKey,
                        raw.span(),
                        format!("auth_request needs `path`; {EXPECTED}"),
                    ))
                }
            };
            (target, table)
        }
        other => return Err(invalid(raw.span(), format!("{EXPECTED}; found {other}"))),
    };
    // A path and query weir routes: its normalised path.
    let routed = |text: &str| {
        text.parse::<http::uri::PathAndQuery>()
            .ok()
            .filter(|_| text.starts_with('/'))
            .and_then(|parsed| crate::path::normalize(parsed.path()).ok().map(String::from))
    };
    let Some(path) = routed(&target) else {
        return Err(invalid(
            raw.span(),
            format!("auth_request's path is a path weir routes, starting with '/' (a query may follow), as \"/_auth\"; found {target:?}"),
        ));
    };
    let header = |text: &str| {
        HeaderName::from_bytes(text.as_bytes())
            .ok()
            .filter(|header| !MANAGED.contains(&header.as_str()) && *header != http::header::HOST)
            .ok_or_else(|| {
                invalid(
                    raw.span(),
                    format!("auth_request's copy_headers and answer_headers take header names (letters, digits and !#$%&'*+-.^_`|~), not Host nor one that describes the connection or the body's framing; found {text:?}"),
                )
            })
    };
    let mut copy_headers: Vec<(HeaderName, HeaderName)> = Vec::new();
    let copy = match table.get("copy_headers") {
        None => None,
        Some(toml::Value::Table(copy)) => Some(copy),
        Some(other) => {
            return Err(invalid(
                raw.span(),
                format!("auth_request.copy_headers is a table of request header = answer's header; found {other}. {EXPECTED}"),
            ))
        }
    };
    for (name, value) in copy.into_iter().flatten() {
        let toml::Value::String(from) = value else {
            return Err(invalid(
                raw.span(),
                format!("auth_request.copy_headers.{name} names a header of the answer, as \"X-Auth-Request-User\"; found {value}"),
            ));
        };
        let (to, from) = (header(name)?, header(from)?);
        if copy_headers.iter().any(|(other, _)| *other == to) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                raw.span(),
                format!(
                    "auth_request.copy_headers names {name:?} twice (header names ignore case)"
                ),
            ));
        }
        copy_headers.push((to, from));
    }
    let answer_headers = match table.get("answer_headers") {
        None => Vec::new(),
        Some(toml::Value::Array(names)) => names
            .iter()
            .map(|name| match name {
                toml::Value::String(name) => header(name),
                other => Err(invalid(
                    raw.span(),
                    format!("auth_request.answer_headers lists header names, as [\"Set-Cookie\"]; found {other}"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(other) => {
            return Err(invalid(
                raw.span(),
                format!("auth_request.answer_headers lists header names, as [\"Set-Cookie\"]; found {other}"),
            ))
        }
    };
    let sign_in_status = match table.get("sign_in_status") {
        None => None,
        Some(toml::Value::Integer(code)) => match u16::try_from(*code)
            .ok()
            .filter(|code| (200..=599).contains(code) && *code != 444)
            .and_then(|code| StatusCode::from_u16(code).ok())
        {
            Some(status) => Some(status),
            None => {
                return Err(invalid(
                    raw.span(),
                    format!("auth_request.sign_in_status is the status the sign-in page is answered with, from 200 to 599 (nginx's error_page 401 =403 /sign_in), found {code}"),
                ))
            }
        },
        Some(other) => {
            return Err(invalid(
                raw.span(),
                format!("auth_request.sign_in_status is a status, as 403; found {other}"),
            ))
        }
    };
    let sign_in = match table.get("sign_in") {
        None => None,
        Some(toml::Value::String(text)) if text.contains("://") => {
            if sign_in_status.is_some() {
                return Err(Problem::new(
                    ConfigErrorKind::Conflict,
                    raw.span(),
                    "auth_request.sign_in_status is the status of a sign-in route's answer; a sign_in URL is always a 302",
                ));
            }
            Some(SignIn::Redirect(
                Template::parse_uncaptured(text).map_err(|message| invalid(raw.span(), format!("auth_request.sign_in: {message}")))?,
            ))
        }
        Some(toml::Value::String(text)) => match routed(text) {
            Some(path) => Some(SignIn::Route {
                target: text.clone(),
                path,
                status: sign_in_status,
            }),
            None => {
                return Err(invalid(
                    raw.span(),
                    format!("auth_request.sign_in is a path weir routes (\"/oauth2/sign_in\") or a URL to redirect to (\"https://auth.example.com/start?rd=$scheme://$host$request_uri\"); found {text:?}"),
                ))
            }
        },
        Some(other) => {
            return Err(invalid(
                raw.span(),
                format!("auth_request.sign_in is a path or a URL; found {other}"),
            ))
        }
    };
    if sign_in.is_none() && sign_in_status.is_some() {
        return Err(Problem::new(
            ConfigErrorKind::Conflict,
            raw.span(),
            "auth_request.sign_in_status needs a sign_in path, whose answer it sets the status of",
        ));
    }
    Ok(AuthRequest::Ask {
        target,
        path,
        copy_headers,
        answer_headers,
        sign_in,
    })
}

/// `[[hosts]]`: each name once, and each the `host` of some route.
pub(super) fn validate_hosts(
    raw_hosts: &[Spanned<RawHost>],
    routes: &[RouteConfig],
    validate_host: fn(&Spanned<String>) -> Result<String, Problem>,
) -> Result<Vec<HostConfig>, Problem> {
    let mut hosts: Vec<HostConfig> = Vec::with_capacity(raw_hosts.len());
    for raw in raw_hosts {
        let raw = raw.get_ref();
        let name = validate_host(&raw.name)?;
        if hosts.iter().any(|host| host.name == name) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                raw.name.span(),
                format!("[[hosts]] {name:?} is defined twice; put its rules in one table"),
            ));
        }
        if !routes
            .iter()
            .any(|route| route.host.as_deref() == Some(name.as_str()))
        {
            let mut named: Vec<&str> = routes
                .iter()
                .filter_map(|route| route.host.as_deref())
                .collect();
            named.dedup();
            return Err(Problem::new(
                ConfigErrorKind::UnknownName,
                raw.name.span(),
                format!(
                    "no route has host {name:?}, so these rules would apply to nothing; the routes' hosts: {}",
                    if named.is_empty() { "none".to_string() } else { named.join(", ") }
                ),
            ));
        }
        let headers = validate_headers(&RawHeaderKeys {
            request_headers: raw.request_headers.as_ref(),
            append_request_headers: raw.append_request_headers.as_ref(),
            response_headers: raw.response_headers.as_ref(),
            response_headers_always: raw.response_headers_always.as_ref(),
            hide_response_headers: raw.hide_response_headers.as_ref(),
            forwarded_for: raw.forwarded_for.as_ref(),
            charset: raw.charset.as_ref(),
            charset_types: raw.charset_types.as_ref(),
            cookie_flags: raw.cookie_flags.as_ref(),
            response_headers_by_type: raw.response_headers_by_type.as_deref(),
            deny_headers: raw.deny_headers.as_deref(),
            expires: raw.expires.as_ref(),
        })?;
        let access = raw.access.as_deref().map(validate_access).transpose()?;
        let basic_auth = raw
            .basic_auth
            .as_ref()
            .map(validate_basic_auth)
            .transpose()?;
        let satisfy = raw.satisfy.as_ref().map(validate_satisfy).transpose()?;
        let auth_request = raw
            .auth_request
            .as_ref()
            .map(validate_auth_request)
            .transpose()?;
        let pages = validate_pages(raw.error_pages.as_ref(), raw.intercept_errors.as_ref())?;
        hosts.push(HostConfig {
            name,
            headers,
            access,
            basic_auth,
            satisfy,
            auth_request,
            pages,
        });
    }
    Ok(hosts)
}

fn validate_headers(raw: &RawHeaderKeys<'_>) -> Result<HeaderRules, Problem> {
    let set = |map: Option<&RawHeaderMap>,
               request: bool|
     -> Result<Vec<(HeaderName, Option<Template>)>, Problem> {
        let mut rules: Vec<(HeaderName, Option<Template>)> = Vec::new();
        for (name, value) in map.into_iter().flatten() {
            let header = header_name(name, &rules)?;
            let template = if value.get_ref().is_empty() {
                if request && header == http::header::HOST {
                    return Err(invalid(
                        value.span(),
                        "an HTTP/1.1 request needs a Host; give a value such as \"$host\" or \"app.internal\", or leave Host out (weir sends the client's)",
                    ));
                }
                None
            } else {
                Some(template(value)?)
            };
            rules.push((header, template));
        }
        Ok(rules)
    };
    let mut request_append: Vec<(HeaderName, Option<Template>)> = Vec::new();
    for (name, value) in raw.append_request_headers.into_iter().flatten() {
        let header = header_name(name, &request_append)?;
        request_append.push((header, Some(template(value)?)));
    }
    let mut response_hide: Vec<HeaderName> = Vec::new();
    for name in raw.hide_response_headers.into_iter().flatten() {
        let header = header_name::<()>(name, &[])?;
        if response_hide.contains(&header) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                name.span(),
                format!("{:?} is listed twice", name.get_ref()),
            ));
        }
        response_hide.push(header);
    }
    let forwarded_for = raw
        .forwarded_for
        .map(|value| match value.get_ref().as_str() {
            "append" => Ok(ForwardedFor::Append),
            "replace" => Ok(ForwardedFor::Replace),
            other => Err(invalid(
                value.span(),
                format!("expected \"append\" (the client's address after the list it sent) or \"replace\" (the address alone), found {other:?}"),
            )),
        })
        .transpose()?;
    let response_set = set(raw.response_headers, false)?;
    let response_set_always = set(raw.response_headers_always, false)?;
    let plain: Vec<&HeaderName> = response_set
        .iter()
        .chain(&response_set_always)
        .map(|(name, _)| name)
        .collect();
    let response_by_type = match raw.response_headers_by_type {
        Some(list) => validate_typed(list, &plain)?,
        None => Vec::new(),
    };
    Ok(HeaderRules {
        request_set: set(raw.request_headers, true)?,
        request_append: request_append
            .into_iter()
            .filter_map(|(name, value)| Some((name, value?)))
            .collect(),
        response_set,
        response_set_always,
        response_hide,
        forwarded_for,
        charset: raw.charset.map(validate_charset).transpose()?,
        charset_types: raw
            .charset_types
            .map(|list| validate_charset_types(list))
            .transpose()?,
        cookie_flags: raw
            .cookie_flags
            .map(|list| validate_cookie_flags(list))
            .transpose()?,
        response_by_type,
        deny_headers: raw.deny_headers.map(validate_guards).transpose()?,
        expires: raw.expires.map(validate_expires).transpose()?,
    })
}

/// `expires = "30d"` (nginx `expires`): `"off"`, `"epoch"`, `"max"`, or a time with an optional
/// sign, in nginx's units (`s`, `m`, `h`, `d`, `w`, `M` 30 days, `y` 365 days; bare digits are
/// seconds), at most `max`'s ten years.
fn validate_expires(value: &Spanned<String>) -> Result<Expires, Problem> {
    let text = value.get_ref().trim();
    let refuse = || {
        invalid(
            value.span(),
            format!("expected \"off\", \"epoch\", \"max\", or a time such as \"30d\", \"12h\", \"1y\" or \"-1\" (s, m, h, d, w, M, y; at most 10 years), found {text:?}"),
        )
    };
    match text {
        "off" => return Ok(Expires::Off),
        "epoch" => return Ok(Expires::Epoch),
        "max" => return Ok(Expires::Max),
        _ => {}
    }
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest.is_empty() {
        return Err(refuse());
    }
    let mut seconds: i64 = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|character: char| !character.is_ascii_digit())
            .unwrap_or(rest.len());
        let number: i64 = rest[..digits].parse().map_err(|_| refuse())?;
        rest = &rest[digits..];
        let unit = match rest.chars().next() {
            None | Some('s') => 1,
            Some('m') => 60,
            Some('h') => 3_600,
            Some('d') => 86_400,
            Some('w') => 604_800,
            Some('M') => 2_592_000,
            Some('y') => 31_536_000,
            Some(_) => return Err(refuse()),
        };
        if !rest.is_empty() {
            rest = rest[1..].trim_start();
        }
        seconds = number
            .checked_mul(unit)
            .and_then(|part| seconds.checked_add(part))
            .filter(|total| *total <= Expires::MAX_SECONDS)
            .ok_or_else(refuse)?;
    }
    Ok(Expires::After(if negative { -seconds } else { seconds }))
}

/// `deny_headers`: a request header with a regex or two, `matches` and `not_matches` (both: both
/// must hold), compiled as a route's `path` regex is (linear time, bounded size), and a status of
/// 400 to 599 or 444, or a redirect's with its `location`.
fn validate_guards(list: &[RawGuard]) -> Result<Vec<HeaderGuard>, Problem> {
    let mut guards = Vec::with_capacity(list.len());
    for raw in list {
        let name = header_name::<()>(&raw.header, &[])?;
        if raw.matches.is_none() && raw.not_matches.is_none() {
            return Err(invalid(
                raw.header.span(),
                "expected `matches = \"REGEX\"` (refused when the header matches), `not_matches = \"REGEX\"` (refused when it does not), or both (refused when both hold)",
            ));
        }
        let compile = |pattern: &Spanned<String>| {
            regex::bytes::RegexBuilder::new(pattern.get_ref())
                .size_limit(crate::routing::REGEX_SIZE_LIMIT)
                .build()
                .map_err(|error| {
                    invalid(
                        pattern.span(),
                        format!("expected a regex of the `regex` crate's syntax (no look-around or back-references; `(?i)` for any case): {error}"),
                    )
                })
        };
        let matches = raw.matches.as_ref().map(compile).transpose()?;
        let not_matches = raw.not_matches.as_ref().map(compile).transpose()?;
        let location = raw
            .location
            .as_ref()
            .map(|location| {
                Template::parse_uncaptured(location.get_ref())
                    .map_err(|message| invalid(location.span(), message))
            })
            .transpose()?;
        let status = match (&raw.status, &location) {
            (None, None) => StatusCode::FORBIDDEN,
            (None, Some(_)) => StatusCode::MOVED_PERMANENTLY,
            (Some(status), location) => {
                let code = *status.get_ref();
                let valid = match location {
                    None => (400..=599).contains(&code) || code == 444,
                    Some(_) => matches!(code, 301 | 302 | 303 | 307 | 308),
                };
                match StatusCode::from_u16(code) {
                    Ok(status) if valid => status,
                    _ if location.is_some() => {
                        return Err(invalid(
                            status.span(),
                            format!("with `location`, expected a redirect's status: 301 (the default), 302, 303, 307 or 308, found {code}"),
                        ))
                    }
                    _ => {
                        return Err(invalid(
                            status.span(),
                            format!("expected a status from 400 to 599, or 444 (close without an answer), found {code}; a redirect (301, 302, 303, 307, 308) needs a `location`"),
                        ))
                    }
                }
            }
        };
        guards.push(HeaderGuard {
            name,
            matches,
            not_matches,
            status,
            location,
        });
    }
    Ok(guards)
}

/// `response_headers_by_type`: the entries of each header in the order written, all with the
/// same `always`, `"*"` in the last one only (an entry after it would never be used), and no
/// header that `response_headers(_always)` of the same table sets.
fn validate_typed(list: &[RawTyped], plain: &[&HeaderName]) -> Result<Vec<TypedHeader>, Problem> {
    let mut headers: Vec<TypedHeader> = Vec::new();
    for raw in list {
        let name = header_name::<()>(&raw.header, &[])?;
        if plain.contains(&&name) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                raw.header.span(),
                format!(
                    "{:?} is set by response_headers of this table too; keep one of the two",
                    raw.header.get_ref()
                ),
            ));
        }
        let always = raw.always.as_ref().is_some_and(|always| *always.get_ref());
        if raw.types.get_ref().is_empty() {
            return Err(invalid(
                raw.types.span(),
                "expected at least one type: a fragment of the Content-Type such as \"text/html\" or \"image/\", \"\" for an answer without one, or \"*\" for any answer",
            ));
        }
        let mut types = Vec::with_capacity(raw.types.get_ref().len());
        for kind in raw.types.get_ref() {
            let text = kind.get_ref();
            types.push(match text.as_str() {
                "*" => TypeMatch::Any,
                "" => TypeMatch::Missing,
                _ if text.bytes().all(|byte| byte.is_ascii_graphic()) => {
                    TypeMatch::Fragment(text.to_ascii_lowercase())
                }
                _ => {
                    return Err(invalid(
                        kind.span(),
                        format!("expected a fragment of a Content-Type (visible ASCII, no spaces), \"\" or \"*\", found {text:?}"),
                    ))
                }
            });
        }
        let value = if raw.value.get_ref().is_empty() {
            None
        } else {
            Some(template(&raw.value)?)
        };
        let entry = TypedEntry { types, value };
        match headers.iter_mut().find(|known| known.name == name) {
            Some(known) => {
                if known.always != always {
                    return Err(invalid(
                        raw.always.as_ref().map_or(raw.header.span(), Spanned::span),
                        format!("an earlier entry of {:?} has always = {}; give each entry of a header the same", raw.header.get_ref(), known.always),
                    ));
                }
                let any_before = known
                    .entries
                    .iter()
                    .any(|entry| entry.types.contains(&TypeMatch::Any));
                if any_before {
                    return Err(invalid(
                        raw.header.span(),
                        format!("never used: an earlier entry of {:?} has the type \"*\", which matches every answer; put this one before it", raw.header.get_ref()),
                    ));
                }
                known.entries.push(entry);
            }
            None => headers.push(TypedHeader {
                name,
                always,
                entries: vec![entry],
            }),
        }
    }
    Ok(headers)
}

/// `location_rewrites = { "http://app:8000/" = "/" }` (nginx `proxy_redirect`): each prefix a
/// URL or path without variables, each replacement a header value that may have some; kept
/// longest prefix first, so the first that matches is the longest.
fn validate_location_rewrites(map: &RawHeaderMap) -> Result<Vec<(String, Template)>, Problem> {
    let mut rewrites = Vec::with_capacity(map.len());
    for (prefix, replacement) in map {
        let text = prefix.get_ref();
        if text.is_empty()
            || !text.bytes().all(|byte| byte.is_ascii_graphic())
            || text.contains('$')
        {
            return Err(invalid(
                prefix.span(),
                format!("expected the start of a Location the upstream sends, such as \"http://app:8000/\" (visible ASCII, no spaces or variables), found {text:?}"),
            ));
        }
        if replacement.get_ref().is_empty() {
            return Err(invalid(
                replacement.span(),
                "expected what takes the prefix's place, such as \"/\" or \"https://$host/\"",
            ));
        }
        rewrites.push((text.clone(), template(replacement)?));
    }
    rewrites.sort_by_key(|(prefix, _)| std::cmp::Reverse(prefix.len()));
    Ok(rewrites)
}

/// `cookie_flags = ["secure", "httponly", "samesite=lax"]` (nginx `proxy_cookie_flags ~ ...`):
/// each flag once, none beside its opposite; `[]` sets none, though the host has some.
fn validate_cookie_flags(list: &[Spanned<String>]) -> Result<Vec<CookieFlag>, Problem> {
    let mut flags: Vec<CookieFlag> = Vec::new();
    for entry in list {
        let text = entry.get_ref().to_ascii_lowercase();
        let flag = match text.as_str() {
            "secure" => CookieFlag::Secure(true),
            "nosecure" => CookieFlag::Secure(false),
            "httponly" => CookieFlag::HttpOnly(true),
            "nohttponly" => CookieFlag::HttpOnly(false),
            "samesite=strict" => CookieFlag::SameSite(Some(SameSite::Strict)),
            "samesite=lax" => CookieFlag::SameSite(Some(SameSite::Lax)),
            "samesite=none" => CookieFlag::SameSite(Some(SameSite::None)),
            "nosamesite" => CookieFlag::SameSite(None),
            _ => {
                return Err(invalid(
                    entry.span(),
                    format!("expected a cookie flag: \"secure\", \"httponly\", \"samesite=strict\", \"samesite=lax\", \"samesite=none\", or one of \"nosecure\", \"nohttponly\", \"nosamesite\" to take it off, found {:?}", entry.get_ref()),
                ))
            }
        };
        if flags
            .iter()
            .any(|known| std::mem::discriminant(known) == std::mem::discriminant(&flag))
        {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                entry.span(),
                format!(
                    "{:?} sets an attribute another flag of this list sets already; keep one",
                    entry.get_ref()
                ),
            ));
        }
        flags.push(flag);
    }
    Ok(flags)
}

/// `charset = "utf-8"` (nginx `charset`): a token, or `"off"`.
fn validate_charset(value: &Spanned<String>) -> Result<Option<String>, Problem> {
    let text = value.get_ref();
    if text.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    let token = !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#%&'*+-.^_`|~".contains(&byte));
    if !token {
        return Err(invalid(
            value.span(),
            format!("expected a charset name such as \"utf-8\" (letters, digits and !#%&'*+-.^_`|~; not a variable), or \"off\" to add none, found {text:?}"),
        ));
    }
    Ok(Some(text.clone()))
}

/// `charset_types = ["text/css", "application/json"]` (nginx `charset_types`): media types, in
/// lower case, or `"*"` for every type.
fn validate_charset_types(list: &[Spanned<String>]) -> Result<Vec<String>, Problem> {
    let mut types: Vec<String> = Vec::new();
    for entry in list {
        let text = entry.get_ref().to_ascii_lowercase();
        let media_type = text.split_once('/').is_some_and(|(kind, sub)| {
            [kind, sub].iter().all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|byte| byte.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&byte))
            })
        });
        if text != "*" && !media_type {
            return Err(invalid(
                entry.span(),
                format!("expected a media type such as \"text/css\" (no parameters), or \"*\" for every type, found {:?}", entry.get_ref()),
            ));
        }
        if types.contains(&text) {
            return Err(Problem::new(
                ConfigErrorKind::Duplicate,
                entry.span(),
                format!("{:?} is listed twice", entry.get_ref()),
            ));
        }
        types.push(text);
    }
    Ok(types)
}

/// A rule's header name: a valid token, not one weir manages, not twice in one table.
fn header_name<T>(
    name: &Spanned<String>,
    earlier: &[(HeaderName, T)],
) -> Result<HeaderName, Problem> {
    let text = name.get_ref();
    let header = HeaderName::from_bytes(text.as_bytes()).map_err(|_| {
        invalid(
            name.span(),
            format!("expected a header name (letters, digits and !#$%&'*+-.^_`|~), such as \"X-Real-IP\", found {text:?}"),
        )
    })?;
    if MANAGED.contains(&header.as_str()) {
        return Err(invalid(
            name.span(),
            format!("weir writes {text:?} itself (it describes the connection or the body's framing); remove this rule"),
        ));
    }
    if earlier.iter().any(|(other, _)| *other == header) {
        return Err(Problem::new(
            ConfigErrorKind::Duplicate,
            name.span(),
            format!("{text:?} is set twice in this table (header names ignore case)"),
        ));
    }
    Ok(header)
}

fn template(value: &Spanned<String>) -> Result<Template, Problem> {
    Template::parse_header(value.get_ref()).map_err(|message| invalid(value.span(), message))
}

/// `access = ["allow 10.0.0.0/8", "deny all"]`, evaluated in order, the first match deciding.
fn validate_access(entries: &[Spanned<String>]) -> Result<Vec<AccessRule>, Problem> {
    let mut rules = Vec::with_capacity(entries.len());
    for entry in entries {
        let text = entry.get_ref().trim();
        let parsed = text
            .split_once(char::is_whitespace)
            .and_then(|(verb, what)| {
                let allow = match verb {
                    "allow" => true,
                    "deny" => false,
                    _ => return None,
                };
                let what = what.trim();
                let network = if what == "all" {
                    None
                } else if let Ok(network) = what.parse::<IpNet>() {
                    Some(network.trunc())
                } else {
                    Some(IpNet::from(what.parse::<std::net::IpAddr>().ok()?))
                };
                Some(AccessRule { allow, network })
            });
        match parsed {
            Some(rule) => rules.push(rule),
            None => {
                return Err(invalid(
                    entry.span(),
                    format!("expected \"allow ADDRESS\" or \"deny ADDRESS\", where ADDRESS is an IP, a CIDR such as \"10.0.0.0/8\", or \"all\"; found {text:?}"),
                ))
            }
        }
    }
    Ok(rules)
}

/// A file the config names that `weir run` could not use: the key that names it, and why.
pub(super) struct FileProblem {
    key: String,
    message: String,
}

impl FileProblem {
    pub(super) fn key(&self) -> &str {
        &self.key
    }

    pub(super) fn message(&self) -> String {
        self.message.clone()
    }
}

/// What `weir run` refuses when it builds the proxy and `load` can see by looking alone (no
/// file created or opened for writing): a static directory that is missing or no directory, a
/// `fallback_file` that is no file of it, an access log whose directory is missing.
pub(super) fn check_files(config: &crate::config::Config) -> Option<FileProblem> {
    let base = config.source.as_deref().and_then(std::path::Path::parent);
    for (index, route) in config.routes.iter().enumerate() {
        let Some(root) = &route.static_root else {
            continue;
        };
        let key = format!("routes[{index}].static");
        let shown = root.display();
        let relative_note = match (root.is_relative(), base) {
            (true, Some(_)) => " (a relative path is taken from weir's working directory)",
            _ => "",
        };
        match std::fs::metadata(root) {
            Err(error) => {
                return Some(FileProblem {
                    key,
                    message: format!("cannot serve static files from {shown}: {error}{relative_note}; expected an existing directory (or, on a route that is not a regex, a file)"),
                })
            }
            // A route may serve one file (nginx's `location = /favicon.ico { alias ...; }`); a
            // regex route strips nothing, so its `static` is a directory, and a fallback is for
            // the files missing from a directory.
            Ok(metadata) if route.scope.regex.is_none() && metadata.is_file() => {
                if route.rules.fallback.is_some() {
                    return Some(FileProblem {
                        key,
                        message: format!("{shown} is one file; a route with `fallback_upstream` or `fallback_file` serves a directory"),
                    });
                }
                continue;
            }
            Ok(metadata) if !metadata.is_dir() => {
                return Some(FileProblem {
                    key,
                    message: format!("{shown} is not a directory; `static` names the directory to serve (or, on a route that is not a regex, one file)"),
                })
            }
            Ok(_) => {}
        }
        if let Some(StaticFallback::File(file)) = &route.rules.fallback {
            let path = root.join(file.trim_start_matches('/'));
            if !std::fs::metadata(&path).is_ok_and(|metadata| metadata.is_file()) {
                return Some(FileProblem {
                    key: format!("routes[{index}].fallback_file"),
                    message: format!(
                        "{} is no file; `fallback_file` names a file of the route's directory {shown}",
                        path.display()
                    ),
                });
            }
        }
    }
    let pages = std::iter::once(("server".to_string(), &config.server.error_pages))
        .chain(
            config
                .routes
                .iter()
                .enumerate()
                .map(|(index, route)| (format!("routes[{index}]"), &route.rules.pages)),
        )
        .chain(
            config
                .hosts
                .iter()
                .enumerate()
                .map(|(index, host)| (format!("hosts[{index}]"), &host.pages)),
        );
    for (table, pages) in pages {
        for (status, path) in &pages.files {
            let problem = match std::fs::metadata(path) {
                Err(error) => Some(format!(
                    "cannot read the error page {}: {error}",
                    path.display()
                )),
                Ok(metadata) if !metadata.is_file() => {
                    Some(format!("{} is no file", path.display()))
                }
                Ok(metadata) if metadata.len() > crate::config::MAX_ERROR_PAGE => Some(format!(
                    "the error page {} holds {} bytes; weir keeps each page in memory, up to 1 MiB",
                    path.display(),
                    metadata.len()
                )),
                Ok(_) => None,
            };
            if let Some(message) = problem {
                return Some(FileProblem {
                    key: format!("{table}.error_pages.{}", status.as_u16()),
                    message,
                });
            }
        }
    }
    let auths = config
        .routes
        .iter()
        .enumerate()
        .map(|(index, route)| (format!("routes[{index}]"), &route.rules.basic_auth))
        .chain(
            config
                .hosts
                .iter()
                .enumerate()
                .map(|(index, host)| (format!("hosts[{index}]"), &host.basic_auth)),
        );
    for (table, auth) in auths {
        if let Some(BasicAuth::Required { user_file, .. }) = auth {
            if let Err(error) = crate::htpasswd::Users::read(user_file) {
                return Some(FileProblem {
                    key: format!("{table}.basic_auth"),
                    message: error.naming(user_file),
                });
            }
        }
    }
    if let Some(path) = config
        .access_log
        .path
        .as_deref()
        .filter(|_| config.access_log.enabled)
    {
        let parent = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !parent.is_dir() {
            return Some(FileProblem {
                key: "access_log.path".to_string(),
                message: format!(
                    "cannot open the access log {}: its directory {} does not exist",
                    path.display(),
                    parent.display()
                ),
            });
        }
    }
    None
}
