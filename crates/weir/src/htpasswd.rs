//! Password files in Apache's `htpasswd` format, as nginx's `auth_basic_user_file` reads them:
//! one `name:hash` a line (anything after a second `:` is ignored), `#` comments, blank lines.
//! The hashes are those nginx accepts on Linux: `{PLAIN}`, `{SHA}`, `{SSHA}`, `$apr1$` (what
//! `htpasswd` writes by default), and crypt(3)'s `$1$`, `$2a$`/`$2b$`/`$2y$` (bcrypt, `htpasswd
//! -B`), `$5$`, `$6$` (`htpasswd -2`/`-5`, `openssl passwd -5`/`-6`) and the 13-character DES
//! (`htpasswd -d`). A hash of any other form is refused when the file is read, with its line,
//! where nginx would answer every request for that user with 500.
//!
//! Pure: it imports nothing of weir. The proxy decides when a hash is worth a thread of its own
//! ([`Hash::is_dear`]) and keeps what it verified ([`Users::remember`]).

use std::collections::HashMap;
use std::io::Read as _;
use std::path::Path;
use std::sync::OnceLock;

use base64::Engine as _;
use subtle::ConstantTimeEq as _;

/// The most a password file may hold: weir keeps it in memory.
pub const MAX_FILE: u64 = 16 * 1024 * 1024;

/// A password file's users, by name; the first line of a name counts (nginx reads the file
/// from the top and stops at the first line of the name).
pub struct Users {
    users: HashMap<Box<[u8]>, User>,
    /// The key of [`Users::remember`]'s digests, new for every file read.
    key: [u8; 32],
}

/// One user of a password file.
pub struct User {
    hash: Hash,
    /// A keyed digest of a password that `hash` accepted, so that a user's next requests are
    /// not each a bcrypt's worth of CPU.
    verified: OnceLock<[u8; 32]>,
}

/// A password hash, as a line of the file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hash {
    /// `{PLAIN}password`.
    Plain(Box<[u8]>),
    /// `{SHA}` and the base64 of the password's SHA-1.
    Sha1([u8; 20]),
    /// `{SSHA}` and the base64 of SHA-1(password + salt) followed by the salt.
    SaltedSha1 { digest: [u8; 20], salt: Box<[u8]> },
    /// `$apr1$salt$sum` (`apr: true`) and `$1$salt$sum`: MD5-crypt, 1,000 rounds of MD5.
    Md5Crypt {
        apr: bool,
        salt: Box<str>,
        sum: Box<str>,
    },
    /// crypt(3)'s bcrypt, SHA-256 and SHA-512 crypt and DES, as written.
    Crypt(Box<str>),
    /// A line weir could not read ([`Users::parse_all`]): no password passes.
    Refused,
}

/// What is wrong with a password file: its line (from 1; 0 when the file could not be read
/// whole) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FileError {
    pub line: usize,
    pub message: String,
}

impl FileError {
    /// What is wrong with the password file at `path`, naming it, and the line when one is at
    /// fault: `/etc/weir/htpasswd:3: ...`.
    pub fn naming(&self, path: &Path) -> String {
        match self.line {
            0 => format!("the password file {}: {}", path.display(), self.message),
            line => format!("{}:{line}: {}", path.display(), self.message),
        }
    }
}

impl Users {
    /// Reads and parses the file at `path`, up to [`MAX_FILE`]; the first line weir cannot read
    /// is the error.
    pub fn read(path: &Path) -> Result<Users, FileError> {
        Users::strictly(Users::read_all(path)?)
    }

    /// Reads the file at `path` as [`Users::parse_all`] does; the error is a file that cannot be
    /// read whole.
    pub fn read_all(path: &Path) -> Result<(Users, Vec<FileError>), FileError> {
        let unreadable = |error: std::io::Error| FileError {
            line: 0,
            message: format!("cannot read it: {error}"),
        };
        let mut text = Vec::new();
        std::fs::File::open(path)
            .map_err(unreadable)?
            .take(MAX_FILE + 1)
            .read_to_end(&mut text)
            .map_err(unreadable)?;
        if text.len() as u64 > MAX_FILE {
            return Err(FileError {
                line: 0,
                message: "a password file holds at most 16 MiB".into(),
            });
        }
        Users::parse_all(&text)
    }

    /// Parses a password file's content; the first line weir cannot read is the error. An empty
    /// file has no users: every request is refused.
    pub fn parse(text: &[u8]) -> Result<Users, FileError> {
        Users::strictly(Users::parse_all(text)?)
    }

    /// The users of a file read in full, unless a line was left out: then its error.
    fn strictly((users, errors): (Users, Vec<FileError>)) -> Result<Users, FileError> {
        match errors.into_iter().next() {
            None => Ok(users),
            Some(error) => Err(error),
        }
    }

    /// Parses a password file's content, leaving out each line weir cannot read, which comes
    /// back as an error: its user (if it names one) has no password that passes, whatever later
    /// lines of the name say, as nginx, which stops at a name's first line and answers 500 when
    /// it cannot check its hash.
    pub fn parse_all(text: &[u8]) -> Result<(Users, Vec<FileError>), FileError> {
        let mut users = HashMap::new();
        let mut errors = Vec::new();
        for (index, line) in text.split(|byte| *byte == b'\n').enumerate() {
            let line_number = index + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) || line.first() == Some(&b'#') {
                continue;
            }
            let mut fail = |message: String| {
                errors.push(FileError {
                    line: line_number,
                    message,
                })
            };
            let Some(colon) = memchr::memchr(b':', line) else {
                fail("expected `name:hash`, as `htpasswd` writes it; this line has no ':'".into());
                continue;
            };
            let (name, rest) = (&line[..colon], &line[colon + 1..]);
            if name.is_empty() {
                fail("the user name before ':' is empty".into());
                continue;
            }
            // nginx takes the hash up to the next ':' (a comment may follow).
            let hash = rest.split(|byte| *byte == b':').next().unwrap_or(rest);
            let hash = Hash::parse(hash).unwrap_or_else(|message| {
                fail(message);
                Hash::Refused
            });
            users.entry(name.into()).or_insert(User {
                hash,
                verified: OnceLock::new(),
            });
        }
        let mut key = [0u8; 32];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut key).map_err(
            |_| FileError {
                line: 0,
                message: "the system's random source failed".into(),
            },
        )?;
        Ok((Users { users, key }, errors))
    }

    /// No users: every request is refused (what a file that cannot be read leaves). No password
    /// is ever remembered for one, so its key is never used.
    pub fn none() -> Users {
        Users {
            users: HashMap::new(),
            key: [0; 32],
        }
    }

    /// The user of that name, if the file has one.
    pub fn get(&self, name: &[u8]) -> Option<&User> {
        self.users.get(name)
    }

    /// How many users the file has.
    pub fn len(&self) -> usize {
        self.users.len()
    }

    /// Whether the file has no users.
    pub fn is_empty(&self) -> bool {
        self.users.is_empty()
    }

    /// The keyed digest a verified password is remembered by.
    fn digest(&self, password: &[u8]) -> [u8; 32] {
        let mut context = ring::digest::Context::new(&ring::digest::SHA256);
        context.update(&self.key);
        context.update(password);
        let mut digest = [0u8; 32];
        digest.copy_from_slice(context.finish().as_ref());
        digest
    }

    /// Whether `password` is one this user's hash accepted before (a keyed SHA-256 and a
    /// comparison: no thread of its own needed).
    pub fn was_verified(&self, user: &User, password: &[u8]) -> bool {
        user.verified
            .get()
            .is_some_and(|verified| bool::from(verified.ct_eq(&self.digest(password))))
    }

    /// Keeps `password`, which `user`'s hash accepted, as [`Users::was_verified`] reads it (the
    /// first one kept stays).
    pub fn remember(&self, user: &User, password: &[u8]) {
        let _ = user.verified.set(self.digest(password));
    }
}

impl User {
    pub fn hash(&self) -> &Hash {
        &self.hash
    }
}

/// The longest `Authorization` value read: a user and password of some 3 KiB.
pub const MAX_CREDENTIALS: usize = 4096;

/// The user and password of an `Authorization: Basic` value, as nginx reads them: `Basic` in any
/// case, spaces, then the base64 of `user:password` (split at the first `:`). `None` for any
/// other value, or one over [`MAX_CREDENTIALS`]. Decoded in place up to 96 bytes (a request's
/// credentials cost no allocation), on the heap past them.
pub struct Credentials {
    decoded: smallvec::SmallVec<[u8; 96]>,
    colon: usize,
}

impl Credentials {
    pub fn parse(value: &[u8]) -> Option<Credentials> {
        let encoded = value
            .get(..6)
            .filter(|scheme| scheme.eq_ignore_ascii_case(b"basic "))
            .map(|_| value[6..].trim_ascii())
            .filter(|encoded| !encoded.is_empty() && encoded.len() <= MAX_CREDENTIALS)?;
        let mut decoded = smallvec::SmallVec::new();
        decoded.resize(base64::decoded_len_estimate(encoded.len()), 0);
        let length = base64::engine::general_purpose::STANDARD
            .decode_slice(encoded, &mut decoded)
            .ok()?;
        decoded.truncate(length);
        let colon = memchr::memchr(b':', &decoded)?;
        Some(Credentials { decoded, colon })
    }

    pub fn user(&self) -> &[u8] {
        &self.decoded[..self.colon]
    }

    pub fn password(&self) -> &[u8] {
        &self.decoded[self.colon + 1..]
    }
}

/// The alphabet of crypt(3)'s salts and sums.
const CRYPT64: &[u8; 64] = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn is_crypt64(text: &str) -> bool {
    text.bytes().all(|byte| CRYPT64.contains(&byte))
}

impl Hash {
    /// A hash as a password file's line writes it; the error says what was found and what would
    /// be valid.
    pub fn parse(text: &[u8]) -> Result<Hash, String> {
        let shown = String::from_utf8_lossy(text);
        let expected = "expected a hash of `htpasswd` (its default $apr1$, or -B bcrypt $2y$, -2 $5$, -5 $6$, -s {SHA}, -d DES), of `openssl passwd` ($1$, $5$, $6$, -apr1), {SSHA} or {PLAIN}";
        let Ok(text) = std::str::from_utf8(text) else {
            return Err(format!("{expected}; found bytes that are not UTF-8"));
        };
        let base64 = |encoded: &str| base64::engine::general_purpose::STANDARD.decode(encoded);
        if let Some(plain) = text.strip_prefix("{PLAIN}") {
            return Ok(Hash::Plain(plain.as_bytes().into()));
        }
        if let Some(encoded) = text.strip_prefix("{SHA}") {
            return match base64(encoded).map(<[u8; 20]>::try_from) {
                Ok(Ok(digest)) => Ok(Hash::Sha1(digest)),
                _ => Err(format!(
                    "{{SHA}} is followed by the base64 of 20 bytes (a SHA-1), 28 characters; found {encoded:?}"
                )),
            };
        }
        if let Some(encoded) = text.strip_prefix("{SSHA}") {
            return match base64(encoded) {
                Ok(bytes) if bytes.len() > 20 => Ok(Hash::SaltedSha1 {
                    digest: bytes[..20].try_into().unwrap_or([0; 20]),
                    salt: bytes[20..].into(),
                }),
                _ => Err(format!(
                    "{{SSHA}} is followed by the base64 of a SHA-1 (20 bytes) and its salt; found {encoded:?}"
                )),
            };
        }
        for (magic, apr) in [("$apr1$", true), ("$1$", false)] {
            if let Some(rest) = text.strip_prefix(magic) {
                return match rest.split_once('$') {
                    Some((salt, sum))
                        if salt.len() <= 8
                            && is_crypt64(salt)
                            && sum.len() == 22
                            && is_crypt64(sum) =>
                    {
                        Ok(Hash::Md5Crypt {
                            apr,
                            salt: salt.into(),
                            sum: sum.into(),
                        })
                    }
                    _ => Err(format!(
                        "{magic} is followed by a salt of up to 8 characters, '$' and a sum of 22 characters of [./0-9A-Za-z]; found {shown:?}"
                    )),
                };
            }
        }
        let crypt = ["$2a$", "$2b$", "$2y$", "$5$", "$6$"]
            .iter()
            .any(|magic| text.starts_with(magic));
        let des = text.len() == 13 && is_crypt64(text);
        if crypt || des {
            // pwhash reads a character below the space by subtracting past zero (a panic where
            // overflow is checked): crypt(3)'s hashes are written in these characters only.
            if !text
                .bytes()
                .all(|byte| CRYPT64.contains(&byte) || byte == b'$' || byte == b'=')
            {
                return Err(format!(
                    "{shown:?} is not a valid crypt(3) hash: a character outside [./0-9A-Za-z$=]"
                ));
            }
            // A cost past the bound is refused before it is paid, here and at every request.
            within_cost(text)?;
            // A hash pwhash cannot read is refused here, not at a request.
            return match pwhash::unix::crypt(b"", text) {
                Ok(_) => Ok(Hash::Crypt(text.into())),
                Err(error) => Err(format!("{shown:?} is not a valid crypt(3) hash: {error}")),
            };
        }
        let form = if text.starts_with("$y$") || text.starts_with("$gy$") {
            "; yescrypt ($y$) is not read by weir: make the user's hash again with `htpasswd -B`"
        } else if text.starts_with('$') || text.starts_with('{') {
            "; this scheme is not one nginx reads on Linux"
        } else {
            "; a password written as it is needs {PLAIN} before it (nginx reads it as DES crypt and answers 500)"
        };
        Err(format!("{expected}{form}"))
    }

    /// Whether checking a password against this hash costs a thread's time (bcrypt, SHA-crypt,
    /// MD5-crypt: thousands of rounds), not a digest's.
    pub fn is_dear(&self) -> bool {
        match self {
            Hash::Plain(_) | Hash::Sha1(_) | Hash::SaltedSha1 { .. } | Hash::Refused => false,
            Hash::Md5Crypt { .. } => true,
            Hash::Crypt(text) => text.starts_with('$'),
        }
    }

    /// Whether `password` is the one this hash was made of.
    pub fn verify(&self, password: &[u8]) -> bool {
        let equal = |a: &[u8], b: &[u8]| bool::from(a.ct_eq(b));
        match self {
            Hash::Plain(plain) => equal(plain, password),
            Hash::Sha1(digest) => equal(digest, sha1(&[password]).as_ref()),
            Hash::SaltedSha1 { digest, salt } => equal(digest, sha1(&[password, salt]).as_ref()),
            Hash::Md5Crypt { apr, salt, sum } => {
                equal(md5_crypt(password, salt, *apr).as_bytes(), sum.as_bytes())
            }
            Hash::Crypt(text) => pwhash::unix::verify(password, text),
            Hash::Refused => false,
        }
    }
}

/// The dearest bcrypt read: cost 17, the most `htpasswd -C` makes (2^17 rounds, seconds of a
/// core for one check).
pub const MAX_BCRYPT_COST: u32 = 17;

/// The most SHA-crypt rounds read: a million, above the 5,000 of `openssl passwd` and `mkpasswd`
/// and the 535,000-656,000 of Python's passlib.
pub const MAX_SHA_CRYPT_ROUNDS: u64 = 1_000_000;

/// What one check of a crypt(3) hash costs, as the hash writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CryptCost {
    /// bcrypt's cost: 2^cost rounds.
    Bcrypt(u32),
    /// SHA-crypt's `rounds=` (`u64::MAX` when past what a number holds).
    ShaRounds(u64),
}

/// The cost a bcrypt or SHA-crypt hash names, if it names one (SHA-crypt without `rounds=` is
/// 5,000 rounds and names none).
pub fn crypt_cost(text: &str) -> Option<CryptCost> {
    if let Some(rest) = ["$2a$", "$2b$", "$2y$"]
        .iter()
        .find_map(|magic| text.strip_prefix(magic))
    {
        let cost = rest.get(..2)?.parse().ok()?;
        return Some(CryptCost::Bcrypt(cost));
    }
    let rest = ["$5$", "$6$"]
        .iter()
        .find_map(|magic| text.strip_prefix(magic))?;
    let rounds = rest.strip_prefix("rounds=")?.split('$').next()?;
    Some(CryptCost::ShaRounds(rounds.parse().unwrap_or(u64::MAX)))
}

/// Refuses a bcrypt or SHA-crypt hash whose cost is past the bounds: one check of `$2y$31$`
/// would hold a thread for more than a day, at `weir check`, at every reload and at every
/// request that names its user.
fn within_cost(text: &str) -> Result<(), String> {
    match crypt_cost(text) {
        Some(CryptCost::Bcrypt(cost)) if cost > MAX_BCRYPT_COST => Err(format!(
            "bcrypt's cost is at most {MAX_BCRYPT_COST} (`htpasswd -B -C 4` to `-C 17`), as each check costs 2^cost rounds; found {text:?}"
        )),
        Some(CryptCost::ShaRounds(rounds)) if rounds > MAX_SHA_CRYPT_ROUNDS => Err(format!(
            "SHA-crypt's rounds= is at most {MAX_SHA_CRYPT_ROUNDS} (the default is 5,000), as each check costs that many rounds; found {text:?}"
        )),
        _ => Ok(()),
    }
}

fn sha1(parts: &[&[u8]]) -> ring::digest::Digest {
    let mut context = ring::digest::Context::new(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY);
    for part in parts {
        context.update(part);
    }
    context.finish()
}

/// MD5-crypt's sum (the 22 characters after the salt) of `password` with `salt`: Poul-Henning
/// Kamp's algorithm, whose magic string (`$1$`, or Apache's `$apr1$`) is part of the first
/// digest.
fn md5_crypt(password: &[u8], salt: &str, apr: bool) -> String {
    use md5::{Digest as _, Md5};
    let magic: &[u8] = if apr { b"$apr1$" } else { b"$1$" };
    let salt = salt.as_bytes();
    let alternate = Md5::new()
        .chain_update(password)
        .chain_update(salt)
        .chain_update(password)
        .finalize();
    let mut first = Md5::new()
        .chain_update(password)
        .chain_update(magic)
        .chain_update(salt);
    let mut left = password.len();
    while left > 0 {
        let take = left.min(16);
        first.update(&alternate[..take]);
        left -= take;
    }
    let mut bits = password.len();
    while bits != 0 {
        if bits & 1 == 1 {
            first.update([0u8]);
        } else {
            first.update(&password[..1]);
        }
        bits >>= 1;
    }
    let mut sum = first.finalize();
    for round in 0..1000 {
        let mut next = Md5::new();
        if round & 1 == 1 {
            next.update(password);
        } else {
            next.update(sum);
        }
        if round % 3 != 0 {
            next.update(salt);
        }
        if round % 7 != 0 {
            next.update(password);
        }
        if round & 1 == 1 {
            next.update(sum);
        } else {
            next.update(password);
        }
        sum = next.finalize();
    }
    let mut text = String::with_capacity(22);
    let mut put = |value: u32, count: usize| {
        let mut value = value;
        for _ in 0..count {
            text.push(CRYPT64[(value & 0x3f) as usize] as char);
            value >>= 6;
        }
    };
    for (a, b, c) in [(0, 6, 12), (1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10, 5)] {
        put(
            u32::from(sum[a]) << 16 | u32::from(sum[b]) << 8 | u32::from(sum[c]),
            4,
        );
    }
    put(u32::from(sum[11]), 2);
    text
}

#[cfg(test)]
mod tests;
