//! A redirect's `Location` as a route gives it (`redirect`, nginx `return 301 URL`), where
//! `$host`, `$request_uri` and `$scheme` are the request's: parsed when the config is read, filled
//! in for each request by `answer.rs`. Nothing else of nginx's variables is evaluated.

use std::fmt;

use http::{HeaderValue, Uri};

/// A `Location` with the request's variables still to fill in, parsed when the config is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// As the config wrote it, for messages and `weir check`.
    text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    /// nginx `$host`: the request's host in lower case, without port.
    Host,
    /// nginx `$request_uri`: the path and query as the client sent them.
    RequestUri,
    /// nginx `$scheme`: `https` on a TLS listener, else `http`.
    Scheme,
}

impl Template {
    /// Reads `https://$host$request_uri` or `https://${host}/new`; any other variable is an error
    /// that says which ones are known.
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(dollar) = rest.find('$') {
            literal.push_str(&rest[..dollar]);
            let after = &rest[dollar + 1..];
            let (name, remainder) = match after.strip_prefix('{') {
                Some(braced) => match braced.find('}') {
                    Some(end) => (&braced[..end], &braced[end + 1..]),
                    None => return Err(format!("unclosed \"${{\" in {text:?}")),
                },
                None => {
                    let end = after
                        .find(|character: char| {
                            !(character.is_ascii_alphanumeric() || character == '_')
                        })
                        .unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            let part = match name {
                "host" => Part::Host,
                "request_uri" => Part::RequestUri,
                "scheme" => Part::Scheme,
                _ => {
                    return Err(format!(
                        "only $host, $request_uri and $scheme are evaluated in a redirect, found ${name} in {text:?}"
                    ))
                }
            };
            if !literal.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut literal)));
            }
            parts.push(part);
            rest = remainder;
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        let texts_valid = parts.iter().all(|part| match part {
            Part::Text(text) => HeaderValue::from_str(text).is_ok(),
            _ => true,
        });
        if parts.is_empty() || !texts_valid {
            return Err(format!(
                "expected a URL such as \"https://$host$request_uri\" (visible ASCII), found {text:?}"
            ));
        }
        Ok(Template {
            text: text.to_string(),
            parts,
        })
    }

    /// The template as the config wrote it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The `Location` for one request; `secure` when it came on a TLS listener.
    pub fn render(&self, host: &str, uri: &Uri, secure: bool) -> String {
        let mut location = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => location.push_str(text),
                Part::Host => location.push_str(host),
                Part::RequestUri => {
                    location.push_str(uri.path_and_query().map_or("/", |pq| pq.as_str()))
                }
                Part::Scheme => location.push_str(if secure { "https" } else { "http" }),
            }
        }
        location
    }
}

impl fmt::Display for Template {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_filled_in_braced_or_not() {
        let uri: Uri = "/a/b?x=1".parse().unwrap();
        let plain = Template::parse("https://$host$request_uri").unwrap();
        assert_eq!(plain.render("h", &uri, false), "https://h/a/b?x=1");
        let braced = Template::parse("${scheme}://${host}/new").unwrap();
        assert_eq!(braced.render("h", &uri, false), "http://h/new");
        assert_eq!(braced.render("h", &uri, true), "https://h/new");
        assert_eq!(braced.to_string(), "${scheme}://${host}/new");
    }

    #[test]
    fn unknown_variables_are_refused_with_the_known_ones_named() {
        let error = Template::parse("https://$server_name$uri").unwrap_err();
        assert!(error.contains("$server_name"), "{error}");
        assert!(error.contains("$request_uri"), "{error}");
        assert!(Template::parse("https://${host").is_err());
        assert!(Template::parse("").is_err());
    }
}
