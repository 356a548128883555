//! nginx's `auth_request` and `auth_request_set`, as weir's `auth_request` key: the path asked,
//! and `copy_headers` from each `proxy_set_header NAME $var` whose `$var` an `auth_request_set
//! $var $upstream_http_HEADER` in force gives (nginx's idiom for passing the service's user to
//! the app).

use std::collections::{HashMap, HashSet};

use crate::parse::Directive;

/// The variables of every `auth_request_set $var $upstream_http_NAME` in the config (by name,
/// without `$`), with the answer's header each reads (`NAME`, `_` read as `-`); and those that
/// some `proxy_set_header` sends alone.
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
                "proxy_set_header" => {
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

/// Whether `proxy_set_header NAME $var` sends one of `variables` alone.
pub(super) fn set_variable(directive: &Directive, variables: &HashSet<String>) -> bool {
    match directive.args.as_slice() {
        [_, value] => alone(value).is_some_and(|variable| variables.contains(variable)),
        _ => false,
    }
}

/// For `proxy_set_header NAME $var` with `$var` an `auth_request_set`'s among `in_force`: `NAME`,
/// and the answer's header it gets.
pub(super) fn copied(directive: &Directive, in_force: &[&Directive]) -> Option<(String, String)> {
    let [name, value] = directive.args.as_slice() else {
        return None;
    };
    let variable = alone(value)?;
    in_force.iter().rev().find_map(|set| {
        let (set_variable, header) = answer_header(set).ok()?;
        (set_variable == variable).then(|| (name.clone(), header))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Source;

    fn directive(name: &str, args: &[&str]) -> Directive {
        Directive {
            name: name.into(),
            args: args.iter().map(|arg| arg.to_string()).collect(),
            block: None,
            source: Source {
                file: "nginx.conf".into(),
                line: 1,
            },
        }
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
