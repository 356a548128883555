//! `error_page CODE ... URI` and `proxy_intercept_errors`: the statuses and the file nginx
//! serves for URI, found as nginx finds it (the server's `location = URI`, else its longest
//! prefix location, with their `root` or `alias`, else the root in force at the server), and
//! written as a route's `error_pages` and `intercept_errors`. weir's pages are files it keeps in
//! memory with the error's own status: an `=CODE` answer, a named location, a redirect or a
//! page the app makes is left out, with the reason.

use super::Scope;
use crate::parse::{Directive, Source};

/// One `error_page`'s statuses and URI, or why weir cannot carry it whatever the server.
pub(super) fn parse(directive: &Directive) -> Result<(Vec<u16>, &str), String> {
    let Some((uri, codes)) = directive.args.split_last() else {
        return Err("expected error_page CODE ... URI".into());
    };
    if codes.is_empty() {
        return Err("expected error_page CODE ... URI".into());
    }
    // `error_page 404 =200 /index.html` and `error_page 404 = @app` are how some configs say
    // try_files: a static route's fallback says it in weir.
    let hint = match (codes.first().is_some_and(|code| code == "404"), uri.starts_with('@')) {
        (true, true) => "; for a static route whose missing files go to the app, fallback_upstream does it (nginx's try_files $uri @app)",
        (true, false) => "; for a static route whose missing files get one file (a single-page app's index.html), fallback_file does it (nginx's try_files $uri /index.html)",
        (false, _) => "",
    };
    if let Some(answer) = codes.iter().find(|arg| arg.starts_with('=')) {
        return Err(format!(
            "{answer} answers with another status; weir's page keeps the error's own status{hint}"
        ));
    }
    if uri.starts_with('@') {
        return Err(format!(
            "the named location {uri} makes the page; weir's error pages are files{hint}"
        ));
    }
    if !uri.starts_with('/') || uri.contains('$') {
        return Err(format!(
            "{uri} is a redirect or has variables; weir's error pages are files"
        ));
    }
    let mut statuses = Vec::new();
    for code in codes {
        match code.parse::<u16>() {
            Ok(status) if (400..=599).contains(&status) && status != 444 => statuses.push(status),
            _ => {
                return Err(format!(
                    "{code}: weir's error pages are for statuses 400 to 599 (not 444)"
                ))
            }
        }
    }
    Ok((statuses, uri))
}

/// The file nginx serves for `uri` in the server `scope` is in, or why weir cannot tell.
pub(super) fn file(scope: &Scope<'_>, uri: &str) -> Result<String, String> {
    let path = uri.split('?').next().unwrap_or(uri);
    let locations = scope
        .server
        .and_then(|server| server.block.as_deref())
        .unwrap_or_default()
        .iter()
        .filter(|inner| inner.name == "location");
    // `location = URI` wins; else the longest prefix (`^~` or plain) that starts URI.
    let mut found: Option<(&Directive, &str, bool)> = None;
    for location in locations {
        let (modifier, prefix) = match location.args.as_slice() {
            [modifier, prefix] => (modifier.as_str(), prefix.as_str()),
            [glued] if glued.starts_with('=') => ("=", &glued[1..]),
            [glued] if glued.starts_with("^~") => ("^~", &glued[2..]),
            [prefix] => ("", prefix.as_str()),
            _ => continue,
        };
        match modifier {
            "=" if prefix == path => {
                found = Some((location, prefix, true));
                break;
            }
            "" | "^~"
                if path.starts_with(prefix)
                    && found.is_none_or(|(_, longest, _)| prefix.len() > longest.len()) =>
            {
                found = Some((location, prefix, false));
            }
            _ => {}
        }
    }
    let Some((location, prefix, exact)) = found else {
        return rooted(scope.server_root, path, "the server");
    };
    let block = location.block.as_deref().unwrap_or_default();
    let at = &location.source;
    // `try_files $uri ...` serves the file when it is there, as a page's file is.
    let not_files = block.iter().any(|inner| match inner.name.as_str() {
        "proxy_pass" | "return" => true,
        "try_files" => inner.args.first().is_none_or(|first| first != "$uri"),
        _ => false,
    });
    if not_files {
        return Err(format!(
            "the location at {at} answers {path} by proxy_pass, return or try_files; weir's error pages are files"
        ));
    }
    if let Some(alias) = block.iter().find(|inner| inner.name == "alias") {
        let dir = alias.args.first().map_or("", String::as_str);
        let file = if exact {
            dir.to_string()
        } else {
            format!("{dir}{}", &path[prefix.len()..])
        };
        return absolute(file, at);
    }
    match block.iter().find(|inner| inner.name == "root") {
        Some(root) => rooted(Some(root), path, "its location"),
        None => rooted(scope.server_root, path, "the server"),
    }
}

/// `root` + `path`, when the root is absolute.
fn rooted(root: Option<&Directive>, path: &str, whose: &str) -> Result<String, String> {
    let Some(root) = root else {
        return Err(format!(
            "no root in force for {path} in {whose}: nginx serves it from its default root (html under its prefix); write the file in error_pages by hand"
        ));
    };
    let dir = root.args.first().map_or("", String::as_str);
    absolute(format!("{}{path}", dir.trim_end_matches('/')), &root.source)
}

fn absolute(file: String, at: &Source) -> Result<String, String> {
    if file.starts_with('/') && !file.contains('$') {
        Ok(file)
    } else {
        Err(format!(
            "the page's file {file:?} (from {at}) is relative to nginx's prefix or has variables; write its absolute path in error_pages by hand"
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::report::Kind;
    use crate::Import;

    fn import(text: &str) -> Import {
        crate::import_str(text, "nginx.conf").unwrap_or_else(|error| panic!("{error}"))
    }

    /// The kind and note of the item for the directive starting with `directive`.
    #[track_caller]
    fn said<'i>(imported: &'i Import, directive: &str) -> (Kind, &'i str) {
        let item = imported
            .report
            .items
            .iter()
            .find(|item| item.directive.starts_with(directive))
            .unwrap_or_else(|| panic!("no item for {directive:?} in:\n{}", imported.report));
        (item.kind, item.note.as_str())
    }

    /// A route's path, error pages (status, file) and `intercept_errors`.
    type RoutePages = (String, Vec<(u16, PathBuf)>, Option<bool>);

    /// Each route's pages, as weir reads them.
    fn pages(imported: &Import) -> Vec<RoutePages> {
        weir::config::from_toml(&imported.toml, Some(Path::new("weir.toml")))
            .unwrap_or_else(|error| panic!("{error}\n{}", imported.toml))
            .routes
            .into_iter()
            .map(|route| {
                let files = route
                    .rules
                    .pages
                    .files
                    .iter()
                    .map(|(status, file)| (status.as_u16(), file.clone()))
                    .collect();
                (route.path, files, route.rules.pages.intercept)
            })
            .collect()
    }

    fn page(statuses: &[u16], file: &str) -> Vec<(u16, PathBuf)> {
        statuses
            .iter()
            .map(|status| (*status, PathBuf::from(file)))
            .collect()
    }

    #[test]
    fn the_servers_error_page_is_the_file_of_its_location_on_every_route() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  error_page 500 502 503 504 /50x.html;\n",
            "  error_page 404 /errors/404.html;\n",
            "  root /srv/site;\n",
            "  location = /50x.html { root /usr/share/nginx/html; }\n",
            "  location / { proxy_pass http://127.0.0.1:8000; proxy_intercept_errors on; }\n",
            "  location /static/ { alias /srv/static/; }\n",
            "  location /errors/ { internal; }\n",
            "  location /api/ { error_page 502 /errors/api.json; proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        // The location serving /errors/ has no root of its own: the server's.
        let mut all = page(&[404], "/srv/site/errors/404.html");
        all.extend(page(
            &[500, 502, 503, 504],
            "/usr/share/nginx/html/50x.html",
        ));
        assert_eq!(
            pages(&imported),
            [
                // The page's own location serves it (to a client that asks for it, too).
                ("/50x.html".to_string(), all.clone(), None),
                ("/".to_string(), all.clone(), Some(true)),
                ("/static/".to_string(), all.clone(), None),
                ("/errors/".to_string(), all, None),
                // A location with an error_page of its own loses the server's, as in nginx.
                (
                    "/api/".to_string(),
                    page(&[502], "/srv/site/errors/api.json"),
                    None
                ),
            ],
            "{}",
            imported.toml
        );
        let (kind, note) = said(&imported, "error_page 500 502 503 504 /50x.html");
        assert_eq!(kind, Kind::Translated, "{note}");
        let (kind, note) = said(&imported, "location = /50x.html");
        assert_eq!(kind, Kind::Translated, "{note}");
        assert!(
            note.contains("static = \"/usr/share/nginx/html/50x.html\""),
            "{note}"
        );
        let (kind, note) = said(&imported, "proxy_intercept_errors on");
        assert_eq!(kind, Kind::Translated, "{note}");
        assert!(imported.report.less_safe.is_empty(), "{}", imported.report);
    }

    #[test]
    fn pages_weir_cannot_serve_are_left_out_with_the_reason() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  location / {\n   proxy_pass http://127.0.0.1:8000;\n",
            "   error_page 404 =200 /index.html;\n",
            "   error_page 502 @down;\n",
            "   error_page 503 https://status.example.com/;\n",
            "   error_page 504 /app-page;\n",
            "   error_page 500 /500.html;\n",
            "  }\n",
            "  location @down { proxy_pass http://127.0.0.1:9000; }\n",
            "  location /app-page { proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        assert_eq!(
            pages(&imported)
                .into_iter()
                .map(|(_, files, _)| files)
                .collect::<Vec<_>>(),
            [Vec::new(), Vec::new()],
            "{}",
            imported.toml
        );
        for (directive, why) in [
            ("error_page 404 =200", "fallback_file does it"),
            ("error_page 502 @down", "named location"),
            ("error_page 503 https:", "redirect"),
            ("error_page 504 /app-page", "proxy_pass"),
            // `location /` serves it: the app.
            ("error_page 500 /500.html", "proxy_pass"),
        ] {
            let (kind, note) = said(&imported, directive);
            assert_eq!(kind, Kind::Unsupported, "{directive}: {note}");
            assert!(note.contains(why), "{directive}: {note}");
        }
    }

    #[test]
    fn a_page_a_try_files_location_finds_is_its_file() {
        // Gunicorn's example shape without the page's own location: `location /` serves the
        // file when it is there, as the page is.
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n  root /srv/public;\n",
            "  error_page 502 /500.html;\n",
            "  location / { try_files $uri @app; }\n",
            "  location @app { proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let routes = pages(&imported);
        assert!(
            routes
                .iter()
                .all(|(_, files, _)| *files == page(&[502], "/srv/public/500.html")),
            "{routes:?}"
        );
    }

    #[test]
    fn a_page_under_no_root_or_a_relative_one_is_left_for_the_user_to_write() {
        let imported = import(concat!(
            "http {\n server {\n  listen 80;\n",
            "  error_page 500 /500.html;\n",
            "  error_page 502 /50x.html;\n",
            "  location = /50x.html { root html; }\n",
            "  location /api/ { proxy_pass http://127.0.0.1:8000; }\n",
            " }\n}\n",
        ));
        let (kind, note) = said(&imported, "error_page 500 /500.html");
        assert_eq!(kind, Kind::Unsupported, "{note}");
        assert!(note.contains("default root"), "{note}");
        let (kind, note) = said(&imported, "error_page 502 /50x.html");
        assert_eq!(kind, Kind::Unsupported, "{note}");
        assert!(
            note.contains("\"html/50x.html\"") && note.contains("by hand"),
            "{note}"
        );
    }
}
