//! `Config::summary`: the effective configuration on one screen, defaults filled in, as `weir check`
//! prints it. Values are written back in the file's own units so the reader can compare them with
//! what they wrote.

use std::fmt::Write;

use super::units::{format_duration, format_key, format_rate, format_size};
use super::{
    AccessLogFormat, Balance, Config, Delay, LimitBackend, LimitHeaders, OnRedisError, RealIpHeader,
};

impl Config {
    /// A human summary of the effective configuration: listeners, upstreams with their pools,
    /// routes, limits, access log, admin listener and compression. Lines are separated by `\n`, with none at the end.
    pub fn summary(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail, so the result is ignored.
        let _ = self.write_summary(&mut text);
        // No final newline, so that `println!` prints it without a blank line after.
        text.truncate(text.trim_end().len());
        text
    }

    fn write_summary(&self, out: &mut String) -> std::fmt::Result {
        let server = &self.server;
        writeln!(out, "config {}", self.source_name())?;

        writeln!(out, "server")?;
        let listen: Vec<String> = server.listen.iter().map(ToString::to_string).collect();
        writeln!(
            out,
            "  listen             {}  (backlog {})",
            listen.join(", "),
            server.backlog
        )?;
        writeln!(out, "  max_connections    {}", server.max_connections)?;
        let keepalive = if server.keepalive_timeout.is_zero() {
            "off".to_string()
        } else {
            format!(
                "{}, at most {} requests per connection",
                format_duration(server.keepalive_timeout),
                server.keepalive_requests
            )
        };
        writeln!(out, "  keep-alive         {keepalive}")?;
        writeln!(
            out,
            "  request head       at most {}, within {}",
            format_size(server.max_header_size as u64),
            format_duration(server.header_timeout)
        )?;
        let body = if server.max_body_size == 0 {
            "no limit".to_string()
        } else {
            format_size(server.max_body_size)
        };
        writeln!(out, "  max_body_size      {body}")?;
        if self.routes.iter().any(|route| route.cache.is_some()) {
            writeln!(
                out,
                "  cache              {} in memory, answers of at most {}",
                format_size(server.cache_size),
                format_size(server.cache_max_answer)
            )?;
        }
        writeln!(
            out,
            "  shutdown_grace     {}",
            format_duration(server.shutdown_grace)
        )?;
        writeln!(
            out,
            "  server_header      {}",
            server.server_header.as_deref().unwrap_or("none")
        )?;
        if let Some(pages) = pages_line(&server.error_pages) {
            writeln!(out, "  {pages}")?;
        }
        if server.trusted_proxies.is_empty() {
            writeln!(
                out,
                "  trusted_proxies    none (the peer address is the client address)"
            )?;
        } else {
            let networks: Vec<String> = server
                .trusted_proxies
                .iter()
                .map(ToString::to_string)
                .collect();
            let header = match server.real_ip_header {
                RealIpHeader::XForwardedFor => "X-Forwarded-For",
                RealIpHeader::XRealIp => "X-Real-IP",
                RealIpHeader::Forwarded => "Forwarded",
            };
            writeln!(
                out,
                "  trusted_proxies    {} (client address from {header})",
                networks.join(", ")
            )?;
        }

        writeln!(out, "upstreams")?;
        if self.upstreams.is_empty() {
            writeln!(out, "  none")?;
        }
        for (name, upstream) in &self.upstreams {
            // A list's addresses, then its host names.
            let listed = |addrs: &[super::UpstreamAddr], backup: bool| -> Vec<String> {
                addrs
                    .iter()
                    .map(ToString::to_string)
                    .chain(
                        upstream
                            .names
                            .iter()
                            .filter(|name| name.backup == backup)
                            .map(ToString::to_string),
                    )
                    .collect()
            };
            writeln!(
                out,
                "  {name}: {}",
                listed(&upstream.servers, false).join(", ")
            )?;
            let backups = listed(&upstream.backup_servers, true);
            if !backups.is_empty() {
                writeln!(
                    out,
                    "    backup_servers   {} (only while none of the above is available)",
                    backups.join(", ")
                )?;
            }
            if let Some(resolve) = &upstream.resolve {
                let resolver = resolve.resolver.map_or_else(
                    || {
                        format!(
                            "the system's resolver every {}",
                            format_duration(resolve.interval)
                        )
                    },
                    |addr| {
                        format!(
                            "{addr} (by TTL, at most {})",
                            format_duration(resolve.interval)
                        )
                    },
                );
                writeln!(
                    out,
                    "    resolved by      {resolver}, timeout {}",
                    format_duration(resolve.timeout)
                )?;
            }
            let max_connections = match (upstream.capacity, upstream.max_connections) {
                (Some(capacity), cap) => match capacity.adaptive_floor() {
                    Some(floor) => format!(
                        "adaptive from {floor} to {cap} (workers {} x threads {}, worker_class {:?}; admission by predicted wait)",
                        capacity.workers,
                        capacity.threads,
                        capacity.worker_class.name()
                    ),
                    None => format!(
                        "{cap} (workers {} x threads {}, worker_class {:?}; admission by predicted wait)",
                        capacity.workers,
                        capacity.threads,
                        capacity.worker_class.name()
                    ),
                },
                (None, 0) => "no limit".to_string(),
                (None, cap) => cap.to_string(),
            };
            let idle = if upstream.max_idle == 0 {
                "keep-alive off".to_string()
            } else {
                format!(
                    "{} idle kept for {}, each reused for up to {}",
                    upstream.max_idle,
                    format_duration(upstream.idle_timeout),
                    format_duration(upstream.keepalive_time)
                )
            };
            writeln!(
                out,
                "    pool per server  max_connections {max_connections}, {idle}, queue {} for {}",
                upstream.queue_size,
                format_duration(upstream.queue_timeout)
            )?;
            writeln!(
                out,
                "    timeouts         connect {}, read {}, send {}",
                format_duration(upstream.connect_timeout),
                format_duration(upstream.read_timeout),
                format_duration(upstream.send_timeout)
            )?;
            let balance = match upstream.balance {
                Balance::RoundRobin => "round_robin",
                Balance::LeastOutstanding => "least_outstanding",
                Balance::ClientAddress => "client_address",
            };
            let passive = if upstream.max_fails == 0 {
                "passive health off".to_string()
            } else {
                format!(
                    "a server is skipped for {} after {} failure{} within it",
                    format_duration(upstream.fail_timeout),
                    upstream.max_fails,
                    if upstream.max_fails == 1 { "" } else { "s" }
                )
            };
            // One server takes every request whatever its health, so there is nothing to say.
            if upstream.servers.len() + upstream.backup_servers.len() > 1
                || !upstream.names.is_empty()
            {
                writeln!(out, "    balance          {balance}, {passive}")?;
            }
            if let Some(check) = &upstream.health_check {
                writeln!(
                    out,
                    "    health_check     GET {} every {}, timeout {}, down after {} failed, up after {} passed",
                    check.path,
                    format_duration(check.interval),
                    format_duration(check.timeout),
                    check.fails,
                    check.passes
                )?;
            }
        }

        writeln!(out, "routes")?;
        if self.routes.is_empty() {
            writeln!(out, "  none (every request gets 404)")?;
        }
        for route in &self.routes {
            let host = route.host.as_deref().unwrap_or("*");
            let mut limits = if route.limits.is_empty() {
                String::new()
            } else {
                format!("  limits {}", route.limits.join(", "))
            };
            if !route.connection_limits.is_empty() {
                limits.push_str("  connection limits ");
                limits.push_str(&route.connection_limits.join(", "));
            }
            let mut methods = match &route.methods {
                Some(methods) => {
                    let names: Vec<&str> = methods.iter().map(http::Method::as_str).collect();
                    format!("  methods {}", names.join(" "))
                }
                None => String::new(),
            };
            if let Some(answer) = &route.rules.answer_options {
                methods.push_str(&format!(
                    "  OPTIONS answered {} ({} headers)",
                    answer.status.as_u16(),
                    answer.headers.len()
                ));
            }
            let target = match (&route.static_root, &route.answer) {
                (Some(root), _) => format!("static {}", root.display()),
                (None, Some(answer)) => match &answer.location {
                    Some(location) => format!("redirect {} {location}", answer.status.as_u16()),
                    None => match &answer.body {
                        Some(body) => format!(
                            "status {} with a body of {} bytes ({})",
                            answer.status.as_u16(),
                            body.text.len(),
                            body.content_type.to_str().unwrap_or("?")
                        ),
                        None => format!("status {}", answer.status.as_u16()),
                    },
                },
                (None, None) => match &route.upstream_path {
                    // The path the upstream is asked for: `/api/ -> app /v1/`.
                    Some(path) => format!("{} {path}", route.upstream),
                    None => route.upstream.clone(),
                },
            };
            let exact = if route.exact { "= " } else { "" };
            // nginx's location modifiers, and where the route answers when not everywhere.
            let kind = match &route.scope.regex {
                Some(regex) if regex.nocase() => "~* ",
                Some(_) => "~ ",
                None if route.scope.stop => "^~ ",
                None => "",
            };
            let scope = route_scope(&route.scope);
            writeln!(
                out,
                "  {host} {exact}{kind}{} -> {target}{methods}{limits}{scope}",
                route.path
            )?;
            if let Some(rules) = rules_line(&route.rules.headers, route.rules.access.as_deref()) {
                writeln!(out, "    {rules}")?;
            }
            match &route.rules.fallback {
                Some(super::StaticFallback::Upstream(name)) => {
                    writeln!(out, "    a missing file -> {name}")?
                }
                Some(super::StaticFallback::File(file)) => {
                    writeln!(out, "    a missing file -> {file}")?
                }
                None => {}
            }
            if !route.rules.try_suffixes.is_empty() {
                writeln!(
                    out,
                    "    a missing file tries {}",
                    route.rules.try_suffixes.join(", ")
                )?;
            }
            if route.rules.dotfiles {
                writeln!(out, "    dot-files served")?;
            }
            if let Some(pages) = pages_line(&route.rules.pages) {
                writeln!(out, "    {pages}")?;
            }
            if let Some(auth) = auth_line(route.rules.basic_auth.as_ref()) {
                writeln!(out, "    {auth}")?;
            }
            if let Some(asked) = auth_request_line(route.rules.auth_request.as_ref()) {
                writeln!(out, "    {asked}")?;
            }
            if let Some(satisfy) = satisfy_line(route.rules.satisfy) {
                writeln!(out, "    {satisfy}")?;
            }
            if route.priority != super::Priority::Normal {
                writeln!(out, "    priority {}", route.priority.label())?;
            }
            if let Some(cache) = &route.cache {
                match cache.valid.is_zero() {
                    true => write!(out, "    keeps answers as the upstream says")?,
                    false => write!(out, "    keeps answers {}", format_duration(cache.valid))?,
                }
                for (status, time) in &cache.statuses {
                    write!(out, ", {status} {}", format_duration(*time))?;
                }
                if !cache.stale.is_zero() {
                    write!(out, ", then {} stale", format_duration(cache.stale))?;
                }
                if cache.background_update {
                    write!(out, ", updated in the background")?;
                }
                match cache.pass_cookies.as_deref() {
                    None => writeln!(out, "; a request with a cookie passes")?,
                    Some([]) => writeln!(out, "; cookies do not matter")?,
                    Some(names) => writeln!(out, "; a request with {} passes", names.join(", "))?,
                }
            }
            if let Some(limit) = route.limit_rate {
                write!(out, "    answers at most {}/s", format_size(limit.rate))?;
                match limit.after {
                    0 => writeln!(out)?,
                    after => writeln!(out, " after {}", format_size(after))?,
                }
            }
        }
        for host in &self.hosts {
            let rules = rules_line(&host.headers, host.access.as_deref())
                .unwrap_or_else(|| "no rules".to_string());
            writeln!(out, "  host {}: {rules}", host.name)?;
            if let Some(pages) = pages_line(&host.pages) {
                writeln!(out, "    {pages}")?;
            }
            if let Some(auth) = auth_line(host.basic_auth.as_ref()) {
                writeln!(out, "    {auth}")?;
            }
            if let Some(asked) = auth_request_line(host.auth_request.as_ref()) {
                writeln!(out, "    {asked}")?;
            }
            if let Some(satisfy) = satisfy_line(host.satisfy) {
                writeln!(out, "    {satisfy}")?;
            }
        }

        writeln!(out, "limits")?;
        if self.limits.is_empty() {
            writeln!(out, "  none")?;
        }
        for (name, limit) in &self.limits {
            let delay = match limit.limiter.delay {
                Delay::NoDelay => "nodelay".to_string(),
                Delay::After(0) => "delay excess".to_string(),
                Delay::After(count) => format!("delay after {count}"),
            };
            let mut flags = Vec::new();
            if limit.limiter.dry_run {
                flags.push("dry run");
            }
            if limit.limiter.nginx_rounding {
                flags.push("nginx rounding");
            }
            let flags = if flags.is_empty() {
                String::new()
            } else {
                format!(", {}", flags.join(", "))
            };
            writeln!(
                out,
                "  {name}: {} by {}, burst {}, {delay}, status {}{flags}",
                format_rate(limit.limiter.rate),
                format_key(&limit.key),
                limit.limiter.burst,
                limit.status.as_u16()
            )?;
            let headers = match limit.headers {
                LimitHeaders::Draft10 => "draft-10 RateLimit headers",
                LimitHeaders::Legacy => "X-RateLimit-* headers",
                LimitHeaders::Off => "no rate-limit headers",
            };
            let backend = match &limit.limiter.backend {
                LimitBackend::Memory => "in memory".to_string(),
                LimitBackend::Redis(redis) => {
                    let on_error = match redis.on_error {
                        OnRedisError::Allow => "allow",
                        OnRedisError::Deny => "deny",
                        OnRedisError::Local => "local",
                    };
                    format!(
                        "redis {} (timeout {}, on error {on_error})",
                        redis.url,
                        format_duration(redis.timeout)
                    )
                }
            };
            writeln!(
                out,
                "    {backend}, at most {} keys, {headers}",
                limit.limiter.max_keys
            )?;
            if !self.routes.iter().any(|route| route.limits.contains(name)) {
                writeln!(out, "    not used by any route")?;
            }
        }
        if !self.connection_limits.is_empty() {
            writeln!(out, "connection limits")?;
        }
        for (name, limit) in &self.connection_limits {
            let dry_run = if limit.limiter.dry_run {
                ", dry run"
            } else {
                ""
            };
            writeln!(
                out,
                "  {name}: {} in flight by {}, status {}, at most {} keys{dry_run}",
                limit.limiter.connections,
                format_key(&limit.key),
                limit.status.as_u16(),
                limit.limiter.max_keys
            )?;
            if !self
                .routes
                .iter()
                .any(|route| route.connection_limits.contains(name))
            {
                writeln!(out, "    not used by any route")?;
            }
        }

        let access_log = if self.access_log.enabled {
            let format = match &self.access_log.format {
                AccessLogFormat::Combined => "combined".to_string(),
                AccessLogFormat::Json => "json".to_string(),
                AccessLogFormat::Template(template) => format!("{:?}", template.text),
            };
            let destination = self
                .access_log
                .path
                .as_deref()
                .map_or("stderr".to_string(), |path| path.display().to_string());
            format!("{format} to {destination}")
        } else {
            "off".to_string()
        };
        writeln!(out, "access_log           {access_log}")?;
        let admin = self
            .admin
            .as_ref()
            .map_or("off".to_string(), |admin| admin.listen.to_string());
        writeln!(out, "admin                {admin}")?;
        let compression = match &self.compression {
            None => "off".to_string(),
            Some(compression) => {
                let algorithms: Vec<&str> = compression
                    .algorithms
                    .iter()
                    .map(|encoding| encoding.as_str())
                    .collect();
                format!(
                    "{} at level {}, from {} bytes, {} media types",
                    algorithms.join(", "),
                    compression.level,
                    compression.min_length,
                    compression.types.len()
                )
            }
        };
        writeln!(out, "compression          {compression}")?;
        // No line when TLS is off: the summary of a plain config keeps to one screen.
        match &self.tls {
            None => {}
            Some(tls) => {
                let listen: Vec<String> = tls.listen.iter().map(ToString::to_string).collect();
                writeln!(out, "tls")?;
                writeln!(out, "  listen             {}", listen.join(", "))?;
                for certificate in &tls.certificates {
                    writeln!(
                        out,
                        "  certificate        {} (key {})",
                        certificate.cert.display(),
                        certificate.key.display()
                    )?;
                }
                let protocols: Vec<&str> = tls
                    .protocols
                    .iter()
                    .map(|version| match version {
                        super::TlsVersion::Tls12 => "TLSv1.2",
                        super::TlsVersion::Tls13 => "TLSv1.3",
                    })
                    .collect();
                let alpn: Vec<String> = tls
                    .alpn
                    .iter()
                    .map(|alpn| String::from_utf8_lossy(alpn.id()).into_owned())
                    .collect();
                writeln!(
                    out,
                    "  protocols          {}; ALPN {}",
                    protocols.join(", "),
                    alpn.join(", ")
                )?;
                writeln!(
                    out,
                    "  resumption         tickets {}, cache of {} sessions",
                    if tls.session_tickets { "on" } else { "off" },
                    tls.session_cache
                )?;
                writeln!(
                    out,
                    "  http2              {} streams, head at most {}, windows {} per stream and {} per connection",
                    tls.http2_max_concurrent_streams,
                    format_size(u64::from(tls.http2_max_header_list_size)),
                    format_size(u64::from(tls.http2_stream_window)),
                    format_size(u64::from(tls.http2_connection_window))
                )?;
                writeln!(
                    out,
                    "  hsts               {}",
                    tls.hsts.as_deref().unwrap_or("off")
                )?;
                writeln!(
                    out,
                    "  redirect_http      {}",
                    if tls.redirect_http { "on" } else { "off" }
                )?;
            }
        }
        Ok(())
    }
}

/// A route's or host's header and access rules in one line, or `None` when it has none.
fn rules_line(
    headers: &super::HeaderRules,
    access: Option<&[super::AccessRule]>,
) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(access) = access {
        parts.push(format!("access: {} entries", access.len()));
    }
    if let Some(guards) = headers
        .deny_headers
        .as_ref()
        .filter(|list| !list.is_empty())
    {
        parts.push(format!("denied by header: {} entries", guards.len()));
    }
    let count = |what: &str, count: usize| (count > 0).then(|| format!("{what} {count}"));
    parts.extend(
        [
            count("request headers set", headers.request_set.len()),
            count("appended", headers.request_append.len()),
            count("response headers", headers.response_set.len()),
            count("always", headers.response_set_always.len()),
            count("by type", headers.response_by_type.len()),
            count("hidden", headers.response_hide.len()),
        ]
        .into_iter()
        .flatten(),
    );
    if headers.forwarded_for == Some(super::ForwardedFor::Replace) {
        parts.push("X-Forwarded-For replaced".to_string());
    }
    match &headers.charset {
        Some(Some(name)) => parts.push(format!("charset {name}")),
        Some(None) => parts.push("no charset".to_string()),
        None => {}
    }
    if let Some(types) = &headers.charset_types {
        parts.push(format!("charset types {}", types.join(" ")));
    }
    match headers.cookie_flags.as_deref() {
        Some([]) => parts.push("no cookie flags".to_string()),
        Some(flags) => {
            let names: Vec<String> = flags
                .iter()
                .map(|flag| match *flag {
                    super::CookieFlag::Secure(on) => {
                        format!("{}Secure", if on { "" } else { "no " })
                    }
                    super::CookieFlag::HttpOnly(on) => {
                        format!("{}HttpOnly", if on { "" } else { "no " })
                    }
                    super::CookieFlag::SameSite(Some(value)) => {
                        format!("SameSite={}", value.as_str())
                    }
                    super::CookieFlag::SameSite(None) => "no SameSite".to_string(),
                })
                .collect();
            parts.push(format!("cookie flags {}", names.join(" ")));
        }
        None => {}
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A route's or host's `basic_auth` in one line (`password "Staff" from /etc/weir/htpasswd`), or
/// `None` when it has none.
fn auth_line(auth: Option<&super::BasicAuth>) -> Option<String> {
    match auth? {
        super::BasicAuth::Required { realm, user_file } => {
            Some(format!("password {realm:?} from {}", user_file.display()))
        }
        super::BasicAuth::Off => Some("no password (the host's is off)".to_string()),
    }
}

/// A route's or host's `auth_request` in one line (`asks /_auth first; X-User from its
/// X-Auth-Request-User`), or `None` when it has none.
fn auth_request_line(auth_request: Option<&super::AuthRequest>) -> Option<String> {
    match auth_request? {
        super::AuthRequest::Ask {
            target,
            copy_headers,
            ..
        } => {
            let mut line = format!("asks {target} first");
            for (index, (to, from)) in copy_headers.iter().enumerate() {
                line.push_str(if index == 0 { "; " } else { ", " });
                line.push_str(&format!("{to} from its {from}"));
            }
            Some(line)
        }
        super::AuthRequest::Off => Some("asks no one (the host's auth_request is off)".to_string()),
    }
}

/// A route's or host's `satisfy`, when it has one.
fn satisfy_line(satisfy: Option<super::Satisfy>) -> Option<String> {
    let line = match satisfy? {
        super::Satisfy::Any => "an allowed address or the password lets in (satisfy any)",
        super::Satisfy::All => "the access rules and the password both let in (satisfy all)",
    };
    Some(line.to_string())
}

/// A route's or host's error pages in one line (`error pages 502, 504 -> /srv/500.html`), or
/// `None` when it has none.
fn pages_line(pages: &super::ErrorPages) -> Option<String> {
    let mut groups: Vec<(Vec<u16>, &std::path::Path)> = Vec::new();
    for (status, path) in &pages.files {
        match groups.iter_mut().find(|(_, other)| other == path) {
            Some((statuses, _)) => statuses.push(status.as_u16()),
            None => groups.push((vec![status.as_u16()], path)),
        }
    }
    let mut parts: Vec<String> = groups
        .iter()
        .map(|(statuses, path)| {
            let statuses: Vec<String> = statuses.iter().map(ToString::to_string).collect();
            format!("{} -> {}", statuses.join(", "), path.display())
        })
        .collect();
    match pages.intercept {
        Some(true) => parts.push("the upstream's errors too".to_string()),
        Some(false) => parts.push("not the upstream's errors".to_string()),
        None => {}
    }
    (!parts.is_empty()).then(|| format!("error pages {}", parts.join("; ")))
}

/// A route's listeners and `internal`, as `weir check` shows them (nothing for the default).
fn route_scope(scope: &super::RouteScope) -> String {
    let mut text = match &scope.listeners {
        crate::routing::Listeners::Any => String::new(),
        crate::routing::Listeners::Tls(true) => "  on https".to_string(),
        crate::routing::Listeners::Tls(false) => "  on http".to_string(),
        crate::routing::Listeners::Addrs(addrs) => format!(
            "  on {}",
            addrs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if scope.internal {
        text.push_str("  internal");
    }
    text
}
