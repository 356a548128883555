//! The chunked transfer coding's decoder (RFC 9112 §7.1), strict where leniency has let
//! requests be smuggled: every line ends in CRLF (a bare LF is an error), a size is 1 to 15
//! hexadecimal digits, an extension holds no control byte, the bytes after a chunk's data are
//! exactly CRLF, and the size line and trailer section are bounded. Trailers are read and
//! dropped. Data comes out as slices of the input buffer, without a copy.

use bytes::{Buf, Bytes, BytesMut};

/// The longest size line (digits and extensions) accepted.
pub const MAX_SIZE_LINE: usize = 4096;
/// The largest trailer section accepted.
pub const MAX_TRAILERS: usize = 16 * 1024;

/// What the chunked framing was wrong about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("malformed chunked body: {0}")]
pub struct ChunkError(pub &'static str);

/// One step of decoding.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Body bytes.
    Data(Bytes),
    /// The buffer is used up: read more into it and call again.
    More,
    /// The last chunk and the trailer section are in: the body is complete.
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Reading the hexadecimal size; `digits` so far.
    Size {
        digits: u8,
    },
    /// After the size: optional extensions, up to CR. `named`: a `;` was seen, so extension
    /// bytes may follow (before it, only spaces and tabs).
    Extension {
        named: bool,
        quoted: bool,
        escaped: bool,
    },
    /// CR seen at the end of the size line.
    SizeLf,
    /// Inside a chunk's data, this many bytes left.
    Data(u64),
    /// Expecting the CR after a chunk's data.
    DataCr,
    /// Expecting the LF after a chunk's data.
    DataLf,
    /// At the start of a trailer line (or of the empty line that ends the body).
    TrailerStart,
    /// Inside a trailer line's name.
    TrailerName,
    /// Inside a trailer line's value.
    Trailer,
    /// CR seen at the end of a trailer line.
    TrailerLf,
    /// CR seen on the empty line.
    EndLf,
    Done,
}

/// A chunked body being decoded.
#[derive(Debug, Clone)]
pub struct Decoder {
    state: State,
    size: u64,
    line: usize,
    trailers: usize,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new()
    }
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder {
            state: State::Size { digits: 0 },
            size: 0,
            line: 0,
            trailers: 0,
        }
    }

    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Decodes from the front of `buffer`, consuming what it uses.
    pub fn decode(&mut self, buffer: &mut BytesMut) -> Result<Step, ChunkError> {
        loop {
            if let State::Data(left) = self.state {
                if buffer.is_empty() {
                    return Ok(Step::More);
                }
                let take = usize::try_from(left)
                    .unwrap_or(usize::MAX)
                    .min(buffer.len());
                let data = buffer.split_to(take).freeze();
                let left = left - take as u64;
                self.state = if left == 0 {
                    State::DataCr
                } else {
                    State::Data(left)
                };
                return Ok(Step::Data(data));
            }
            if self.state == State::Done {
                return Ok(Step::Done);
            }
            let Some(&byte) = buffer.first() else {
                return Ok(Step::More);
            };
            buffer.advance(1);
            self.step(byte)?;
        }
    }

    fn step(&mut self, byte: u8) -> Result<(), ChunkError> {
        self.state = match self.state {
            State::Size { digits } => {
                self.line += 1;
                if let Some(value) = hex(byte) {
                    if digits >= 15 {
                        return Err(ChunkError("chunk size too large"));
                    }
                    self.size = self.size * 16 + u64::from(value);
                    State::Size { digits: digits + 1 }
                } else if digits == 0 {
                    return Err(ChunkError("chunk size"));
                } else {
                    self.extension_byte(byte, false, false, false)?
                }
            }
            State::Extension {
                named,
                quoted,
                escaped,
            } => {
                self.line += 1;
                if self.line > MAX_SIZE_LINE {
                    return Err(ChunkError("chunk size line too long"));
                }
                self.extension_byte(byte, named, quoted, escaped)?
            }
            State::SizeLf => {
                if byte != b'\n' {
                    return Err(ChunkError("CR without LF after the chunk size"));
                }
                self.line = 0;
                let size = std::mem::take(&mut self.size);
                if size == 0 {
                    State::TrailerStart
                } else {
                    State::Data(size)
                }
            }
            State::DataCr if byte == b'\r' => State::DataLf,
            State::DataLf if byte == b'\n' => State::Size { digits: 0 },
            State::DataCr | State::DataLf => {
                return Err(ChunkError("chunk data not followed by CRLF"));
            }
            State::TrailerStart => match byte {
                b'\r' => State::EndLf,
                b'\n' => return Err(ChunkError("bare LF")),
                _ if is_token(byte) => self.count_trailer(State::TrailerName)?,
                _ => return Err(ChunkError("trailer field name")),
            },
            State::TrailerName => match byte {
                b':' => self.count_trailer(State::Trailer)?,
                _ if is_token(byte) => self.count_trailer(State::TrailerName)?,
                _ => return Err(ChunkError("trailer field name")),
            },
            State::Trailer => match byte {
                b'\r' => State::TrailerLf,
                b'\n' => return Err(ChunkError("bare LF")),
                _ => {
                    visible(byte)?;
                    self.count_trailer(State::Trailer)?
                }
            },
            State::TrailerLf if byte == b'\n' => State::TrailerStart,
            State::EndLf if byte == b'\n' => State::Done,
            State::TrailerLf | State::EndLf => return Err(ChunkError("CR without LF")),
            State::Data(_) | State::Done => unreachable!("handled by decode"),
        };
        Ok(())
    }

    /// A byte after the size digits: spaces and tabs, then `;` extensions (tokens, `=`, quoted
    /// strings), then CR.
    fn extension_byte(
        &mut self,
        byte: u8,
        named: bool,
        quoted: bool,
        escaped: bool,
    ) -> Result<State, ChunkError> {
        let state = |quoted, escaped| State::Extension {
            named,
            quoted,
            escaped,
        };
        if quoted {
            return match byte {
                _ if escaped => visible(byte).map(|()| state(true, false)),
                b'\\' => Ok(state(true, true)),
                b'"' => Ok(state(false, false)),
                _ => visible(byte).map(|()| state(true, false)),
            };
        }
        match byte {
            b'\r' => Ok(State::SizeLf),
            b'\n' => Err(ChunkError("bare LF")),
            b' ' | b'\t' => Ok(state(false, false)),
            b';' => Ok(State::Extension {
                named: true,
                quoted: false,
                escaped: false,
            }),
            b'"' if named => Ok(state(true, false)),
            b'=' if named => Ok(state(false, false)),
            _ if named && is_token(byte) => Ok(state(false, false)),
            _ => Err(ChunkError("chunk extension")),
        }
    }

    /// Counts a trailer byte against [`MAX_TRAILERS`]; the state after it is `next`.
    fn count_trailer(&mut self, next: State) -> Result<State, ChunkError> {
        self.trailers += 1;
        if self.trailers > MAX_TRAILERS {
            return Err(ChunkError("trailer section too large"));
        }
        Ok(next)
    }
}

fn hex(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// A byte allowed inside a quoted string or a field line: visible ASCII, space, tab, obs-text.
fn visible(byte: u8) -> Result<(), ChunkError> {
    if byte == b'\t' || byte == b' ' || (0x21..=0x7e).contains(&byte) || byte >= 0x80 {
        Ok(())
    } else {
        Err(ChunkError("control byte"))
    }
}

/// RFC 9110's `tchar`.
fn is_token(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

#[cfg(test)]
mod tests;
