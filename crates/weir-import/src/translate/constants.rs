//! Values that are the same for every request of a server block, written into its directives as
//! text before they are translated. weir has no variables; where nginx's value is a constant,
//! the text is what nginx would use:
//! - `$server_name` is the block's first name, in redirects, header values and `if`s;
//! - a `set $NAME "literal"` that a `proxy_pass` names. This is the Docker idiom that makes
//!   nginx resolve a service's name at run time, and start while the service is down. weir's
//!   upstream names do both by themselves.

use std::collections::HashMap;

use crate::parse::Directive;

/// The directives whose values may name `$server_name` and that weir takes as text with its
/// own variables: redirects, header values and `if` conditions.
const SERVER_NAMED: [&str; 5] = ["return", "rewrite", "add_header", "proxy_set_header", "if"];

/// A directive the import wrote into, as it was, and what it wrote, for the report.
pub(super) struct Written {
    pub directive: Directive,
    pub note: String,
}

/// `directives` with the constants of each server block written in ([the module](self)), and
/// what was written; `None` when nothing was.
pub(super) fn written_in(directives: &[Directive]) -> Option<(Vec<Directive>, Vec<Written>)> {
    let mut directives = directives.to_vec();
    let mut written = Vec::new();
    servers(&mut directives, &mut written);
    (!written.is_empty()).then_some((directives, written))
}

fn servers(directives: &mut [Directive], written: &mut Vec<Written>) {
    for directive in directives {
        match (directive.name.as_str(), &mut directive.block) {
            ("server", Some(block)) => {
                server_name(block, written);
                set_values(block, written);
            }
            ("http", Some(block)) => servers(block, written),
            _ => {}
        }
    }
}

/// `text` with each `$name` or `${name}` replaced by what `value` makes of its name and its text
/// as written; `None` when `value` knows no value for one (or a `${` is unclosed).
fn substitute(text: &str, value: impl Fn(&str, &str) -> Option<String>) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut written = 0;
    for (at, name) in super::text::variables(text)? {
        out.push_str(&text[written..at.start]);
        out.push_str(&value(name, &text[at.clone()])?);
        written = at.end;
    }
    out.push_str(&text[written..]);
    Some(out)
}

/// Whether `text` names variable `name`.
fn names(text: &str, name: &str) -> bool {
    super::text::variable_names(text).is_some_and(|names| names.contains(&name))
}

/// `$server_name` in the server's [`SERVER_NAMED`] values, at any depth, as its first name:
/// nginx's `$server_name` is that name for every request of the server, where weir's is the
/// route's host (none on the default server's routes) and a redirect of weir's does not
/// evaluate it.
fn server_name(block: &mut [Directive], written: &mut Vec<Written>) {
    // The first name of the first `server_name`; empty without one.
    let name = block
        .iter()
        .find(|inner| inner.name == "server_name")
        .and_then(|inner| inner.args.first())
        .cloned()
        .unwrap_or_default();
    write_server_name(block, &name, written);
}

/// The values of the `set`s in `block` (directly), after those of `inherited`: a literal, or
/// one made of values known before it; `None` for a variable whose value is not known so (set
/// from another variable, or inside an `if`).
fn sets_of(
    block: &[Directive],
    inherited: &HashMap<String, Option<String>>,
) -> HashMap<String, Option<String>> {
    let mut sets = inherited.clone();
    for directive in block {
        match (directive.name.as_str(), directive.args.as_slice()) {
            ("set", [variable, value]) => {
                let Some(name) = variable.strip_prefix('$') else {
                    continue;
                };
                let known = substitute(value, |other, _| sets.get(other).cloned().flatten());
                sets.insert(name.to_string(), known);
            }
            ("if", _) => {
                let mut conditional = Vec::new();
                collect_values(
                    directive.block.as_deref().unwrap_or_default(),
                    &mut conditional,
                );
                for (name, _) in conditional {
                    sets.insert(name, None);
                }
            }
            _ => {}
        }
    }
    sets
}

/// The name and value of every `set` in `block`, at any depth.
fn collect_values(block: &[Directive], found: &mut Vec<(String, String)>) {
    for directive in block {
        if let ("set", [variable, value]) = (directive.name.as_str(), directive.args.as_slice()) {
            if let Some(name) = variable.strip_prefix('$') {
                found.push((name.to_string(), value.clone()));
            }
        }
        collect_values(directive.block.as_deref().unwrap_or_default(), found);
    }
}

/// A `proxy_pass` URL with variables as the literal URL it always is, from `sets`: every
/// variable but a closing `$request_uri` known, and no URI part (with variables, nginx sends a
/// URI part in place of the request's whole URI, which weir's `upstream_path` does not do; the
/// request's own URI, `$request_uri`, is what weir sends without one).
fn passed_url(url: &str, sets: &HashMap<String, Option<String>>) -> Option<String> {
    let bare = url
        .strip_suffix("$request_uri")
        .or_else(|| url.strip_suffix("${request_uri}"))
        .unwrap_or(url);
    let literal = substitute(bare, |name, _| sets.get(name).cloned().flatten())?;
    let rest = literal
        .strip_prefix("http://")
        .or_else(|| literal.strip_prefix("https://"))?;
    (!rest.is_empty() && !rest.starts_with("unix:") && !rest.contains(['/', '$', '?']))
        .then_some(literal)
}

/// A `proxy_pass` with variables whose value is always the same (the server's and its
/// location's `set`s make it: [`passed_url`]) as that URL; each `set` read so and named
/// nowhere else in the server is then left out, as it has done its part.
fn set_values(server: &mut Vec<Directive>, written: &mut Vec<Written>) {
    let server_sets = sets_of(server, &HashMap::new());
    // The names read into a proxy_pass, and where.
    let mut read: Vec<(String, String)> = Vec::new();
    read_into_passes(server, &server_sets, &mut read, written);
    if read.is_empty() {
        return;
    }
    // The variables the sets read so were made of were read too (`set $u http://$app:8000;`).
    let mut made_of = Vec::new();
    collect_values(server, &mut made_of);
    loop {
        let more: Vec<(String, String)> = made_of
            .iter()
            .filter_map(|(name, value)| {
                let (_, at) = read.iter().find(|(read_name, _)| read_name == name)?;
                Some((value, at.clone()))
            })
            .flat_map(|(value, at)| {
                super::text::variable_names(value)
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |inner| (inner.to_string(), at.clone()))
            })
            .filter(|(inner, _)| !read.iter().any(|(known, _)| known == inner))
            .collect();
        if more.is_empty() {
            break;
        }
        read.extend(more);
    }
    // A `set` read into a proxy_pass and named nowhere else (but in another such `set`) has
    // done its part.
    let candidates: Vec<&str> = read.iter().map(|(name, _)| name.as_str()).collect();
    let mut elsewhere = Vec::new();
    named_elsewhere(server, &candidates, &mut elsewhere);
    let done = |name: &str| {
        (!elsewhere.iter().any(|other| other == name))
            .then(|| read.iter().find(|(read_name, _)| read_name == name))
            .flatten()
            .map(|(_, at)| at.clone())
    };
    leave_out(server, &done, written);
}

/// [`server_name`]'s writing of `name`, at any depth of `block`.
fn write_server_name(block: &mut [Directive], name: &str, written: &mut Vec<Written>) {
    // Other variables stay as they are written.
    let keep = |variable: &str, token: &str| {
        Some(if variable == "server_name" {
            name.to_string()
        } else {
            token.to_string()
        })
    };
    for directive in block {
        if SERVER_NAMED.contains(&directive.name.as_str())
            && directive.args.iter().any(|arg| names(arg, "server_name"))
        {
            let before = directive.clone();
            let mut complete = true;
            let args: Vec<String> = directive
                .args
                .iter()
                .map(|arg| {
                    if !names(arg, "server_name") {
                        return arg.clone();
                    }
                    substitute(arg, keep).unwrap_or_else(|| {
                        complete = false;
                        arg.clone()
                    })
                })
                .collect();
            if complete {
                directive.args = args;
                let note = if name.is_empty() {
                    "$server_name written as empty text: its server block has no server_name, and nginx's $server_name is then empty".to_string()
                } else {
                    format!("$server_name written as {name:?}: its server block's first name, which nginx's $server_name is for every request of the server")
                };
                written.push(Written {
                    directive: before,
                    note,
                });
            }
        }
        if let Some(inner) = &mut directive.block {
            write_server_name(inner, name, written);
        }
    }
}

/// Each `proxy_pass` with variables in the locations of `block` (at any depth) that `sets`
/// make the same for every request ([`passed_url`]), read as that URL; the names read, and
/// where, go to `read`.
fn read_into_passes(
    block: &mut [Directive],
    server_sets: &HashMap<String, Option<String>>,
    read: &mut Vec<(String, String)>,
    written: &mut Vec<Written>,
) {
    for directive in block {
        if directive.name != "location" {
            continue;
        }
        let Some(inner) = &mut directive.block else {
            continue;
        };
        // A nested location runs the server's `set`s and its own, not its parent's.
        let sets = sets_of(inner, server_sets);
        for pass in inner.iter_mut() {
            let Some(url) = pass.args.first().filter(|_| pass.name == "proxy_pass") else {
                continue;
            };
            if !url.contains('$') {
                continue;
            }
            let Some(literal) = passed_url(url, &sets) else {
                continue;
            };
            let used: Vec<&str> = super::text::variable_names(url)
                .unwrap_or_default()
                .into_iter()
                .filter(|name| *name != "request_uri")
                .collect();
            let at = pass.source.to_string();
            read.extend(used.iter().map(|name| (name.to_string(), at.clone())));
            written.push(Written {
                directive: pass.clone(),
                note: format!("read as proxy_pass {literal} (from the set of {}): a name in it is resolved by weir when it starts and again every [server] resolve interval, and weir starts while it does not resolve yet, which is what nginx's variable was for; nginx applies no proxy_redirect default with a variable, weir's location_rewrites where written turn the app's own address in a Location into a path", used.iter().map(|name| format!("${name}")).collect::<Vec<_>>().join(", ")),
            });
            pass.args[0] = literal;
        }
        read_into_passes(inner, server_sets, read, written);
    }
}

/// The `candidates` that a directive in `block` (at any depth) names, but in a `set` of one of
/// them.
fn named_elsewhere(block: &[Directive], candidates: &[&str], found: &mut Vec<String>) {
    for directive in block {
        let own_set = directive.name == "set"
            && directive
                .args
                .first()
                .and_then(|arg| arg.strip_prefix('$'))
                .is_some_and(|name| candidates.contains(&name));
        let args = if own_set {
            &directive.args[1..]
        } else {
            &directive.args[..]
        };
        for arg in args {
            for name in super::text::variable_names(arg).unwrap_or_default() {
                if candidates.contains(&name) && !own_set {
                    found.push(name.to_string());
                }
            }
        }
        named_elsewhere(
            directive.block.as_deref().unwrap_or_default(),
            candidates,
            found,
        );
    }
}

/// Leaves out each `set` in `block` (at any depth, not inside an `if`) of a name `done` says
/// was read, with where.
fn leave_out(
    block: &mut Vec<Directive>,
    done: &dyn Fn(&str) -> Option<String>,
    written: &mut Vec<Written>,
) {
    block.retain(|directive| {
        let name = directive
            .args
            .first()
            .and_then(|arg| arg.strip_prefix('$'))
            .filter(|_| directive.name == "set" && directive.args.len() == 2);
        match name.and_then(done) {
            Some(at) => {
                written.push(Written {
                    directive: directive.clone(),
                    note: format!("read into the proxy_pass at {at}, which names it"),
                });
                false
            }
            None => true,
        }
    });
    for directive in block {
        if directive.name != "if" {
            if let Some(inner) = &mut directive.block {
                leave_out(inner, done, written);
            }
        }
    }
}
