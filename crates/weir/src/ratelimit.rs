//! Rate limiting placeholder
