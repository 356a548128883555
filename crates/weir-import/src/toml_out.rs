//! The weir config as text: tables in a fixed order, each key followed by a comment naming the
//! nginx directive it came from (`# nginx.conf:31`).

use std::fmt::Write as _;

use crate::parse::Source;

/// One `key = value` line.
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: String,
    /// Already TOML: `"65s"`, `8`, `["a", "b"]`, `true`.
    pub value: String,
    pub source: Option<Source>,
    /// Said after the source: `(nginx's default)`.
    pub remark: Option<String>,
}

/// One table: `[server]`, `[upstreams.app]`, or one `[[routes]]` entry. The default has no
/// header yet.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub header: String,
    /// A comment line above the table.
    pub comment: Option<String>,
    pub entries: Vec<Entry>,
}

impl Table {
    pub fn new(header: impl Into<String>) -> Table {
        Table {
            header: header.into(),
            comment: None,
            entries: Vec::new(),
        }
    }

    /// Sets `key`, replacing an earlier value.
    pub fn set(&mut self, key: &str, value: String, source: Option<&Source>) {
        self.set_with(key, value, source, None);
    }

    pub fn set_with(
        &mut self,
        key: &str,
        value: String,
        source: Option<&Source>,
        remark: Option<&str>,
    ) {
        let entry = Entry {
            key: key.to_string(),
            value,
            source: source.cloned(),
            remark: remark.map(str::to_string),
        };
        match self.entries.iter_mut().find(|entry| entry.key == key) {
            Some(existing) => *existing = entry,
            None => self.entries.push(entry),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.key == key)
    }
}

/// A TOML basic string.
pub fn string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for character in text.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            character if character.is_control() => {
                let _ = write!(quoted, "\\u{:04X}", character as u32);
            }
            character => quoted.push(character),
        }
    }
    quoted.push('"');
    quoted
}

/// A TOML array of strings.
pub fn strings<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.into_iter().map(string).collect();
    format!("[{}]", items.join(", "))
}

/// The file: a header comment, then the tables.
pub fn render(preamble: &[String], tables: &[Table]) -> String {
    let mut out = String::new();
    for line in preamble {
        let _ = writeln!(out, "# {line}");
    }
    for table in tables {
        out.push('\n');
        if let Some(comment) = &table.comment {
            let _ = writeln!(out, "# {comment}");
        }
        let _ = writeln!(out, "{}", table.header);
        let width = table
            .entries
            .iter()
            // A value of several lines (an array of tables) takes its comment after its first.
            .filter(|entry| !entry.value.contains('\n'))
            .map(|entry| entry.key.len() + entry.value.len() + 3)
            .max()
            .unwrap_or(0);
        for entry in &table.entries {
            let line = format!("{} = {}", entry.key, entry.value);
            let comment = match (&entry.source, &entry.remark) {
                (Some(source), Some(remark)) => format!("# {source} {remark}"),
                (Some(source), None) => format!("# {source}"),
                (None, Some(remark)) => format!("# {remark}"),
                (None, None) => String::new(),
            };
            if comment.is_empty() {
                let _ = writeln!(out, "{line}");
            } else if let Some((first, rest)) = line.split_once('\n') {
                let _ = writeln!(out, "{first}  {comment}\n{rest}");
            } else {
                let _ = writeln!(out, "{line:width$}  {comment}");
            }
        }
    }
    out
}
