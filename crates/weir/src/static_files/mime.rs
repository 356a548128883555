//! The `Content-Type` of a file from its extension: a built-in table of the types nginx's
//! `mime.types` lists for what web apps commonly serve, and `application/octet-stream` otherwise,
//! as nginx's `default_type` in the seed config. Text types carry no charset, as in nginx.

use std::path::Path;

/// What a file of unknown type is sent as.
pub const DEFAULT_TYPE: &str = "application/octet-stream";

/// The media type for `path`'s extension, compared without case.
pub fn for_path(path: &Path) -> &'static str {
    let Some(extension) = path.extension().and_then(|extension| extension.to_str()) else {
        return DEFAULT_TYPE;
    };
    // Extensions are short; lower-casing into a small stack buffer avoids an allocation.
    let mut buffer = [0u8; 8];
    if extension.len() > buffer.len() {
        return DEFAULT_TYPE;
    }
    let lower = &mut buffer[..extension.len()];
    lower.copy_from_slice(extension.as_bytes());
    lower.make_ascii_lowercase();
    let Ok(lower) = std::str::from_utf8(lower) else {
        return DEFAULT_TYPE;
    };
    for_extension(lower)
}

/// The media type for a lower-case extension without its dot.
pub fn for_extension(extension: &str) -> &'static str {
    match extension {
        "html" | "htm" | "shtml" => "text/html",
        "css" => "text/css",
        "xml" => "text/xml",
        "txt" => "text/plain",
        "csv" => "text/csv",
        "md" => "text/markdown",
        "js" | "mjs" => "application/javascript",
        "json" => "application/json",
        "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "jsonld" => "application/ld+json",
        "rss" => "application/rss+xml",
        "atom" => "application/atom+xml",
        "xhtml" => "application/xhtml+xml",
        "wasm" => "application/wasm",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "tar" => "application/x-tar",
        "7z" => "application/x-7z-compressed",
        "rar" => "application/vnd.rar",
        "bz2" => "application/x-bzip2",
        "xz" => "application/x-xz",
        "zst" => "application/zstd",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt" => "application/vnd.ms-powerpoint",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt" => "application/vnd.oasis.opendocument.text",
        "rtf" => "application/rtf",
        "epub" => "application/epub+zip",
        "jar" | "war" | "ear" => "application/java-archive",
        "bin" | "exe" | "dll" | "deb" | "dmg" | "iso" | "img" | "msi" => DEFAULT_TYPE,
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "svg" | "svgz" => "image/svg+xml",
        "ico" => "image/x-icon",
        "bmp" => "image/bmp",
        "tif" | "tiff" => "image/tiff",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "eot" => "application/vnd.ms-fontobject",
        "mp3" => "audio/mpeg",
        "ogg" | "oga" => "audio/ogg",
        "m4a" => "audio/x-m4a",
        "wav" => "audio/wav",
        "flac" => "audio/flac",
        "mp4" | "m4v" => "video/mp4",
        "webm" => "video/webm",
        "ogv" => "video/ogg",
        "mov" => "video/quicktime",
        "avi" => "video/x-msvideo",
        "mpeg" | "mpg" => "video/mpeg",
        "ts" => "video/mp2t",
        "m3u8" => "application/vnd.apple.mpegurl",
        _ => DEFAULT_TYPE,
    }
}
