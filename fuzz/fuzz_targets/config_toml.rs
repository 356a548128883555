//! Whole-config parsing: `weir::config::from_toml`, what `weir check` and `weir run` read.
//!
//! Input: any text.
//!
//! Properties:
//! - an error names its place as `<string>:LINE:COLUMN: ` with a line and column inside the text,
//!   and is one line (a newline in it would let a config value forge lines in `weir check`'s
//!   output or a log);
//! - a config accepted is consistent: at least one listen address, every route's path starts with
//!   '/' and names an upstream that exists (or a directory), every limit it names exists, every
//!   upstream has a server; its summary can be written; parsing is deterministic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use weir::config::{from_toml, ConfigErrorKind};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match from_toml(text, None) {
        Err(error) => {
            assert_ne!(error.kind(), ConfigErrorKind::Io);
            let (Some(line), Some(column)) = (error.line(), error.column()) else {
                panic!("no position in {error:?}");
            };
            let lines = text.split('\n').count();
            assert!(
                line >= 1 && line <= lines,
                "line {line} of {lines}: {error}"
            );
            let line_text = text.split('\n').nth(line - 1).unwrap_or_default();
            assert!(
                column >= 1 && column <= line_text.chars().count() + 1,
                "column {column} of {line_text:?}: {error}"
            );
            let rendered = error.to_string();
            assert!(
                rendered.starts_with(&format!("<string>:{line}:{column}: ")),
                "{rendered:?}"
            );
            assert!(
                !rendered.contains(['\n', '\r']),
                "a config error spans lines: {rendered:?}"
            );
        }
        Ok(config) => {
            assert!(!config.server.listen.is_empty());
            for route in &config.routes {
                assert!(route.path.starts_with('/'), "{route:?}");
                match &route.static_root {
                    Some(_) => assert!(route.upstream.is_empty(), "{route:?}"),
                    None => assert!(config.upstreams.contains_key(&route.upstream), "{route:?}"),
                }
                for limit in &route.limits {
                    assert!(config.limits.contains_key(limit), "{route:?}");
                }
                for limit in &route.connection_limits {
                    assert!(config.connection_limits.contains_key(limit), "{route:?}");
                }
            }
            for (name, upstream) in &config.upstreams {
                assert!(
                    !upstream.servers.is_empty(),
                    "upstream {name} has no server"
                );
            }
            assert!(!config.summary().is_empty());
            assert_eq!(
                from_toml(text, None).as_ref(),
                Ok(&config),
                "parsing is deterministic"
            );
        }
    }
});
