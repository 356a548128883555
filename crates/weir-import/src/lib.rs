//! `weir import`: reads an nginx config and writes the weir config that does the same, with a
//! report of what was translated, what was approximated (and how) and what is not supported (and
//! why). A pure library: text and paths in, TOML text and a report out; the CLI owns the rest.

pub mod parse;
pub mod report;
mod toml_out;
mod translate;

use std::path::Path;

pub use parse::{Directive, ParseError, Source};
pub use report::{Item, Kind, Report};

/// The result of an import.
#[derive(Debug)]
pub struct Import {
    /// The weir config, every key commented with its nginx source.
    pub toml: String,
    pub report: Report,
}

/// Imports the nginx config at `path` and every file it includes.
pub fn import(path: &Path) -> Result<Import, ParseError> {
    let loaded = parse::load(path)?;
    Ok(translate::translate(&loaded))
}

/// Imports nginx config text (no includes are read: each `include` is reported as not found).
pub fn import_str(text: &str, name: &str) -> Result<Import, ParseError> {
    let directives = parse::parse_str(text, name)?;
    let mut includes = Vec::new();
    let directives = strip_includes(directives, &mut includes);
    Ok(translate::translate(&parse::Loaded {
        directives,
        includes,
        conf_dir: None,
    }))
}

fn strip_includes(
    directives: Vec<Directive>,
    includes: &mut Vec<parse::Include>,
) -> Vec<Directive> {
    let mut out = Vec::with_capacity(directives.len());
    for mut directive in directives {
        if directive.name == "include" && directive.block.is_none() {
            includes.push(parse::Include {
                directive,
                files: Vec::new(),
                stock: false,
            });
            continue;
        }
        if let Some(block) = directive.block.take() {
            directive.block = Some(strip_includes(block, includes));
        }
        out.push(directive);
    }
    out
}
