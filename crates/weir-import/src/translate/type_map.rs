//! `map $sent_http_content_type $var { ... }`: a value per answer type, which `add_header NAME
//! $var` and `expires $var` use (h5bp's security and caching headers). weir's form is
//! `response_headers_by_type`, whose types are fragments of the `Content-Type`: a map whose keys
//! are literal regexes (`~*text/html`, `~*text/(html|javascript)|xml`) becomes its entries, in
//! nginx's order of search (exact keys, then the regexes as written, then `default`).

use crate::parse::Directive;

/// The most fragments one regex may stand for, written out.
const MAX_FRAGMENTS: usize = 64;

/// A map weir can carry: its entries in nginx's order of search, each the fragments that match
/// (`""`: no `Content-Type`; `"*"`: `default`, last) and the value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct TypeMap {
    pub entries: Vec<(Vec<String>, String)>,
    /// How weir's matching differs from nginx's for this map, if it does.
    pub differs: Vec<String>,
}

/// Whether `directive` is `map $sent_http_content_type $var { ... }`; the variable's name.
pub(super) fn variable(directive: &Directive) -> Option<&str> {
    match directive.args.as_slice() {
        [source, target] if source == "$sent_http_content_type" => target.strip_prefix('$'),
        _ => None,
    }
}

/// The map's entries, or why weir cannot carry it.
pub(super) fn parse(directive: &Directive) -> Result<TypeMap, String> {
    let mut exact: Vec<(Vec<String>, String)> = Vec::new();
    let mut regexes: Vec<(Vec<String>, String)> = Vec::new();
    let mut default: Option<String> = None;
    let mut differs: Vec<String> = Vec::new();
    for entry in directive.block.iter().flatten() {
        let key = entry.name.as_str();
        let value = match entry.args.as_slice() {
            [value] => value.clone(),
            _ if matches!(key, "hostnames" | "volatile") => {
                return Err(format!("`{key}` in a map of $sent_http_content_type: weir's types are fragments of the Content-Type"));
            }
            _ => {
                return Err(format!(
                    "expected KEY VALUE in the map, found {}",
                    entry.summary()
                ))
            }
        };
        if value.contains('$') {
            return Err(format!(
                "the value {value:?} has variables, which weir does not fill in here"
            ));
        }
        if key == "include" {
            return Err("an include in a map: weir reads a map's entries as written".to_string());
        }
        if key == "default" {
            default = Some(value);
            continue;
        }
        if let Some(pattern) = key.strip_prefix('~') {
            let (pattern, insensitive) = match pattern.strip_prefix('*') {
                Some(pattern) => (pattern, true),
                None => (pattern, false),
            };
            let (fragments, dot) =
                fragments(pattern).map_err(|why| format!("the regex {key:?}: {why}"))?;
            if !insensitive && !differs.iter().any(|note| note.contains("case")) {
                differs.push(format!(
                    "{key} matches whatever the case in weir (nginx's ~ minds it)"
                ));
            }
            if dot {
                differs.push(format!(
                    "the `.` of {key} matches a dot only in weir (any character in nginx)"
                ));
            }
            regexes.push((fragments, value));
        } else if key.is_empty() {
            exact.push((vec![String::new()], value));
        } else {
            // nginx compares the whole value; weir finds the fragment anywhere in it.
            differs.push(format!(
                "{key:?} also matches a Content-Type with parameters ({key}; charset=utf-8) in weir"
            ));
            exact.push((vec![key.to_ascii_lowercase()], value));
        }
    }
    let mut entries = exact;
    entries.extend(regexes);
    if let Some(value) = default {
        entries.push((vec!["*".to_string()], value));
    }
    if entries.is_empty() {
        return Err("an empty map".to_string());
    }
    Ok(TypeMap { entries, differs })
}

/// The literal fragments a regex of literals, `.`, groups and `|` stands for (`text/(html|css)`:
/// `text/html`, `text/css`), in lower case; and whether a `.` was read as a dot.
fn fragments(pattern: &str) -> Result<(Vec<String>, bool), String> {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        at: 0,
        dot: false,
    };
    let found = parser.alternation()?;
    if parser.at != parser.chars.len() {
        return Err("an unmatched `)`".to_string());
    }
    if found.iter().any(String::is_empty) {
        return Err("it matches every Content-Type; write it as default".to_string());
    }
    Ok((found, parser.dot))
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    dot: bool,
}

impl Parser {
    fn alternation(&mut self) -> Result<Vec<String>, String> {
        let mut found = self.concatenation()?;
        while self.chars.get(self.at) == Some(&'|') {
            self.at += 1;
            found.extend(self.concatenation()?);
            if found.len() > MAX_FRAGMENTS {
                return Err(format!("more than {MAX_FRAGMENTS} alternatives"));
            }
        }
        Ok(found)
    }

    fn concatenation(&mut self) -> Result<Vec<String>, String> {
        let mut found = vec![String::new()];
        while let Some(&next) = self.chars.get(self.at) {
            let atom: Vec<String> = match next {
                '|' | ')' => break,
                '(' => {
                    self.at += 1;
                    if self.chars[self.at..].starts_with(&['?', ':']) {
                        self.at += 2;
                    }
                    let inner = self.alternation()?;
                    if self.chars.get(self.at) != Some(&')') {
                        return Err("an unclosed `(`".to_string());
                    }
                    self.at += 1;
                    inner
                }
                '\\' => {
                    let escaped = *self.chars.get(self.at + 1).ok_or("a `\\` at the end")?;
                    if escaped.is_ascii_alphanumeric() {
                        return Err(format!("`\\{escaped}` is a class or an anchor, not a character weir can write out"));
                    }
                    self.at += 2;
                    vec![escaped.to_string()]
                }
                '.' => {
                    self.at += 1;
                    self.dot = true;
                    vec![".".to_string()]
                }
                '^' | '$' | '*' | '+' | '?' | '[' | ']' | '{' | '}' => {
                    return Err(format!(
                        "`{next}`: weir's types are fragments of the Content-Type, with no anchors, repeats or classes"
                    ));
                }
                other => {
                    self.at += 1;
                    vec![other.to_ascii_lowercase().to_string()]
                }
            };
            found = found
                .iter()
                .flat_map(|head| atom.iter().map(move |tail| format!("{head}{tail}")))
                .collect();
            if found.len() > MAX_FRAGMENTS {
                return Err(format!("more than {MAX_FRAGMENTS} alternatives"));
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Directive {
        crate::parse::parse_str(text, "nginx.conf")
            .unwrap()
            .into_iter()
            .next()
            .unwrap()
    }

    #[test]
    fn literal_regexes_are_written_out_as_fragments_in_nginxs_order() {
        let parsed = parse(&map(r#"map $sent_http_content_type $cache {
                default 1y;
                ~*image/svg\+xml 1d;
                ~*text/(html|javascript)|application/pdf|xml epoch;
                "" off;
                ~*image/vnd.microsoft.icon 1w;
            }"#))
        .unwrap();
        let fragments = |list: &[&str]| list.iter().map(|f| f.to_string()).collect::<Vec<_>>();
        assert_eq!(
            parsed.entries,
            vec![
                (fragments(&[""]), "off".to_string()),
                (fragments(&["image/svg+xml"]), "1d".to_string()),
                (
                    fragments(&["text/html", "text/javascript", "application/pdf", "xml"]),
                    "epoch".to_string()
                ),
                (fragments(&["image/vnd.microsoft.icon"]), "1w".to_string()),
                (fragments(&["*"]), "1y".to_string()),
            ]
        );
        assert_eq!(parsed.differs.len(), 1, "{:?}", parsed.differs);
        assert!(parsed.differs[0].contains("dot"));
    }

    #[test]
    fn what_a_fragment_cannot_say_is_refused() {
        for (key, why) in [
            (r"~*^text/html", "anchors"),
            (r"~*text/.*", "repeats"),
            (r"~*text/[a-z]+", "classes"),
            (r"~*\w+/json", "class or an anchor"),
            (r"~*(text/html", "unclosed"),
            (r"~*text|", "every Content-Type"),
        ] {
            let error = parse(&map(&format!(
                "map $sent_http_content_type $x {{ {key} a; }}"
            )))
            .unwrap_err();
            assert!(error.contains(why), "{key}: {error}");
        }
        let error = parse(&map("map $sent_http_content_type $x { ~*json $host; }")).unwrap_err();
        assert!(error.contains("variables"), "{error}");
    }
}
