//! What an import did with each directive: translated, approximated (and how) or not supported
//! (and why). Every directive read is accounted for by exactly one item. Apart from those three
//! parts, `less_safe` lists what nginx did to protect the app that the weir config no longer does:
//! each of its items repeats a directive of the other parts (or names a default nginx applied).

use std::fmt;

use crate::parse::Source;

/// The three parts of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// weir does the same, with a key or by itself.
    Translated,
    /// weir does something close; the note says how it differs.
    Approximated,
    /// Left out; the note says why.
    Unsupported,
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub kind: Kind,
    /// The directives this item accounts for (usually one).
    pub sources: Vec<Source>,
    /// The directive as written, shortened: `gzip_types text/css`.
    pub directive: String,
    /// What weir does instead, or why not.
    pub note: String,
}

/// The whole report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub items: Vec<Item>,
    /// What makes the gateway weaker than nginx was: a rule dropped, a header no longer hidden or
    /// stripped, an HTTPS-only server also on plain HTTP, a limit no longer applied. Each item's
    /// `kind` is the part its directive is in; `weir import` exits 65 when this is not empty.
    pub less_safe: Vec<Item>,
}

/// Differences that hold whatever the config says, printed above the three parts so that no one
/// reads "translated" as "identical to the byte".
pub const GENERAL_NOTES: &[&str] = &[
    "weir's own responses (404 when no route matches, 413, 502, 503, 504, rate-limit rejections, `status` routes) carry a short plain-text body where nginx sends an HTML error page, unless a route's `error_pages` (nginx's `error_page`) names a page for the status; a header by the answer's type (nginx's `map $sent_http_content_type`) goes by that plain-text type",
    "a redirect from weir has an empty body where nginx sends a small HTML page",
    "a directory, or a proxied location's path (`/api` for `location /api/`), asked for without its trailing slash is redirected to `./NAME/`, a relative `Location`, where nginx writes the absolute URL",
    "weir adds no `Server` header of its own (nginx sends `Server: nginx`); the upstream's passes through",
    "static files: weir's ETag is its own (nginx's is mtime-size in hex), so it differs from nginx's for the same file",
    "weir sends `X-Forwarded-For` (the client appended), `X-Real-IP` and `X-Forwarded-Proto` to the upstream on every proxied request, where nginx sends only the `proxy_set_header`s in force for the location",
];

impl Report {
    pub fn count(&self, kind: Kind) -> usize {
        self.items.iter().filter(|item| item.kind == kind).count()
    }

    /// Whether anything was approximated or left out (`weir import --strict` fails then).
    pub fn is_exact(&self) -> bool {
        self.items.iter().all(|item| item.kind == Kind::Translated)
    }

    /// Whether the weir config protects the app less than nginx did (`weir import` fails then,
    /// unless told `--accept-less-safe`).
    pub fn is_less_safe(&self) -> bool {
        !self.less_safe.is_empty()
    }

    /// Items of one kind, in the order of their first source.
    pub fn of(&self, kind: Kind) -> Vec<&Item> {
        let mut items: Vec<&Item> = self.items.iter().filter(|item| item.kind == kind).collect();
        items.sort_by(|a, b| a.sources.first().cmp(&b.sources.first()));
        items
    }

    /// Whether some item covers a directive written at `source`.
    pub fn accounts_for(&self, source: &Source) -> bool {
        self.items.iter().any(|item| item.sources.contains(source))
    }
}

impl fmt::Display for Item {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = match self.sources.as_slice() {
            [] => "(config)".to_string(),
            [one] => one.to_string(),
            [first, rest @ ..] => format!("{first} (+{} more)", rest.len()),
        };
        write!(formatter, "  {place}: {}: {}", self.directive, self.note)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.less_safe.is_empty() {
            let mut less_safe: Vec<&Item> = self.less_safe.iter().collect();
            less_safe.sort_by(|a, b| a.sources.first().cmp(&b.sources.first()));
            writeln!(
                formatter,
                "!!! LESS SAFE THAN NGINX: {} !!!",
                less_safe.len()
            )?;
            writeln!(
                formatter,
                "The weir config below no longer does these things nginx did to protect the app."
            )?;
            writeln!(
                formatter,
                "Put each back (in the app, a firewall, or by hand) before serving with it;"
            )?;
            writeln!(
                formatter,
                "`weir import --accept-less-safe` says you have, and exits 0."
            )?;
            for item in less_safe {
                writeln!(formatter, "{item}")?;
            }
            writeln!(formatter)?;
        }
        writeln!(formatter, "weir import report")?;
        writeln!(
            formatter,
            "Always different from nginx, whatever the config:"
        )?;
        for note in GENERAL_NOTES {
            writeln!(formatter, "  - {note}")?;
        }
        let parts = [
            (Kind::Translated, "Translated"),
            (Kind::Approximated, "Approximated (and how)"),
            (Kind::Unsupported, "Not supported (and why)"),
        ];
        for (kind, title) in parts {
            let items = self.of(kind);
            writeln!(formatter, "\n{title}: {}", items.len())?;
            for item in items {
                writeln!(formatter, "{item}")?;
            }
        }
        Ok(())
    }
}
