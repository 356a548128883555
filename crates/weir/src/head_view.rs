//! Request and response heads kept as bytes (issue 18 point 1): the head's own bytes, as the
//! client (or the upstream) sent them, with a small index of its header fields (name and value
//! ranges from `httparse`), and the lines weir adds in a buffer of their own. Every phase reads
//! the request's headers from this view, header rules and the forwarding headers are edits of it
//! (a field marked removed, a line added), and the upstream request is written from it
//! ([`Headers::write_to`]): each run of the client's lines that passed unchanged as one slice of
//! its bytes, then weir's lines. A response is the same ([`ResponseHead`]): the upstream's lines
//! less hop-by-hop, then weir's, written by the HTTP/1 writer ([`Headers::write_into`]); weir's
//! own answers are views with weir's lines only. No `http::HeaderMap`, `http::Request` or
//! `http::Response` is built on the HTTP/1 path. HTTP/2 makes the same view from hyper's map at
//! its edge ([`Headers::from_map`], [`Response::into_http`] back). Pure: it imports nothing of
//! weir.

use std::cell::RefCell;

use bytes::{BufMut, Bytes, BytesMut};
use http::{HeaderMap, Method, StatusCode, Uri, Version};

/// One header field of the view: ranges of its name and value in the head's bytes (or, for a
/// line weir added, in the added buffer).
#[derive(Debug, Clone, Copy)]
struct Field {
    name_start: u32,
    name_end: u32,
    value_start: u32,
    value_end: u32,
    /// [`REMOVED`], [`ADDED`], [`HOP_BY_HOP`].
    flags: u8,
    /// The name's first byte in lower case (0 for an empty name): a name asked for is
    /// compared only with fields of its length and first byte (in the padding of the
    /// ranges, so it costs no room).
    first: u8,
}

#[cfg(test)]
thread_local! {
    /// How many names this thread compared byte by byte with one asked for: the tests count them.
    static COMPARES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The first byte of `name` in lower case, 0 for an empty one ([`Field::first`]).
fn first_byte(name: &[u8]) -> u8 {
    name.first().map_or(0, u8::to_ascii_lowercase)
}

/// The field was removed: it is neither read nor written.
const REMOVED: u8 = 1;
/// The field is one of weir's lines, in the added buffer (`name: value\r\n`).
const ADDED: u8 = 2;
/// The field is hop-by-hop, as the parser that read its name found ([`Headers::note_hop_by_hop`]).
const HOP_BY_HOP: u8 = 4;

/// Spare indexes and added buffers a thread keeps at most, and the most a kept one may hold.
const SPARES: usize = 8;
const SPARE_FIELDS: usize = 256;
const SPARE_ADDED: usize = 4096;

/// Indexes and added buffers of heads that are gone, cleared, for the next heads of this thread: a
/// head's index and buffer cost an allocation per thread, not per request. (One thread-local for
/// both, so that a head that gives both back looks this thread's spares up once.)
struct SpareBuffers {
    indexes: Vec<Vec<Field>>,
    added: Vec<Vec<u8>>,
}

thread_local! {
    static SPARE_BUFFERS: RefCell<SpareBuffers> = const {
        RefCell::new(SpareBuffers { indexes: Vec::new(), added: Vec::new() })
    };
}

fn take_spare<T>(pick: impl FnOnce(&mut SpareBuffers) -> &mut Vec<T>) -> Option<T> {
    SPARE_BUFFERS
        .try_with(|spares| pick(&mut spares.borrow_mut()).pop())
        .ok()
        .flatten()
}

/// A head's header fields as a view of its bytes: see [the module](self).
#[derive(Default, Clone)]
pub struct Headers {
    /// The head's bytes (a request line may come first: the fields' ranges say where they are).
    bytes: Bytes,
    /// The fields in order: the head's own first, then those weir added.
    fields: Vec<Field>,
    /// Weir's lines, `name: value\r\n` each.
    added: Vec<u8>,
    /// Where the last of the head's own lines ends (its CRLF included).
    fields_end: u32,
    /// Whether every one of the head's lines ends in CRLF, so that its lines may be written as
    /// they came; else each kept field is written as `name: value\r\n` (a line ended by a bare
    /// LF is not passed on).
    raw: bool,
    /// The lengths of the names that may be among the fields (bit `n` for a name of `n` bytes,
    /// bit 63 for any longer; never cleared by a removal): asking for a name of a length no
    /// field has scans no field, and most names weir asks for are not there.
    lengths: u64,
    /// Whether the parser that read the names said which of the head's own fields are
    /// hop-by-hop ([`Headers::note_hop_by_hop`], fields flagged [`HOP_BY_HOP`]), and no line was
    /// added since. (A flag and a bool in the padding: the view, which the request's futures
    /// hold, is no larger for them.)
    hop_by_hop_noted: bool,
}

impl Drop for Headers {
    fn drop(&mut self) {
        let keep_fields = (1..=SPARE_FIELDS).contains(&self.fields.capacity());
        let keep_added = (1..=SPARE_ADDED).contains(&self.added.capacity());
        // Most heads dropped have neither (a response head written from its parts, a default
        // one): they do not look the spares up at all.
        if keep_fields || keep_added {
            self.give_back(keep_fields, keep_added);
        }
    }
}

impl Headers {
    /// Gives the index and the added buffer back to this thread's spares, cleared (those `keep`
    /// says), while it keeps fewer than [`SPARES`] of each; what is not given back is freed with
    /// the view.
    #[inline(never)]
    fn give_back(&mut self, keep_fields: bool, keep_added: bool) {
        let _ = SPARE_BUFFERS.try_with(|spares| {
            let mut spares = spares.borrow_mut();
            if keep_fields && spares.indexes.len() < SPARES {
                let mut fields = std::mem::take(&mut self.fields);
                fields.clear();
                spares.indexes.push(fields);
            }
            if keep_added && spares.added.len() < SPARES {
                let mut added = std::mem::take(&mut self.added);
                added.clear();
                spares.added.push(added);
            }
        });
    }
}

impl std::fmt::Debug for Headers {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_map()
            .entries(self.iter().map(|(name, value)| {
                (
                    String::from_utf8_lossy(name),
                    String::from_utf8_lossy(value),
                )
            }))
            .finish()
    }
}

/// The bit of [`Headers::lengths`] for a name of `length` bytes.
fn length_bit(length: usize) -> u64 {
    1 << length.min(63)
}

/// Offset of `part` in `base` (a slice of it).
fn offset(base: &[u8], part: &[u8]) -> u32 {
    let offset = (part.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize);
    debug_assert!(offset <= base.len());
    u32::try_from(offset).unwrap_or(u32::MAX)
}

/// An empty index with room for `count` fields: a spare one of this thread when there is one.
fn index(count: usize) -> Vec<Field> {
    match take_spare(|spares| &mut spares.indexes) {
        Some(mut fields) => {
            fields.reserve(count);
            fields
        }
        None => Vec::with_capacity(count.max(16)),
    }
}

impl Headers {
    /// The view of a head parsed by `httparse` from `head` (`lines` are slices of it), whose
    /// bytes `bytes` holds (a copy of `head`, so the ranges are the same). The ranges are 32-bit:
    /// `h1::head::parse` refuses a head of 4 GiB or more, whatever `max_header_size` says.
    pub fn parsed(bytes: Bytes, head: &[u8], lines: &[httparse::Header<'_>]) -> Headers {
        let mut fields = index(lines.len());
        let mut lengths = 0;
        // The head ends with the blank line: CRLF CRLF when every line is ended by CRLF, which
        // is looked at before each field's name but the first (the request or status line is
        // not written from these bytes).
        let ends_in_crlf = |end: usize| end >= 2 && &head[end - 2..end] == b"\r\n";
        let mut raw = head.ends_with(b"\r\n\r\n");
        for line in lines {
            lengths |= length_bit(line.name.len());
            let name_start = offset(head, line.name.as_bytes());
            raw &= fields.is_empty() || ends_in_crlf(name_start as usize);
            let value_start = offset(head, line.value);
            fields.push(Field {
                name_start,
                name_end: name_start + line.name.len() as u32,
                value_start,
                value_end: value_start + line.value.len() as u32,
                flags: 0,
                first: first_byte(line.name.as_bytes()),
            });
        }
        let fields_end = head.len().saturating_sub(2) as u32;
        Headers {
            bytes,
            fields,
            added: Vec::new(),
            fields_end,
            raw,
            lengths,
            hop_by_hop_noted: false,
        }
    }

    /// Gives the view the bytes of the head it was [`Headers::parsed`] from, when they could not
    /// be had before (it was parsed with `Bytes::new()`): the upstream's response head is parsed
    /// in the connection's read buffer and cut off it once the parser's lines, which borrow the
    /// buffer, are gone. `bytes` begin where the head did and hold it whole.
    pub fn set_parsed_bytes(&mut self, bytes: Bytes) {
        debug_assert!(bytes.len() >= self.fields_end as usize);
        self.bytes = bytes;
    }

    /// The bytes of the head the view was made from: a parsed head's whole (its first line and
    /// blank line too), a map's fields as `name: value\r\n` lines. Lines weir added or removed
    /// since do not count.
    pub fn head_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// The view of `map`'s fields (HTTP/2's edge, and tests): its lines written into one buffer.
    pub fn from_map(map: &HeaderMap) -> Headers {
        let length = map
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
        let mut bytes = BytesMut::with_capacity(length);
        let mut fields = index(map.len());
        let mut lengths = 0;
        for (name, value) in map {
            lengths |= length_bit(name.as_str().len());
            let name_start = bytes.len() as u32;
            bytes.put_slice(name.as_str().as_bytes());
            let name_end = bytes.len() as u32;
            bytes.put_slice(b": ");
            let value_start = bytes.len() as u32;
            bytes.put_slice(value.as_bytes());
            let value_end = bytes.len() as u32;
            bytes.put_slice(b"\r\n");
            fields.push(Field {
                name_start,
                name_end,
                value_start,
                value_end,
                flags: 0,
                first: first_byte(name.as_str().as_bytes()),
            });
        }
        let fields_end = bytes.len() as u32;
        Headers {
            bytes: bytes.freeze(),
            fields,
            added: Vec::new(),
            fields_end,
            raw: true,
            lengths,
            hop_by_hop_noted: false,
        }
    }

    /// A copy as an `http::HeaderMap` (fields whose name or value `http` refuses are left out).
    pub fn to_map(&self) -> HeaderMap {
        let mut map = HeaderMap::with_capacity(self.len());
        for (name, value) in self.iter() {
            if let (Ok(name), Ok(value)) = (
                http::HeaderName::from_bytes(name),
                http::HeaderValue::from_bytes(value),
            ) {
                map.append(name, value);
            }
        }
        map
    }

    fn name_of(&self, field: &Field) -> &[u8] {
        let range = field.name_start as usize..field.name_end as usize;
        if field.flags & ADDED != 0 {
            &self.added[range]
        } else {
            &self.bytes[range]
        }
    }

    fn value_of(&self, field: &Field) -> &[u8] {
        let range = field.value_start as usize..field.value_end as usize;
        if field.flags & ADDED != 0 {
            &self.added[range]
        } else {
            &self.bytes[range]
        }
    }

    fn live(&self) -> impl Iterator<Item = &Field> + '_ {
        self.fields
            .iter()
            .filter(|field| field.flags & REMOVED == 0)
    }

    /// The fields, in order: (name as sent, value).
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> + '_ {
        self.live()
            .map(|field| (self.name_of(field), self.value_of(field)))
    }

    /// How many fields there are.
    pub fn len(&self) -> usize {
        self.live().count()
    }

    pub fn is_empty(&self) -> bool {
        self.live().next().is_none()
    }

    /// The first value of `name` (matched without regard to ASCII case; callers pass lower case).
    pub fn get(&self, name: impl AsRef<[u8]>) -> Option<&[u8]> {
        let name = name.as_ref();
        if self.surely_absent(name) {
            return None;
        }
        self.live()
            .find(|field| self.is_named(field, name))
            .map(|field| self.value_of(field))
    }

    /// Whether no field has a name of `name`'s length: no need to look.
    fn surely_absent(&self, name: &[u8]) -> bool {
        self.lengths & length_bit(name.len()) == 0
    }

    /// Whether `field` is named `name`, in any ASCII case: the length and the first byte
    /// first, which the other names of a head fail but for a rare one. Inlined: a call per
    /// field cost more than those two compares.
    #[inline(always)]
    fn is_named(&self, field: &Field, name: &[u8]) -> bool {
        (field.name_end - field.name_start) as usize == name.len()
            && field.first == first_byte(name)
            && {
                #[cfg(test)]
                COMPARES.with(|compares| compares.set(compares.get() + 1));
                self.name_of(field).eq_ignore_ascii_case(name)
            }
    }

    /// Every value of `name`, in order, appended to `out` joined by `, ` (nothing when it has
    /// none): nginx's `$http_NAME`.
    pub fn append_joined(&self, name: impl AsRef<[u8]>, out: &mut Vec<u8>) {
        for (index, value) in self.get_all(name.as_ref()).enumerate() {
            if index > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(value);
        }
    }

    /// Every value of `name`, in order.
    pub fn get_all<'a, N: AsRef<[u8]> + 'a>(
        &'a self,
        name: N,
    ) -> impl Iterator<Item = &'a [u8]> + 'a {
        let absent = self.surely_absent(name.as_ref());
        let fields = if absent { &[][..] } else { &self.fields[..] };
        fields
            .iter()
            .filter(|field| field.flags & REMOVED == 0)
            .filter(move |field| self.is_named(field, name.as_ref()))
            .map(|field| self.value_of(field))
    }

    /// Whether `name` is there.
    pub fn contains(&self, name: impl AsRef<[u8]>) -> bool {
        self.get(name).is_some()
    }

    /// Whether any field's name is one `wanted` picks.
    pub fn any_name(&self, mut wanted: impl FnMut(&[u8]) -> bool) -> bool {
        self.live().any(|field| wanted(self.name_of(field)))
    }

    /// Removes every field whose name `remove` picks; whether there was any.
    pub fn remove_where(&mut self, mut remove: impl FnMut(&[u8]) -> bool) -> bool {
        let mut any = false;
        for index in 0..self.fields.len() {
            let field = self.fields[index];
            if field.flags & REMOVED == 0 && remove(self.name_of(&field)) {
                self.fields[index].flags |= REMOVED;
                any = true;
            }
        }
        any
    }

    /// Removes every field whose name holds an underscore (nginx's `underscores_in_headers off`);
    /// whether there was any. A head with no `_` in its fields' bytes, as most have, is not
    /// looked at name by name.
    pub fn remove_underscored(&mut self) -> bool {
        let own_start = self
            .fields
            .first()
            .filter(|field| field.flags & ADDED == 0)
            .map_or(self.fields_end, |field| field.name_start) as usize;
        let own = self
            .bytes
            .get(own_start..self.fields_end as usize)
            .unwrap_or_default();
        // `memchr`'s search, sixteen bytes a step, cost a fifth of core's `contains` here. A
        // head just read has no added line: its empty buffer is not searched (a call cost ~50
        // instructions even so).
        let added = !self.added.is_empty() && memchr::memchr(b'_', &self.added).is_some();
        if memchr::memchr(b'_', own).is_none() && !added {
            return false;
        }
        self.remove_where(|name| name.contains(&b'_'))
    }

    /// Removes every field of `name`; whether there was any.
    pub fn remove(&mut self, name: impl AsRef<[u8]>) -> bool {
        let name = name.as_ref();
        if self.surely_absent(name) {
            return false;
        }
        self.remove_where(|found| found.len() == name.len() && found.eq_ignore_ascii_case(name))
    }

    /// Adds a field after all others: one of weir's lines. A name or value with a CR, LF or NUL
    /// is not added: written as given, it would end the line early and start another (header
    /// injection). Every caller passes checked bytes today; this keeps it a property of the view.
    pub fn append(&mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) {
        let (name, value) = (name.as_ref(), value.as_ref());
        if breaks_line(name) || breaks_line(value) {
            return;
        }
        let line = self.start_line(name);
        self.added.extend_from_slice(value);
        self.end_line(line);
    }

    /// Begins one of weir's lines in the added buffer (`name: `; the buffer and the index taken
    /// from this thread's spares when the head has none): the line's field so far, its value
    /// to be written next, then [`Headers::end_line`].
    fn start_line(&mut self, name: &[u8]) -> Field {
        if self.added.capacity() == 0 {
            if let Some(spare) = take_spare(|spares| &mut spares.added) {
                self.added = spare;
            }
        }
        if self.fields.capacity() == 0 {
            self.fields = index(4);
        }
        self.lengths |= length_bit(name.len());
        // The parser's word was on the head's own lines only.
        self.hop_by_hop_noted = false;
        let name_start = self.added.len() as u32;
        self.added.extend_from_slice(name);
        let name_end = self.added.len() as u32;
        self.added.extend_from_slice(b": ");
        let value_start = self.added.len() as u32;
        Field {
            name_start,
            name_end,
            value_start,
            value_end: value_start,
            flags: ADDED,
            first: first_byte(name),
        }
    }

    /// Ends the line [`Headers::start_line`] began, its value written: CRLF, and the field in the
    /// index.
    fn end_line(&mut self, mut line: Field) {
        line.value_end = self.added.len() as u32;
        self.added.extend_from_slice(b"\r\n");
        self.fields.push(line);
    }

    /// Replaces the fields of `name` by one line after all others: their values that `keep`
    /// takes, then `item`, joined by `, ` (`X-Forwarded-For` with the client appended).
    /// A name or item with a CR, LF or NUL changes nothing (see [`Headers::append`]).
    pub fn append_to_list(&mut self, name: &[u8], item: &[u8], keep: impl Fn(&[u8]) -> bool) {
        if breaks_line(name) || breaks_line(item) {
            return;
        }
        let present = !self.surely_absent(name);
        let line = self.start_line(name);
        let scanned = if present { self.fields.len() } else { 0 };
        for index in 0..scanned {
            let field = self.fields[index];
            if field.flags & REMOVED != 0 || !self.is_named(&field, name) {
                continue;
            }
            self.fields[index].flags |= REMOVED;
            if !keep(self.value_of(&field)) {
                continue;
            }
            let range = field.value_start as usize..field.value_end as usize;
            if field.flags & ADDED != 0 {
                self.added.extend_from_within(range);
            } else {
                self.added.extend_from_slice(&self.bytes[range]);
            }
            self.added.extend_from_slice(b", ");
        }
        self.added.extend_from_slice(item);
        self.end_line(line);
    }

    /// The first value of `name` as `Bytes` of its own: a slice of the head's bytes (no copy),
    /// or a copy of one of weir's lines.
    pub fn get_shared(&self, name: impl AsRef<[u8]>) -> Option<Bytes> {
        let name = name.as_ref();
        if self.surely_absent(name) {
            return None;
        }
        let field = self.live().find(|field| self.is_named(field, name))?;
        let range = field.value_start as usize..field.value_end as usize;
        Some(if field.flags & ADDED != 0 {
            Bytes::copy_from_slice(&self.added[range])
        } else {
            self.bytes.slice(range)
        })
    }

    /// Replaces every field of `name` by one with `value`, after all others.
    pub fn set(&mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) {
        let name = name.as_ref();
        self.remove(name);
        self.append(name, value);
    }

    /// The length [`Headers::write_to`] writes.
    pub fn written_len(&self) -> usize {
        let mut length = 0;
        self.each_piece(|piece| length += piece.len());
        length
    }

    /// Writes the fields as header lines: each run of the head's own lines that are all kept as
    /// one slice of its bytes (as the client sent them), then weir's lines. The blank line that
    /// ends a head is not written.
    pub fn write_to(&self, out: &mut BytesMut) {
        self.each_piece(|piece| out.extend_from_slice(piece));
    }

    fn each_piece(&self, mut piece: impl FnMut(&[u8])) {
        let own = self
            .fields
            .iter()
            .position(|field| field.flags & ADDED != 0)
            .unwrap_or(self.fields.len());
        if self.raw {
            let mut run: Option<usize> = None;
            for field in &self.fields[..own] {
                let start = field.name_start as usize;
                match (field.flags & REMOVED != 0, run) {
                    (true, Some(run_start)) => {
                        piece(&self.bytes[run_start..start]);
                        run = None;
                    }
                    (false, None) => run = Some(start),
                    _ => {}
                }
            }
            if let Some(run_start) = run {
                piece(&self.bytes[run_start..self.fields_end as usize]);
            }
        } else {
            for field in self.fields[..own]
                .iter()
                .filter(|field| field.flags & REMOVED == 0)
            {
                piece(self.name_of(field));
                piece(b": ");
                piece(self.value_of(field));
                piece(b"\r\n");
            }
        }
        for field in &self.fields[own..] {
            if field.flags & REMOVED == 0 {
                // `name: value\r\n`, as `append` wrote it.
                piece(&self.added[field.name_start as usize..field.value_end as usize + 2]);
            }
        }
    }
}

/// Whether `bytes` hold a CR, LF or NUL, which no header line may (RFC 9110 §5.5).
fn breaks_line(bytes: &[u8]) -> bool {
    bytes.iter().any(|byte| matches!(byte, b'\r' | b'\n' | 0))
}

/// What `HeaderValue::to_str` gives: the value as text when it is visible ASCII (tab and space
/// included), else `None`.
pub fn text(value: &[u8]) -> Option<&str> {
    value
        .iter()
        .all(|byte| *byte == b'\t' || (0x20..0x7f).contains(byte))
        .then(|| std::str::from_utf8(value).ok())
        .flatten()
}

/// A request's head: its line and its header fields.
#[derive(Debug, Clone)]
pub struct RequestHead {
    pub method: Method,
    /// The request target (an `http::Uri` over the head's own bytes).
    pub uri: Uri,
    pub version: Version,
    pub headers: Headers,
}

impl Default for RequestHead {
    fn default() -> RequestHead {
        RequestHead {
            method: Method::GET,
            // `Uri::default()` is `/` made without parsing (`from_static` parsed it): a
            // default head is left wherever a request's head is taken out of its place
            // (`take_parts` once per request, `mem::take` on the proxied path).
            uri: Uri::default(),
            version: Version::HTTP_11,
            headers: Headers::default(),
        }
    }
}

/// A request: its head as a view, and its body. In place of `http::Request` on weir's request
/// path; its accessors are named as `http::Request`'s.
#[derive(Debug, Default)]
pub struct Request<B> {
    pub head: RequestHead,
    pub body: B,
}

impl<B> Request<B> {
    pub fn from_parts(head: RequestHead, body: B) -> Request<B> {
        Request { head, body }
    }

    pub fn into_parts(self) -> (RequestHead, B) {
        (self.head, self.body)
    }

    /// `request`'s view: its header map written as lines (HTTP/2's edge, and tests).
    pub fn from_http(request: http::Request<B>) -> Request<B> {
        let (parts, body) = request.into_parts();
        let head = RequestHead {
            headers: Headers::from_map(&parts.headers),
            method: parts.method,
            uri: parts.uri,
            version: parts.version,
        };
        Request { head, body }
    }

    pub fn method(&self) -> &Method {
        &self.head.method
    }

    pub fn uri(&self) -> &Uri {
        &self.head.uri
    }

    pub fn version(&self) -> Version {
        self.head.version
    }

    pub fn headers(&self) -> &Headers {
        &self.head.headers
    }

    pub fn headers_mut(&mut self) -> &mut Headers {
        &mut self.head.headers
    }

    pub fn body(&self) -> &B {
        &self.body
    }

    pub fn body_mut(&mut self) -> &mut B {
        &mut self.body
    }

    pub fn map<C>(self, change: impl FnOnce(B) -> C) -> Request<C> {
        Request {
            head: self.head,
            body: change(self.body),
        }
    }
}

/// A response's head: its status, its version and its header fields. The upstream's is its head's
/// bytes with the index (`upstream::client`), hop-by-hop fields marked removed and weir's lines
/// appended; an answer weir makes has only weir's lines.
#[derive(Debug, Default)]
pub struct ResponseHead {
    pub status: StatusCode,
    pub version: Version,
    pub headers: Headers,
    /// What the layers pass along with a response (a tunnel to open after a `101`, a 444's
    /// mark): `http`'s extensions, which hold nothing and cost no allocation when empty.
    pub extensions: http::Extensions,
}

/// A response: its head as a view, and its body. In place of `http::Response` on weir's
/// response path; its accessors are named as `http::Response`'s.
#[derive(Debug, Default)]
pub struct Response<B> {
    pub head: ResponseHead,
    pub body: B,
}

impl<B> Response<B> {
    /// A `200 OK` with no header field and `body`.
    pub fn new(body: B) -> Response<B> {
        Response {
            head: ResponseHead::default(),
            body,
        }
    }

    pub fn from_parts(head: ResponseHead, body: B) -> Response<B> {
        Response { head, body }
    }

    pub fn into_parts(self) -> (ResponseHead, B) {
        (self.head, self.body)
    }

    /// `response`'s view: its header map written as lines (tests, and answers made with `http`).
    pub fn from_http(response: http::Response<B>) -> Response<B> {
        let (parts, body) = response.into_parts();
        let head = ResponseHead {
            status: parts.status,
            version: parts.version,
            headers: Headers::from_map(&parts.headers),
            extensions: parts.extensions,
        };
        Response { head, body }
    }

    /// An `http::Response` of the view (HTTP/2's edge, and tests): its fields copied into a map,
    /// names made lower case.
    pub fn into_http(self) -> http::Response<B> {
        let mut response = http::Response::new(self.body);
        *response.status_mut() = self.head.status;
        *response.version_mut() = self.head.version;
        *response.headers_mut() = self.head.headers.to_map();
        *response.extensions_mut() = self.head.extensions;
        response
    }

    pub fn status(&self) -> StatusCode {
        self.head.status
    }

    pub fn status_mut(&mut self) -> &mut StatusCode {
        &mut self.head.status
    }

    pub fn version(&self) -> Version {
        self.head.version
    }

    pub fn version_mut(&mut self) -> &mut Version {
        &mut self.head.version
    }

    pub fn headers(&self) -> &Headers {
        &self.head.headers
    }

    pub fn headers_mut(&mut self) -> &mut Headers {
        &mut self.head.headers
    }

    pub fn extensions(&self) -> &http::Extensions {
        &self.head.extensions
    }

    pub fn extensions_mut(&mut self) -> &mut http::Extensions {
        &mut self.head.extensions
    }

    pub fn body(&self) -> &B {
        &self.body
    }

    pub fn body_mut(&mut self) -> &mut B {
        &mut self.body
    }

    pub fn into_body(self) -> B {
        self.body
    }

    pub fn map<C>(self, change: impl FnOnce(B) -> C) -> Response<C> {
        Response {
            head: self.head,
            body: change(self.body),
        }
    }
}

impl Headers {
    /// Marks the `index`th of the head's own fields (in the order of the lines given to
    /// [`Headers::parsed`]) removed: for a parser that found, reading the lines, which go.
    pub fn remove_parsed(&mut self, index: usize) {
        if let Some(field) = self.fields.get_mut(index) {
            if field.flags & ADDED == 0 {
                field.flags |= REMOVED;
            }
        }
    }

    /// Notes which of the head's own fields are hop-by-hop (bit `n` for the `n`th, in the order
    /// of the lines given to [`Headers::parsed`]): for a parser that read every name and found
    /// all of them, those its `Connection` names included. [`Headers::remove_noted_hop_by_hop`]
    /// acts on it until a line is added.
    pub fn note_hop_by_hop(&mut self, mut lines: u64) {
        while lines != 0 {
            if let Some(field) = self.fields.get_mut(lines.trailing_zeros() as usize) {
                if field.flags & ADDED == 0 {
                    field.flags |= HOP_BY_HOP;
                }
            }
            lines &= lines - 1;
        }
        self.hop_by_hop_noted = true;
    }

    /// Marks removed the fields the parser noted hop-by-hop ([`Headers::note_hop_by_hop`]),
    /// looking at no name; `false`, having done nothing, when it noted nothing or a line was
    /// added since (which might be one), for the caller to look name by name.
    pub fn remove_noted_hop_by_hop(&mut self) -> bool {
        if !self.hop_by_hop_noted {
            return false;
        }
        for field in &mut self.fields {
            if field.flags & HOP_BY_HOP != 0 {
                field.flags |= REMOVED;
            }
        }
        true
    }

    /// [`Headers::write_to`] into a `Vec`: a response head's buffer.
    pub fn write_into(&self, out: &mut Vec<u8>) {
        self.each_piece(|piece| out.extend_from_slice(piece));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholder a taken head leaves is `GET /`, its `Uri` as parsing `/` makes it.
    #[test]
    fn the_default_request_head_is_get_slash() {
        let head = RequestHead::default();
        assert_eq!(head.method, Method::GET);
        assert_eq!(head.uri, Uri::from_static("/"));
        assert_eq!(head.uri.path_and_query().map(|pq| pq.as_str()), Some("/"));
        assert!(head.uri.scheme().is_none() && head.uri.authority().is_none());
    }

    fn parsed(head: &[u8]) -> Headers {
        let mut lines = [httparse::EMPTY_HEADER; 16];
        let mut request = httparse::Request::new(&mut lines);
        let Ok(httparse::Status::Complete(length)) = request.parse(head) else {
            panic!("a whole head");
        };
        assert_eq!(length, head.len());
        Headers::parsed(Bytes::copy_from_slice(head), head, request.headers)
    }

    fn written(headers: &Headers) -> Vec<u8> {
        let mut out = BytesMut::new();
        headers.write_to(&mut out);
        assert_eq!(out.len(), headers.written_len());
        out.to_vec()
    }

    /// A line break in an added name or value would start a line of its own upstream.
    #[test]
    fn an_added_line_never_carries_a_line_break() {
        let mut headers = parsed(b"GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
        headers.append("x-a", "1\r\nInjected: yes");
        headers.append("x-b\n", "2");
        headers.append("x-c", "3\0");
        headers.append_to_list(b"x-forwarded-for", b"192.0.2.1\r\nInjected: yes", |_| true);
        headers.append("x-d", "4");
        assert_eq!(written(&headers), b"Host: a.test\r\nx-d: 4\r\n");
        assert_eq!(headers.get("x-a"), None);
        assert_eq!(headers.get("x-forwarded-for"), None);
    }

    #[test]
    fn values_are_found_by_name_in_any_case_and_in_order() {
        let headers = parsed(
            b"GET / HTTP/1.1\r\nHost: a.test\r\nX-Two: 1\r\nAccept: */*\r\nx-two:  2 \r\n\r\n",
        );
        assert_eq!(headers.get("host"), Some(&b"a.test"[..]));
        assert_eq!(headers.get(http::header::HOST), Some(&b"a.test"[..]));
        assert_eq!(
            headers.get_all("x-two").collect::<Vec<_>>(),
            [&b"1"[..], &b"2"[..]]
        );
        assert!(!headers.contains("x-one"));
        assert_eq!(headers.len(), 4);
    }

    /// The client's lines go out as they came, a run of kept lines as one slice; removed lines
    /// are left out, weir's lines come last.
    #[test]
    fn kept_lines_are_written_as_sent_and_added_ones_last() {
        let mut headers = parsed(
            b"GET / HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\nX-Case:  Kept \r\nAccept: */*\r\n\r\n",
        );
        assert_eq!(
            written(&headers),
            b"Host: a.test\r\nConnection: close\r\nX-Case:  Kept \r\nAccept: */*\r\n"
        );
        assert!(headers.remove("connection"));
        headers.set("x-forwarded-for", "192.0.2.1");
        headers.set("host", "b.test");
        assert_eq!(
            written(&headers),
            b"X-Case:  Kept \r\nAccept: */*\r\nx-forwarded-for: 192.0.2.1\r\nhost: b.test\r\n"
        );
        headers.set("x-forwarded-for", "192.0.2.2");
        assert_eq!(headers.get("x-forwarded-for"), Some(&b"192.0.2.2"[..]));
        assert_eq!(
            written(&headers),
            b"X-Case:  Kept \r\nAccept: */*\r\nhost: b.test\r\nx-forwarded-for: 192.0.2.2\r\n"
        );
    }

    /// A head with a line ended by a bare LF is written line by line with CRLF.
    #[test]
    fn a_bare_lf_is_not_passed_on() {
        let headers = parsed(b"GET / HTTP/1.1\r\nHost: a.test\nAccept: */*\r\n\r\n");
        assert_eq!(written(&headers), b"Host: a.test\r\nAccept: */*\r\n");
    }

    /// A name of a length no field has is not looked for; a line added later is found.
    #[test]
    fn names_are_looked_for_only_among_fields_of_their_length() {
        let mut headers = parsed(b"GET / HTTP/1.1\r\nAccept: */*\r\nX-Long-Name-Of-Seventy-Bytes-Xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx: 1\r\n\r\n");
        assert!(headers.surely_absent(b"x-real-ip"));
        assert!(!headers.surely_absent(b"expect"));
        assert_eq!(headers.get("expect"), None);
        assert_eq!(
            headers
                .get("x-long-name-of-seventy-bytes-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
            Some(&b"1"[..])
        );
        headers.append("x-real-ip", "192.0.2.1");
        assert_eq!(headers.get("X-Real-IP"), Some(&b"192.0.2.1"[..]));
        assert!(headers.remove("x-real-ip"));
        assert_eq!(headers.get("x-real-ip"), None);
    }

    /// A name asked for is compared byte by byte only with fields of its length and first
    /// byte, in any case.
    #[test]
    fn names_are_compared_only_with_fields_of_their_length_and_first_byte() {
        let headers = parsed(
            b"GET / HTTP/1.1\r\nPost: 1\r\nDate: 2\r\nHOST: a.test\r\nHose: 3\r\nLast: 4\r\n\r\n",
        );
        let compares = || COMPARES.with(std::cell::Cell::get);
        let before = compares();
        assert_eq!(headers.get("host"), Some(&b"a.test"[..]));
        // `HOST` only: `Post`, `Date` and the others of four bytes differ in their first.
        assert_eq!(compares() - before, 1);
        let before = compares();
        assert_eq!(headers.get_all("Hose").collect::<Vec<_>>(), [&b"3"[..]]);
        // `HOST` and `Hose`, both of four bytes starting with an h.
        assert_eq!(compares() - before, 2);
        let before = compares();
        assert_eq!(headers.get("xxxx"), None);
        assert_eq!(compares() - before, 0);
    }

    /// Fields whose names hold `_` are removed; a `_` in a value or the target removes nothing.
    #[test]
    fn underscored_names_are_removed_and_only_they() {
        let mut headers = parsed(b"GET /a_b HTTP/1.1\r\nHost: a.test\r\nCookie: _ga=1\r\n\r\n");
        assert!(!headers.remove_underscored());
        assert_eq!(headers.len(), 2);
        let mut headers =
            parsed(b"GET / HTTP/1.1\r\nX_Real_IP: 1\r\nHost: a.test\r\nX-Real-IP: 2\r\n\r\n");
        headers.append("x_added", "3");
        assert!(headers.remove_underscored());
        assert_eq!(written(&headers), b"Host: a.test\r\nX-Real-IP: 2\r\n");
        assert!(!headers.remove_underscored());
    }

    #[test]
    fn a_map_makes_the_same_view() {
        let mut map = HeaderMap::new();
        map.append("host", http::HeaderValue::from_static("a.test"));
        map.append("cookie", http::HeaderValue::from_static("a=1"));
        let headers = Headers::from_map(&map);
        assert_eq!(headers.get("cookie"), Some(&b"a=1"[..]));
        assert_eq!(written(&headers), b"host: a.test\r\ncookie: a=1\r\n");
        assert_eq!(headers.to_map(), map);
    }

    fn parsed_response(head: &[u8]) -> Headers {
        let mut lines = [httparse::EMPTY_HEADER; 16];
        let mut response = httparse::Response::new(&mut lines);
        let Ok(httparse::Status::Complete(length)) = response.parse(head) else {
            panic!("a whole head");
        };
        assert_eq!(length, head.len());
        Headers::parsed(Bytes::copy_from_slice(head), head, response.headers)
    }

    /// A response head's view writes the upstream's kept lines as they came (their names as the
    /// upstream spelled them), hop-by-hop ones left out, weir's lines last.
    #[test]
    fn a_response_head_keeps_the_upstreams_lines_as_they_came() {
        let mut headers = parsed_response(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: keep-alive\r\nX-App:  v \r\n\r\n",
        );
        assert!(headers.remove("connection"));
        headers.remove_parsed(0);
        assert_eq!(headers.get("content-type"), None);
        headers.append("content-type", "text/plain");
        headers.append("server", "weir");
        let mut out = Vec::new();
        headers.write_into(&mut out);
        assert_eq!(
            out,
            b"X-App:  v \r\ncontent-type: text/plain\r\nserver: weir\r\n"
        );
        let mut response = Response::from_parts(
            ResponseHead {
                status: StatusCode::NOT_FOUND,
                headers,
                ..ResponseHead::default()
            },
            (),
        );
        response.extensions_mut().insert(7u8);
        let converted = response.into_http();
        assert_eq!(converted.status(), StatusCode::NOT_FOUND);
        assert_eq!(converted.headers()["x-app"], "v");
        assert_eq!(converted.headers()["server"], "weir");
        assert!(!converted.headers().contains_key("connection"));
        assert_eq!(converted.extensions().get::<u8>(), Some(&7));
        let back = Response::from_http(converted);
        assert_eq!(back.headers().get("content-type"), Some(&b"text/plain"[..]));
        assert_eq!(back.extensions().get::<u8>(), Some(&7));
    }
}
