//! nginx's `auth_request` and `auth_request_set`, as weir's `auth_request` key: the path asked,
//! and `copy_headers` from each `proxy_set_header NAME $var` whose `$var` an `auth_request_set
//! $var $upstream_http_HEADER` in force gives (nginx's idiom for passing the service's user to
//! the app).

use std::collections::{HashMap, HashSet};

use crate::parse::Directive;

/// The variables of every `auth_request_set $var $upstream_http_NAME` in the config (by name,
/// without `$`), with the answer's header each reads (`NAME`, `_` read as `-`); and those that
/// some `proxy_set_header` or `add_header` sends alone.
#[derive(Debug, Default)]
pub(super) struct Variables {
    pub answers: HashMap<String, String>,
    pub sent: HashSet<String>,
}

impl Variables {
    /// Collected from the whole tree, as any location may use a variable set anywhere.
    pub(super) fn of(directives: &[Directive]) -> Variables {
        let mut variables = Variables::default();
        variables.walk(directives);
        variables
    }

    fn walk(&mut self, directives: &[Directive]) {
        for directive in directives {
            match directive.name.as_str() {
                "auth_request_set" => {
                    if let Ok((variable, header)) = answer_header(directive) {
                        self.answers.insert(variable, header);
                    }
                }
                "proxy_set_header" | "add_header" => {
                    if let Some(variable) = directive.args.get(1).and_then(|value| alone(value)) {
                        self.sent.insert(variable.to_string());
                    }
                }
                _ => {}
            }
            if let Some(block) = &directive.block {
                self.walk(block);
            }
        }
    }
}

/// `$var` or `${var}` alone: `var`.
fn alone(value: &str) -> Option<&str> {
    let name = value.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|braced| braced.strip_suffix('}'))
        .unwrap_or(name);
    (!name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_'))
    .then_some(name)
}

/// `auth_request_set $var $upstream_http_x_auth_request_user`: (`var`,
/// `X-Auth-Request-User`'s name as nginx reads it, `x-auth-request-user`).
pub(super) fn answer_header(directive: &Directive) -> Result<(String, String), String> {
    let [variable, value] = directive.args.as_slice() else {
        return Err("expected auth_request_set $VARIABLE VALUE".into());
    };
    let variable = alone(variable).ok_or("expected auth_request_set $VARIABLE VALUE")?;
    let header = alone(value)
        .and_then(|name| name.strip_prefix("upstream_http_"))
        .filter(|header| !header.is_empty())
        .ok_or_else(|| {
            format!("weir copies a header of the auth answer as it is ($upstream_http_NAME); {value} is not one")
        })?;
    Ok((variable.to_string(), header.replace('_', "-")))
}

/// The path of `auth_request PATH`: a path weir routes (no variables).
pub(super) fn path(directive: &Directive) -> Result<String, String> {
    let Some(path) = directive.args.first() else {
        return Err("expected auth_request PATH".into());
    };
    if !path.starts_with('/') || path.contains('$') || path.contains(char::is_whitespace) {
        return Err(format!(
            "weir asks a path it routes, as /_auth (no variables); {path:?} is not one"
        ));
    }
    Ok(path.clone())
}

/// For `add_header NAME $var` with `$var` an `auth_request_set`'s of the answer's own `NAME`
/// among `in_force` (`add_header Set-Cookie $auth_cookie` with `auth_request_set $auth_cookie
/// $upstream_http_set_cookie`): `NAME`.
pub(super) fn answer_header_added(
    directive: &Directive,
    in_force: &[&Directive],
) -> Option<String> {
    copied(directive, in_force)
        .filter(|(name, header)| name.eq_ignore_ascii_case(header))
        .map(|(name, _)| name)
}

/// Where `error_page 401 ...` sends the client of a route that asks: a path (`error_page 401
/// =403 /oauth2/sign_in`, with the status nginx answers it with: `=CODE`'s, none for `=` (the
/// page's own), 401 without `=`), or the URL of the named location's `return 302 URL`; `None`
/// for another `error_page`, `Err` for a 401 one weir cannot carry.
pub(super) fn sign_in(
    directive: &Directive,
    server: Option<&Directive>,
) -> Option<Result<SignIn, String>> {
    let (uri, rest) = directive.args.split_last()?;
    let (codes, answer): (Vec<&String>, Option<&String>) = match rest.split_last() {
        Some((last, codes)) if last.starts_with('=') => (codes.iter().collect(), Some(last)),
        _ => (rest.iter().collect(), None),
    };
    if codes.len() != 1 || codes[0] != "401" {
        return None;
    }
    let status = match answer.map(|answer| &answer[1..]) {
        None => Some(401),
        Some("") => None,
        Some(code) => match code.parse::<u16>() {
            Ok(code) if (200..=599).contains(&code) && code != 444 => Some(code),
            _ => {
                return Some(Err(format!(
                    "={code} is not a status weir answers a sign-in page with"
                )))
            }
        },
    };
    if let Some(name) = uri.strip_prefix('@') {
        let named = server
            .and_then(|server| server.block.as_deref())
            .unwrap_or_default()
            .iter()
            .find(|inner| {
                inner.name == "location"
                    && inner.args.first().map(String::as_str) == Some(uri.as_str())
            });
        let Some(named) = named else {
            return Some(Err(format!("no location @{name} in the server")));
        };
        return Some(match named.block.as_deref() {
            Some([answer]) if answer.name == "return" => match answer.args.as_slice() {
                [code, url]
                    if code == "302"
                        && url.contains("://")
                        && super::text::weir_redirect_ok(url).is_ok() =>
                {
                    Ok(SignIn::Redirect(url.clone()))
                }
                _ => Err(format!(
                    "location @{name} answers otherwise than with return 302 URL (a URL with $host, $request_uri and $scheme), which is the redirect weir's sign_in makes"
                )),
            },
            _ => Err(format!(
                "location @{name} does more than return 302 URL, the redirect weir's sign_in makes"
            )),
        });
    }
    if !uri.starts_with('/') || uri.contains('$') {
        return Some(Err(format!("{uri} is not a path weir routes")));
    }
    Some(Ok(SignIn::Route {
        path: uri.clone(),
        status,
    }))
}

/// Where an `auth_request`'s 401 sends the client.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum SignIn {
    /// The route of this path answers, with this status (`None`: the route's own).
    Route { path: String, status: Option<u16> },
    /// A 302 to this URL.
    Redirect(String),
}

/// `NAME $var` (a `proxy_set_header`'s or an `add_header`'s arguments): `NAME` and `var`.
fn named_variable(directive: &Directive) -> Option<(&String, &str)> {
    let [name, value] = directive.args.as_slice() else {
        return None;
    };
    Some((name, alone(value)?))
}

impl Variables {
    /// For `proxy_set_header NAME $var` (or `add_header`) with `$var` an `auth_request_set`'s
    /// anywhere in the config: `NAME`, and the answer's header it reads.
    pub(super) fn copied(&self, directive: &Directive) -> Option<(String, String)> {
        let (name, variable) = named_variable(directive)?;
        Some((name.clone(), self.answers.get(variable)?.clone()))
    }
}

/// For `proxy_set_header NAME $var` (or `add_header`) with `$var` an `auth_request_set`'s among
/// `in_force`: `NAME`, and the answer's header it gets.
pub(super) fn copied(directive: &Directive, in_force: &[&Directive]) -> Option<(String, String)> {
    let (name, variable) = named_variable(directive)?;
    in_force.iter().rev().find_map(|set| {
        let (set_variable, header) = answer_header(set).ok()?;
        (set_variable == variable).then(|| (name.clone(), header))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(name: &str, args: &[&str]) -> Directive {
        Directive::at_line_one(name, args, None)
    }

    #[test]
    fn auth_request_set_reads_an_answer_header_and_nothing_else() {
        let set = directive(
            "auth_request_set",
            &["$user", "$upstream_http_x_auth_request_user"],
        );
        assert_eq!(
            answer_header(&set),
            Ok(("user".to_string(), "x-auth-request-user".to_string()))
        );
        for args in [
            &["$user", "$remote_user"][..],
            &["$user", "prefix-$upstream_http_x_user"],
            &["user", "$upstream_http_x_user"],
            &["$user"],
        ] {
            assert!(
                answer_header(&directive("auth_request_set", args)).is_err(),
                "{args:?}"
            );
        }
    }

    #[test]
    fn a_proxy_set_header_of_a_set_variable_is_copied_from_the_answer() {
        let sets = [
            directive("auth_request_set", &["$user", "$upstream_http_x_user"]),
            directive("auth_request_set", &["$mail", "$upstream_http_x_email"]),
        ];
        let in_force: Vec<&Directive> = sets.iter().collect();
        assert_eq!(
            copied(
                &directive("proxy_set_header", &["X-Email", "${mail}"]),
                &in_force
            ),
            Some(("X-Email".to_string(), "x-email".to_string()))
        );
        assert_eq!(
            copied(
                &directive("proxy_set_header", &["X-User", "user=$user"]),
                &in_force
            ),
            None
        );
        assert_eq!(
            copied(
                &directive("proxy_set_header", &["X-Host", "$host"]),
                &in_force
            ),
            None
        );
    }

    #[test]
    fn the_path_asked_is_one_weir_routes() {
        assert_eq!(
            path(&directive("auth_request", &["/oauth2/auth"])),
            Ok("/oauth2/auth".to_string())
        );
        assert!(path(&directive("auth_request", &["/auth/$host"])).is_err());
        assert!(path(&directive("auth_request", &["auth"])).is_err());
    }
}
