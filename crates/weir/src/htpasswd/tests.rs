use super::*;

/// Each hash made by the tool named, for the password given; each wrong password refused.
const KNOWN: &[(&str, &str, &str)] = &[
    // htpasswd -nbm (its default): two bytes of UTF-8 and more than 16 bytes.
    (
        "htpasswd -m",
        "$apr1$TIW9N6xN$/WglA9iooTv98Pq6IL2kD/",
        "é long password more than sixteen bytes",
    ),
    (
        "openssl passwd -apr1",
        "$apr1$saltsalt$qYpLAVWkBvXFyDme7.oc1/",
        "pass word",
    ),
    (
        "openssl passwd -1",
        "$1$5pZSV9va$azfrPr6af3Fc7dLblQXVa0",
        "password",
    ),
    (
        "htpasswd -B -C 4",
        "$2y$04$zw5EDgCxSQl.T0nOET0CRuz9/aJyAuXH20o7qv3D8d3MvdQ6TNN8i",
        "secret",
    ),
    (
        "openssl passwd -5",
        "$5$abc$qsg6EHbUzHQzF1POlD7zUwBINSELQxypPaeDcZe6vH0",
        "secret",
    ),
    (
        "openssl passwd -6",
        "$6$abc$IdWKNKTJEb8LxY7CGg8YBXlvtfZzFw7Mp/r6niK9YB2mdvgY..TKjv1T..8RadRt2qvUHYRLr/TsVArtr91iR1",
        "secret",
    ),
    ("htpasswd -s", "{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=", "secret"),
    ("htpasswd -d", "6/BBnIALQ56gA", "secret"),
    (
        "python: SHA-1 of password and salt NaCl",
        "{SSHA}dj2lH1ocucmj5OQsjP6mQrVx6FhOYUNs",
        "secret",
    ),
    ("by hand", "{PLAIN}secret", "secret"),
];

#[test]
fn each_hash_accepts_its_password_and_no_other() {
    for (tool, text, password) in KNOWN {
        let hash = Hash::parse(text.as_bytes()).unwrap_or_else(|error| panic!("{tool}: {error}"));
        assert!(hash.verify(password.as_bytes()), "{tool}: {text}");
        assert!(!hash.verify(b"Secret"), "{tool}: a wrong password");
        assert!(!hash.verify(b""), "{tool}: an empty password");
    }
}

#[test]
fn the_costly_hashes_are_the_crypt_family_but_des() {
    let dear: Vec<bool> = KNOWN
        .iter()
        .map(|(_, text, _)| Hash::parse(text.as_bytes()).unwrap().is_dear())
        .collect();
    assert_eq!(
        dear,
        [true, true, true, true, true, true, false, false, false, false]
    );
}

#[test]
fn a_file_is_read_as_nginx_reads_it() {
    let text = b"# staff\r\n\nalice:{PLAIN}one:a comment\r\nbob:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=\nalice:{PLAIN}two\n   \n";
    let users = Users::parse(text).unwrap();
    assert_eq!(users.len(), 2);
    // The first line of a name counts; a comment after a second ':' is not the hash's.
    let alice = users.get(b"alice").unwrap();
    assert!(alice.hash().verify(b"one"));
    assert!(!alice.hash().verify(b"two"));
    assert!(users.get(b"bob").unwrap().hash().verify(b"secret"));
    assert!(
        users.get(b"Alice").is_none(),
        "names are compared as they are"
    );
    assert!(Users::parse(b"").unwrap().is_empty());
}

#[test]
fn a_bad_line_is_named_with_what_would_be_valid() {
    let cases: &[(&[u8], usize, &str)] = &[
        (b"alice:{PLAIN}a\nbob\n", 2, "has no ':'"),
        (b":$apr1$x$y\n", 1, "name before ':' is empty"),
        (b"# c\nalice:secret\n", 2, "needs {PLAIN} before it"),
        (b"alice:$y$j9T$abc$def\n", 1, "htpasswd -B"),
        (
            b"alice:$apr1$toolongsalt$qYpLAVWkBvXFyDme7.oc1/\n",
            1,
            "up to 8 characters",
        ),
        (b"alice:{SHA}abc\n", 1, "20 bytes"),
        (b"alice:{SSHA}abc=\n", 1, "its salt"),
        (b"alice:$2y$04$short\n", 1, "not a valid crypt(3) hash"),
        (b"alice:$sha1$1$x$y\n", 1, "not one nginx reads"),
        // A control character in a salt (fuzz/htpasswd found pwhash panicking on it).
        (
            b"alice:$2y$04$zw5\x00>gCxSQl.T0nOET0CRuz9/aJyAuXH20o7qv3D8d3MvdQ6TNN8i\n",
            1,
            "a character outside",
        ),
        (b"alice:$5$a\x01c$qsg6\n", 1, "a character outside"),
        // Past the cost bounds: refused before a round is paid (without the bound, `weir check`
        // spent a second on the first and more than a day on the second).
        (
            b"alice:$5$rounds=1000001$abc$qsg6EHbUzHQzF1POlD7zUwBINSELQxypPaeDcZe6vH0\n",
            1,
            "rounds= is at most 1000000",
        ),
        (
            b"alice:$2y$31$zw5EDgCxSQl.T0nOET0CRuz9/aJyAuXH20o7qv3D8d3MvdQ6TNN8i\n",
            1,
            "cost is at most 17",
        ),
        (
            b"alice:$6$rounds=99999999999999999999$abc$x\n",
            1,
            "rounds= is at most",
        ),
    ];
    // At the bounds, and an explicit default, still read.
    for hash in [
        "$5$rounds=1000000$abc$qsg6EHbUzHQzF1POlD7zUwBINSELQxypPaeDcZe6vH0",
        "$6$rounds=5000$abc$IdWKNKTJEb8LxY7CGg8YBXlvtfZzFw7Mp/r6niK9YB2mdvgY..TKjv1T..8RadRt2qvUHYRLr/TsVArtr91iR1",
    ] {
        assert!(Hash::parse(hash.as_bytes()).is_ok(), "{hash}");
    }
    for (text, line, says) in cases {
        let error = match Users::parse(text) {
            Ok(_) => panic!("{:?} was read", String::from_utf8_lossy(text)),
            Err(error) => error,
        };
        assert_eq!(error.line, *line, "{error}");
        assert!(error.message.contains(says), "{error}");
    }
}

#[test]
fn a_verified_password_is_remembered_for_its_user_only() {
    let users = Users::parse(
        b"alice:$apr1$saltsalt$qYpLAVWkBvXFyDme7.oc1/\nbob:$apr1$saltsalt$qYpLAVWkBvXFyDme7.oc1/\n",
    )
    .unwrap();
    let (alice, bob) = (users.get(b"alice").unwrap(), users.get(b"bob").unwrap());
    assert!(!users.was_verified(alice, b"pass word"));
    users.remember(alice, b"pass word");
    assert!(users.was_verified(alice, b"pass word"));
    assert!(!users.was_verified(alice, b"pass wore"));
    assert!(!users.was_verified(bob, b"pass word"));
}

#[test]
fn a_file_over_the_bound_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("htpasswd");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(MAX_FILE + 1).unwrap();
    let error = Users::read(&path).err().unwrap();
    assert!(error.message.contains("16 MiB"), "{error}");
    let error = Users::read(&dir.path().join("missing")).err().unwrap();
    assert!(error.message.contains("cannot read it"), "{error}");
}

#[test]
fn read_in_full_a_bad_line_refuses_its_user_and_no_other() {
    let (users, errors) =
        Users::parse_all(b"alice:secret\nbob:{PLAIN}bob\nno colon\nalice:{PLAIN}secret\n").unwrap();
    assert_eq!(
        errors.iter().map(|error| error.line).collect::<Vec<_>>(),
        [1, 3]
    );
    // alice's first line counts, as nginx stops at it: no password of hers passes.
    let alice = users.get(b"alice").unwrap();
    assert!(!alice.hash().verify(b"secret"));
    assert!(!alice.hash().is_dear());
    assert!(users.get(b"bob").unwrap().hash().verify(b"bob"));
    // Read strictly, the first bad line is the error.
    assert_eq!(
        Users::parse(b"bob:{PLAIN}bob\nalice:secret\n")
            .err()
            .unwrap()
            .line,
        2
    );
}

#[test]
fn credentials_are_read_as_nginx_reads_them_short_or_long() {
    use base64::Engine as _;
    let encode = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
    let long = format!("{}:{}", "u".repeat(150), "p:w".repeat(100));
    for text in ["alice:pa:ss", long.as_str()] {
        let credentials = Credentials::parse(format!("bAsIc   {}", encode(text)).as_bytes())
            .unwrap_or_else(|| panic!("{text}"));
        let (user, password) = text.split_once(':').unwrap();
        assert_eq!(credentials.user(), user.as_bytes());
        assert_eq!(credentials.password(), password.as_bytes());
    }
    let over = "x".repeat(MAX_CREDENTIALS);
    for refused in [
        "Bearer YWxpY2U6eA==".to_string(),
        "Basic".to_string(),
        "Basic !!!".to_string(),
        format!("Basic {}", encode("alice")),
        format!("Basic {}", encode(&format!("a:{over}"))),
    ] {
        assert!(
            Credentials::parse(refused.as_bytes()).is_none(),
            "{refused}"
        );
    }
}
