//! weir's own HTTP/1.1 server side: the request head parser ([`head`], on `httparse`), the
//! chunked decoder ([`chunked`]), the request body (`body`), the response writer (`write`,
//! with `splice.rs` for bodies passed through untouched) and the connection loop (`conn`) that
//! ties them together, one task per connection.
//!
//! Why not hyper's server: it keeps an 8 KiB read buffer and a write buffer per connection even
//! while idle, and a request crosses more machinery than a proxy needs. Here an idle connection
//! owns no buffer (heads are read into per-thread scratch space), and the request phase exists
//! (boxed) only while a request runs.

mod body;
pub mod chunked;
mod conn;
pub mod head;
mod io;
pub(crate) mod park;
mod splice;
mod write;

pub(crate) use body::BodyReader;
pub(crate) use conn::{serve, ProxyInForce, Settings, Start};
