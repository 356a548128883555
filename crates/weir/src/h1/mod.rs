//! weir's own HTTP/1.1 server side: the request head parser ([`head`], on `httparse`), the
//! chunked decoder ([`chunked`]), the request body ([`body`]), the response writer ([`write`],
//! with `splice.rs` for bodies passed through untouched) and the connection loop ([`conn`]) that
//! ties them together, one task per connection.
//!
//! Why not hyper's server: it keeps an 8 KiB read buffer and a write buffer per connection even
//! while idle, and a request crosses more machinery than a proxy needs. Here an idle connection
//! owns no buffer (heads are read into per-thread scratch space), and the request phase exists
//! (boxed) only while a request runs.

pub mod body;
pub mod chunked;
pub mod conn;
pub mod head;
pub mod io;
pub mod park;
mod splice;
pub mod write;

pub use body::BodyReader;
pub use conn::{serve, Idle, Settings, Start};
