//! `map $SOURCE $NAME { ... }` of the `http` block as weir's `[maps.NAME]`, when a header value
//! (`add_header`, `proxy_set_header`) names `$NAME`: its strings, its regexes in order (`~*` as
//! `(?i)`) and its default, each value a header value weir fills in. A map of the answer's type
//! or of `$http_upgrade` has its own translation; one with `hostnames` or `include`, a value
//! with a capture or a variable weir lacks, or a regex weir's regex crate refuses, is not carried.

use crate::parse::Directive;
use crate::toml_out::{self, Table};

/// A map weir carries.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ValueMap {
    pub name: String,
    pub source: String,
    /// In nginx's order within each kind: strings (`true`), then regexes; the key and value.
    pub entries: Vec<(bool, String, String)>,
    pub default: Option<String>,
}

/// Whether a header value in `block` (at any depth) names `$name`.
pub(super) fn named_by_headers(block: &[Directive], name: &str) -> bool {
    block.iter().any(|directive| {
        (matches!(directive.name.as_str(), "add_header" | "proxy_set_header")
            && directive.args.iter().skip(1).any(|arg| {
                super::text::variable_names(arg).is_some_and(|names| names.contains(&name))
            }))
            || named_by_headers(directive.block.as_deref().unwrap_or_default(), name)
    })
}

/// `map SOURCE $NAME { ... }` as a [`ValueMap`], or why weir cannot carry it.
pub(super) fn parse(directive: &Directive) -> Result<ValueMap, String> {
    let [source, name] = directive.args.as_slice() else {
        return Err("expected map SOURCE $NAME { ... }".into());
    };
    let name = name.strip_prefix('$').ok_or("expected map SOURCE $NAME")?;
    super::text::value_ok(source).map_err(|why| format!("its source: {why}"))?;
    let value_ok = |value: &str| -> Result<(), String> {
        // A map's value names no other map in weir.
        let names = super::text::variable_names(value).unwrap_or_default();
        if let Some(other) = names.iter().find(|other| super::text::carried_name(other)) {
            return Err(format!(
                "its value {value:?} names the map ${other}: weir's map values name no map"
            ));
        }
        super::text::value_ok(value).map_err(|why| format!("its value {value:?}: {why}"))
    };
    let mut strings = Vec::new();
    let mut regexes = Vec::new();
    let mut default = None;
    for entry in directive.block.as_deref().unwrap_or_default() {
        let value = match entry.args.as_slice() {
            [] => String::new(),
            [value] => value.clone(),
            _ => {
                return Err(format!(
                    "the entry {:?} has more than one value",
                    entry.name
                ))
            }
        };
        match entry.name.as_str() {
            "hostnames" | "include" => {
                return Err(format!(
                    "`{}` inside a map: weir's maps take strings and regexes",
                    entry.name
                ))
            }
            "volatile" => continue,
            "default" => {
                value_ok(&value)?;
                default = Some(value);
                continue;
            }
            _ => {}
        }
        value_ok(&value)?;
        let key = &entry.name;
        let regex = match (key.strip_prefix("~*"), key.strip_prefix('~')) {
            (Some(nocase), _) => Some(format!("(?i){nocase}")),
            (None, Some(cased)) => Some(cased.to_string()),
            (None, None) => None,
        };
        match regex {
            Some(regex) => {
                if let Err(error) = regex::bytes::Regex::new(&regex) {
                    return Err(format!(
                        "the regex {key:?} is not one weir's regex crate takes (no look-around or back-references): {}",
                        error.to_string().lines().last().unwrap_or_default()
                    ));
                }
                regexes.push((false, regex, value));
            }
            None => {
                // `\~name`: a string that starts with `~` (or names a parameter).
                let text = key.strip_prefix('\\').unwrap_or(key).to_string();
                if strings
                    .iter()
                    .any(|(_, known, _): &(bool, String, String)| known.eq_ignore_ascii_case(&text))
                {
                    continue;
                }
                strings.push((true, text, value));
            }
        }
    }
    strings.extend(regexes);
    Ok(ValueMap {
        name: name.to_string(),
        source: source.clone(),
        entries: strings,
        default: default.filter(|value| !value.is_empty()),
    })
}

impl ValueMap {
    /// The `[maps.NAME]` table, each key commented with the map's source.
    pub(super) fn table(&self, directive: &Directive) -> Table {
        let mut table = Table::new(format!("[maps.{}]", self.name));
        let source = Some(&directive.source);
        table.set("source", toml_out::string(&self.source), source);
        if !self.entries.is_empty() {
            let entries: Vec<String> = self
                .entries
                .iter()
                .map(|(string, key, value)| {
                    format!(
                        "{{ {} = {}, value = {} }}",
                        if *string { "equals" } else { "matches" },
                        toml_out::string(key),
                        toml_out::string(value)
                    )
                })
                .collect();
            table.set("entries", format!("[{}]", entries.join(", ")), source);
        }
        if let Some(default) = &self.default {
            table.set("default", toml_out::string(default), source);
        }
        table
    }
}
