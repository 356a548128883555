//! `ConfigError`: one message that names the file, line, column and dotted key of a bad config
//! value and says what would be valid. It also owns the translation of a byte span in the file into
//! a line, a column and a key such as `upstreams.app.max_idle` or `routes[1].upstream`.

use std::fmt;
use std::ops::Range;
use std::path::Path;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// What kind of mistake a [`ConfigError`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigErrorKind {
    /// The file could not be read.
    Io,
    /// The text is not valid TOML.
    Syntax,
    /// A key that weir does not know (a typo, or a key from another table).
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    /// A value of the wrong type or out of range.
    InvalidValue,
    /// A name that refers to nothing: a route's upstream or limit.
    UnknownName,
    /// Something defined twice: a route's host and path, a listen address, a limit on one route.
    Duplicate,
    /// Two settings that cannot go together, such as `nodelay` with `delay`.
    Conflict,
}

/// An invalid or unreadable configuration.
///
/// Its `Display` is one line, compiler style:
/// `weir.toml:12:13: upstreams.app.max_idle: expected a non-negative integer, found string "x"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct ConfigError {
    kind: ConfigErrorKind,
    file: String,
    position: Option<(usize, usize)>,
    key: Option<String>,
    message: String,
}

impl ConfigError {
    /// What kind of mistake this is.
    pub fn kind(&self) -> ConfigErrorKind {
        self.kind
    }

    /// The file's path as given, or `<string>` when the config was parsed from a string.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The 1-based line of the offending text; `None` when the file could not be read.
    pub fn line(&self) -> Option<usize> {
        self.position.map(|(line, _)| line)
    }

    /// The 1-based column (in characters) of the offending text; `None` when the file could not be read.
    pub fn column(&self) -> Option<usize> {
        self.position.map(|(_, column)| column)
    }

    /// The dotted key, such as `upstreams.app.max_idle` or `routes[0].upstream` (array indexes count
    /// from 0); `None` for a syntax error outside any key or an unreadable file.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// What was wrong and what would be valid, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }

    pub(crate) fn io(path: &Path, error: &std::io::Error) -> ConfigError {
        ConfigError {
            kind: ConfigErrorKind::Io,
            file: path.display().to_string(),
            position: None,
            key: None,
            message: format!("cannot read the config file: {error}"),
        }
    }

    fn render(&self) -> String {
        let mut text = self.file.clone();
        if let Some((line, column)) = self.position {
            text.push_str(&format!(":{line}:{column}"));
        }
        text.push_str(": ");
        if let Some(key) = &self.key {
            text.push_str(key);
            text.push_str(": ");
        }
        text.push_str(&self.message);
        text
    }
}

/// A mistake found in the text, before it is placed in a file: the span locates it, and the key is
/// found from the span unless the finder knew better (a missing key has no span of its own).
#[derive(Debug)]
pub(crate) struct Problem {
    pub(crate) kind: ConfigErrorKind,
    pub(crate) span: Option<Range<usize>>,
    pub(crate) key: Option<String>,
    pub(crate) message: String,
}

impl Problem {
    pub(crate) fn new(
        kind: ConfigErrorKind,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Problem {
        Problem {
            kind,
            span: Some(span),
            key: None,
            message: message.into(),
        }
    }

    /// Names the key explicitly, for a key that is absent and so has no span.
    pub(crate) fn with_key(mut self, key: impl Into<String>) -> Problem {
        self.key = Some(key.into());
        self
    }

    /// Turns a TOML syntax error into a problem.
    pub(crate) fn syntax(error: &toml::de::Error) -> Problem {
        Problem {
            kind: ConfigErrorKind::Syntax,
            span: error.span(),
            key: None,
            message: format!("invalid TOML: {}", error.message().trim_end()),
        }
    }

    /// Turns a serde error from the mirror structs into a problem, rewording serde's phrases
    /// (`unknown field`, `expected u32`) into the config's vocabulary.
    pub(crate) fn from_serde(error: &toml::de::Error, keys: &KeyIndex) -> Problem {
        let span = error.span();
        let raw = error.message().trim_end();
        let parent = span.clone().and_then(|span| keys.key_at(&span));
        if let Some(rest) = raw.strip_prefix("unknown field `") {
            let (name, expected) = rest.split_once('`').unwrap_or((rest, ""));
            let valid = backticked(expected);
            let message = if valid.is_empty() {
                format!("unknown key \"{name}\"; this table takes no keys")
            } else {
                format!(
                    "unknown key \"{name}\"; valid keys are {}",
                    valid.join(", ")
                )
            };
            return Problem {
                kind: ConfigErrorKind::UnknownKey,
                span,
                key: parent,
                message,
            };
        }
        if let Some(rest) = raw.strip_prefix("missing field `") {
            let name = rest.trim_end_matches('`');
            let key = match parent {
                Some(parent) => format!("{parent}.{name}"),
                None => name.to_string(),
            };
            return Problem {
                kind: ConfigErrorKind::MissingKey,
                span,
                key: Some(key),
                message: format!("missing required key \"{name}\""),
            };
        }
        if let Some(rest) = raw.strip_prefix("unknown variant `") {
            let (found, expected) = rest.split_once('`').unwrap_or((rest, ""));
            let valid: Vec<String> = backticked(expected)
                .iter()
                .map(|variant| format!("\"{variant}\""))
                .collect();
            return Problem {
                kind: ConfigErrorKind::InvalidValue,
                span,
                key: parent,
                message: format!("expected one of {}, found \"{found}\"", valid.join(", ")),
            };
        }
        let message = ["invalid type: ", "invalid value: "]
            .iter()
            .find_map(|prefix| raw.strip_prefix(prefix))
            .and_then(|rest| rest.rsplit_once(", expected "))
            .map(|(found, expected)| {
                format!(
                    "expected {}, found {}",
                    reword_expected(expected),
                    reword_found(found)
                )
            })
            .unwrap_or_else(|| raw.to_string());
        Problem {
            kind: ConfigErrorKind::InvalidValue,
            span,
            key: parent,
            message,
        }
    }

    /// Places the problem in the file: line, column and (if not known yet) key.
    pub(crate) fn into_error(
        self,
        text: &str,
        source: Option<&Path>,
        keys: &KeyIndex,
    ) -> ConfigError {
        let key = self
            .key
            .or_else(|| self.span.as_ref().and_then(|span| keys.key_at(span)));
        ConfigError {
            kind: self.kind,
            file: source
                .map(|path| path.display().to_string())
                .unwrap_or_else(|| "<string>".to_string()),
            position: Some(line_column(text, self.span.map_or(0, |span| span.start))),
            key: key.as_deref().map(escape_controls),
            message: escape_controls(&self.message),
        }
    }
}

/// `text` with every control character written as its Rust escape (`\n`, `\u{1b}`): a message
/// repeats names and values from the file, and must stay one line that cannot drive a terminal.
fn escape_controls(text: &str) -> String {
    if !text.contains(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|character| {
            if character.is_control() {
                character.escape_default().to_string()
            } else {
                character.to_string()
            }
        })
        .collect()
}

/// The words between backticks in serde's "expected one of `a`, `b`".
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// serde names Rust types; users wrote TOML.
fn reword_expected(expected: &str) -> String {
    match expected {
        "u8" => "an integer from 0 to 255".to_string(),
        "u16" => "an integer from 0 to 65535".to_string(),
        "u32" => "an integer from 0 to 4294967295".to_string(),
        "u64" | "usize" => "a non-negative integer".to_string(),
        "a boolean" => "true or false".to_string(),
        "a sequence" => "an array".to_string(),
        "a map" => "a table".to_string(),
        other if other.starts_with("struct ") => "a table".to_string(),
        other => other.to_string(),
    }
}

/// serde writes "integer `-1`" and "map"; say it in TOML's words.
fn reword_found(found: &str) -> String {
    let found = found.replace('`', "").replace("floating point", "float");
    match found.as_str() {
        "map" => "a table".to_string(),
        "sequence" => "an array".to_string(),
        _ => found,
    }
}

/// 1-based line and character column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// Every key of the document with its spans, so that an error's span can be named by its dotted key.
#[derive(Debug, Default)]
pub(crate) struct KeyIndex {
    entries: Vec<KeyEntry>,
}

#[derive(Debug)]
struct KeyEntry {
    path: String,
    depth: usize,
    key_span: Option<Range<usize>>,
    value_span: Range<usize>,
}

impl KeyIndex {
    pub(crate) fn new(table: &Spanned<DeTable<'_>>) -> KeyIndex {
        let mut index = KeyIndex::default();
        index.add_table(table.get_ref(), "", 0);
        index
    }

    fn add_table(&mut self, table: &DeTable<'_>, prefix: &str, depth: usize) {
        for (key, value) in table.iter() {
            let path = if prefix.is_empty() {
                quote_key(key.get_ref())
            } else {
                format!("{prefix}.{}", quote_key(key.get_ref()))
            };
            self.add_value(value, path, Some(key.span()), depth + 1);
        }
    }

    fn add_value(
        &mut self,
        value: &Spanned<DeValue<'_>>,
        path: String,
        key_span: Option<Range<usize>>,
        depth: usize,
    ) {
        match value.get_ref() {
            DeValue::Table(table) => self.add_table(table, &path, depth),
            DeValue::Array(array) => {
                for (position, item) in array.iter().enumerate() {
                    self.add_value(item, format!("{path}[{position}]"), None, depth + 1);
                }
            }
            _ => {}
        }
        self.entries.push(KeyEntry {
            path,
            depth,
            key_span,
            value_span: value.span(),
        });
    }

    /// The span of a key's name, by its dotted path (`tls.certificates[0].cert`).
    pub(crate) fn span_of(&self, path: &str) -> Option<Range<usize>> {
        self.entries
            .iter()
            .find(|entry| entry.path == path)
            .map(|entry| entry.key_span.clone().unwrap_or(entry.value_span.clone()))
    }

    /// The most specific key whose name or value covers the span: the smallest covering span wins,
    /// and among equal spans (a `[upstreams.app]` header is the span of both tables) the deepest key.
    pub(crate) fn key_at(&self, span: &Range<usize>) -> Option<String> {
        let covers = |outer: &Range<usize>| {
            outer.start <= span.start && span.end <= outer.end.max(outer.start + 1)
        };
        self.entries
            .iter()
            .flat_map(|entry| {
                let by_key = entry.key_span.as_ref().filter(|key_span| covers(key_span));
                let by_value = Some(&entry.value_span).filter(|value_span| covers(value_span));
                by_key
                    .into_iter()
                    .chain(by_value)
                    .map(move |covering| (covering.len(), std::cmp::Reverse(entry.depth), entry))
            })
            .min_by_key(|(length, depth, _)| (*length, *depth))
            .map(|(_, _, entry)| entry.path.clone())
    }
}

/// A key as TOML would need it written in a dotted path: bare when it can be, quoted otherwise.
fn quote_key(key: &str) -> String {
    let bare = !key.is_empty()
        && key.chars().all(|character| {
            character.is_ascii_alphanumeric() || character == '_' || character == '-'
        });
    if bare {
        key.to_string()
    } else {
        format!("{key:?}")
    }
}

impl fmt::Display for ConfigErrorKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            ConfigErrorKind::Io => "unreadable file",
            ConfigErrorKind::Syntax => "invalid TOML",
            ConfigErrorKind::UnknownKey => "unknown key",
            ConfigErrorKind::MissingKey => "missing key",
            ConfigErrorKind::InvalidValue => "invalid value",
            ConfigErrorKind::UnknownName => "unknown name",
            ConfigErrorKind::Duplicate => "duplicate",
            ConfigErrorKind::Conflict => "conflicting settings",
        };
        formatter.write_str(name)
    }
}
