//! Serde mirror of the TOML file (placeholder, being written).
use std::path::Path;
use super::Config;

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

pub fn from_toml(_text: &str, _source: Option<&Path>) -> Result<Config, ConfigError> {
    Err(ConfigError("not yet".into()))
}

pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError(e.to_string()))?;
    from_toml(&text, Some(path))
}
