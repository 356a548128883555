//! A negative look-ahead of literals at the end of a location's regex, written out without one.
//!
//! nginx's PCRE has `(?!...)`; weir's regexes (the `regex` crate, linear time) do not. The form
//! real configs use, `location ~ /\.(?!well-known) { deny all; }` (every dot-file but
//! `/.well-known/`), is regular all the same: "not followed by `well-known`" is "followed by the
//! end, or by a first character other than `w`, or by `w` and then not `ell-known`", and so on
//! down the literal. [`expand`] writes that out for a look-ahead of literal alternatives
//! (`(?!a|b)`) that ends the pattern (or is followed by `.*`, which matches anything anyway).

/// `pattern` with its final negative look-ahead of literals written as a regex weir takes, or
/// `None` when it has another form. `nocase`: the route matches without regard to case (`~*`),
/// so the literals' letters are compared so too.
pub(super) fn expand(pattern: &str, nocase: bool) -> Option<String> {
    let start = pattern.find("(?!")?;
    let head = &pattern[..start];
    if head.contains("(?") {
        return None;
    }
    let rest = &pattern[start + 3..];
    let (alternatives, tail) = literals(rest)?;
    if !matches!(tail, "" | ".*" | ".*$") {
        return None;
    }
    let alternatives: Vec<Vec<char>> = alternatives
        .into_iter()
        .map(|literal| {
            if nocase {
                literal.iter().flat_map(|c| c.to_lowercase()).collect()
            } else {
                literal
            }
        })
        .collect();
    // `(?!)` with an empty alternative never matches: nothing to write out.
    if alternatives.iter().any(Vec::is_empty) {
        return None;
    }
    let refs: Vec<&[char]> = alternatives.iter().map(Vec::as_slice).collect();
    Some(format!("{head}{}", not_starting_with(&refs)?))
}

/// The literal alternatives of a look-ahead's body (`well-known\/|acme`), up to its `)`, and what
/// follows it; `None` when the body has anything but literal characters, escaped punctuation and
/// `|`.
fn literals(body: &str) -> Option<(Vec<Vec<char>>, &str)> {
    let mut alternatives = vec![Vec::new()];
    let mut chars = body.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ')' => return Some((alternatives, &body[at + 1..])),
            '|' => alternatives.push(Vec::new()),
            '\\' => {
                let (_, escaped) = chars.next()?;
                if !escaped.is_ascii_punctuation() {
                    return None;
                }
                alternatives.last_mut()?.push(escaped);
            }
            '.' | '*' | '+' | '?' | '(' | '[' | ']' | '{' | '}' | '^' | '$' => return None,
            c => alternatives.last_mut()?.push(c),
        }
    }
    None
}

/// A regex that matches, at a position, exactly when the text there does not start with any of
/// `literals`: the end of the text, a first character none of them starts with, or a first
/// character one does and then (recursively) none of their rests. `None` when it cannot match
/// (a literal is empty: every text starts with it).
fn not_starting_with(literals: &[&[char]]) -> Option<String> {
    if literals.iter().any(|literal| literal.is_empty()) {
        return None;
    }
    let mut firsts: Vec<char> = literals.iter().map(|literal| literal[0]).collect();
    firsts.sort_unstable();
    firsts.dedup();
    let mut options = vec!["$".to_string()];
    let class: String = firsts.iter().map(|&c| escaped(c)).collect();
    options.push(format!("[^{class}]"));
    for first in firsts {
        let rests: Vec<&[char]> = literals
            .iter()
            .filter(|literal| literal[0] == first)
            .map(|literal| &literal[1..])
            .collect();
        if let Some(rest) = not_starting_with(&rests) {
            options.push(format!("{}{rest}", escaped(first)));
        }
    }
    Some(format!("(?:{})", options.join("|")))
}

/// `c` as a regex (or class) character: punctuation escaped, anything else as it is.
fn escaped(c: char) -> String {
    if c.is_ascii_punctuation() {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What PCRE's `(?!...)` does, by hand: some position where `head` matches and the text after
    /// it starts with none of `literals`.
    fn by_hand(head: &regex::Regex, literals: &[&str], path: &str, nocase: bool) -> bool {
        head.find_iter(path).any(|found| {
            let after = &path[found.end()..];
            !literals.iter().any(|literal| {
                if nocase {
                    after.to_lowercase().starts_with(&literal.to_lowercase())
                } else {
                    after.starts_with(literal)
                }
            })
        })
    }

    #[test]
    fn a_final_look_ahead_of_literals_matches_what_pcre_matches() {
        let paths = [
            "/.env",
            "/.git/config",
            "/static/.htaccess",
            "/.well-known/acme-challenge/token",
            "/.well-known",
            "/.well-knownx",
            "/.well-know",
            "/.Well-Known/x",
            "/.well-known/.secret",
            "/.acme",
            "/.acm",
            "/app.css",
            "/",
            "/./",
            "/.",
        ];
        let cases: [(&str, &str, &[&str], bool); 4] = [
            (r"/\.(?!well-known)", r"/\.", &["well-known"], false),
            (r"/\.(?!well-known\/)", r"/\.", &["well-known/"], true),
            (
                r"/\.(?!well-known|acme).*",
                r"/\.",
                &["well-known", "acme"],
                false,
            ),
            (
                r"^/\.(?!well-known/|acme)",
                r"^/\.",
                &["well-known/", "acme"],
                true,
            ),
        ];
        for (pattern, head, literals, nocase) in cases {
            let expanded = expand(pattern, nocase).unwrap_or_else(|| panic!("{pattern}"));
            let weir = regex::RegexBuilder::new(&expanded)
                .case_insensitive(nocase)
                .build()
                .unwrap_or_else(|error| panic!("{expanded}: {error}"));
            let head = regex::RegexBuilder::new(head)
                .case_insensitive(nocase)
                .build()
                .unwrap();
            for path in paths {
                assert_eq!(
                    weir.is_match(path),
                    by_hand(&head, literals, path, nocase),
                    "{pattern} (written {expanded}) on {path}"
                );
            }
        }
    }

    #[test]
    fn other_look_aheads_are_left_as_they_are() {
        for pattern in [
            r"^/(?!admin)x",
            r"/(?!a.b)",
            r"/(?!a)(?!b)",
            r"/(?=a)",
            r"/(?!)",
            r"/(?!a",
            r"/(?!\d)",
        ] {
            assert_eq!(expand(pattern, false), None, "{pattern}");
        }
    }
}
