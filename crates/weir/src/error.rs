//! Errors placeholder
