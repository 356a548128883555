//! The header and access rules of routes and `[[hosts]]`: who may ask (`access`, in order, the
//! first match deciding: 403), what the upstream request carries (`request_headers`,
//! `append_request_headers`, `forwarded_for`), and what the answer carries
//! (`hide_response_headers` on the upstream's response, `response_headers` on a successful
//! answer, `response_headers_always` on every one, weir's own errors included).
//!
//! A route's rules are its host's with its own after them, merged once when the proxy is built:
//! a header the route names replaces the host's rule for it, and an `access` list of the route
//! replaces the host's whole (see docs/config.md).

use std::collections::HashMap;
use std::io::Read as _;
use std::net::IpAddr;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use http::header::{self, HeaderName, HeaderValue};
use smallvec::SmallVec;

use crate::body::Body;

use crate::head_view::{Headers, Request, Response};
use http::{Method, StatusCode, Uri};

use super::auth::{Guard, Pending, UserFile, Verifier};
use crate::config::{
    AccessRule, BasicAuth, Config, ErrorPages, Expires, ForwardedFor, HeaderGuard, HeaderRules,
    HostConfig, RouteConfig, Satisfy, Template, TypedHeader, Variables,
};
use crate::error::ProxyError;

/// Every route's and host's rules, as the proxy applies them.
#[derive(Default)]
pub(super) struct Rules {
    /// By the route's index in the config.
    routes: Vec<Arc<Effective>>,
    /// A `[[hosts]]` table's rules, for a request to that host that no route matched.
    hosts: HashMap<String, Arc<Effective>>,
    /// `[server] error_pages` alone, for a request no route matched to a host with no table.
    default: Option<Arc<Effective>>,
    /// Some response rule names a variable: the request's facts are kept for it.
    pub(super) response_variables: bool,
    /// Whether any rule names `$request_id`: then every request gets one.
    pub(super) request_id: bool,
    /// Some route or host has `error_pages`: answers are looked at for them.
    pages: bool,
    /// The password files of `basic_auth`, for [`super::auth::watch`].
    pub(super) user_files: Vec<std::sync::Weak<UserFile>>,
}

/// The rules of one route (its host's merged in) or of one host alone.
#[derive(Default)]
pub(super) struct Effective {
    /// `$server_name` (shared with the access log's lines that write it).
    server_name: Arc<str>,
    request_set: Vec<(HeaderName, Option<Template>)>,
    request_append: Vec<(HeaderName, Template)>,
    response_set: Vec<(HeaderName, Template)>,
    response_set_always: Vec<(HeaderName, Template)>,
    response_hide: Vec<HeaderName>,
    forwarded_for: Option<ForwardedFor>,
    /// `charset`: the `Content-Type` parameter it adds (`; charset=utf-8`), when on.
    charset: Option<String>,
    /// `charset_types`, when set (else nginx's default).
    charset_types: Option<Vec<String>>,
    /// `cookie_flags`, when some are in force.
    cookie_flags: Option<Box<[crate::config::CookieFlag]>>,
    /// `response_headers_by_type`.
    response_by_type: Vec<TypedHeader>,
    /// `deny_headers`, in order (a route's replace its host's).
    deny_headers: Vec<HeaderGuard>,
    /// `expires`, when on, with its `Cache-Control` value.
    expires: Option<(Expires, String)>,
    /// `location_rewrites`, longest prefix first (a route's own).
    location_rewrites: Vec<(String, Template)>,
    access: Option<Vec<AccessRule>>,
    /// `basic_auth`, when it asks for a password.
    auth: Option<Arc<Guard>>,
    /// `auth_request`, when it asks.
    auth_request: Option<Arc<super::auth_request::Ask>>,
    /// `satisfy = "any"`: an `allow` that matches lets the client in without a password, and a
    /// `deny` that matches leaves it the password (nginx `satisfy any`).
    satisfy_any: bool,
    /// `error_pages`, by status.
    pages: Vec<(StatusCode, Page)>,
    /// `intercept_errors`: the upstream's answers of those statuses get the page too.
    intercept: bool,
    /// A `status` route (nginx `return 404`): each of its answers is weir's own.
    answers: bool,
}

/// What the request checks read of a request: its headers, and for a `deny_headers` redirect its
/// host (as checked), target and scheme.
pub(super) struct Asked<'a> {
    pub(super) headers: &'a Headers,
    pub(super) host: Option<&'a str>,
    pub(super) uri: &'a Uri,
    /// It came on a TLS listener.
    pub(super) secure: bool,
}

impl<'a> Asked<'a> {
    pub(super) fn of<B>(request: &'a Request<B>, host: Option<&'a str>, secure: bool) -> Asked<'a> {
        Asked {
            headers: request.headers(),
            host,
            uri: request.uri(),
            secure,
        }
    }
}

/// An error page: its file's content, read when the proxy is built (a reload reads it again),
/// and the type its name gives.
#[derive(Clone)]
pub(super) struct Page {
    body: bytes::Bytes,
    content_type: &'static str,
}

impl Page {
    /// This page as `response`'s body, with its type.
    pub(super) fn fill(&self, response: &mut Response<Body>) {
        *response.body_mut() = Body::full(self.body.clone());
        response
            .headers_mut()
            .set(header::CONTENT_TYPE, self.content_type);
    }
}

/// The files read so far while the proxy is built, by path: a file named by many routes is
/// read and kept once. The password files' checks share one [`Verifier`].
struct Read {
    pages: HashMap<PathBuf, Page>,
    users: HashMap<PathBuf, Arc<UserFile>>,
    verifier: Arc<Verifier>,
}

/// A file the rules name that cannot be used.
#[derive(Debug)]
pub(super) enum RulesError {
    /// An error page that cannot be read.
    Page(PathBuf, std::io::Error),
    /// A password file that cannot be read, or one of whose lines is not valid.
    UserFile(PathBuf, crate::htpasswd::FileError),
}

impl Read {
    fn guard(&mut self, auth: &BasicAuth) -> Result<Option<Arc<Guard>>, RulesError> {
        let BasicAuth::Required { realm, user_file } = auth else {
            return Ok(None);
        };
        let users = match self.users.get(user_file) {
            Some(users) => Arc::clone(users),
            None => {
                let users = Arc::new(
                    UserFile::read(user_file.clone())
                        .map_err(|error| RulesError::UserFile(user_file.clone(), error))?,
                );
                self.users.insert(user_file.clone(), Arc::clone(&users));
                users
            }
        };
        Ok(Some(Arc::new(Guard::new(
            realm,
            users,
            Arc::clone(&self.verifier),
        ))))
    }
}

/// The content of the error page at `path`, read once per build, up to
/// [`MAX_ERROR_PAGE`](crate::config::MAX_ERROR_PAGE).
fn read_page(path: &Path, read: &mut Read) -> std::io::Result<Page> {
    if let Some(page) = read.pages.get(path) {
        return Ok(page.clone());
    }
    let mut body = Vec::new();
    std::fs::File::open(path)?
        .take(crate::config::MAX_ERROR_PAGE + 1)
        .read_to_end(&mut body)?;
    if body.len() as u64 > crate::config::MAX_ERROR_PAGE {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            "an error page holds at most 1 MiB",
        ));
    }
    let page = Page {
        body: bytes::Bytes::from(body),
        content_type: crate::static_files::mime::for_path(path),
    };
    read.pages.insert(path.to_path_buf(), page.clone());
    Ok(page)
}

/// What the response rules may ask of a request that is gone by the time the answer is ready.
pub(super) struct Facts {
    host: String,
    uri: Uri,
    method: Method,
    headers: Headers,
    /// `$remote_port` and `$server_port`.
    ports: (u16, u16),
}

impl Facts {
    pub(super) fn capture<B>(request: &Request<B>, host: &str, ports: (u16, u16)) -> Facts {
        Facts {
            host: host.to_string(),
            uri: request.uri().clone(),
            method: request.method().clone(),
            headers: request.headers().clone(),
            ports,
        }
    }
}

impl Rules {
    /// The rules of `config`'s routes and hosts; fails when an error page cannot be read (the
    /// file, and why).
    pub(super) fn new(config: &Config) -> Result<Rules, RulesError> {
        let mut read = Read {
            pages: HashMap::new(),
            users: HashMap::new(),
            verifier: Arc::new(Verifier::new(config.server.max_password_checks)),
        };
        // `[server] error_pages`, beneath every host's and route's own.
        let mut server = Effective::default();
        server.merge_pages(&config.server.error_pages, &mut read)?;
        let hosts: HashMap<String, Arc<Effective>> = config
            .hosts
            .iter()
            .map(|host| {
                let effective = Effective::of_host(host, &server, &mut read)?;
                Ok((host.name.clone(), Arc::new(effective)))
            })
            .collect::<Result<_, _>>()?;
        let routes: Vec<Arc<Effective>> = config
            .routes
            .iter()
            .map(|route| {
                let host = route
                    .host
                    .as_deref()
                    .and_then(|name| config.hosts.iter().find(|host| host.name == name));
                Ok(Arc::new(Effective::of_route(
                    route, host, &server, &mut read,
                )?))
            })
            .collect::<Result<_, _>>()?;
        let response_variables = routes.iter().chain(hosts.values()).any(|rules| {
            rules
                .response_set
                .iter()
                .chain(&rules.response_set_always)
                .map(|(_, template)| template)
                .chain(
                    rules
                        .response_by_type
                        .iter()
                        .flat_map(|typed| &typed.entries)
                        .filter_map(|entry| entry.value.as_ref()),
                )
                .chain(rules.location_rewrites.iter().map(|(_, template)| template))
                .any(|template| !template.is_constant())
        });
        let request_id = routes
            .iter()
            .chain(hosts.values())
            .any(|rules| rules.templates().any(Template::names_request_id));
        let pages = routes
            .iter()
            .chain(hosts.values())
            .any(|rules| !rules.pages.is_empty())
            || !server.pages.is_empty();
        Ok(Rules {
            routes,
            hosts,
            default: (!server.pages.is_empty()).then(|| Arc::new(server)),
            response_variables,
            request_id,
            pages,
            user_files: read.users.values().map(Arc::downgrade).collect(),
        })
    }

    /// Whether any route or host has `error_pages`.
    pub(super) fn has_pages(&self) -> bool {
        self.pages
    }

    /// Whether any host has rules: only then is a request's host looked at after the fact.
    pub(super) fn has_hosts(&self) -> bool {
        !self.hosts.is_empty()
    }

    /// The rules of route `index`, or of `host` when no route matched (or, for a host with no
    /// table, `[server] error_pages`).
    pub(super) fn find(&self, route: Option<usize>, host: Option<&str>) -> Option<&Effective> {
        match route {
            Some(index) => self.routes.get(index).map(Arc::as_ref),
            None => host
                .and_then(|host| self.hosts.get(&host_name(host)))
                .or(self.default.as_ref())
                .map(Arc::as_ref),
        }
    }

    /// `access` and `basic_auth` of a host no route of which matched the request (nginx's
    /// server-level `deny` and `auth_basic` refuse a 404 too): `Ok(Some)` when a password is
    /// left to check.
    pub(super) fn check_host(
        &self,
        client_ip: IpAddr,
        asked: &Asked<'_>,
    ) -> Result<Option<Pending>, ProxyError> {
        match self.find(None, asked.host) {
            Some(rules) => rules.check_both(client_ip, asked),
            None => Ok(None),
        }
    }
}

impl Effective {
    fn of_host(
        host: &HostConfig,
        server: &Effective,
        read: &mut Read,
    ) -> Result<Effective, RulesError> {
        let mut effective = Effective {
            server_name: host.name.as_str().into(),
            pages: server.pages.clone(),
            ..Effective::default()
        };
        effective.merge(&host.headers);
        effective.access = host.access.clone();
        if let Some(auth) = &host.basic_auth {
            effective.auth = read.guard(auth)?;
        }
        effective.satisfy_any = host.satisfy == Some(Satisfy::Any);
        if let Some(auth_request) = &host.auth_request {
            effective.auth_request = super::auth_request::Ask::of(auth_request).map(Arc::new);
        }
        effective.merge_pages(&host.pages, read)?;
        Ok(effective)
    }

    fn of_route(
        route: &RouteConfig,
        host: Option<&HostConfig>,
        server: &Effective,
        read: &mut Read,
    ) -> Result<Effective, RulesError> {
        let mut effective = match host {
            Some(host) => Effective::of_host(host, server, read)?,
            None => Effective {
                server_name: route.host.as_deref().unwrap_or_default().into(),
                pages: server.pages.clone(),
                ..Effective::default()
            },
        };
        effective.merge(&route.rules.headers);
        if route.rules.access.is_some() {
            effective.access = route.rules.access.clone();
        }
        if let Some(auth) = &route.rules.basic_auth {
            effective.auth = read.guard(auth)?;
        }
        if let Some(satisfy) = route.rules.satisfy {
            effective.satisfy_any = satisfy == Satisfy::Any;
        }
        if let Some(auth_request) = &route.rules.auth_request {
            effective.auth_request = super::auth_request::Ask::of(auth_request).map(Arc::new);
        }
        effective.merge_pages(&route.rules.pages, read)?;
        effective.location_rewrites = route.rules.location_rewrites.clone();
        // A status route's own body is its answer, as nginx's `return 404 "text"` gets no
        // error_page.
        effective.answers = route
            .answer
            .as_ref()
            .is_some_and(|answer| answer.body.is_none())
            && route.static_root.is_none();
        Ok(effective)
    }

    /// `pages` after what is there: a status named again takes the later page.
    fn merge_pages(&mut self, pages: &ErrorPages, read: &mut Read) -> Result<(), RulesError> {
        for (status, path) in &pages.files {
            let page =
                read_page(path, read).map_err(|error| RulesError::Page(path.clone(), error))?;
            self.pages.retain(|(other, _)| other != status);
            self.pages.push((*status, page));
        }
        if let Some(intercept) = pages.intercept {
            self.intercept = intercept;
        }
        Ok(())
    }

    /// The error page for an answer of `status`, if there is one (an error weir answers
    /// itself takes it as it is).
    pub(super) fn page(&self, status: StatusCode) -> Option<&Page> {
        self.pages
            .iter()
            .find_map(|(other, page)| (*other == status).then_some(page))
    }

    /// Puts its status's page in place of `response`'s body: an error a `status` route
    /// answers, or, with `intercept_errors`, one the upstream answered (whose headers and body
    /// are dropped, as nginx drops them, but `WWW-Authenticate` and `Retry-After`; dropping the
    /// body lets the upstream connection go). Any other response stays as it is.
    pub(super) fn answer_with_page(&self, response: &mut Response<Body>) {
        let status = response.status();
        if !status.is_client_error() && !status.is_server_error() {
            return;
        }
        if self.answers {
            if let Some(page) = self.page(status) {
                page.fill(response);
            }
            return;
        }
        let Some(page) = self.page(status).filter(|_| self.intercept) else {
            return;
        };
        let mut answer = Response::new(Body::empty());
        *answer.status_mut() = status;
        for name in [header::WWW_AUTHENTICATE, header::RETRY_AFTER] {
            for value in response.headers().get_all(&name) {
                answer.headers_mut().append(&name, value);
            }
        }
        page.fill(&mut answer);
        *response = answer;
    }

    /// `rules` after what is there: a header named again replaces the earlier rule for it.
    fn merge(&mut self, rules: &HeaderRules) {
        fn replace<T: Clone>(list: &mut Vec<(HeaderName, T)>, later: &[(HeaderName, T)]) {
            list.retain(|(name, _)| !later.iter().any(|(other, _)| other == name));
            list.extend(later.iter().cloned());
        }
        fn replace_set(
            list: &mut Vec<(HeaderName, Template)>,
            later: &[(HeaderName, Option<Template>)],
        ) {
            list.retain(|(name, _)| !later.iter().any(|(other, _)| other == name));
            // An empty value adds nothing: it cancels the host's rule for the header.
            list.extend(
                later
                    .iter()
                    .filter_map(|(name, value)| Some((name.clone(), value.clone()?))),
            );
        }
        replace(&mut self.request_set, &rules.request_set);
        replace(&mut self.request_append, &rules.request_append);
        // A header by type and a plain one replace each other: the later table's form wins.
        let typed_later: Vec<&HeaderName> = rules
            .response_by_type
            .iter()
            .map(|typed| &typed.name)
            .collect();
        self.response_set
            .retain(|(name, _)| !typed_later.contains(&name));
        self.response_set_always
            .retain(|(name, _)| !typed_later.contains(&name));
        self.response_by_type.retain(|typed| {
            !typed_later.contains(&&typed.name)
                && !rules
                    .response_set
                    .iter()
                    .chain(&rules.response_set_always)
                    .any(|(name, _)| *name == typed.name)
        });
        self.response_by_type
            .extend(rules.response_by_type.iter().cloned());
        replace_set(&mut self.response_set, &rules.response_set);
        replace_set(&mut self.response_set_always, &rules.response_set_always);
        for name in &rules.response_hide {
            if !self.response_hide.contains(name) {
                self.response_hide.push(name.clone());
            }
        }
        if rules.forwarded_for.is_some() {
            self.forwarded_for = rules.forwarded_for;
        }
        if let Some(charset) = &rules.charset {
            self.charset = charset.as_ref().map(|name| format!("; charset={name}"));
        }
        if rules.charset_types.is_some() {
            self.charset_types = rules.charset_types.clone();
        }
        if let Some(flags) = &rules.cookie_flags {
            self.cookie_flags = (!flags.is_empty()).then(|| flags.as_slice().into());
        }
        if let Some(guards) = &rules.deny_headers {
            self.deny_headers = guards.clone();
        }
        if let Some(expires) = rules.expires {
            self.expires = expires
                .cache_control()
                .map(|cache_control| (expires, cache_control));
        }
    }

    /// `deny_headers`: the first entry that refuses the request answers its status, before
    /// `access`, as nginx's `if ... return` (its rewrite phase) runs before `allow`/`deny`.
    pub(super) fn check_headers(&self, asked: &Asked<'_>) -> Result<(), ProxyError> {
        // `Host` is read as nginx's `$host`: the host the request names (its `Host`, or HTTP/2's
        // authority), without port or trailing dot, in lower case; made only for a guard on it.
        let host = || {
            asked.host.map(|host| {
                let name = host_name(host);
                match name.strip_suffix('.') {
                    Some(bare) => bare.to_string(),
                    None => name,
                }
            })
        };
        let Some(guard) = self.deny_headers.iter().find(|guard| {
            if guard.name == header::HOST {
                guard.refuses(host().as_deref().map(str::as_bytes))
            } else {
                guard.refuses(asked.headers.get(&guard.name))
            }
        }) else {
            return Ok(());
        };
        match &guard.location {
            Some(template) => Err(ProxyError::HeaderRedirect {
                status: guard.status,
                location: crate::answer::location(
                    template,
                    asked.host,
                    "localhost",
                    asked.uri,
                    asked.secure,
                )
                .map(String::into_boxed_str),
            }),
            None => Err(ProxyError::HeaderRefused {
                status: guard.status,
                header: guard.name.clone(),
            }),
        }
    }

    /// `access`, in order: the first entry that matches the client decides; none matching lets
    /// it through, as nginx. With `satisfy = "any"` and a password asked, a `deny` leaves the
    /// decision to the password ([`Effective::check_auth`]), as nginx, where 401 wins over 403.
    pub(super) fn check_access(&self, client_ip: IpAddr) -> Result<(), ProxyError> {
        let password_decides = self.satisfy_any && self.auth.is_some();
        match self.decided(client_ip) {
            Some(rule) if !rule.allow && !password_decides => {
                Err(ProxyError::AccessDenied { client: client_ip })
            }
            _ => Ok(()),
        }
    }

    /// `access`, then `basic_auth`, with nothing between them: for a request no route matched
    /// and for an `X-Accel-Redirect`'s target (a routed request has its limits between the two).
    pub(super) fn check_both(
        &self,
        client_ip: IpAddr,
        asked: &Asked<'_>,
    ) -> Result<Option<Pending>, ProxyError> {
        self.check_headers(asked)?;
        self.check_access(client_ip)?;
        self.check_auth(client_ip, asked.headers)
    }

    /// The first `access` entry that matches the client, if any.
    fn decided(&self, client_ip: IpAddr) -> Option<&AccessRule> {
        let client = canonical(client_ip);
        self.access
            .as_deref()?
            .iter()
            .find(|rule| match rule.network {
                None => true,
                Some(network) => network.contains(&client),
            })
    }

    /// `basic_auth`: `Ok(None)` when the request passes (or none is asked, or, with
    /// `satisfy = "any"`, an `allow` let the client in), `Ok(Some)` when its password is left to
    /// check on a blocking thread.
    pub(super) fn check_auth(
        &self,
        client_ip: IpAddr,
        headers: &Headers,
    ) -> Result<Option<Pending>, ProxyError> {
        match &self.auth {
            Some(_)
                if self.satisfy_any && self.decided(client_ip).is_some_and(|rule| rule.allow) =>
            {
                Ok(None)
            }
            Some(guard) => guard.check(headers),
            None => Ok(None),
        }
    }

    /// `auth_request`, unless `satisfy = "any"` and `access` allows the client.
    pub(super) fn auth_request(&self, client_ip: IpAddr) -> Option<&super::auth_request::Ask> {
        let ask = self.auth_request.as_deref()?;
        if self.satisfy_any && self.decided(client_ip).is_some_and(|rule| rule.allow) {
            return None;
        }
        Some(ask)
    }

    /// `forwarded_for = "replace"`: the client's list goes before the forwarding headers are
    /// added, so `X-Forwarded-For` holds the client's address alone.
    pub(super) fn replaces_forwarded_for(&self) -> bool {
        self.forwarded_for == Some(ForwardedFor::Replace)
    }

    /// Whether the upstream request has rules to apply.
    pub(super) fn has_request_rules(&self) -> bool {
        !self.request_set.is_empty() || !self.request_append.is_empty()
    }

    /// The request rules' values, rendered from the client's request as it came (before the
    /// forwarding headers are added), to [`apply_request`](Self::apply_request) after.
    pub(super) fn render_request(
        &self,
        variables: &Variables<'_>,
    ) -> Vec<(HeaderName, Option<HeaderValue>, bool)> {
        let set = self.request_set.iter().map(|(name, template)| {
            (
                name.clone(),
                template.as_ref().and_then(|t| t.render_with(variables)),
                false,
            )
        });
        let append = self
            .request_append
            .iter()
            .map(|(name, template)| (name.clone(), template.render_with(variables), true));
        set.chain(append).collect()
    }

    /// Sets (or, with no value, removes) and appends the rendered headers on the upstream
    /// request.
    pub(super) fn apply_request(
        headers: &mut Headers,
        rendered: Vec<(HeaderName, Option<HeaderValue>, bool)>,
    ) {
        for (name, value, append) in rendered {
            match (value, append) {
                (Some(value), true) => {
                    headers.append(&name, value.as_bytes());
                }
                (Some(value), false) => {
                    headers.set(&name, value.as_bytes());
                }
                // An append whose variables made no header value adds nothing.
                (None, true) => {}
                (None, false) => {
                    headers.remove(&name);
                }
            }
        }
    }

    /// `hide_response_headers`, on the upstream's response.
    pub(super) fn hide(&self, headers: &mut Headers) {
        for name in &self.response_hide {
            headers.remove(name);
        }
    }

    /// `response_headers` on a successful answer, `response_headers_always` on every one, and
    /// `response_headers_by_type` by the answer's `Content-Type`.
    pub(super) fn apply_response<B>(&self, response: &mut Response<B>, variables: &Variables<'_>) {
        let success = is_success(response.status());
        // nginx's expires, then its add_header: a response_headers Cache-Control goes over it.
        if let Some((expires, cache_control)) = self.expires.as_ref().filter(|_| success) {
            let mut date = [0; 29];
            if let Some(date) = expires.date(std::time::SystemTime::now(), &mut date) {
                response.headers_mut().set(header::EXPIRES, date);
                response
                    .headers_mut()
                    .set(header::CACHE_CONTROL, cache_control);
            }
        }
        if success {
            for (name, template) in &self.response_set {
                if let Some(value) = template.render_with(variables) {
                    response.headers_mut().set(name, value);
                }
            }
        }
        for (name, template) in &self.response_set_always {
            if let Some(value) = template.render_with(variables) {
                response.headers_mut().set(name, value);
            }
        }
        for typed in &self.response_by_type {
            if !typed.always && !success {
                continue;
            }
            let picked = typed
                .pick(response.headers().get(header::CONTENT_TYPE))
                .and_then(|template| template.render_with(variables));
            if let Some(value) = picked {
                response.headers_mut().set(&typed.name, value);
            }
        }
        self.add_charset(response);
        if !self.location_rewrites.is_empty() {
            self.rewrite_location(response.headers_mut(), variables);
        }
        if let Some(flags) = &self.cookie_flags {
            flag_cookies(response.headers_mut(), flags);
        }
    }

    /// `charset`: `Content-Type: text/html` becomes `text/html; charset=utf-8`, as nginx's
    /// charset filter writes it, when the type is `text/html` or one of `charset_types` (a type
    /// with other parameters matches `"*"` only, as in nginx) and the value names no charset.
    /// A 301 or 302 gets none, as nginx leaves them.
    fn add_charset<B>(&self, response: &mut Response<B>) {
        let Some(charset) = &self.charset else {
            return;
        };
        if matches!(response.status().as_u16(), 301 | 302) {
            return;
        }
        let Some(value) = response.headers().get(header::CONTENT_TYPE) else {
            return;
        };
        let Ok(value) = std::str::from_utf8(value) else {
            return;
        };
        if value.is_empty() || names_charset(value) {
            return;
        }
        // The whole value is the type: one with other parameters matches `"*"` only.
        let listed = value.eq_ignore_ascii_case("text/html")
            || match &self.charset_types {
                Some(types) => types
                    .iter()
                    .any(|known| known == "*" || known.eq_ignore_ascii_case(value)),
                None => HeaderRules::DEFAULT_CHARSET_TYPES
                    .iter()
                    .any(|known| known.eq_ignore_ascii_case(value)),
            };
        if listed {
            let with = format!("{value}{charset}");
            response.headers_mut().set(header::CONTENT_TYPE, with);
        }
    }

    /// `location_rewrites` on `Location`, and on the URL of a `Refresh` (`5; url=...`), as
    /// nginx's `proxy_redirect` edits both: the longest prefix that starts the value is
    /// replaced; a value none starts stays as it is.
    fn rewrite_location(&self, headers: &mut Headers, variables: &Variables<'_>) {
        for name in [header::LOCATION, header::REFRESH] {
            let Some(value) = headers.get(&name) else {
                continue;
            };
            // A Refresh's URL follows `url=` (any case), after the delay.
            let start = if name == header::LOCATION {
                0
            } else {
                match value
                    .windows(4)
                    .position(|window| window.eq_ignore_ascii_case(b"url="))
                {
                    Some(at) => at + 4,
                    None => continue,
                }
            };
            let url = &value[start..];
            let Some((prefix, template)) = self
                .location_rewrites
                .iter()
                .find(|(prefix, _)| url.starts_with(prefix.as_bytes()))
            else {
                continue;
            };
            let Some(replacement) = template.render_with(variables) else {
                continue;
            };
            // Both parts are header values already, so the whole is one.
            let mut rewritten = Vec::with_capacity(value.len() + replacement.len());
            rewritten.extend_from_slice(&value[..start]);
            rewritten.extend_from_slice(replacement.as_bytes());
            rewritten.extend_from_slice(&url[prefix.len()..]);
            headers.set(&name, rewritten);
        }
    }

    /// Every value the rules fill in for a request or its answer.
    fn templates(&self) -> impl Iterator<Item = &Template> {
        self.request_set
            .iter()
            .filter_map(|(_, template)| template.as_ref())
            .chain(self.request_append.iter().map(|(_, template)| template))
            .chain(self.response_set.iter().map(|(_, template)| template))
            .chain(
                self.response_set_always
                    .iter()
                    .map(|(_, template)| template),
            )
            .chain(
                self.response_by_type
                    .iter()
                    .flat_map(|typed| &typed.entries)
                    .filter_map(|entry| entry.value.as_ref()),
            )
            .chain(self.location_rewrites.iter().map(|(_, template)| template))
    }

    pub(super) fn has_response_rules(&self) -> bool {
        !self.response_set.is_empty()
            || !self.response_set_always.is_empty()
            || self.charset.is_some()
            || self.cookie_flags.is_some()
            || !self.response_by_type.is_empty()
            || !self.location_rewrites.is_empty()
            || self.expires.is_some()
    }

    pub(super) fn server_name(&self) -> &str {
        &self.server_name
    }

    /// `$server_name`, for the access log.
    pub(super) fn shared_server_name(&self) -> &Arc<str> {
        &self.server_name
    }
}

/// The response rules' variables from the facts kept of the request (or none, when no rule
/// names a variable).
pub(super) fn response_variables<'a>(
    facts: Option<&'a Facts>,
    server_name: &'a str,
    client_ip: IpAddr,
    secure: bool,
    empty: &'a (Uri, Headers),
    (request_id, cache_status): (&'a str, &'a str),
    maps: &'a [crate::config::ValueMap],
) -> Variables<'a> {
    match facts {
        Some(facts) => Variables {
            host: &facts.host,
            uri: &facts.uri,
            secure,
            remote_addr: client_ip,
            remote_port: facts.ports.0,
            server_port: facts.ports.1,
            server_name,
            method: &facts.method,
            path: facts.uri.path(),
            headers: &facts.headers,
            request_id,
            cache_status,
            maps,
        },
        None => Variables {
            host: "",
            uri: &empty.0,
            secure,
            remote_addr: client_ip,
            // No rule names a variable: these are not read.
            remote_port: 0,
            server_port: 0,
            server_name,
            method: &Method::GET,
            path: "",
            headers: &empty.1,
            request_id,
            cache_status,
            maps,
        },
    }
}

/// `cookie_flags` on every `Set-Cookie`, as nginx's `proxy_cookie_flags` edits it: a flag the
/// cookie lacks is added at its end (`; Secure`, `; HttpOnly`, `; SameSite=Lax`, nginx's
/// spelling), one to take off is removed, a `SameSite` it has is given the flag's value where it
/// is; a cookie that needs no change keeps its bytes.
fn flag_cookies(headers: &mut crate::head_view::Headers, flags: &[crate::config::CookieFlag]) {
    let flagged: Vec<Option<Vec<u8>>> = headers
        .get_all(header::SET_COOKIE)
        .map(|cookie| flag_cookie(cookie, flags))
        .collect();
    if flagged.iter().all(Option::is_none) {
        // No cookie, or none the flags change: the upstream's lines stay as they came.
        return;
    }
    let cookies: Vec<Vec<u8>> = headers
        .get_all(header::SET_COOKIE)
        .zip(flagged)
        .map(|(cookie, flagged)| flagged.unwrap_or_else(|| cookie.to_vec()))
        .collect();
    headers.remove(header::SET_COOKIE);
    for cookie in cookies {
        headers.append(header::SET_COOKIE, cookie);
    }
}

/// One `Set-Cookie` value with `flags` applied, or `None` when they change nothing.
fn flag_cookie(cookie: &[u8], flags: &[crate::config::CookieFlag]) -> Option<Vec<u8>> {
    use crate::config::CookieFlag;
    // The attributes after the first `;` (the first part is the cookie's name and value): each
    // one's range with its `;`, and its name.
    let mut attributes: SmallVec<[(Range<usize>, &[u8]); 8]> = SmallVec::new();
    let mut start = cookie.iter().position(|&byte| byte == b';');
    while let Some(at) = start {
        let end =
            memchr::memchr(b';', &cookie[at + 1..]).map_or(cookie.len(), |next| at + 1 + next);
        let name_end =
            memchr::memchr(b'=', &cookie[at + 1..end]).map_or(end, |equals| at + 1 + equals);
        attributes.push((at..end, cookie[at + 1..name_end].trim_ascii()));
        start = (end < cookie.len()).then_some(end);
    }
    let has = |name: &[u8]| {
        attributes
            .iter()
            .any(|(_, found)| found.eq_ignore_ascii_case(name))
    };
    let mut drop: SmallVec<[&[u8]; 3]> = SmallVec::new();
    let mut same_site = None;
    let mut added: Vec<u8> = Vec::new();
    for flag in flags {
        match *flag {
            CookieFlag::Secure(true) if !has(b"secure") => added.extend_from_slice(b"; Secure"),
            CookieFlag::Secure(false) if has(b"secure") => drop.push(b"secure"),
            CookieFlag::HttpOnly(true) if !has(b"httponly") => {
                added.extend_from_slice(b"; HttpOnly");
            }
            CookieFlag::HttpOnly(false) if has(b"httponly") => drop.push(b"httponly"),
            CookieFlag::SameSite(Some(value)) if has(b"samesite") => same_site = Some(value),
            CookieFlag::SameSite(Some(value)) => {
                added.extend_from_slice(b"; SameSite=");
                added.extend_from_slice(value.as_str().as_bytes());
            }
            CookieFlag::SameSite(None) if has(b"samesite") => drop.push(b"samesite"),
            _ => {}
        }
    }
    if drop.is_empty() && same_site.is_none() && added.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(cookie.len() + added.len());
    let mut copied = 0;
    for (range, name) in &attributes {
        if drop
            .iter()
            .any(|dropped| name.eq_ignore_ascii_case(dropped))
        {
            out.extend_from_slice(&cookie[copied..range.start]);
            copied = range.end;
        } else if let (Some(value), true) = (same_site, name.eq_ignore_ascii_case(b"samesite")) {
            out.extend_from_slice(&cookie[copied..range.start]);
            out.extend_from_slice(b"; SameSite=");
            out.extend_from_slice(value.as_str().as_bytes());
            copied = range.end;
        }
    }
    out.extend_from_slice(&cookie[copied..]);
    out.extend_from_slice(&added);
    Some(out)
}

/// Whether a `Content-Type` value has a `charset` parameter (as nginx looks for it: after a
/// `;` and spaces, in any case).
fn names_charset(value: &str) -> bool {
    value.split(';').skip(1).any(|parameter| {
        parameter
            .trim_start_matches(' ')
            .get(..8)
            .is_some_and(|name| name.eq_ignore_ascii_case("charset="))
    })
}

/// nginx's `add_header` without `always`: 200, 201, 204, 206, 301, 302, 303, 304, 307, 308.
pub(super) fn is_success(status: StatusCode) -> bool {
    matches!(
        status.as_u16(),
        200 | 201 | 204 | 206 | 301 | 302 | 303 | 304 | 307 | 308
    )
}

/// An IPv4 client seen on an IPv6 socket (`::ffff:a.b.c.d`) is matched as the IPv4 address it
/// is, as nginx does.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// A host as routes name it: without port, in lower case.
pub(super) fn host_name(host: &str) -> String {
    let name = if host.starts_with('[') {
        host.find(']').map_or(host, |end| &host[..=end])
    } else {
        host.split(':').next().unwrap_or(host)
    };
    name.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(access: &[&str]) -> Effective {
        let parse = |text: &str| {
            let (verb, what) = text.split_once(' ').unwrap();
            AccessRule {
                allow: verb == "allow",
                network: (what != "all").then(|| what.parse().unwrap()),
            }
        };
        Effective {
            access: Some(access.iter().map(|text| parse(text)).collect()),
            ..Effective::default()
        }
    }

    #[test]
    fn access_is_decided_by_the_first_entry_that_matches() {
        let rules = rules(&["deny 10.0.0.1/32", "allow 10.0.0.0/8", "deny all"]);
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        assert!(rules.check_access(ip("10.0.0.1")).is_err());
        assert!(rules.check_access(ip("10.2.3.4")).is_ok());
        assert!(rules.check_access(ip("::ffff:10.2.3.4")).is_ok());
        assert!(rules.check_access(ip("192.0.2.1")).is_err());
        let open = self::rules(&["deny 192.0.2.0/24"]);
        assert!(open.check_access(ip("198.51.100.1")).is_ok());
    }

    #[test]
    fn hosts_are_named_without_port_in_lower_case() {
        assert_eq!(host_name("Example.COM:8080"), "example.com");
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("a.b"), "a.b");
    }
}
