//! The parser on its own: blocks, quotes and escapes, comments, variables, includes with globs,
//! and errors that name the file and line.

use super::*;

fn parse(text: &str) -> Vec<Directive> {
    match parse_str(text, "nginx.conf") {
        Ok(directives) => directives,
        Err(error) => panic!("expected a valid config, got: {error}"),
    }
}

fn error(text: &str) -> String {
    match parse_str(text, "nginx.conf") {
        Ok(directives) => panic!("expected an error, got {directives:?}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn nested_blocks_keep_their_lines() {
    let directives = parse(
        "worker_processes 1;\nhttp {\n  server {\n    listen 80;\n    location / {\n      proxy_pass http://app;\n    }\n  }\n}\n",
    );
    assert_eq!(directives[0].name, "worker_processes");
    assert_eq!(directives[0].args, ["1"]);
    assert_eq!(directives[0].source.line, 1);
    let http = &directives[1];
    assert_eq!(http.source.line, 2);
    let server = &http.block.as_ref().unwrap()[0];
    assert_eq!(server.source.line, 3);
    let location = &server.block.as_ref().unwrap()[1];
    assert_eq!(location.args, ["/"]);
    let proxy_pass = &location.block.as_ref().unwrap()[0];
    assert_eq!(proxy_pass.summary(), "proxy_pass http://app");
    assert_eq!(proxy_pass.source.to_string(), "nginx.conf:6");
}

#[test]
fn quotes_escapes_comments_and_variables() {
    let directives = parse(concat!(
        "# a comment\n",
        "gzip_disable \"msie6\"; # trailing comment\n",
        "proxy_set_header Connection \"\";\n",
        "log_format main '$remote_addr \"$request\" \\'q\\'';\n",
        "return 301 https://${host}$request_uri;\n",
        "location ~ \\.php$ { }\n",
        "add_header X-Note \"a;b{c}#d\";\n",
        "multi \"line\none\";\n",
        "after 1;\n",
    ));
    assert_eq!(directives[0].args, ["msie6"]);
    assert_eq!(directives[1].args, ["Connection", ""]);
    assert_eq!(
        directives[2].args,
        ["main", "$remote_addr \"$request\" 'q'"]
    );
    assert_eq!(directives[3].args, ["301", "https://${host}$request_uri"]);
    assert_eq!(
        directives[4].args,
        ["~", "\\.php$"],
        "a regex keeps its backslash"
    );
    assert_eq!(directives[4].block, Some(Vec::new()));
    assert_eq!(directives[5].args, ["X-Note", "a;b{c}#d"]);
    assert_eq!(directives[6].args, ["line\none"]);
    assert_eq!(
        directives[7].source.line, 10,
        "lines inside quotes are counted"
    );
}

#[test]
fn written_back_it_reads_the_same() {
    let text = "http {\n  log_format main '$remote_addr \"$request\"';\n  server { listen 80; add_header X \"a b;\"; location = / { return 204; } }\n}\n";
    let first = parse(text);
    let again = parse(&to_nginx(&first));
    let strip = |directives: &[Directive]| to_nginx(directives);
    assert_eq!(strip(&first), strip(&again));
    assert_eq!(
        first[0].block.as_ref().unwrap()[1].block.as_ref().unwrap()[1].args,
        ["X", "a b;"]
    );
}

#[test]
fn mistakes_name_the_file_and_line() {
    let message = error("http {\n  server {\n    listen 80\n  }\n}\n");
    assert!(message.starts_with("nginx.conf:4: "), "{message}");
    assert!(message.contains("listen"), "{message}");
    let message = error("http {\n  server {\n");
    assert!(message.contains("line 2"), "{message}");
    assert!(message.contains("not closed"), "{message}");
    let message = error("}\n");
    assert!(message.starts_with("nginx.conf:1: "), "{message}");
    let message = error("a \"open;\n\n");
    assert!(
        message.starts_with("nginx.conf:1: unterminated"),
        "{message}"
    );
    let message = error("\n\n; x;");
    assert!(
        message.starts_with("nginx.conf:3: unexpected ';'"),
        "{message}"
    );
    let message = error("a \"b\"c;");
    assert!(message.contains("after a quoted string"), "{message}");
}

#[test]
fn includes_expand_globs_relative_to_the_main_file_in_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("sites-enabled")).unwrap();
    std::fs::create_dir_all(dir.path().join("snippets")).unwrap();
    std::fs::write(
        dir.path().join("nginx.conf"),
        "http {\n  include sites-enabled/*;\n  include conf.d/*.conf;\n  include mime.types;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("sites-enabled/b.conf"),
        "server { listen 81; include snippets/proxy.conf; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("sites-enabled/a.conf"),
        "server { listen 80; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("snippets/proxy.conf"),
        "\nproxy_read_timeout 5s;\n",
    )
    .unwrap();
    let loaded = load(&dir.path().join("nginx.conf")).unwrap();
    let http = loaded.directives[0].block.as_ref().unwrap();
    assert_eq!(http.len(), 2, "{http:?}");
    assert_eq!(
        http[0].block.as_ref().unwrap()[0].args,
        ["80"],
        "a.conf sorts first"
    );
    let included = &http[1].block.as_ref().unwrap()[1];
    assert_eq!(included.name, "proxy_read_timeout");
    assert!(
        included.source.file.ends_with("snippets/proxy.conf"),
        "{}",
        included.source
    );
    assert_eq!(included.source.line, 2);
    let files: Vec<usize> = loaded
        .includes
        .iter()
        .map(|include| include.files.len())
        .collect();
    assert_eq!(
        files,
        [2, 1, 0, 0],
        "sites-enabled/*, snippets/proxy.conf, conf.d/*.conf, mime.types"
    );
}

#[test]
fn an_include_loop_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nginx.conf"), "include nginx.conf;\n").unwrap();
    let message = load(&dir.path().join("nginx.conf"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("nested more than"), "{message}");
}

#[test]
fn a_quote_right_before_a_closing_parenthesis_is_read_as_nginx_reads_it() {
    // nginx 1.22 accepts both (`nginx -t`); the `)` becomes a word of its own.
    let directives = parse(concat!(
        "if ($host != \"example.com\") { return 301 https://example.com$request_uri; }\n",
        "if ($uri ~ '\\.json$') { return 404; }\n",
    ));
    assert_eq!(directives[0].args, ["($host", "!=", "example.com", ")"]);
    assert_eq!(directives[1].args, ["($uri", "~", "\\.json$", ")"]);
    let message = error("a \"b\"(;");
    assert!(message.contains("after a quoted string"), "{message}");
}

#[test]
fn include_globs_skip_dot_files_as_nginx_does() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("conf.d")).unwrap();
    std::fs::write(
        dir.path().join("nginx.conf"),
        "http { include conf.d/*.conf; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("conf.d/site.conf"),
        "server { listen 80; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("conf.d/.disabled.conf"),
        "server { listen 81; }\n",
    )
    .unwrap();
    let loaded = load(&dir.path().join("nginx.conf")).unwrap();
    let http = loaded.directives[0].block.as_ref().unwrap();
    assert_eq!(http.len(), 1, "only site.conf: {http:?}");
    assert_eq!(loaded.includes[0].files.len(), 1);
}

#[test]
fn a_site_file_finds_its_relative_includes_in_nginx_s_configuration_directory() {
    // /etc/nginx/sites-enabled/site says `include proxy_params;`, which nginx reads from its
    // configuration directory (the one holding nginx.conf), not from sites-enabled.
    let dir = tempfile::tempdir().unwrap();
    let etc = dir.path().join("etc/nginx");
    std::fs::create_dir_all(etc.join("sites-enabled")).unwrap();
    std::fs::write(
        etc.join("nginx.conf"),
        "http { include sites-enabled/*; }\n",
    )
    .unwrap();
    std::fs::write(etc.join("proxy_params"), "proxy_set_header X-Site on;\n").unwrap();
    std::fs::write(
        etc.join("sites-enabled/site"),
        "server { location / { include proxy_params; proxy_pass http://app; } }\n",
    )
    .unwrap();
    let loaded = load(&etc.join("sites-enabled/site")).unwrap();
    let location = &loaded.directives[0].block.as_ref().unwrap()[0];
    let first = &location.block.as_ref().unwrap()[0];
    assert_eq!(
        first.args,
        ["X-Site", "on"],
        "the machine's own proxy_params"
    );
    assert!(first.source.file.ends_with("etc/nginx/proxy_params"));
    assert!(!loaded.includes[0].stock);
}

#[test]
fn a_proxy_params_found_nowhere_is_read_as_the_debian_package_ships_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("site"),
        "server { location / { include proxy_params; proxy_pass http://app; } }\n",
    )
    .unwrap();
    let loaded = load(&dir.path().join("site")).unwrap();
    let location = &loaded.directives[0].block.as_ref().unwrap()[0];
    let set: Vec<&str> = location
        .block
        .as_ref()
        .unwrap()
        .iter()
        .filter(|directive| directive.name == "proxy_set_header")
        .map(|directive| directive.args[0].as_str())
        .collect();
    assert_eq!(
        set,
        ["Host", "X-Real-IP", "X-Forwarded-For", "X-Forwarded-Proto"]
    );
    assert!(loaded.includes[0].stock);
    assert!(loaded.includes[0].files.is_empty());
    // Any other file not found is still left out.
    std::fs::write(
        dir.path().join("site"),
        "server { include snippets/ssl.conf; }\n",
    )
    .unwrap();
    let loaded = load(&dir.path().join("site")).unwrap();
    assert!(!loaded.includes[0].stock);
    assert_eq!(loaded.directives[0].block.as_ref().unwrap().len(), 0);
}
