//! The header and access directives (`proxy_set_header`, `add_header`, `proxy_hide_header`,
//! `allow`/`deny`): what each one becomes, the rules a route gets from those in force where its
//! location is (nginx's inheritance: a level with any of its own replaces the inherited ones,
//! which [`super::Scope`] keeps), and how they are written on a `[[routes]]` table.

use super::text::{if_variable, token, unquote, value_ok, weir_redirect_ok};
use super::type_map::TypeMap;
use super::Scope;
use crate::parse::{Directive, Source};
use crate::toml_out::{self, Table};

/// Headers weir writes itself (weir's config refuses a rule on them): they describe the
/// connection or the body's framing.
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

/// What one `proxy_set_header NAME VALUE` becomes.
#[derive(Debug, PartialEq)]
pub(super) enum RequestHeader {
    /// weir sends the header so by itself: nothing is written. The note says so.
    Builtin(&'static str),
    /// `Host $proxy_host`: nginx's own default, which the route's Host from `proxy_pass` is.
    ProxyHost,
    /// `X-Forwarded-For $remote_addr`: `forwarded_for = "replace"`.
    ForwardedForReplace,
    /// `request_headers NAME = VALUE` (`""` removes the header).
    Set { name: String, value: String },
    /// Left out, and why.
    Unsupported(String),
}

pub(super) fn request_header(directive: &Directive) -> RequestHeader {
    let [name, value] = directive.args.as_slice() else {
        return RequestHeader::Unsupported("expected proxy_set_header NAME VALUE".into());
    };
    let lower = name.to_ascii_lowercase();
    match (lower.as_str(), value.as_str()) {
        // nginx's `$host` is the name alone, without the port a client sends beside a
        // non-default one (`Host: example.com:8443`); weir's `$host` is the same.
        ("host", "$http_host") => RequestHeader::Builtin("always: Host passes through"),
        ("host", "$proxy_host") => RequestHeader::ProxyHost,
        ("host", "") => RequestHeader::Unsupported(
            "weir always sends a Host upstream (an HTTP/1.1 request needs one); nginx sent none".into(),
        ),
        ("x-real-ip", "$remote_addr") => RequestHeader::Builtin(
            "always: X-Real-IP is the client address (after trusted_proxies)",
        ),
        ("x-forwarded-for", "$proxy_add_x_forwarded_for") => {
            RequestHeader::Builtin("always: the client is appended to X-Forwarded-For")
        }
        ("x-forwarded-for", "$remote_addr") => RequestHeader::ForwardedForReplace,
        ("x-forwarded-proto", "$scheme") => RequestHeader::Builtin(
            "always: X-Forwarded-Proto is https on TLS listeners, else http or what a trusted proxy sent",
        ),
        ("connection", "" | "upgrade" | "Upgrade" | "$connection_upgrade") => {
            RequestHeader::Builtin(
                "always: weir writes the upstream's Connection itself, not this value (keep-alive where the upstream keeps idle connections, else close), and passes WebSocket upgrades through",
            )
        }
        ("upgrade", "$http_upgrade") => {
            RequestHeader::Builtin("always: WebSocket upgrades pass through")
        }
        // nginx's idiom beside `proxy_pass_request_body off` (an auth_request's location).
        ("content-length", "") => RequestHeader::Builtin(
            "not needed: weir writes Content-Length itself, from the body it sends (none for an auth_request's asking request)",
        ),
        _ => match rule(name, value) {
            Ok(()) => RequestHeader::Set {
                name: name.clone(),
                value: value.clone(),
            },
            Err(why) => RequestHeader::Unsupported(why),
        },
    }
}

/// What one `add_header NAME VALUE [always]` becomes: `response_headers(_always) NAME = VALUE`.
#[derive(Debug, PartialEq)]
pub(super) struct ResponseHeader {
    pub name: String,
    pub value: String,
    pub always: bool,
    /// `Strict-Transport-Security: max-age=...`: `[tls] hsts` when `[tls]` is written.
    pub hsts: bool,
}

pub(super) fn response_header(directive: &Directive) -> Result<ResponseHeader, String> {
    let (name, value, always) = match directive.args.as_slice() {
        [name, value] => (name, value, false),
        [name, value, always] if always == "always" => (name, value, true),
        _ => return Err("expected add_header NAME VALUE [always]".into()),
    };
    rule(name, value)?;
    Ok(ResponseHeader {
        name: name.clone(),
        value: value.clone(),
        always,
        hsts: name.eq_ignore_ascii_case("strict-transport-security")
            && value.to_ascii_lowercase().starts_with("max-age="),
    })
}

/// An `if ($request_method = OPTIONS) { add_header ...; return 204; }` (a CORS preflight's
/// answer), as a route's `answer_options`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct OptionsAnswer {
    pub status: u16,
    /// The `add_header`s inside, but `Content-Length` (weir frames the answer itself).
    pub headers: Vec<(String, String)>,
    /// Whether an `add_header Content-Length` was left out.
    pub dropped_length: bool,
}

/// The [`OptionsAnswer`] of an `if ($request_method = OPTIONS)` (`= 'OPTIONS'`, `~ ^OPTIONS$`)
/// holding `add_header`s and a `return` of a 2xx, 4xx or 5xx, nothing else; `None` for any
/// other `if`, and for one whose header weir cannot write (the `if` is then reported as an
/// `if`).
pub(super) fn options_answer(directive: &Directive) -> Option<OptionsAnswer> {
    if directive.name != "if" {
        return None;
    }
    let text: String = directive.args.concat();
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let method = inner
        .strip_prefix("$request_method=")
        .or_else(|| inner.strip_prefix("$request_method~"))?
        .trim_matches(|c| c == '"' || c == '\'');
    if !matches!(method, "OPTIONS" | "^OPTIONS$") {
        return None;
    }
    let block = directive.block.as_deref()?;
    let (answer, added) = block.split_last()?;
    let status = match (answer.name.as_str(), answer.args.as_slice()) {
        ("return", [code]) => code.parse::<u16>().ok()?,
        _ => return None,
    };
    if !matches!(status, 200..=299 | 400..=599) {
        return None;
    }
    let mut headers = Vec::new();
    let mut dropped_length = false;
    for add in added {
        if add.name != "add_header" {
            return None;
        }
        if add
            .args
            .first()
            .is_some_and(|name| name.eq_ignore_ascii_case("content-length"))
        {
            dropped_length = true;
            continue;
        }
        let header = response_header(add).ok()?;
        if headers
            .iter()
            .any(|(name, _): &(String, String)| name.eq_ignore_ascii_case(&header.name))
        {
            return None;
        }
        headers.push((header.name, header.value));
    }
    Some(OptionsAnswer {
        status,
        headers,
        dropped_length,
    })
}

/// A method guard weir carries as a route's `methods`.
pub(super) struct MethodGuard {
    /// The methods let through, upper case (`GET` brings `HEAD` in weir).
    pub methods: Vec<String>,
    /// How weir's answer differs from nginx's, when it does.
    pub differs: Option<String>,
}

/// `limit_except GET POST { deny all; }` or `if ($request_method !~ ^(GET|HEAD|POST)$) { return
/// 405; }` (`!~*`, quotes and spaces as they fall; a `return` of another 4xx or 444); `None`
/// for any other `if` or `limit_except` (one that allows some addresses, or asks a password).
pub(super) fn method_guard(directive: &Directive) -> Option<MethodGuard> {
    let block = directive.block.as_deref()?;
    match directive.name.as_str() {
        "limit_except" => {
            let [deny] = block else { return None };
            let deny_all = deny.name == "deny" && deny.args.first().is_some_and(|arg| arg == "all");
            if !deny_all || directive.args.is_empty() {
                return None;
            }
            let methods = methods_of(directive.args.iter().map(String::as_str))?;
            Some(MethodGuard {
                methods,
                differs: Some("405 with Allow where nginx answers 403".to_string()),
            })
        }
        "if" => {
            let text: String = directive.args.concat();
            let inner = text.strip_prefix('(')?.strip_suffix(')')?;
            let pattern = inner
                .strip_prefix("$request_method!~*")
                .or_else(|| inner.strip_prefix("$request_method!~"))?
                .trim_matches(|c| c == '"' || c == '\'');
            let list = pattern.strip_prefix('^')?.strip_suffix('$')?;
            let list = list
                .strip_prefix('(')
                .and_then(|list| list.strip_suffix(')'))
                .unwrap_or(list);
            let methods = methods_of(list.split('|'))?;
            let [answer] = block else { return None };
            let status = (answer.name == "return")
                .then(|| answer.args.first()?.parse::<u16>().ok())
                .flatten()
                .filter(|status| (400..=499).contains(status))?;
            let mut differs = Vec::new();
            if status != 405 {
                differs.push(format!("405 with Allow where nginx answers {status}"));
            }
            if methods.iter().any(|method| method == "GET")
                && !methods.iter().any(|method| method == "HEAD")
            {
                differs.push(
                    "HEAD is taken too (weir's GET brings HEAD, as nginx's limit_except does)"
                        .to_string(),
                );
            }
            Some(MethodGuard {
                methods,
                differs: (!differs.is_empty()).then(|| differs.join("; ")),
            })
        }
        _ => None,
    }
}

/// One entry of `deny_headers`: `if ($http_NAME OP VALUE) { return CODE [URL]; }`, or
/// `valid_referers` with `if ($invalid_referer) { return CODE; }`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct HeaderGuard {
    /// The header, as nginx's variable names it (`user_agent` is `User-Agent`).
    pub header: String,
    /// `matches` (`~`, `~*`, `=`) and `not_matches` (`!~`, `!~*`, `!=`): regexes in weir's
    /// syntax (`(?i)` for `~*`; `^...$` around an escaped string for `=`); one or both.
    pub matches: Option<String>,
    pub not_matches: Option<String>,
    pub status: u16,
    /// A redirect's URL (`return 301 https://$host$request_uri`).
    pub location: Option<String>,
}

impl HeaderGuard {
    /// The entry as weir's config writes it.
    pub(super) fn entry(&self) -> String {
        let mut entry = format!("{{ header = {}", toml_out::string(&self.header));
        for (key, regex) in [
            ("matches", &self.matches),
            ("not_matches", &self.not_matches),
        ] {
            if let Some(regex) = regex {
                entry.push_str(&format!(", {key} = {}", toml_out::string(regex)));
            }
        }
        entry.push_str(&format!(", status = {}", self.status));
        if let Some(location) = &self.location {
            entry.push_str(&format!(", location = {}", toml_out::string(location)));
        }
        entry.push_str(" }");
        entry
    }
}

/// The `return` alone in an `if` block that `deny_headers` can carry: a status of 400 to 599 or
/// 444, or a redirect (301, 302, 303, 307, 308) to a URL whose variables are `$host`,
/// `$request_uri` and `$scheme` (a weir redirect's).
fn guard_answer(directive: &Directive) -> Option<(u16, Option<String>)> {
    let [answer] = directive.block.as_deref()? else {
        return None;
    };
    if answer.name != "return" {
        return None;
    }
    match answer.args.as_slice() {
        [code] => {
            let status = code.parse::<u16>().ok()?;
            ((400..=599).contains(&status) || status == 444).then_some((status, None))
        }
        [code, url] => {
            let status = code.parse::<u16>().ok()?;
            let redirect = matches!(status, 301 | 302 | 303 | 307 | 308);
            (redirect && !url.is_empty() && weir_redirect_ok(url).is_ok())
                .then(|| (status, Some(url.clone())))
        }
        _ => None,
    }
}

/// `if ($http_user_agent ~* (bot|crawler)) { return 403; }` (`~`, `~*`, `!~`, `!~*`, `=`, `!=`;
/// a `return` of 400 to 599 or 444 alone in the block, or of a redirect a weir redirect can
/// write): the `deny_headers` entry; `None` for any other `if`; `Some(Err)` when its regex is one
/// weir's `regex` crate refuses.
pub(super) fn header_guard(directive: &Directive) -> Option<Result<HeaderGuard, String>> {
    if directive.name != "if" {
        return None;
    }
    let (status, location) = guard_answer(directive)?;
    let (variable, rest) = if_variable(directive)?;
    // weir reads a guard on `Host` as nginx's `$host` (the host named, without port).
    let name = match variable.as_str() {
        "host" => "host",
        _ => variable.strip_prefix("http_")?,
    };
    let (operator, value) = ["!~*", "!~", "~*", "~", "!=", "="]
        .iter()
        .find_map(|operator| Some((*operator, rest.strip_prefix(operator)?)))?;
    let value = unquote(value);
    if name.is_empty() || value.contains('$') && !operator.contains('~') {
        return None;
    }
    let regex = match operator.trim_start_matches('!') {
        "~" => value.to_string(),
        "~*" => format!("(?i){value}"),
        _ => format!("^{}$", regex::escape(value)),
    };
    Some(match regex::bytes::RegexBuilder::new(&regex).build() {
        Ok(_) => {
            let negate = operator.starts_with('!');
            Ok(HeaderGuard {
                header: header_of_variable(name),
                matches: (!negate).then(|| regex.clone()),
                not_matches: negate.then_some(regex),
                status,
                location,
            })
        }
        Err(error) => Err(format!(
            "the regex {value:?} is not one weir's regex crate takes (no look-around or back-references): {}",
            error.to_string().lines().last().unwrap_or_default()
        )),
    })
}

/// Whether `directive` is `if ($invalid_referer) { return ...; }` with a `return` `deny_headers`
/// can carry.
pub(super) fn is_referer_if(directive: &Directive) -> bool {
    directive.name == "if"
        && directive.args.join(" ").replace(' ', "") == "($invalid_referer)"
        && guard_answer(directive).is_some()
}

/// The `deny_headers` entry of `if ($invalid_referer) { return ...; }` with `valid_referers`
/// (`none`, `blocked`, `server_names`, names, `*.` and `.` and `.*` wildcards, a name with a path,
/// `~regex`) in force, in a server named `server_names`: the `Referer` is refused when it is an
/// http(s) URL of no name listed (`matches` and `not_matches`, as nginx's module reads it: the
/// host up to `/` or `:`, any case; a regex searched in what follows the scheme), or, without
/// `blocked`, when it is not such a URL, or, without `none`, when it is missing. `Err` when a
/// regex is one weir's regex crate refuses. The second value says what differs from nginx.
pub(super) fn referer_guard(
    directive: &Directive,
    valid: &Directive,
    server_names: &[String],
) -> Result<(HeaderGuard, Option<&'static str>), String> {
    let (status, location) = guard_answer(directive).ok_or("expected return CODE")?;
    let (regexes, differs) = referer_regexes(valid, server_names)?;
    Ok((
        HeaderGuard {
            header: "Referer".to_string(),
            matches: regexes.matches,
            not_matches: Some(regexes.not_matches),
            status,
            location,
        },
        differs,
    ))
}

/// The `Referer` regexes of `valid_referers` (see [`referer_guard`]).
pub(super) struct RefererRegexes {
    pub matches: Option<String>,
    pub not_matches: String,
}

/// [`referer_guard`]'s regexes of `valid` in a server named `server_names`, and what differs
/// from nginx; `Err` when a regex is one weir's regex crate refuses.
pub(super) fn referer_regexes(
    valid: &Directive,
    server_names: &[String],
) -> Result<(RefererRegexes, Option<&'static str>), String> {
    let mut none = false;
    let mut blocked = false;
    let mut branches: Vec<String> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for arg in &valid.args {
        match arg.as_str() {
            "none" => none = true,
            "blocked" => blocked = true,
            "server_names" => names.extend(server_names.iter().map(String::as_str)),
            name => names.push(name),
        }
    }
    for name in names {
        if let Some(regex) = name.strip_prefix('~') {
            branches.push(match regex.strip_prefix('^') {
                Some(anchored) => format!("(?:{anchored})"),
                None => format!(".*?(?:{regex})"),
            });
            continue;
        }
        let (host, path) = match name.find('/') {
            Some(slash) => (&name[..slash], &name[slash..]),
            None => (name, ""),
        };
        let host = host.to_ascii_lowercase();
        let host = if let Some(suffix) = host.strip_prefix("*.") {
            format!(r"[^/:]*\.{}", regex::escape(suffix))
        } else if let Some(suffix) = host.strip_prefix('.') {
            format!(r"(?:[^/:]*\.)?{}", regex::escape(suffix))
        } else if let Some(prefix) = host.strip_suffix(".*") {
            format!(r"{}\.[^/:]*", regex::escape(prefix))
        } else {
            regex::escape(&host)
        };
        branches.push(if path.is_empty() {
            format!("{host}(?:[/:]|$)")
        } else {
            format!("{host}{}", regex::escape(path))
        });
    }
    let listed = if branches.is_empty() {
        // No name: no http(s) Referer is valid.
        r"[^\s\S]".to_string()
    } else {
        branches.join("|")
    };
    let mut differs = None;
    let (matches, not_matches) = match (none, blocked) {
        (true, true) => (
            Some("(?i)^https?://".to_string()),
            format!("(?i)^https?://(?:{listed})"),
        ),
        (true, false) => (None, format!("(?i)^(?:$|https?://(?:{listed}))")),
        (false, false) => (None, format!("(?i)^https?://(?:{listed})")),
        (false, true) => {
            differs = Some(
                "a Referer sent empty is refused as a missing one is (nginx lets it in as blocked)",
            );
            (
                Some("(?i)^(?:https?://|$)".to_string()),
                format!("(?i)^https?://(?:{listed})"),
            )
        }
    };
    for regex in matches.iter().chain([&not_matches]) {
        if let Err(error) = regex::bytes::RegexBuilder::new(regex).build() {
            return Err(format!(
                "a valid_referers regex is not one weir's regex crate takes (no look-around or back-references): {}",
                error.to_string().lines().last().unwrap_or_default()
            ));
        }
    }
    Ok((
        RefererRegexes {
            matches,
            not_matches,
        },
        differs,
    ))
}

/// The header an `$http_NAME` variable reads: `user_agent` is `User-Agent`, as the header is
/// usually written.
pub(super) fn header_of_variable(name: &str) -> String {
    name.split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// Method names, upper case, each once; `None` when one is not a plain name.
fn methods_of<'m>(names: impl Iterator<Item = &'m str>) -> Option<Vec<String>> {
    let mut methods: Vec<String> = Vec::new();
    for name in names {
        let valid = !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_alphabetic());
        if !valid {
            return None;
        }
        let name = name.to_ascii_uppercase();
        if !methods.contains(&name) {
            methods.push(name);
        }
    }
    (!methods.is_empty()).then_some(methods)
}

/// `charset NAME`: the name, or `None` for `charset off`.
pub(super) fn charset(directive: &Directive) -> Result<Option<String>, String> {
    let [name] = directive.args.as_slice() else {
        return Err("expected charset NAME".into());
    };
    if name == "off" {
        return Ok(None);
    }
    if name.contains('$') {
        return Err(format!(
            "{name:?} has variables, which nginx reads per request; weir's charset is one name"
        ));
    }
    let token = !name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#%&'*+-.^_`|~".contains(&byte));
    if !token {
        return Err(format!(
            "{name:?} is not a charset name weir can write in a header"
        ));
    }
    Ok(Some(name.clone()))
}

/// The cookie flags weir's `cookie_flags` takes, as nginx spells them.
const COOKIE_FLAGS: &[&str] = &[
    "secure",
    "httponly",
    "samesite=strict",
    "samesite=lax",
    "samesite=none",
    "nosecure",
    "nohttponly",
    "nosamesite",
];

/// `proxy_cookie_flags ~ FLAG ...` (every cookie): the flags, in lower case; `None` for
/// `proxy_cookie_flags off`. One cookie by name, or by a narrower regex, has no weir form.
pub(super) fn cookie_flags(directive: &Directive) -> Result<Option<Vec<String>>, String> {
    match directive.args.as_slice() {
        [off] if off == "off" => Ok(None),
        [cookie, flags @ ..] if !flags.is_empty() => {
            if !matches!(cookie.as_str(), "~" | "~.*" | "~^.*$" | "~*") {
                return Err(format!(
                    "weir's cookie_flags are for every cookie; nginx's here are for {cookie} only"
                ));
            }
            let mut found: Vec<String> = Vec::new();
            for flag in flags {
                let flag = flag.to_ascii_lowercase();
                if !COOKIE_FLAGS.contains(&flag.as_str()) {
                    return Err(format!("{flag:?} is not a flag weir sets (secure, httponly, samesite=strict|lax|none, or nosecure, nohttponly, nosamesite)"));
                }
                if !found.contains(&flag) {
                    found.push(flag);
                }
            }
            Ok(Some(found))
        }
        _ => Err("expected proxy_cookie_flags off or proxy_cookie_flags COOKIE FLAG ...".into()),
    }
}

/// `proxy_cookie_path / "/; secure; HttpOnly"`, the way to flag cookies before nginx had
/// `proxy_cookie_flags`: the flags after the replacement's path, when every one is a flag weir
/// sets (nginx adds them to cookies with a `Path=/...` only).
pub(super) fn cookie_path_flags(directive: &Directive) -> Option<Vec<String>> {
    let [path, replacement] = directive.args.as_slice() else {
        return None;
    };
    let (kept, flags) = replacement.split_once(';')?;
    if path != "/" || kept.trim() != "/" {
        return None;
    }
    let mut found: Vec<String> = Vec::new();
    for flag in flags
        .split(';')
        .map(str::trim)
        .filter(|flag| !flag.is_empty())
    {
        let flag = flag.to_ascii_lowercase();
        if !COOKIE_FLAGS[..5].contains(&flag.as_str()) {
            return None;
        }
        if !found.contains(&flag) {
            found.push(flag);
        }
    }
    (!found.is_empty()).then_some(found)
}

/// `charset_types TYPE ...`: the types, in lower case (`*`: every type).
pub(super) fn charset_types(directive: &Directive) -> Result<Vec<String>, String> {
    let mut types: Vec<String> = Vec::new();
    for arg in &directive.args {
        let text = arg.to_ascii_lowercase();
        let media_type = text.split_once('/').is_some_and(|(kind, sub)| {
            [kind, sub].iter().all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|byte| byte.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&byte))
            })
        });
        if text != "*" && !media_type {
            return Err(format!("{arg:?} is not a media type (type/subtype) or *"));
        }
        if !types.contains(&text) {
            types.push(text);
        }
    }
    if types.is_empty() {
        return Err("expected charset_types TYPE ...".into());
    }
    Ok(types)
}

/// What `expires` sets on the answers `add_header` without `always` gets (200, 201, 204, 206,
/// 301, 302, 303, 304, 307, 308), replacing the upstream's `Cache-Control` as nginx's does:
/// the `response_headers` and whether they are all of it (`max` and `epoch` are constants; a
/// time gives a `Cache-Control` but no `Expires`, whose date nginx computes per answer). `off`
/// sets nothing.
pub(super) fn expires(directive: &Directive) -> Result<(Vec<(String, String)>, bool), String> {
    let [value] = directive.args.as_slice() else {
        return Err("expires with `modified` or two values: weir has no time of day or file time for Expires".into());
    };
    expires_value(value)
}

/// What `expires VALUE` sets, as [`expires`] says.
fn expires_value(value: &str) -> Result<(Vec<(String, String)>, bool), String> {
    let cache_control = |value: &str| ("Cache-Control".to_string(), value.to_string());
    let expires_at = |date: &str| ("Expires".to_string(), date.to_string());
    match value {
        "off" => return Ok((Vec::new(), true)),
        "epoch" => {
            return Ok((
                vec![
                    expires_at("Thu, 01 Jan 1970 00:00:01 GMT"),
                    cache_control("no-cache"),
                ],
                true,
            ))
        }
        "max" => {
            return Ok((
                vec![
                    expires_at("Thu, 31 Dec 2037 23:55:55 GMT"),
                    cache_control("max-age=315360000"),
                ],
                true,
            ))
        }
        _ => {}
    }
    let (negative, time) = match value.strip_prefix('-') {
        Some(time) => (true, time),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let seconds = super::duration(time)
        .and_then(|duration| duration.strip_suffix('s')?.parse::<u64>().ok())
        .filter(|_| !time.contains("ms"))
        .ok_or_else(|| {
            format!("expires {value}: weir takes a time (30d, 12h, -1), max, epoch or off; not a time of day (@), a file time (modified), milliseconds or a variable")
        })?;
    if seconds > 315_360_000 {
        return Err(format!(
            "expires {value}: more than 10 years, which weir's expires takes at most (max)"
        ));
    }
    let header = if negative && seconds > 0 {
        cache_control("no-cache")
    } else {
        cache_control(&format!("max-age={seconds}"))
    };
    Ok((vec![header], false))
}

/// `proxy_hide_header NAME`: the name for `hide_response_headers`.
pub(super) fn hidden_header(directive: &Directive) -> Result<String, String> {
    let [name] = directive.args.as_slice() else {
        return Err("expected proxy_hide_header NAME".into());
    };
    name_ok(name)?;
    Ok(name.clone())
}

/// `allow ADDRESS` / `deny ADDRESS`: the entry for `access`.
pub(super) fn access_entry(directive: &Directive) -> Result<String, String> {
    let [address] = directive.args.as_slice() else {
        return Err(format!("expected {} ADDRESS", directive.name));
    };
    let valid = address == "all"
        || address.parse::<std::net::IpAddr>().is_ok()
        || address.split_once('/').is_some_and(|(ip, bits)| {
            let bits = bits.parse::<u8>().ok();
            match ip.parse::<std::net::IpAddr>() {
                Ok(std::net::IpAddr::V4(_)) => bits.is_some_and(|bits| bits <= 32),
                Ok(std::net::IpAddr::V6(_)) => bits.is_some_and(|bits| bits <= 128),
                Err(_) => false,
            }
        });
    if !valid {
        return Err(format!(
            "weir's access rules match IP addresses and CIDRs (or all), not {address:?}"
        ));
    }
    Ok(format!("{} {address}", directive.name))
}

/// Whether weir takes `NAME = VALUE` as a header rule: a token that weir does not write itself,
/// and a value of visible ASCII, spaces and tabs whose variables weir fills in.
fn rule(name: &str, value: &str) -> Result<(), String> {
    name_ok(name)?;
    value_ok(value)
}

fn name_ok(name: &str) -> Result<(), String> {
    if !token(name) {
        return Err(format!(
            "{name:?} is not a header name weir takes (letters, digits and !#$%&'*+-.^_`|~)"
        ));
    }
    if MANAGED.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(format!(
            "weir writes {name} itself (it describes the connection or the body's framing)"
        ));
    }
    Ok(())
}

/// The `map $sent_http_content_type`s of the `http` block, by variable name: the map, or why weir
/// cannot carry it.
pub(super) type TypeMaps = std::collections::HashMap<String, Result<TypeMap, String>>;

/// The entries of a header by type: the fragments and the value of each.
pub(super) type TypedEntries = Vec<(Vec<String>, String)>;

/// An `add_header NAME $var` of a map of the answer's type: the header (its value the
/// variable), its entries, and how the map's matching differs from nginx's.
pub(super) struct TypedAddHeader {
    pub header: ResponseHeader,
    pub entries: TypedEntries,
    pub differs: Vec<String>,
}

/// An `expires $var` of a map of the answer's type: each header's entries, whether that is all
/// of it, and how the map's matching differs from nginx's.
pub(super) struct TypedExpires {
    pub headers: Vec<(String, TypedEntries)>,
    pub exact: bool,
    pub differs: Vec<String>,
}

/// The map a value that is one variable (`$x_frame_options`, `${cors}`) names, if it is one of
/// `maps`.
fn named_map<'m>(value: &str, maps: &'m TypeMaps) -> Option<&'m Result<TypeMap, String>> {
    let name = value.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|name| name.strip_suffix('}'))
        .unwrap_or(name);
    maps.get(name)
}

/// `add_header NAME $var [always]` with `$var` a map of `$sent_http_content_type`: the header
/// (its value the variable) and the entries of `response_headers_by_type`; `None` when the value
/// is not such a variable.
pub(super) fn typed_response_header(
    directive: &Directive,
    maps: &TypeMaps,
) -> Option<Result<TypedAddHeader, String>> {
    let (name, value, always) = match directive.args.as_slice() {
        [name, value] => (name, value, false),
        [name, value, always] if always == "always" => (name, value, true),
        _ => return None,
    };
    let map = named_map(value, maps)?;
    Some((|| {
        let map = map
            .as_ref()
            .map_err(|why| format!("its map of {value}: {why}"))?;
        name_ok(name)?;
        for (_, text) in &map.entries {
            value_ok(text)?;
        }
        let header = ResponseHeader {
            name: name.clone(),
            value: value.clone(),
            always,
            hsts: false,
        };
        Ok(TypedAddHeader {
            header,
            entries: compact(map.entries.clone()),
            differs: map.differs.clone(),
        })
    })())
}

/// `expires $var` with `$var` a map of `$sent_http_content_type`: `Cache-Control` by type, and
/// `Expires` by type when a value is `epoch` or `max` (constant dates); whether that is all of it
/// (a time gives no `Expires`, as [`expires`] says); the map's differences. `None` when the value
/// is not such a variable.
pub(super) fn typed_expires(
    directive: &Directive,
    maps: &TypeMaps,
) -> Option<Result<TypedExpires, String>> {
    let [value] = directive.args.as_slice() else {
        return None;
    };
    let map = named_map(value, maps)?;
    Some((|| {
        let map = map
            .as_ref()
            .map_err(|why| format!("its map of {value}: {why}"))?;
        let mut cache_control: TypedEntries = Vec::new();
        let mut dates: TypedEntries = Vec::new();
        let mut all_exact = true;
        for (types, text) in &map.entries {
            let (headers, exact) =
                expires_value(text).map_err(|why| format!("its map of {value}: {why}"))?;
            all_exact &= exact;
            let of = |name: &str| {
                headers
                    .iter()
                    .find(|(header, _)| header == name)
                    .map_or(String::new(), |(_, value)| value.clone())
            };
            cache_control.push((types.clone(), of("Cache-Control")));
            dates.push((types.clone(), of("Expires")));
        }
        let headers = [("Cache-Control", cache_control), ("Expires", dates)]
            .into_iter()
            .map(|(name, entries)| (name.to_string(), compact(entries)))
            .filter(|(_, entries)| !entries.is_empty())
            .collect();
        Ok(TypedExpires {
            headers,
            exact: all_exact,
            differs: map.differs.clone(),
        })
    })())
}

/// The same entries, shorter: neighbours with one value become one entry (first match wins, so
/// their order within it does not matter), and the last entries with the value `""` go, as no
/// match sends no header either.
fn compact(entries: TypedEntries) -> TypedEntries {
    let mut merged: TypedEntries = Vec::with_capacity(entries.len());
    for (types, value) in entries {
        match merged.last_mut() {
            Some((known, last)) if *last == value && !known.iter().any(|kind| kind == "*") => {
                known.extend(types);
            }
            _ => merged.push((types, value)),
        }
    }
    while merged.last().is_some_and(|(_, value)| value.is_empty()) {
        merged.pop();
    }
    // A "*" among other types matches every answer: it alone says so.
    for (types, _) in &mut merged {
        if types.iter().any(|kind| kind == "*") {
            *types = vec!["*".to_string()];
        }
    }
    merged
}

/// One `response_headers(_always)` entry of a route.
#[derive(Debug, Clone)]
pub(super) struct ResponseRule {
    pub name: String,
    pub value: String,
    pub always: bool,
    pub hsts: bool,
    pub source: Source,
    /// The `add_header` it comes from.
    pub directive: *const Directive,
    /// `response_headers_by_type`'s entries when its value is a map of the answer's type (then
    /// `value` is the variable); empty for a plain header.
    pub by_type: TypedEntries,
}

/// `auth_basic_user_file PATH`: the absolute path of the file, as nginx finds it (a relative one
/// in its configuration directory, `conf_dir`).
pub(super) fn user_file(
    directive: &Directive,
    conf_dir: Option<&std::path::Path>,
) -> Result<String, String> {
    let Some(path) = directive.args.first() else {
        return Err("expected a file".to_string());
    };
    if path.contains('$') {
        return Err(format!(
            "{path:?} has variables, which nginx reads per request; weir reads one file: write its path in basic_auth by hand"
        ));
    }
    if path.starts_with('/') {
        return Ok(path.clone());
    }
    match conf_dir {
        Some(dir) => Ok(dir.join(path).display().to_string()),
        None => Err(format!(
            "{path:?} is relative to nginx's configuration directory, which an import of text alone does not know: write its absolute path in basic_auth by hand"
        )),
    }
}

/// A route's `auth_request`.
#[derive(Debug, Clone)]
pub(super) struct Asked {
    /// The path asked.
    pub path: String,
    /// The headers copied from its answer: (request header, answer's header).
    pub copies: Vec<(String, String)>,
    /// The answer's headers the client gets.
    pub answer_headers: Vec<String>,
    /// Where a 401 sends the client.
    pub sign_in: Option<super::auth_request::SignIn>,
    /// The `auth_request` in force.
    pub source: Source,
}

/// The header and access rules of one route, from the directives in force where its location is.
#[derive(Debug, Clone, Default)]
pub(super) struct Rules {
    pub request_headers: Vec<(String, String, Source)>,
    pub forwarded_for: Option<Source>,
    pub response_headers: Vec<ResponseRule>,
    pub hide_response_headers: Vec<(String, Source)>,
    pub access: Vec<(String, Source)>,
    /// `basic_auth`: the realm, the file, and the `auth_basic` they come from.
    pub basic_auth: Option<(String, String, Source)>,
    /// `satisfy = "any"`, from the `satisfy any` in force.
    pub satisfy_any: Option<Source>,
    /// `auth_request`: the path asked, the headers copied from its answer (request header,
    /// answer's header), and the `auth_request` in force.
    pub auth_request: Option<Asked>,
    /// The directives the route carries.
    pub used: Vec<*const Directive>,
    /// Directives in force that do nothing for this route in nginx either, and why.
    pub inert: Vec<(*const Directive, &'static str)>,
    /// Directives in force that the route cannot carry: a second value for one header.
    pub duplicates: Vec<*const Directive>,
    /// `error_pages`: each status once (nginx takes the first `error_page` naming it), its file,
    /// and the `error_page` it came from.
    pub pages: Vec<(u16, String, Source)>,
    /// `intercept_errors`, from `proxy_intercept_errors on`.
    pub intercept: Option<Source>,
    /// `charset`, from the `charset` in force (not `off`), and `charset_types` beside it.
    pub charset: Option<(String, Source)>,
    pub charset_types: Option<(Vec<String>, Source)>,
    /// `cookie_flags`, from the `proxy_cookie_flags` (or flagging `proxy_cookie_path`) in force.
    pub cookie_flags: Option<(Vec<String>, Source)>,
    /// `methods`: the methods every guard in force lets through, and the first guard's source.
    pub methods: Option<(Vec<String>, Source)>,
    /// `answer_options`, from the first `if ($request_method = OPTIONS)` in force.
    pub answer_options: Option<(OptionsAnswer, Source)>,
    /// `expires`, from the `expires` in force (a time, `epoch` or `max`).
    pub expires: Option<(String, Source)>,
    /// `deny_headers`: the server's `if ($http_NAME ...) { return CODE; }`s, then the location's.
    pub deny_headers: Vec<(HeaderGuard, Source)>,
    /// `error_page`s in force that the route cannot carry, and why.
    pub page_problems: Vec<(*const Directive, String)>,
}

impl Rules {
    /// The rules of a route made where `scope` is in force; `proxied` when it has an upstream,
    /// `answers_first` when a `return` answers it (in nginx's rewrite phase, before `allow` and
    /// `deny` run).
    pub(super) fn of(scope: &Scope<'_>, proxied: bool, answers_first: bool) -> Rules {
        let mut rules = Rules::default();
        // `auth_request` (not `off`), which runs in nginx's access phase: not where a `return`
        // answers first.
        let asked = scope
            .auth_request
            .filter(|directive| directive.args.first().is_some_and(|arg| arg != "off"));
        let asked = match asked {
            Some(directive) if answers_first => {
                rules.inert.push((
                    directive as *const Directive,
                    "not applied in nginx either: return answers before auth_request",
                ));
                None
            }
            Some(directive) => super::auth_request::path(directive)
                .ok()
                .map(|path| (path, directive)),
            None => None,
        };
        let mut copies: Vec<(String, String)> = Vec::new();
        for &directive in &scope.proxy_set_header {
            let pointer = directive as *const Directive;
            if !proxied {
                rules.inert.push((
                    pointer,
                    "nginx ignores proxy_set_header where nothing is proxied",
                ));
                continue;
            }
            // `proxy_set_header X-User $user` with `auth_request_set $user $upstream_http_...`:
            // copied from the auth answer where one is asked; else nginx's `$user` is empty, and
            // the header is not sent.
            let copied = super::auth_request::copied(directive, &scope.auth_request_set);
            if copied.is_none() && scope.auth_variables.copied(directive).is_some() {
                // No `auth_request_set` of it in force: nginx's variable is empty here.
                rules.request_headers.push((
                    directive.args[0].clone(),
                    String::new(),
                    directive.source.clone(),
                ));
                rules.used.push(pointer);
                continue;
            }
            if let Some((name, header)) = copied {
                let twice = copies
                    .iter()
                    .any(|(known, _)| known.eq_ignore_ascii_case(&name))
                    || rules
                        .request_headers
                        .iter()
                        .any(|(known, _, _)| known.eq_ignore_ascii_case(&name));
                if twice {
                    rules.duplicates.push(pointer);
                } else if asked.is_some() {
                    copies.push((name, header));
                    rules.used.push(pointer);
                    rules.used.extend(
                        scope
                            .auth_request_set
                            .iter()
                            .map(|set| *set as *const Directive),
                    );
                } else {
                    rules
                        .request_headers
                        .push((name, String::new(), directive.source.clone()));
                    rules.used.push(pointer);
                }
                continue;
            }
            match request_header(directive) {
                RequestHeader::ForwardedForReplace => {
                    rules.forwarded_for = Some(directive.source.clone());
                    rules.used.push(pointer);
                }
                RequestHeader::Set { name, value } => {
                    let twice = rules
                        .request_headers
                        .iter()
                        .any(|(known, _, _)| known.eq_ignore_ascii_case(&name));
                    if twice {
                        rules.duplicates.push(pointer);
                    } else {
                        rules
                            .request_headers
                            .push((name, value, directive.source.clone()));
                        rules.used.push(pointer);
                    }
                }
                _ => {}
            }
        }
        let mut answer_headers: Vec<String> = Vec::new();
        for &directive in &scope.add_header {
            let pointer = directive as *const Directive;
            // `add_header Set-Cookie $auth_cookie` with `auth_request_set $auth_cookie
            // $upstream_http_set_cookie`: the auth answer's header, where one is asked; else
            // nginx's variable is empty, and the header is not added.
            if let Some(name) =
                super::auth_request::answer_header_added(directive, &scope.auth_request_set)
            {
                if asked.is_some() {
                    answer_headers.push(name);
                    rules.used.push(pointer);
                } else {
                    rules
                        .inert
                        .push((pointer, "no auth_request is in force, so its variable is empty and nginx adds nothing"));
                }
                continue;
            }
            let (header, by_type) = match typed_response_header(directive, &scope.type_maps) {
                Some(Ok(typed)) => (typed.header, typed.entries),
                Some(Err(_)) => continue,
                None => match response_header(directive) {
                    Ok(header) => (header, Vec::new()),
                    Err(_) => continue,
                },
            };
            let twice = rules
                .response_headers
                .iter()
                .any(|known| known.name.eq_ignore_ascii_case(&header.name));
            if twice {
                rules.duplicates.push(pointer);
                continue;
            }
            rules.response_headers.push(ResponseRule {
                name: header.name,
                value: header.value,
                always: header.always,
                hsts: header.hsts,
                source: directive.source.clone(),
                directive: pointer,
                by_type,
            });
            rules.used.push(pointer);
        }
        let typed_expires = scope
            .expires
            .and_then(|directive| Some((typed_expires(directive, &scope.type_maps)?, directive)));
        if let Some((Ok(TypedExpires { headers, .. }), directive)) = typed_expires {
            let pointer = directive as *const Directive;
            let clash = headers.iter().any(|(name, _)| {
                rules
                    .response_headers
                    .iter()
                    .any(|known| known.name.eq_ignore_ascii_case(name))
            });
            if clash {
                // Beside an add_header Cache-Control: nginx sends both, weir one value a type.
                rules.duplicates.push(pointer);
            } else {
                for (name, entries) in headers {
                    rules.response_headers.push(ResponseRule {
                        name,
                        value: directive.args[0].clone(),
                        always: false,
                        hsts: false,
                        source: directive.source.clone(),
                        directive: pointer,
                        by_type: entries,
                    });
                }
                rules.used.push(pointer);
            }
        } else if let Some(directive) = scope.expires {
            let pointer = directive as *const Directive;
            if let Some((headers, _)) = expires(directive)
                .ok()
                .filter(|(headers, _)| !headers.is_empty())
            {
                // weir's `expires` writes both headers per answer. Beside an add_header
                // Cache-Control (`expires 30d; add_header Cache-Control "public";`) nginx sends
                // two fields, which are one list (RFC 9110 5.3): the add_header's value takes
                // the expires' before it, and goes over it. An add_header always or of Expires
                // is a second value weir cannot give.
                let mut clash = false;
                for (name, value) in &headers {
                    let known = rules
                        .response_headers
                        .iter_mut()
                        .find(|known| known.name.eq_ignore_ascii_case(name));
                    match known {
                        Some(known)
                            if !known.always
                                && known.by_type.is_empty()
                                && name == "Cache-Control" =>
                        {
                            known.value = format!("{value}, {}", known.value);
                        }
                        Some(_) => clash = true,
                        None => {}
                    }
                }
                if clash {
                    rules.duplicates.push(pointer);
                } else {
                    rules.expires = Some((directive.args[0].clone(), directive.source.clone()));
                    rules.used.push(pointer);
                }
            }
        }
        for &directive in &scope.proxy_hide_header {
            let pointer = directive as *const Directive;
            if !proxied {
                rules.inert.push((
                    pointer,
                    "nginx ignores proxy_hide_header where nothing is proxied",
                ));
                continue;
            }
            let Ok(name) = hidden_header(directive) else {
                continue;
            };
            let twice = rules
                .hide_response_headers
                .iter()
                .any(|(known, _)| known.eq_ignore_ascii_case(&name));
            if !twice {
                rules
                    .hide_response_headers
                    .push((name, directive.source.clone()));
            }
            rules.used.push(pointer);
        }
        for &directive in &scope.access {
            let pointer = directive as *const Directive;
            if answers_first {
                rules.inert.push((
                    pointer,
                    "not applied in nginx either: return answers before allow and deny",
                ));
                continue;
            }
            if let Ok(entry) = access_entry(directive) {
                rules.access.push((entry, directive.source.clone()));
                rules.used.push(pointer);
            }
        }
        // `if ($var) { return 403; }` on a `geo` map, which nginx runs (in its rewrite phase)
        // before `allow`/`deny`: its refused networks first.
        let geo_guards: Vec<(&Directive, &super::geo::Geo, super::geo::Test)> = scope
            .geo_guards
            .iter()
            .filter_map(|&directive| {
                let (variable, test) = super::geo::geo_if(directive)?;
                let geo = scope.geo_maps.get(&variable)?.as_ref().ok()?;
                Some((directive, geo, test))
            })
            .collect();
        let satisfy_any = scope
            .satisfy
            .is_some_and(|directive| directive.args.first().is_some_and(|arg| arg == "any"));
        let mut carried: Vec<(&super::geo::Geo, &super::geo::Test)> = Vec::new();
        let mut refused: Vec<(String, Source)> = Vec::new();
        if satisfy_any {
            for (directive, _, _) in &geo_guards {
                rules.page_problems.push((
                    *directive as *const Directive,
                    "with satisfy any in force, a password would let in the addresses it refuses, where nginx's if refuses them first".to_string(),
                ));
            }
        } else if let Some((first, _, _)) = geo_guards.first() {
            carried.extend(geo_guards.iter().map(|(_, geo, test)| (*geo, test)));
            match super::geo::access(&carried, !rules.access.is_empty()) {
                Ok(entries) => {
                    refused.extend(
                        entries
                            .into_iter()
                            .map(|entry| (entry, first.source.clone())),
                    );
                    for (directive, geo, _) in &geo_guards {
                        rules.used.push(*directive as *const Directive);
                        rules.used.push(geo.directive);
                    }
                }
                Err(why) => {
                    for (directive, _, _) in &geo_guards {
                        rules
                            .page_problems
                            .push((*directive as *const Directive, why.clone()));
                    }
                }
            }
        }
        if !refused.is_empty() {
            refused.append(&mut rules.access);
            rules.access = refused;
        }
        match (scope.auth_basic, scope.auth_basic_user_file) {
            (Some(auth), file) if auth.args.first().is_some_and(|arg| arg != "off") => {
                let pointers =
                    [Some(auth), file].map(|directive| directive.map(|d| d as *const Directive));
                if answers_first {
                    for pointer in pointers.into_iter().flatten() {
                        rules.inert.push((
                            pointer,
                            "not applied in nginx either: return answers before auth_basic",
                        ));
                    }
                } else if let Some(file) = file {
                    // A file weir cannot take leaves auth_basic unused: its item says it.
                    if let Ok(path) = user_file(file, scope.conf_dir) {
                        let realm = auth.args.first().cloned().unwrap_or_default();
                        rules.basic_auth = Some((realm, path, auth.source.clone()));
                        rules.used.extend(pointers.into_iter().flatten());
                    }
                } else {
                    rules.inert.push((
                        auth as *const Directive,
                        "nginx asks no password without an auth_basic_user_file in force",
                    ));
                }
            }
            (_, Some(file)) => rules.inert.push((
                file as *const Directive,
                "no auth_basic in force (or auth_basic off): nginx asks no password",
            )),
            _ => {}
        }
        if let Some((path, directive)) = asked {
            // `error_page 401 ...` in force: where a 401 sends the client.
            let mut sign_in = None;
            for &page in &scope.error_page {
                if let Some(Ok(form)) = super::auth_request::sign_in(page, scope.server) {
                    if sign_in.is_none() {
                        sign_in = Some(form);
                        rules.used.push(page as *const Directive);
                    }
                }
            }
            if !answer_headers.is_empty() {
                rules.used.extend(
                    scope
                        .auth_request_set
                        .iter()
                        .map(|set| *set as *const Directive),
                );
            }
            rules.auth_request = Some(Asked {
                path,
                copies,
                answer_headers,
                sign_in,
                source: directive.source.clone(),
            });
            rules.used.push(directive as *const Directive);
        }
        if let Some(satisfy) = scope
            .satisfy
            .filter(|directive| directive.args.first().is_some_and(|arg| arg == "any"))
        {
            let pointer = satisfy as *const Directive;
            if answers_first {
                rules.inert.push((
                    pointer,
                    "not applied in nginx either: return answers before allow, deny and auth_basic",
                ));
            } else {
                rules.satisfy_any = Some(satisfy.source.clone());
                rules.used.push(pointer);
            }
        }
        for &directive in &scope.error_page {
            let pointer = directive as *const Directive;
            // An auth_request's sign-in, carried above.
            let signs_in = rules.auth_request.is_some()
                && matches!(
                    super::auth_request::sign_in(directive, scope.server),
                    Some(Ok(_))
                );
            if signs_in {
                continue;
            }
            let page = super::pages::parse(directive)
                .and_then(|(statuses, uri)| Ok((statuses, super::pages::file(scope, uri)?)));
            match page {
                Ok((statuses, file)) => {
                    for status in statuses {
                        if !rules.pages.iter().any(|(known, _, _)| *known == status) {
                            rules
                                .pages
                                .push((status, file.clone(), directive.source.clone()));
                        }
                    }
                    rules.used.push(pointer);
                }
                Err(why) => rules.page_problems.push((pointer, why)),
            }
        }
        if let Some(directive) = scope.proxy_intercept_errors {
            let pointer = directive as *const Directive;
            if !proxied {
                rules.inert.push((
                    pointer,
                    "nginx ignores proxy_intercept_errors where nothing is proxied",
                ));
            } else if rules.pages.is_empty() {
                rules.inert.push((
                    pointer,
                    "no error_page weir carries is in force, and nginx intercepts only the statuses error_page names",
                ));
            } else if directive.args.first().is_some_and(|arg| arg == "on") {
                rules.intercept = Some(directive.source.clone());
                rules.used.push(pointer);
            }
        }
        let mut reads_referer = false;
        for &directive in &scope.header_guards {
            if let Some(Ok(guard)) = header_guard(directive) {
                rules.deny_headers.push((guard, directive.source.clone()));
                rules.used.push(directive as *const Directive);
            } else if is_referer_if(directive) {
                let Some(valid) = scope.valid_referers else {
                    rules.inert.push((
                        directive as *const Directive,
                        "no valid_referers is in force, so nginx's $invalid_referer is empty",
                    ));
                    continue;
                };
                reads_referer = true;
                let names = super::server_names(scope.server);
                if let Ok((guard, _)) = referer_guard(directive, valid, &names) {
                    rules.deny_headers.push((guard, directive.source.clone()));
                    rules.used.push(directive as *const Directive);
                    rules.used.push(valid as *const Directive);
                }
            }
        }
        if let (Some(valid), false) = (scope.valid_referers, reads_referer) {
            rules.inert.push((
                valid as *const Directive,
                "no if ($invalid_referer) is in force, so nothing reads it",
            ));
        }
        for &directive in &scope.method_guards {
            let Some(guard) = method_guard(directive) else {
                continue;
            };
            // Every guard applies: what all of them let through, named by the innermost.
            rules.methods = Some(match rules.methods.take() {
                None => (guard.methods, directive.source.clone()),
                Some((known, _)) => (
                    known
                        .into_iter()
                        .filter(|method| guard.methods.contains(method))
                        .collect(),
                    directive.source.clone(),
                ),
            });
            rules.used.push(directive as *const Directive);
        }
        if let Some(directive) = scope.options_answer {
            if let Some(answer) = options_answer(directive) {
                rules.answer_options = Some((answer, directive.source.clone()));
                rules.used.push(directive as *const Directive);
            }
        }
        // Guards that let no method through together (nginx refuses every request): not
        // carried, so the report says they apply to no route.
        if rules
            .methods
            .as_ref()
            .is_some_and(|(methods, _)| methods.is_empty())
        {
            rules.methods = None;
            for &directive in &scope.method_guards {
                let pointer = directive as *const Directive;
                rules.used.retain(|used| *used != pointer);
            }
        }
        let charset = scope
            .charset
            .and_then(|directive| Some((charset(directive).ok()??, directive)));
        if let Some((name, directive)) = &charset {
            rules.charset = Some((name.clone(), directive.source.clone()));
            rules.used.push(*directive as *const Directive);
        }
        // Both in force: nginx rewrites the path, then sets the flags; weir sets both lists.
        let flagging = [
            scope
                .cookie_flags
                .and_then(|directive| Some((cookie_flags(directive).ok()??, directive))),
            scope
                .cookie_path
                .and_then(|directive| Some((cookie_path_flags(directive)?, directive))),
        ];
        for (flags, directive) in flagging.into_iter().flatten().filter(|_| proxied) {
            let (all, _) = rules
                .cookie_flags
                .get_or_insert_with(|| (Vec::new(), directive.source.clone()));
            // One flag per attribute (weir refuses `secure` beside `nosecure`): the first kept,
            // `proxy_cookie_flags`' before the path's.
            let attribute = |flag: &str| {
                flag.trim_start_matches("no")
                    .split('=')
                    .next()
                    .map(str::to_string)
            };
            for flag in flags {
                if !all.iter().any(|known| attribute(known) == attribute(&flag)) {
                    all.push(flag);
                }
            }
            rules.used.push(directive as *const Directive);
        }
        if let Some(directive) = scope.charset_types {
            let pointer = directive as *const Directive;
            if let Ok(types) = charset_types(directive) {
                if charset.is_some() {
                    rules.charset_types = Some((types, directive.source.clone()));
                    rules.used.push(pointer);
                } else {
                    rules
                        .inert
                        .push((pointer, "no charset is in force, so nginx adds none"));
                }
            }
        }
        rules
    }

    /// Whether an `add_header Strict-Transport-Security` is in force for the route.
    pub(super) fn has_hsts(&self) -> bool {
        self.response_headers.iter().any(|rule| rule.hsts)
    }

    /// Leaves out the HSTS headers, which `[tls] hsts` sends.
    pub(super) fn without_hsts(&mut self) {
        let hsts: Vec<*const Directive> = self
            .response_headers
            .iter()
            .filter(|rule| rule.hsts)
            .map(|rule| rule.directive)
            .collect();
        self.response_headers.retain(|rule| !rule.hsts);
        self.used.retain(|pointer| !hsts.contains(pointer));
    }

    /// The route's keys, after those of its target; `upstream_host` is nginx's default Host
    /// (`$proxy_host`), sent when no `proxy_set_header Host` is in force.
    pub(super) fn write(&self, table: &mut Table, upstream_host: Option<&(String, Source)>) {
        let mut request: Vec<(&str, &str)> = Vec::new();
        let mut request_source = None;
        if let Some((host, source)) = upstream_host {
            request.push(("Host", host));
            request_source = Some(source);
        }
        for (name, value, source) in &self.request_headers {
            request.push((name, value));
            request_source = request_source.or(Some(source));
        }
        if !request.is_empty() {
            table.set("request_headers", inline_table(&request), request_source);
        }
        if let Some(source) = &self.forwarded_for {
            table.set("forwarded_for", toml_out::string("replace"), Some(source));
        }
        for always in [false, true] {
            let rules: Vec<&ResponseRule> = self
                .response_headers
                .iter()
                .filter(|rule| rule.always == always && rule.by_type.is_empty())
                .collect();
            if let Some(first) = rules.first() {
                let pairs: Vec<(&str, &str)> = rules
                    .iter()
                    .map(|rule| (rule.name.as_str(), rule.value.as_str()))
                    .collect();
                let key = if always {
                    "response_headers_always"
                } else {
                    "response_headers"
                };
                table.set(key, inline_table(&pairs), Some(&first.source));
            }
        }
        let typed: Vec<&ResponseRule> = self
            .response_headers
            .iter()
            .filter(|rule| !rule.by_type.is_empty())
            .collect();
        if let Some(first) = typed.first() {
            let mut lines = Vec::new();
            for rule in &typed {
                for (types, value) in &rule.by_type {
                    lines.push(format!(
                        "  {{ header = {}, types = {}, value = {}{} }},",
                        toml_out::string(&rule.name),
                        toml_out::strings(types.iter().map(String::as_str)),
                        toml_out::string(value),
                        if rule.always { ", always = true" } else { "" }
                    ));
                }
            }
            table.set(
                "response_headers_by_type",
                format!("[\n{}\n]", lines.join("\n")),
                Some(&first.source),
            );
        }
        if let Some((_, source)) = self.hide_response_headers.first() {
            let names = self
                .hide_response_headers
                .iter()
                .map(|(name, _)| name.as_str());
            table.set(
                "hide_response_headers",
                toml_out::strings(names),
                Some(source),
            );
        }
        if let Some((value, source)) = &self.expires {
            table.set("expires", toml_out::string(value), Some(source));
        }
        if let Some((_, source)) = self.deny_headers.first() {
            let entries: Vec<String> = self
                .deny_headers
                .iter()
                .map(|(guard, _)| guard.entry())
                .collect();
            table.set(
                "deny_headers",
                format!("[{}]", entries.join(", ")),
                Some(source),
            );
        }
        if let Some((methods, source)) = &self.methods {
            table.set(
                "methods",
                toml_out::strings(methods.iter().map(String::as_str)),
                Some(source),
            );
        }
        if let Some((answer, source)) = &self.answer_options {
            let headers: Vec<(&str, &str)> = answer
                .headers
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str()))
                .collect();
            let value = if headers.is_empty() {
                format!("{{ status = {} }}", answer.status)
            } else {
                format!(
                    "{{ status = {}, headers = {} }}",
                    answer.status,
                    inline_table(&headers)
                )
            };
            table.set("answer_options", value, Some(source));
        }
        if let Some((name, source)) = &self.charset {
            table.set("charset", toml_out::string(name), Some(source));
        }
        if let Some((flags, source)) = &self.cookie_flags {
            table.set(
                "cookie_flags",
                toml_out::strings(flags.iter().map(String::as_str)),
                Some(source),
            );
        }
        if let Some((types, source)) = &self.charset_types {
            table.set(
                "charset_types",
                toml_out::strings(types.iter().map(String::as_str)),
                Some(source),
            );
        }
        if let Some((_, source)) = self.access.first() {
            let entries = self.access.iter().map(|(entry, _)| entry.as_str());
            table.set("access", toml_out::strings(entries), Some(source));
        }
        if let Some((realm, file, source)) = &self.basic_auth {
            table.set(
                "basic_auth",
                inline_table(&[("realm", realm), ("user_file", file)]),
                Some(source),
            );
        }
        if let Some(source) = &self.satisfy_any {
            table.set("satisfy", toml_out::string("any"), Some(source));
        }
        if let Some(asked) = &self.auth_request {
            let mut parts = vec![format!("path = {}", toml_out::string(&asked.path))];
            if !asked.copies.is_empty() {
                let pairs: Vec<(&str, &str)> = asked
                    .copies
                    .iter()
                    .map(|(name, header)| (name.as_str(), header.as_str()))
                    .collect();
                parts.push(format!("copy_headers = {}", inline_table(&pairs)));
            }
            if !asked.answer_headers.is_empty() {
                parts.push(format!(
                    "answer_headers = {}",
                    toml_out::strings(asked.answer_headers.iter().map(String::as_str))
                ));
            }
            match &asked.sign_in {
                Some(super::auth_request::SignIn::Route { path, status }) => {
                    parts.push(format!("sign_in = {}", toml_out::string(path)));
                    if let Some(status) = status {
                        parts.push(format!("sign_in_status = {status}"));
                    }
                }
                Some(super::auth_request::SignIn::Redirect(url)) => {
                    parts.push(format!("sign_in = {}", toml_out::string(url)));
                }
                None => {}
            }
            let value = if parts.len() == 1 {
                toml_out::string(&asked.path)
            } else {
                format!("{{ {} }}", parts.join(", "))
            };
            table.set("auth_request", value, Some(&asked.source));
        }
        if let Some((_, _, source)) = self.pages.first() {
            let statuses: Vec<String> = self
                .pages
                .iter()
                .map(|(status, _, _)| status.to_string())
                .collect();
            let pairs: Vec<(&str, &str)> = statuses
                .iter()
                .zip(&self.pages)
                .map(|(status, (_, file, _))| (status.as_str(), file.as_str()))
                .collect();
            table.set("error_pages", inline_table(&pairs), Some(source));
        }
        if let Some(source) = &self.intercept {
            table.set("intercept_errors", "true".to_string(), Some(source));
        }
    }
}

/// `{ Host = "app", "X-Forwarded-Host" = "" }`.
pub(super) fn inline_table(pairs: &[(&str, &str)]) -> String {
    let entries: Vec<String> = pairs
        .iter()
        .map(|(key, value)| {
            let bare = key
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
            let key = if bare {
                key.to_string()
            } else {
                toml_out::string(key)
            };
            format!("{key} = {}", toml_out::string(value))
        })
        .collect();
    format!("{{ {} }}", entries.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(name: &str, args: &[&str]) -> Directive {
        Directive::at_line_one(name, args, None)
    }

    #[test]
    fn values_take_the_variables_weir_fills_in_and_no_other() {
        for value in [
            "",
            "literal",
            "$host",
            "${host}.internal",
            "$scheme://$host$request_uri",
            "$http_x_request_id",
            "$request_id",
            "for=$remote_addr;proto=$scheme",
            "$host:$server_port",
            "t=${msec}",
            "$remote_port $https",
        ] {
            assert_eq!(value_ok(value), Ok(()), "{value}");
        }
        for (value, named) in [
            ("$connection", "$connection"),
            ("$server_addr:$server_port", "$server_addr"),
            ("${host", "${"),
            ("$", "$:"),
            ("café", "visible ASCII"),
        ] {
            let why = value_ok(value).unwrap_err();
            assert!(why.contains(named), "{value}: {why}");
        }
    }

    #[test]
    fn headers_weir_writes_itself_are_not_rules() {
        let set = request_header(&directive("proxy_set_header", &["Keep-Alive", "300"]));
        assert!(
            matches!(&set, RequestHeader::Unsupported(why) if why.contains("itself")),
            "{set:?}"
        );
        let added = response_header(&directive("add_header", &["Transfer-Encoding", "x"]));
        assert!(added.is_err(), "{added:?}");
        let bad_name = response_header(&directive("add_header", &["X Bad", "x"]));
        assert!(bad_name.is_err(), "{bad_name:?}");
        assert_eq!(
            request_header(&directive(
                "proxy_set_header",
                &["X-Forwarded-For", "$remote_addr"]
            )),
            RequestHeader::ForwardedForReplace
        );
    }

    #[test]
    fn host_is_the_name_without_port_where_nginx_says_host() {
        // `$host` drops the port the client sent (`Host: example.com:8443` reaches the app as
        // `example.com`); passing the client's Host through keeps it, so it is a rule.
        assert_eq!(
            request_header(&directive("proxy_set_header", &["Host", "$host"])),
            RequestHeader::Set {
                name: "Host".into(),
                value: "$host".into()
            }
        );
        assert_eq!(
            request_header(&directive("proxy_set_header", &["Host", "$http_host"])),
            RequestHeader::Builtin("always: Host passes through")
        );
    }

    #[test]
    fn access_entries_are_addresses_networks_or_all() {
        for (verb, address) in [
            ("allow", "10.0.0.0/8"),
            ("deny", "all"),
            ("allow", "192.168.1.7"),
            ("deny", "2001:db8::/32"),
        ] {
            assert_eq!(
                access_entry(&directive(verb, &[address])),
                Ok(format!("{verb} {address}"))
            );
        }
        for address in ["unix:", "10.0.0.0/33", "example.com", "::/129"] {
            assert!(
                access_entry(&directive("deny", &[address])).is_err(),
                "{address}"
            );
        }
    }
}

#[cfg(test)]
mod expires_tests {
    use crate::report::Kind;

    /// A route's path and its `response_headers` (name, value), its `expires` last as
    /// `("expires", "After(604800)")`.
    type RouteHeaders = (String, Vec<(String, String)>);

    /// Each route's `response_headers` as weir reads them, and the report's kind for the
    /// directive starting with `directive`.
    fn imported(text: &str, directive: &str) -> (Vec<RouteHeaders>, Kind) {
        let imported =
            crate::import_str(text, "nginx.conf").unwrap_or_else(|error| panic!("{error}"));
        let config =
            weir::config::from_toml(&imported.toml, Some(std::path::Path::new("weir.toml")))
                .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml));
        let routes = config
            .routes
            .iter()
            .map(|route| {
                let headers = route
                    .rules
                    .headers
                    .response_set
                    .iter()
                    .map(|(name, value)| {
                        let value = value.as_ref().map_or(String::new(), ToString::to_string);
                        (name.as_str().to_string(), value)
                    })
                    .chain(
                        route
                            .rules
                            .headers
                            .expires
                            .map(|expires| ("expires".to_string(), format!("{expires:?}"))),
                    )
                    .collect();
                (route.path.clone(), headers)
            })
            .collect();
        let kind = imported
            .report
            .items
            .iter()
            .find(|item| item.directive.starts_with(directive))
            .unwrap_or_else(|| panic!("no item for {directive:?} in:\n{}", imported.report))
            .kind;
        (routes, kind)
    }

    fn server(block: &str) -> String {
        format!("http {{\n server {{\n  listen 80;\n{block}\n }}\n}}\n")
    }

    fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn expires_becomes_cache_control_inherited_and_overridden_as_in_nginx() {
        let (routes, kind) = imported(
            &server(concat!(
                "  expires 7d;\n",
                "  location / { proxy_pass http://127.0.0.1:8000; expires off; }\n",
                "  location /static/ { alias /srv/static/; }\n",
                "  location /media/ { alias /srv/media/; expires max; }\n",
                "  location /fresh/ { alias /srv/fresh/; expires epoch; }\n",
                "  location /now/ { alias /srv/now/; expires -1; }\n",
            )),
            "expires 7d",
        );
        assert_eq!(kind, Kind::Translated);
        assert_eq!(
            routes,
            [
                ("/".to_string(), Vec::new()),
                (
                    "/static/".to_string(),
                    headers(&[("expires", "After(604800)")])
                ),
                ("/media/".to_string(), headers(&[("expires", "Max")])),
                ("/fresh/".to_string(), headers(&[("expires", "Epoch")])),
                ("/now/".to_string(), headers(&[("expires", "After(-1)")])),
            ]
        );
    }

    #[test]
    fn expires_beside_add_header_cache_control_is_one_value_unless_always() {
        let (routes, kind) = imported(
            &server(concat!(
                "  location /static/ { alias /srv/static/; expires 30d; add_header Cache-Control \"public, immutable\"; }\n",
                "  location /api/ { proxy_pass http://127.0.0.1:8000; expires 1h; add_header Cache-Control private always; }\n",
            )),
            "expires 1h",
        );
        // nginx sends the add_header's on every answer, expires's on 2xx and 3xx only: weir
        // keeps one value, the add_header's.
        assert_eq!(kind, Kind::Unsupported);
        let always: Vec<&RouteHeaders> =
            routes.iter().filter(|(path, _)| path == "/api/").collect();
        assert_eq!(always[0].1, Vec::new());
        assert_eq!(
            routes[0],
            (
                "/static/".to_string(),
                headers(&[
                    ("cache-control", "max-age=2592000, public, immutable"),
                    ("expires", "After(2592000)")
                ])
            )
        );
    }

    #[test]
    fn expires_by_time_of_day_file_time_or_variable_is_left_out() {
        for value in ["@15h30m", "modified +24h", "$expires"] {
            let (routes, kind) = imported(
                &server(&format!(
                    "  location /static/ {{ alias /srv/static/; expires {value}; }}\n"
                )),
                "expires",
            );
            assert_eq!(kind, Kind::Unsupported, "{value}");
            assert_eq!(routes[0].1, Vec::new(), "{value}");
        }
    }
}
