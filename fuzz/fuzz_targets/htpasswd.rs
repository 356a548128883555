//! `basic_auth`'s parsers: `weir::htpasswd::Credentials::parse` (a client's `Authorization`
//! value) and `weir::htpasswd::Users::parse_all` (a password file, as `htpasswd` writes it).
//!
//! Input, lines: the `Authorization` value; then the password file.
//!
//! Properties:
//! - credentials read are the base64 of `user:password` as the client wrote it, canonical (they
//!   encode back to the same text), with no ':' in the user; a value over
//!   `MAX_CREDENTIALS` is never read;
//! - any bytes with a ':' sent as `Basic` and their base64 are read back to the same user and
//!   password, the user up to the first ':'; without a ':' they are refused;
//! - a file's errors name lines within it, in order, each one line of text; the strict parse
//!   fails exactly when the lenient one found an error, with its first;
//! - every name of a line read is a user, and no more users than such lines; a user's hash is
//!   its first line's (a bad first line refuses the user, whatever later lines say);
//! - a `{PLAIN}` hash accepts exactly its password; a password remembered is recognised for its
//!   user and no other password is.
//!
//! A bcrypt or SHA-crypt line is parsed (its cost is paid once at parse); inputs with a cost
//! above bcrypt's 6 or 20,000 SHA rounds, or more than 4 such lines, are skipped: the cost is the
//! operator's, bounded by `MAX_BCRYPT_COST` and `MAX_SHA_CRYPT_ROUNDS`, and would only time out.
#![no_main]

#[path = "common.rs"]
mod common;

use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use weir::htpasswd::{crypt_cost, Credentials, CryptCost, Hash, Users, MAX_CREDENTIALS};

fuzz_target!(|data: &[u8]| {
    let lines = common::lines(data);
    let Some((value, file_lines)) = lines.split_first() else {
        return;
    };
    credentials(value);

    let file = &data[value.len().min(data.len())..];
    let file = file.strip_prefix(b"\n").unwrap_or(file);
    if too_dear(file_lines) {
        return;
    }
    let (users, errors) = Users::parse_all(file).expect("the random source works");
    let mut last = 0;
    for error in &errors {
        assert!(
            error.line >= 1 && error.line <= file_lines.len().max(1),
            "{error} of {} lines",
            file_lines.len()
        );
        assert!(error.line > last, "errors in line order: {errors:?}");
        last = error.line;
        assert!(!error.message.contains('\n'), "{error:?}");
    }
    match Users::parse(file) {
        Ok(strict) => {
            assert!(errors.is_empty(), "{errors:?}");
            assert_eq!(strict.len(), users.len());
        }
        Err(error) => assert_eq!(Some(&error), errors.first()),
    }

    let mut named = 0;
    let mut seen: Vec<&[u8]> = Vec::new();
    for line in file_lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) || line.first() == Some(&b'#') {
            continue;
        }
        let Some(colon) = line.iter().position(|&byte| byte == b':') else {
            continue;
        };
        let name = &line[..colon];
        if name.is_empty() {
            continue;
        }
        named += 1;
        let user = users.get(name).expect("every name of a line read is a user");
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let hash = line[colon + 1..].split(|&byte| byte == b':').next().unwrap();
        match Hash::parse(hash) {
            Ok(parsed) => assert_eq!(user.hash(), &parsed, "the first line counts"),
            Err(_) => assert_eq!(user.hash(), &Hash::Refused, "a bad first line refuses"),
        }
        if let Hash::Plain(plain) = user.hash() {
            assert!(user.hash().verify(plain));
            let mut other = plain.to_vec();
            other.push(b'x');
            assert!(!user.hash().verify(&other));
        }
        if !user.hash().is_dear() {
            // Never panics, whatever the password; the dear ones cost a thread's time.
            let _ = user.hash().verify(name);
        }
        users.remember(user, name);
        assert!(users.was_verified(user, name));
        assert!(!users.was_verified(user, &[name, b"x"].concat()));
    }
    assert!(users.len() <= named, "{} users of {named} lines", users.len());
});

fn credentials(value: &[u8]) {
    if let Some(read) = Credentials::parse(value) {
        assert!(!read.user().contains(&b':'));
        let encoded = value[6..].trim_ascii();
        assert!(encoded.len() <= MAX_CREDENTIALS);
        let mut joined = read.user().to_vec();
        joined.push(b':');
        joined.extend_from_slice(read.password());
        assert_eq!(
            base64::engine::general_purpose::STANDARD.encode(&joined).as_bytes(),
            encoded,
            "the credentials are the value's base64, canonical"
        );
    }
    // The line's bytes as a client's user:password.
    let encoded = base64::engine::general_purpose::STANDARD.encode(value);
    let sent = format!("Basic {encoded}");
    let read = Credentials::parse(sent.as_bytes());
    match value.iter().position(|&byte| byte == b':') {
        Some(colon) if encoded.len() <= MAX_CREDENTIALS => {
            let read = read.expect("Basic credentials with a ':' are read");
            assert_eq!(read.user(), &value[..colon]);
            assert_eq!(read.password(), &value[colon + 1..]);
        }
        _ => assert!(read.is_none(), "{value:?}"),
    }
}

/// Whether the file has a bcrypt or SHA-crypt line dearer than the fuzzer should pay for.
fn too_dear(lines: &[&[u8]]) -> bool {
    let mut crypt = 0;
    for line in lines {
        let text = String::from_utf8_lossy(line);
        let Some(hash) = text.split(':').nth(1) else {
            continue;
        };
        if ["$2a$", "$2b$", "$2y$", "$5$", "$6$"]
            .iter()
            .any(|magic| hash.starts_with(magic))
        {
            crypt += 1;
        }
        match crypt_cost(hash) {
            Some(CryptCost::Bcrypt(cost)) if cost > 6 => return true,
            Some(CryptCost::ShaRounds(rounds)) if rounds > 20_000 => return true,
            _ => {}
        }
    }
    crypt > 4
}
