//! nginx's `proxy_cache` and its kin: a location's `proxy_cache ZONE` with the
//! `proxy_cache_valid` in force becomes its route's `cache` (the time a `200` is kept), and the
//! `$cookie_NAME`s of `proxy_cache_bypass` / `proxy_no_cache` its `cache_pass_cookies`, and
//! `proxy_cache_use_stale` its `cache_stale` (the zone's `inactive`: how long nginx keeps an
//! expired answer to serve).
//!
//! weir keeps answers in memory, so the zone's path, levels and disk sizes do not carry; weir
//! always locks (`proxy_cache_lock on`), passes a request with `Authorization`, and keys by
//! the host: what nginx's defaults leave open is closed, never opened.

use crate::parse::{Directive, Source};
use crate::report::Kind;

/// A route's `cache` and `cache_pass_cookies`, as written, with where they came from.
#[derive(Debug, Clone)]
pub(super) struct RouteCache {
    /// The time a `200` is kept (`"10s"`), or `"0s"`: only what the upstream's headers say.
    pub valid: String,
    /// The cookies that pass (`Some(vec![])`: none do); `None`: any cookie passes.
    pub pass_cookies: Option<Vec<String>>,
    /// Statuses kept for their own time (`cache_statuses`): codes and times, as written.
    pub statuses: Vec<(u16, String)>,
    /// How long an expired answer is served (`"600s"`), with the `proxy_cache_use_stale` that
    /// asks for it.
    pub stale: Option<(String, Source)>,
    /// The `proxy_cache_background_update on` in force.
    pub background_update: Option<Source>,
    /// The `proxy_cache` in force.
    pub source: Source,
}

/// What a location's scope holds of the cache.
#[derive(Clone, Default)]
pub(super) struct CacheScope<'a> {
    pub proxy_cache: Option<&'a Directive>,
    /// The `proxy_cache_valid`s of the nearest level that has some.
    pub valid: Vec<&'a Directive>,
    /// The `proxy_cache_bypass`es and `proxy_no_cache`s of the nearest level that has some.
    pub bypass: Vec<&'a Directive>,
    pub no_cache: Vec<&'a Directive>,
    pub use_stale: Option<&'a Directive>,
    pub background_update: Option<&'a Directive>,
    /// The `proxy_cache_path`s (of `http`).
    pub paths: Vec<&'a Directive>,
}

impl<'a> CacheScope<'a> {
    /// Takes in a level's directives: `proxy_cache` replaces, each list replaces the inherited
    /// one when the level has its own (as nginx's array directives).
    pub fn absorb(&mut self, block: &'a [Directive]) {
        let mut valid = Vec::new();
        let mut bypass = Vec::new();
        let mut no_cache = Vec::new();
        for directive in block {
            match directive.name.as_str() {
                "proxy_cache" => self.proxy_cache = Some(directive),
                "proxy_cache_use_stale" => self.use_stale = Some(directive),
                "proxy_cache_background_update" => self.background_update = Some(directive),
                "proxy_cache_path" => self.paths.push(directive),
                "proxy_cache_valid" => valid.push(directive),
                "proxy_cache_bypass" => bypass.push(directive),
                "proxy_no_cache" => no_cache.push(directive),
                _ => {}
            }
        }
        for (own, inherited) in [
            (valid, &mut self.valid),
            (bypass, &mut self.bypass),
            (no_cache, &mut self.no_cache),
        ] {
            if !own.is_empty() {
                *inherited = own;
            }
        }
    }

    /// The route's `cache`, when a zone's `proxy_cache` is in force.
    pub fn route(&self) -> Option<RouteCache> {
        let proxy_cache = self.proxy_cache?;
        match proxy_cache.args.first().map(String::as_str) {
            None | Some("off") => return None,
            Some(zone) if zone.contains('$') => return None,
            Some(_) => {}
        }
        let stale = self
            .use_stale
            .filter(|use_stale| stale_served(use_stale).0)
            .map(|use_stale| {
                let zone = proxy_cache.args.first().map(String::as_str).unwrap_or("");
                (kept_stale(&self.paths, zone), use_stale.source.clone())
            });
        let (valid, statuses, _) = kept_time(&self.valid);
        // nginx updates in the background only what it may serve expired meanwhile.
        let background_update = self
            .background_update
            .filter(|background| background.args.first().is_some_and(|on| on == "on"))
            .filter(|_| stale.is_some())
            .map(|background| background.source.clone());
        Some(RouteCache {
            valid: valid.unwrap_or_else(|| "0s".into()),
            statuses,
            pass_cookies: passing_cookies(&self.bypass, &self.no_cache).0,
            stale,
            background_update,
            source: proxy_cache.source.clone(),
        })
    }
}

/// The conditions of `proxy_cache_use_stale` weir's `cache_stale` serves an expired answer
/// for, all of them at once.
const STALE_WHEN: [&str; 8] = [
    "updating",
    "error",
    "timeout",
    "invalid_header",
    "http_500",
    "http_502",
    "http_503",
    "http_504",
];

/// Whether a `proxy_cache_use_stale` serves expired answers in some case weir's `cache_stale`
/// has, and the cases it does not name that `cache_stale` serves them in too (or that it names
/// and weir does not).
fn stale_served(use_stale: &Directive) -> (bool, Vec<String>) {
    let named: Vec<&str> = use_stale.args.iter().map(String::as_str).collect();
    let served = named.iter().any(|arg| STALE_WHEN.contains(arg));
    let mut differs: Vec<String> = STALE_WHEN
        .iter()
        .filter(|when| **when != "invalid_header" && !named.contains(when))
        .map(|when| format!("{when} (weir serves it then too)"))
        .collect();
    differs.extend(
        named
            .iter()
            .filter(|arg| !STALE_WHEN.contains(arg) && **arg != "off")
            .map(|arg| format!("{arg} (weir does not serve it then)")),
    );
    (served, differs)
}

/// How long nginx keeps an answer of `zone` unasked, which an expired one is served within:
/// its `proxy_cache_path`'s `inactive` (10 minutes by default).
fn kept_stale(paths: &[&Directive], zone: &str) -> String {
    let path = paths.iter().find(|path| {
        path.args.iter().any(|arg| {
            arg.strip_prefix("keys_zone=")
                .is_some_and(|keys| keys.split(':').next() == Some(zone))
        })
    });
    path.and_then(|path| {
        path.args
            .iter()
            .find_map(|arg| arg.strip_prefix("inactive="))
            .and_then(super::duration)
    })
    .unwrap_or_else(|| "600s".into())
}

/// The time `proxy_cache_valid`s give a `200`, the statuses they give a time of their own
/// (`cache_statuses`: another status, or a `301`/`302` kept another time than a `200`; the
/// first time for a status, as nginx takes the first that names it), and what of them weir
/// does not say (`any`).
fn kept_time(valid: &[&Directive]) -> (Option<String>, Vec<(u16, String)>, Vec<String>) {
    let mut ok = None;
    let mut statuses: Vec<(u16, String)> = Vec::new();
    let mut differs = Vec::new();
    for directive in valid {
        let Some((time, codes)) = directive.args.split_last() else {
            continue;
        };
        let Some(time) = super::duration(time) else {
            differs.push(format!(
                "{} (not a time weir reads)",
                directive.args.join(" ")
            ));
            continue;
        };
        let codes: Vec<&str> = if codes.is_empty() {
            vec!["200", "301", "302"]
        } else {
            codes.iter().map(String::as_str).collect()
        };
        for code in codes {
            let status = code
                .parse::<u16>()
                .ok()
                .filter(|code| (200..=599).contains(code) && ![206, 304, 444].contains(code));
            match (code, status) {
                ("any", _) => {
                    ok.get_or_insert_with(|| time.clone());
                    differs.push(format!(
                        "any {time} (weir keeps 200, 301, 302 and the statuses named, no other)"
                    ));
                }
                (_, Some(200)) => {
                    ok.get_or_insert_with(|| time.clone());
                }
                (_, Some(status)) => {
                    if !statuses.iter().any(|(known, _)| *known == status) {
                        statuses.push((status, time.clone()));
                    }
                }
                (other, None) => differs.push(format!("{other} {time} (not a status weir keeps)")),
            }
        }
    }
    // A 301 or 302 kept as long as a 200 needs no entry of its own.
    let same = |time: &String| Some(time) == ok.as_ref();
    statuses.retain(|(status, time)| !(matches!(status, 301 | 302) && same(time)));
    statuses.sort_by_key(|(status, _)| *status);
    (ok, statuses, differs)
}

/// The cookies whose presence passes the cache, from the conditions of `proxy_cache_bypass` and
/// `proxy_no_cache`: `$cookie_NAME` names one, `$http_cookie` any (`None`), `$http_authorization`
/// is weir's always. What weir cannot say (another variable) is in the second list. With no
/// condition at all nginx keeps answers whatever the cookies: weir passes a request with any
/// (`None`), the safer side.
fn passing_cookies(
    bypass: &[&Directive],
    no_cache: &[&Directive],
) -> (Option<Vec<String>>, Vec<String>) {
    let mut names = Vec::new();
    let mut any = false;
    let mut unsaid = Vec::new();
    let mut conditions = 0;
    for directive in bypass.iter().chain(no_cache) {
        for arg in &directive.args {
            conditions += 1;
            for variable in super::text::variable_names(arg).unwrap_or_default() {
                if variable == "http_cookie" {
                    any = true;
                } else if variable == "http_authorization" || variable == "http_upgrade" {
                    // weir's always: a request with Authorization passes, and a WebSocket's
                    // answer (a 101) is never kept.
                } else if let Some(name) = variable.strip_prefix("cookie_") {
                    if !names.iter().any(|known| known == name) {
                        names.push(name.to_string());
                    }
                } else {
                    unsaid.push(format!("${variable}"));
                }
            }
        }
    }
    if conditions == 0 || any || !unsaid.is_empty() {
        return (None, unsaid);
    }
    (Some(names), unsaid)
}

/// The item of a cache directive, wherever it stands.
pub(super) fn note(directive: &Directive) -> (Kind, String) {
    let first = directive.args.first().map(String::as_str).unwrap_or("");
    match directive.name.as_str() {
        "proxy_cache_path" => (
            Kind::Approximated,
            "weir keeps answers in memory, within [server] cache_size (64MiB by default) and cache_max_answer (1MiB): the path, levels, inactive and disk sizes do not carry".into(),
        ),
        "proxy_cache" if first == "off" => (Kind::Translated, "the default: no cache key on the routes it applies to".into()),
        "proxy_cache" if first.contains('$') => (
            Kind::Unsupported,
            "weir has one cache: a zone named by a variable has no weir form, and its routes keep nothing".into(),
        ),
        "proxy_cache" => (
            Kind::Translated,
            "[[routes]] cache on the proxied routes it applies to, its time from the proxy_cache_valid in force (0: only what the upstream's Cache-Control or X-Accel-Expires say); weir keeps 200, 301 and 302 alone, never an answer with Set-Cookie, up to 8 variants of a Vary answer a key (nginx keeps one per variant), and a request with Authorization or a cookie passes it (cache_pass_cookies)".into(),
        ),
        "proxy_cache_valid" => {
            let (ok, statuses, differs) = kept_time(std::slice::from_ref(&directive));
            let mut said = Vec::new();
            if let Some(time) = &ok {
                said.push(format!("cache = {time:?}"));
            }
            if !statuses.is_empty() {
                let listed: Vec<String> = statuses
                    .iter()
                    .map(|(status, time)| format!("{status} = {time:?}"))
                    .collect();
                said.push(format!("cache_statuses {{ {} }}", listed.join(", ")));
            }
            let said = if said.is_empty() {
                "nothing".to_string()
            } else {
                said.join(" and ")
            };
            if differs.is_empty() {
                (Kind::Translated, format!("{said} on the routes it applies to (a later proxy_cache_valid of the same level adds to it)"))
            } else {
                (Kind::Approximated, format!("{said} on the routes it applies to; not carried: {}", differs.join(", ")))
            }
        }
        "proxy_cache_bypass" | "proxy_no_cache" => {
            let (cookies, unsaid) = passing_cookies(std::slice::from_ref(&directive), &[]);
            if !unsaid.is_empty() {
                (
                    Kind::Approximated,
                    format!("weir passes its cache for a request with Authorization or a cookie (cache_pass_cookies names which); {} has no weir form, so a request with any cookie passes", unsaid.join(", ")),
                )
            } else {
                match cookies {
                    Some(names) if names.is_empty() => (Kind::Translated, "always: weir's cache passes a request with Authorization, and keeps no WebSocket's answer".into()),
                    Some(names) => (Kind::Translated, format!("cache_pass_cookies = {names:?} on the routes it applies to (and Authorization always passes); nginx's two directives are one in weir: a request with such a cookie neither reads nor fills the cache")),
                    None => (Kind::Translated, "the default of a route's cache: a request with any cookie (or Authorization) passes".into()),
                }
            }
        }
        "proxy_cache_key" => {
            let vars = super::text::variable_names(first).unwrap_or_default();
            let usual = !vars.is_empty()
                && vars.iter().all(|name| {
                    matches!(*name, "scheme" | "proxy_host" | "host" | "http_host" | "request_uri" | "uri" | "is_args" | "args" | "server_name" | "request_method")
                });
            if usual {
                (
                    Kind::Translated,
                    "weir's key is the route, scheme, Host, the client's X-Forwarded-Host and -Proto, and the request target as sent: one host's answers are its own".into(),
                )
            } else {
                (
                    Kind::Approximated,
                    "weir's key is fixed (the route, scheme, Host, the client's X-Forwarded-Host and -Proto, the request target): what else this key names is not in it".into(),
                )
            }
        }
        "proxy_cache_lock" if first == "on" => (Kind::Translated, "always: one request fills a missing answer, the others wait for it".into()),
        "proxy_cache_lock" => (Kind::Approximated, "weir always locks: one request fills a missing answer, the others wait for it (up to 5s)".into()),
        "proxy_cache_lock_timeout" | "proxy_cache_lock_age" => (
            Kind::Approximated,
            "weir's requests wait 5s for another's filling, then go upstream and keep nothing".into(),
        ),
        "proxy_cache_methods" if directive.args.iter().all(|method| matches!(method.as_str(), "GET" | "HEAD")) => {
            (Kind::Translated, "the default: GET fills, HEAD reads a GET's answer".into())
        }
        "proxy_cache_methods" => (Kind::Approximated, "weir keeps the answers to GET alone (HEAD reads them)".into()),
        "proxy_cache_convert_head" => (
            Kind::Approximated,
            "weir answers a HEAD from a kept GET's answer and sends one that finds none upstream as a HEAD, keeping nothing".into(),
        ),
        "proxy_cache_use_stale" => match stale_served(directive) {
            (false, _) => (Kind::Translated, "the default: weir serves no expired answer (cache_stale = 0)".into()),
            (true, differs) if differs.is_empty() => (
                Kind::Translated,
                "cache_stale on the routes it applies to, as long as the zone's inactive (10m by default): an expired answer goes to the requests that come while one updates it, and to one whose upstream fails or answers 500, 502, 503 or 504".into(),
            ),
            (true, differs) => (
                Kind::Approximated,
                format!("cache_stale on the routes it applies to, as long as the zone's inactive (10m by default), serves an expired answer while one request updates it and when the upstream fails or answers 500, 502, 503 or 504, all together; not as here: {}", differs.join(", ")),
            ),
        },
        "proxy_cache_background_update" if first == "off" => (Kind::Translated, "the default: the request that finds an answer expired updates it, and waits for its upstream".into()),
        "proxy_cache_background_update" => (
            Kind::Translated,
            "cache_background_update = true on the routes it applies to whose proxy_cache_use_stale serves expired answers: the request that finds an answer expired gets it too, while weir's own request updates it".into(),
        ),
        "proxy_cache_revalidate" => (
            Kind::Approximated,
            "weir revalidates no answer: an expired answer is filled again whole by one request".into(),
        ),
        "proxy_cache_min_uses" => (Kind::Approximated, "weir keeps an answer the first time".into()),
        _ => (Kind::Unsupported, "weir's cache has no such setting".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(text: &str) -> Directive {
        let mut words = text.split_whitespace().map(String::from);
        Directive {
            name: words.next().unwrap(),
            args: words.collect(),
            block: None,
            source: Source {
                file: "nginx.conf".into(),
                line: 1,
            },
        }
    }

    #[test]
    fn the_valid_time_is_the_200s_other_statuses_get_their_own_and_what_differs_is_named() {
        let valid = |lines: &[&str]| {
            let directives: Vec<Directive> = lines.iter().map(|line| directive(line)).collect();
            let refs: Vec<&Directive> = directives.iter().collect();
            let (time, statuses, differs) = kept_time(&refs);
            (time, statuses, differs.len())
        };
        let own = |list: &[(u16, &str)]| -> Vec<(u16, String)> {
            list.iter()
                .map(|(status, time)| (*status, time.to_string()))
                .collect()
        };
        assert_eq!(
            valid(&["proxy_cache_valid 10m"]),
            (Some("600s".into()), vec![], 0)
        );
        assert_eq!(
            valid(&["proxy_cache_valid 200 302 1s"]),
            (Some("1s".into()), vec![], 0)
        );
        assert_eq!(
            valid(&["proxy_cache_valid 200 1s", "proxy_cache_valid 404 1m"]),
            (Some("1s".into()), own(&[(404, "60s")]), 0)
        );
        assert_eq!(
            valid(&["proxy_cache_valid 301 1h", "proxy_cache_valid 200 1s"]),
            (Some("1s".into()), own(&[(301, "3600s")]), 0)
        );
        // The first time given a status is its time, as nginx takes the first that names it.
        assert_eq!(
            valid(&["proxy_cache_valid 404 1m", "proxy_cache_valid 404 410 5m"]),
            (None, own(&[(404, "60s"), (410, "300s")]), 0)
        );
        assert_eq!(
            valid(&["proxy_cache_valid any 1m"]),
            (Some("60s".into()), vec![], 1)
        );
        assert_eq!(valid(&["proxy_cache_valid 304 1m"]), (None, vec![], 1));
        assert_eq!(valid(&[]), (None, vec![], 0));
    }

    #[test]
    fn use_stale_is_served_as_long_as_the_zone_keeps_and_what_differs_is_named() {
        let served = |line: &str| {
            let (served, differs) = stale_served(&directive(line));
            (served, differs.len())
        };
        let all =
            "proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504";
        assert_eq!(served(all), (true, 0));
        assert_eq!(served(&format!("{all} invalid_header")), (true, 0));
        // The ones not named are served too; http_404 is not.
        assert_eq!(served("proxy_cache_use_stale updating"), (true, 6));
        assert_eq!(served(&format!("{all} http_404")), (true, 1));
        assert_eq!(served("proxy_cache_use_stale off"), (false, 7));
        assert_eq!(served("proxy_cache_use_stale http_404"), (false, 8));
        let paths = [
            directive("proxy_cache_path /a keys_zone=one:10m inactive=1h"),
            directive("proxy_cache_path /b levels=1:2 keys_zone=two:10m"),
        ];
        let paths: Vec<&Directive> = paths.iter().collect();
        assert_eq!(kept_stale(&paths, "one"), "3600s");
        assert_eq!(kept_stale(&paths, "two"), "600s");
        assert_eq!(kept_stale(&paths, "three"), "600s");
    }

    #[test]
    fn bypass_cookies_are_the_cookies_named_and_any_other_condition_passes_every_cookie() {
        let cookies = |bypass: &[&str], no_cache: &[&str]| {
            let bypass: Vec<Directive> = bypass.iter().map(|line| directive(line)).collect();
            let no_cache: Vec<Directive> = no_cache.iter().map(|line| directive(line)).collect();
            let bypass: Vec<&Directive> = bypass.iter().collect();
            let no_cache: Vec<&Directive> = no_cache.iter().collect();
            passing_cookies(&bypass, &no_cache)
        };
        assert_eq!(
            cookies(
                &["proxy_cache_bypass $cookie_sessionid"],
                &["proxy_no_cache $cookie_sessionid$http_authorization"]
            ),
            (Some(vec!["sessionid".to_string()]), vec![])
        );
        assert_eq!(
            cookies(&["proxy_cache_bypass $http_authorization"], &[]),
            (Some(vec![]), vec![])
        );
        assert_eq!(
            cookies(&["proxy_cache_bypass $http_cookie"], &[]),
            (None, vec![])
        );
        assert_eq!(cookies(&[], &[]), (None, vec![]));
        assert_eq!(
            cookies(&["proxy_cache_bypass $cookie_session $arg_nocache"], &[]),
            (None, vec!["$arg_nocache".to_string()])
        );
    }
}
