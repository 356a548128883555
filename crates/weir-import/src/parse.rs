//! nginx's config syntax: directives of words ended by `;`, blocks in `{ }`, `#` comments, single
//! and double quotes with backslash escapes, `${var}` inside words, and `include` with globs.
//! Words are kept as text (`$variables` included); nothing here knows what a directive means.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a directive was written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Source {
    pub file: Arc<str>,
    pub line: u32,
}

impl fmt::Display for Source {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}:{}", self.file, self.line)
    }
}

/// One directive: `name arg...;` or `name arg... { block }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub name: String,
    pub args: Vec<String>,
    /// The directives inside `{ }`, for a block directive.
    pub block: Option<Vec<Directive>>,
    pub source: Source,
}

/// A config that cannot be read: the file, the line and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("{at}: {message}")]
    Syntax { at: Source, message: String },
    #[error("{path}: {error}")]
    Io {
        path: String,
        #[source]
        error: std::io::Error,
    },
}

/// The most includes nested in one another; deeper is a loop (nginx has no limit but the stack).
const MAX_INCLUDE_DEPTH: usize = 16;

impl Directive {
    /// A directive written at `nginx.conf:1`, for tests.
    #[cfg(test)]
    pub(crate) fn at_line_one(
        name: &str,
        args: &[&str],
        block: Option<Vec<Directive>>,
    ) -> Directive {
        Directive {
            name: name.into(),
            args: args.iter().map(|arg| arg.to_string()).collect(),
            block,
            source: Source {
                file: "nginx.conf".into(),
                line: 1,
            },
        }
    }

    /// The directive as nginx text (one line, or a block over several), quoting what needs it.
    pub fn to_nginx(&self, indent: usize, out: &mut String) {
        out.push_str(&"    ".repeat(indent));
        out.push_str(&quote_word(&self.name));
        for arg in &self.args {
            out.push(' ');
            out.push_str(&quote_word(arg));
        }
        match &self.block {
            None => out.push_str(";\n"),
            Some(block) => {
                out.push_str(" {\n");
                for directive in block {
                    directive.to_nginx(indent + 1, out);
                }
                out.push_str(&"    ".repeat(indent));
                out.push_str("}\n");
            }
        }
    }

    /// The directive's first line, as written: `gzip_types text/css application/json`.
    pub fn summary(&self) -> String {
        let mut text = self.name.clone();
        for arg in &self.args {
            text.push(' ');
            text.push_str(&quote_word(arg));
        }
        text
    }
}

/// Directives as nginx text, for writing a changed config back out.
pub fn to_nginx(directives: &[Directive]) -> String {
    let mut out = String::new();
    for directive in directives {
        directive.to_nginx(0, &mut out);
    }
    out
}

fn quote_word(word: &str) -> String {
    // A backslash may stay bare where nginx keeps it (before a character it does not unescape).
    let chars: Vec<char> = word.chars().collect();
    let bare_backslashes = chars.iter().enumerate().all(|(index, character)| {
        *character != '\\'
            || chars
                .get(index + 1)
                .is_some_and(|next| !matches!(next, '"' | '\'' | '\\' | 't' | 'r' | 'n'))
    });
    let plain = !word.is_empty()
        && bare_backslashes
        && !word.chars().any(|character| {
            character.is_whitespace() || matches!(character, ';' | '{' | '}' | '#' | '"' | '\'')
        });
    if plain || (word.starts_with("${") && !word.contains(char::is_whitespace)) {
        return word.to_string();
    }
    let mut quoted = String::from("\"");
    for character in word.chars() {
        match character {
            '"' | '\\' => {
                quoted.push('\\');
                quoted.push(character);
            }
            _ => quoted.push(character),
        }
    }
    quoted.push('"');
    quoted
}

/// Reads `path` and every file it includes. Relative include paths are taken from the directory
/// of `path`, as nginx takes them from the directory of its main config (`-c`); one not found
/// there is looked for in nginx's configuration directory, the nearest directory above `path` that
/// holds an `nginx.conf` (`/etc/nginx` for `/etc/nginx/sites-enabled/site`), where nginx itself
/// finds it. A glob that matches nothing is fine, as in nginx; a plain path that does not exist is
/// reported by [`Include::files`] being empty, so that an import can go on without it, unless it
/// is a file an nginx package ships ([`STOCK_PROXY_PARAMS`]), which is then read as shipped.
pub fn load(path: &Path) -> Result<Loaded, ParseError> {
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let prefix = conf_prefix(&base);
    let mut loaded = Loaded {
        conf_dir: prefix
            .clone()
            .or_else(|| base.canonicalize().ok())
            .or_else(|| Path::new(".").canonicalize().ok()),
        ..Loaded::default()
    };
    let directives = load_file(path, &Dirs { base, prefix }, 0, &mut loaded.includes)?;
    loaded.directives = directives;
    Ok(loaded)
}

/// What Debian's and Ubuntu's nginx packages ship as `/etc/nginx/proxy_params`, which the Django
/// guides include (`include proxy_params;`). Newer Debian packages send `Host $host` (without the
/// client's port) in its place.
pub const STOCK_PROXY_PARAMS: &str = "proxy_set_header Host $http_host;
proxy_set_header X-Real-IP $remote_addr;
proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
proxy_set_header X-Forwarded-Proto $scheme;
";

/// The name the stock `proxy_params`'s directives are cited by.
const STOCK_PROXY_PARAMS_SOURCE: &str = "<debian>/etc/nginx/proxy_params";

/// Where relative include paths are looked for: the main file's directory, then nginx's
/// configuration directory when it is another one.
struct Dirs {
    base: PathBuf,
    prefix: Option<PathBuf>,
}

/// The nearest of `dir` and the directories above it that holds an `nginx.conf`.
fn conf_prefix(dir: &Path) -> Option<PathBuf> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let dir = dir.canonicalize().ok()?;
    dir.ancestors()
        .find(|ancestor| ancestor.join("nginx.conf").is_file())
        .map(Path::to_path_buf)
}

/// A config read with its includes.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The directives, with each `include` replaced by the directives of the files it names.
    pub directives: Vec<Directive>,
    /// Every `include` met, in order.
    pub includes: Vec<Include>,
    /// nginx's configuration directory, which relative file paths (`auth_basic_user_file`) are
    /// taken from: the nearest directory above the file read that holds an `nginx.conf`, else
    /// that file's directory; `None` for text read without a file.
    pub conf_dir: Option<PathBuf>,
}

/// One `include` directive and what it brought in.
#[derive(Debug, Clone)]
pub struct Include {
    pub directive: Directive,
    pub files: Vec<PathBuf>,
    /// No file was found, and the directives read are what an nginx package ships under its name
    /// ([`STOCK_PROXY_PARAMS`]).
    pub stock: bool,
}

fn load_file(
    path: &Path,
    dirs: &Dirs,
    depth: usize,
    includes: &mut Vec<Include>,
) -> Result<Vec<Directive>, ParseError> {
    let text = std::fs::read_to_string(path).map_err(|error| ParseError::Io {
        path: path.display().to_string(),
        error,
    })?;
    let directives = parse_str(&text, &path.display().to_string())?;
    expand(directives, dirs, depth, includes)
}

fn expand(
    directives: Vec<Directive>,
    dirs: &Dirs,
    depth: usize,
    includes: &mut Vec<Include>,
) -> Result<Vec<Directive>, ParseError> {
    let mut out = Vec::with_capacity(directives.len());
    for mut directive in directives {
        if directive.name == "include" && directive.block.is_none() {
            let [pattern] = directive.args.as_slice() else {
                return Err(ParseError::Syntax {
                    at: directive.source.clone(),
                    message: "include takes one file name or glob".to_string(),
                });
            };
            if depth >= MAX_INCLUDE_DEPTH {
                return Err(ParseError::Syntax {
                    at: directive.source.clone(),
                    message: format!(
                        "includes nested more than {MAX_INCLUDE_DEPTH} deep (an include loop?)"
                    ),
                });
            }
            let mut files = if Path::new(pattern).is_absolute() {
                include_files(Path::new(pattern))
            } else {
                include_files(&dirs.base.join(pattern))
            };
            if files.is_empty() && Path::new(pattern).is_relative() {
                if let Some(prefix) = dirs.prefix.as_ref().filter(|prefix| **prefix != dirs.base) {
                    files = include_files(&prefix.join(pattern));
                }
            }
            let stock =
                files.is_empty() && Path::new(pattern).file_name() == Some("proxy_params".as_ref());
            includes.push(Include {
                directive: directive.clone(),
                files: files.clone(),
                stock,
            });
            for file in &files {
                out.extend(load_file(file, dirs, depth + 1, includes)?);
            }
            if stock {
                out.extend(parse_str(STOCK_PROXY_PARAMS, STOCK_PROXY_PARAMS_SOURCE)?);
            }
            continue;
        }
        if let Some(block) = directive.block.take() {
            directive.block = Some(expand(block, dirs, depth, includes)?);
        }
        out.push(directive);
    }
    Ok(out)
}

/// The files an include names, sorted as nginx sorts a glob's matches.
fn include_files(full: &Path) -> Vec<PathBuf> {
    let text = full.to_string_lossy();
    if !text.contains(['*', '?', '[']) {
        return if full.is_file() {
            vec![full.to_path_buf()]
        } else {
            Vec::new()
        };
    }
    // glob(3), which nginx calls, lets no wildcard match a leading dot: `conf.d/*.conf` skips
    // `.old.conf`, which is how some projects switch a site off.
    let options = glob::MatchOptions {
        require_literal_leading_dot: true,
        ..glob::MatchOptions::new()
    };
    let mut files: Vec<PathBuf> = glob::glob_with(&text, options)
        .map(|paths| {
            paths
                .filter_map(Result::ok)
                .filter(|path| path.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Parses one file's text; `file` names it in sources and errors.
pub fn parse_str(text: &str, file: &str) -> Result<Vec<Directive>, ParseError> {
    let file: Arc<str> = Arc::from(file);
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        position: 0,
        line: 1,
        file: Arc::clone(&file),
    };
    let directives = parse_block(&mut lexer, None)?;
    Ok(directives)
}

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Semicolon,
    Open,
    Close,
}

struct Lexer {
    chars: Vec<char>,
    position: usize,
    line: u32,
    file: Arc<str>,
}

impl Lexer {
    fn source(&self, line: u32) -> Source {
        Source {
            file: Arc::clone(&self.file),
            line,
        }
    }

    fn error(&self, line: u32, message: impl Into<String>) -> ParseError {
        ParseError::Syntax {
            at: self.source(line),
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.position).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let character = self.peek()?;
        self.position += 1;
        if character == '\n' {
            self.line += 1;
        }
        Some(character)
    }

    /// The next token and the line it starts on; `None` at the end of the text.
    fn next(&mut self) -> Result<Option<(Token, u32)>, ParseError> {
        loop {
            match self.peek() {
                None => return Ok(None),
                Some(character) if character.is_whitespace() => {
                    self.bump();
                }
                Some('#') => {
                    while let Some(character) = self.bump() {
                        if character == '\n' {
                            break;
                        }
                    }
                }
                Some(_) => break,
            }
        }
        let line = self.line;
        let token = match self.peek() {
            Some(';') => {
                self.bump();
                Token::Semicolon
            }
            Some('{') => {
                self.bump();
                Token::Open
            }
            Some('}') => {
                self.bump();
                Token::Close
            }
            Some(quote @ ('"' | '\'')) => {
                self.bump();
                let mut word = String::new();
                loop {
                    match self.bump() {
                        None => {
                            return Err(self
                                .error(line, format!("unterminated {quote}quoted string{quote}")))
                        }
                        Some('\\') => match self.bump() {
                            None => return Err(self.error(line, "unterminated quoted string")),
                            Some(escaped) => word.push_str(&unescape(escaped)),
                        },
                        Some(character) if character == quote => break,
                        Some(character) => word.push(character),
                    }
                }
                // nginx wants a separator after a closing quote; `)` counts as one (it starts
                // the next word), so `if ($host != "example.com")` reads as nginx reads it
                // (ngx_conf_read_token: `need_space` is cleared by ')').
                if let Some(next) = self.peek() {
                    if !(next.is_whitespace() || matches!(next, ';' | '{' | '}' | ')')) {
                        return Err(self.error(
                            self.line,
                            format!("unexpected \"{next}\" after a quoted string; put a space or ';' after the closing quote"),
                        ));
                    }
                }
                Token::Word(word)
            }
            Some(_) => {
                let mut word = String::new();
                while let Some(character) = self.peek() {
                    if character.is_whitespace() || matches!(character, ';' | '}') {
                        break;
                    }
                    if character == '{' {
                        // `${var}` belongs to the word; any other brace opens a block.
                        if !word.ends_with('$') {
                            break;
                        }
                        while let Some(inner) = self.bump() {
                            word.push(inner);
                            if inner == '}' {
                                break;
                            }
                        }
                        continue;
                    }
                    self.bump();
                    if character == '\\' {
                        match self.bump() {
                            Some(escaped) => word.push_str(&unescape(escaped)),
                            None => word.push('\\'),
                        }
                        continue;
                    }
                    word.push(character);
                }
                Token::Word(word)
            }
            None => return Ok(None),
        };
        Ok(Some((token, line)))
    }
}

/// nginx turns `\"`, `\'`, `\\`, `\t`, `\r`, `\n` into the character; any other escaped character
/// keeps its backslash (so a regex's `\.` stays `\.`).
fn unescape(escaped: char) -> String {
    match escaped {
        '"' | '\'' | '\\' => escaped.to_string(),
        't' => "\t".to_string(),
        'r' => "\r".to_string(),
        'n' => "\n".to_string(),
        other => format!("\\{other}"),
    }
}

/// Directives up to the end of the text (`opened` is `None`) or up to the `}` closing the block
/// opened on line `opened`.
fn parse_block(lexer: &mut Lexer, opened: Option<u32>) -> Result<Vec<Directive>, ParseError> {
    let mut directives = Vec::new();
    loop {
        let Some((token, line)) = lexer.next()? else {
            return match opened {
                None => Ok(directives),
                Some(opened) => Err(lexer.error(
                    lexer.line,
                    format!("unexpected end of file: the block opened on line {opened} is not closed with '}}'"),
                )),
            };
        };
        let name = match token {
            Token::Word(name) => name,
            Token::Close => {
                return match opened {
                    Some(_) => Ok(directives),
                    None => Err(lexer.error(line, "unexpected '}' with no block open")),
                }
            }
            Token::Semicolon => {
                return Err(lexer.error(line, "unexpected ';' where a directive name was expected"))
            }
            Token::Open => {
                return Err(lexer.error(line, "unexpected '{' where a directive name was expected"))
            }
        };
        let mut args = Vec::new();
        loop {
            match lexer.next()? {
                Some((Token::Word(word), _)) => args.push(word),
                Some((Token::Semicolon, _)) => {
                    directives.push(Directive {
                        name,
                        args,
                        block: None,
                        source: lexer.source(line),
                    });
                    break;
                }
                Some((Token::Open, _)) => {
                    let block = parse_block(lexer, Some(line))?;
                    directives.push(Directive {
                        name,
                        args,
                        block: Some(block),
                        source: lexer.source(line),
                    });
                    break;
                }
                Some((Token::Close, close_line)) => {
                    return Err(lexer.error(
                        close_line,
                        format!("unexpected '}}': directive \"{name}\" is not ended with ';'"),
                    ))
                }
                None => {
                    return Err(lexer.error(
                        lexer.line,
                        format!("unexpected end of file: directive \"{name}\" (line {line}) is not ended with ';' or '{{'"),
                    ))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
