//! How nginx's text reads where weir takes it as its own: the variables in a value (`$name`,
//! `${name}`), an `if`'s variable, a quoted value, and whether weir fills in a header value's or
//! a redirect's variables (the maps the import carries among them). The floor beneath the
//! translations of headers, guards, `geo`, `auth_request`, maps and constants.

use std::cell::RefCell;

use crate::parse::Directive;

/// The variables a weir header value may use, for notes.
const VARIABLES: &str = "$host, $remote_addr, $remote_port, $scheme, $https, $server_port, $request_uri, $uri, $request_method, $server_name, $proxy_add_x_forwarded_for, $request_id, $upstream_cache_status, $msec, $http_NAME and a map's $NAME (one the import carries as [maps.NAME])";

thread_local! {
    /// The maps the import carries, while a config is translated: a header value's `$NAME` of
    /// one of them is that map's ([`carried_name`]).
    static CARRIED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Sets the names of the maps carried for the config being translated (and clears them after
/// with an empty list).
pub(super) fn carry(names: Vec<String>) {
    CARRIED.with(|carried| *carried.borrow_mut() = names);
}

/// Whether `$name` is a map the import carries.
pub(super) fn carried_name(name: &str) -> bool {
    CARRIED.with(|carried| carried.borrow().iter().any(|known| known == name))
}

/// Whether weir's redirect template takes `url`: its variables are those a weir redirect fills
/// in (`$host`, `$request_uri`, `$scheme`, `$args`, `$is_args`; `${host}` too), and a
/// `Location` can carry it.
pub(super) fn weir_redirect_ok(url: &str) -> Result<(), String> {
    weir_redirect_captured_ok(url, 0)
}

/// [`weir_redirect_ok`] in a regex route of `groups` groups: `$1` .. `$groups` are filled in too.
pub(super) fn weir_redirect_captured_ok(url: &str, groups: usize) -> Result<(), String> {
    let names = variable_names(url).ok_or("an unclosed ${")?;
    let captured = |name: &str| match name.as_bytes() {
        [digit @ b'1'..=b'9'] => usize::from(digit - b'0') <= groups,
        _ => false,
    };
    if let Some(name) = names.iter().find(|name| {
        !matches!(
            **name,
            "host" | "request_uri" | "scheme" | "args" | "is_args"
        ) && !captured(name)
    }) {
        return Err(format!("${name} is not evaluated"));
    }
    if url
        .chars()
        .any(|c| c.is_control() || c == ' ' || !c.is_ascii())
    {
        return Err("the URL has characters a Location header cannot carry".to_string());
    }
    Ok(())
}

/// The names of the variables in `text` (`$name` or `${name}`), in order; `None` for an unclosed
/// `${`.
pub(super) fn variable_names(text: &str) -> Option<Vec<&str>> {
    Some(variables(text)?.into_iter().map(|(_, name)| name).collect())
}

/// The variables in `text`, in order: where each is written (`$name` or `${name}`, as bytes of
/// `text`) and its name; `None` for an unclosed `${`.
pub(super) fn variables(text: &str) -> Option<Vec<(std::ops::Range<usize>, &str)>> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(dollar) = text[at..].find('$').map(|offset| at + offset) {
        let after = &text[dollar + 1..];
        let (name, written) = match after.strip_prefix('{') {
            Some(braced) => {
                let end = braced.find('}')?;
                (&braced[..end], end + 3)
            }
            None => {
                let end = after
                    .find(|character: char| {
                        !(character.is_ascii_alphanumeric() || character == '_')
                    })
                    .unwrap_or(after.len());
                (&after[..end], end + 1)
            }
        };
        found.push((dollar..dollar + written, name));
        at = dollar + written;
    }
    Some(found)
}

/// The variable an `if ($NAME ...)` tests and what follows it (the operator and value, or
/// nothing): `("http_user_agent", "~* bot")`.
pub(super) fn if_variable(directive: &Directive) -> Option<(String, String)> {
    let text = directive.args.join(" ");
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
    let variable = inner.strip_prefix('$')?;
    let end = variable
        .find(|character: char| !(character.is_ascii_alphanumeric() || character == '_'))
        .unwrap_or(variable.len());
    let (name, rest) = variable.split_at(end);
    (!name.is_empty()).then(|| (name.to_string(), rest.trim().to_string()))
}

/// A value as nginx reads it: without the quotes around it, if any.
pub(super) fn unquote(value: &str) -> &str {
    let value = value.trim();
    value
        .strip_prefix('"')
        .and_then(|value| value.strip_suffix('"'))
        .or_else(|| {
            value
                .strip_prefix('\'')
                .and_then(|value| value.strip_suffix('\''))
        })
        .unwrap_or(value)
}

pub(super) fn token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
}

/// As weir's own check of a header value (`Template::parse_header`).
pub(super) fn value_ok(value: &str) -> Result<(), String> {
    if !value
        .chars()
        .all(|character| character == ' ' || character == '\t' || character.is_ascii_graphic())
    {
        return Err(format!(
            "weir takes header values of visible ASCII, spaces and tabs; {value:?} is not"
        ));
    }
    let names = variable_names(value).ok_or_else(|| format!("an unclosed ${{ in {value:?}"))?;
    for name in names {
        let known = matches!(
            name,
            "host"
                | "request_uri"
                | "scheme"
                | "remote_addr"
                | "server_name"
                | "request_method"
                | "uri"
                | "proxy_add_x_forwarded_for"
                | "request_id"
                | "upstream_cache_status"
                | "remote_port"
                | "server_port"
                | "https"
                | "msec"
        ) || carried_name(name)
            || name
                .strip_prefix("http_")
                .is_some_and(|header| token(&header.replace('_', "-")));
        if !known {
            return Err(format!(
                "weir has no ${name}: a header value may use {VARIABLES}"
            ));
        }
    }
    Ok(())
}
