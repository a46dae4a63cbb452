//! The archive path end to end against a local HTTP server on 127.0.0.1: download, hash check,
//! unpack, atomic install, reuse, repair, offline, and two first uses at once. `bounds`: what
//! keeps a fetch from hanging or filling the disk, and what a killed one leaves.

mod bounds;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::super::pins::{ArchiveFormat, Fetch, Source};
use super::*;

const LIBRARY: &[u8] = b"\x7fELF pretend DXC library, long enough to tell apart";

/// The files a [`Server`] serves: (path, bytes).
type Files = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// Serves `files` (path → bytes) over HTTP/1.1 on 127.0.0.1 from a background thread, each
/// answer after `delay`; counts the requests. It stops with the test process.
struct Server {
    base: String,
    hits: Arc<AtomicUsize>,
    files: Files,
}

impl Server {
    fn start(delay: Duration) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let hits = Arc::new(AtomicUsize::new(0));
        let files: Files = Arc::default();
        let (h, f) = (hits.clone(), files.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().take(64) {
                let Ok(mut stream) = stream else { continue };
                h.fetch_add(1, Ordering::SeqCst);
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let line = String::from_utf8_lossy(&request).into_owned();
                let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
                std::thread::sleep(delay);
                let body = f
                    .lock()
                    .unwrap()
                    .iter()
                    .find(|(p, _)| *p == path)
                    .map(|(_, b)| b.clone());
                let (status, body) = match body {
                    Some(b) => ("200 OK", b),
                    None => ("404 Not Found", b"not here".to_vec()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        Server { base, hits, files }
    }

    fn serve(&self, path: &str, bytes: Vec<u8>) -> String {
        self.files.lock().unwrap().push((path.to_string(), bytes));
        format!("{}{path}", self.base)
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

fn tar_gz(members: &[(&str, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (name, bytes) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o755);
        header.set_cksum();
        tar.append_data(&mut header, name, *bytes).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = ::zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in members {
        zip.start_file(*name, ::zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn archive_source(url: String, bytes: &[u8], format: ArchiveFormat, members: &[&str]) -> Source {
    let sha256 = fetch::sha256_hex(bytes);
    Source {
        name: "release",
        what: "test DXC archive".into(),
        megabytes: 1,
        fetch: Fetch::Archive {
            url,
            sha256: sha256.clone(),
            format,
            members: members.iter().map(|m| m.to_string()).collect(),
        },
        key: sha256,
    }
}

/// Collects the notice lines of one `provide` call.
fn provide(p: &Provisioner) -> (Result<Cached, String>, Vec<String>) {
    let lines = std::cell::RefCell::new(Vec::new());
    let r = p.provide(&|l: &str| lines.borrow_mut().push(l.to_string()));
    (r, lines.into_inner())
}

#[test]
fn an_archive_is_fetched_checked_unpacked_installed_and_then_reused() {
    let server = Server::start(Duration::ZERO);
    let bytes = tar_gz(&[("./bin/dxc", b"tool"), ("./lib/libdxcompiler.so", LIBRARY)]);
    let url = server.serve("/v1.8/linux_dxc.tar.gz", bytes.clone());
    let source = archive_source(url, &bytes, ArchiveFormat::TarGz, &["lib/libdxcompiler.so"]);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path().join("dxc"), vec![source.clone()]);
    assert_eq!(p.cached(), None);

    let (got, lines) = provide(&p);
    let got = got.expect("fetched");
    assert_eq!(std::fs::read(&got.path).unwrap(), LIBRARY);
    assert_eq!(
        got.path,
        cache
            .path()
            .join("dxc")
            .join(&source.key)
            .join(pins::library_file_name())
    );
    assert_eq!(got.sha256, fetch::sha256_hex(LIBRARY));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("test DXC archive")
            && lines[0].contains("about 1 MB")
            && lines[0].contains(&source.key),
        "{}",
        lines[0]
    );
    // Nothing is left beside the copy but its lock file and the memo of library hashes.
    let mut left: Vec<String> = std::fs::read_dir(cache.path().join("dxc"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let lock = format!("{}.lock", source.key);
    assert_eq!(left, [source.key.clone(), lock, "library-ids.json".into()]);

    // The second use finds the copy: no request, no line.
    let (again, lines) = provide(&p);
    assert_eq!(again.unwrap(), got);
    assert!(lines.is_empty());
    assert_eq!(server.hits(), 1);
}

#[test]
fn a_windows_zip_keeps_every_member() {
    let server = Server::start(Duration::ZERO);
    let bytes = zip(&[
        ("bin/x64/dxcompiler.dll", LIBRARY),
        ("bin/x64/dxil.dll", b"signer"),
        ("bin/x86/dxcompiler.dll", b"the other architecture"),
    ]);
    let url = server.serve("/dxc.zip", bytes.clone());
    let members = ["bin/x64/dxcompiler.dll", "bin/x64/dxil.dll"];
    let source = archive_source(url, &bytes, ArchiveFormat::Zip, &members);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source.clone()]);
    let got = provide(&p).0.expect("fetched");
    assert_eq!(std::fs::read(&got.path).unwrap(), LIBRARY);
    let dir = cache.path().join(&source.key);
    assert_eq!(std::fs::read(dir.join("dxil.dll")).unwrap(), b"signer");
    assert!(!dir.join("dxcompiler.dll").exists() || pins::library_file_name() == "dxcompiler.dll");
}

#[test]
fn a_flipped_byte_is_refused_and_fetched_again() {
    let server = Server::start(Duration::ZERO);
    let bytes = tar_gz(&[("lib/libdxcompiler.so", LIBRARY)]);
    let url = server.serve("/dxc.tar.gz", bytes.clone());
    let source = archive_source(url, &bytes, ArchiveFormat::TarGz, &["lib/libdxcompiler.so"]);
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source]);
    let got = provide(&p).0.expect("fetched");

    let mut damaged = LIBRARY.to_vec();
    damaged[9] ^= 0x20;
    std::fs::write(&got.path, &damaged).unwrap();
    assert_eq!(
        p.cached(),
        None,
        "a damaged copy must never be offered for loading"
    );
    let (again, lines) = provide(&p);
    assert_eq!(std::fs::read(&again.unwrap().path).unwrap(), LIBRARY);
    assert_eq!(lines.len(), 1);
    assert_eq!(server.hits(), 2);

    // Truncated: the same.
    std::fs::write(&got.path, &LIBRARY[..10]).unwrap();
    assert_eq!(p.cached(), None);
    assert_eq!(std::fs::read(provide(&p).0.unwrap().path).unwrap(), LIBRARY);
}

#[test]
fn an_archive_with_another_hash_is_never_installed() {
    let server = Server::start(Duration::ZERO);
    let pinned = tar_gz(&[("lib/libdxcompiler.so", LIBRARY)]);
    let served = tar_gz(&[("lib/libdxcompiler.so", b"something else entirely")]);
    let url = server.serve("/dxc.tar.gz", served);
    let source = archive_source(
        url.clone(),
        &pinned,
        ArchiveFormat::TarGz,
        &["lib/libdxcompiler.so"],
    );
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![source.clone()]);
    let e = provide(&p).0.unwrap_err();
    assert!(e.contains(&url) && e.contains("not the pinned"), "{e}");
    assert!(
        e.contains("SHADOWDUSK_DXC=") && e.contains("shadowdusk setup"),
        "{e}"
    );
    let mut left: Vec<String> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    // The lock, and the failure for the builds that waited on it: no copy, no scratch folder.
    assert_eq!(
        left,
        [
            format!("{}.lock", source.key),
            format!("{}.state", source.key)
        ],
        "no copy and no scratch folder"
    );
}

#[test]
fn an_unreachable_source_falls_through_to_the_next_and_all_failing_names_each() {
    let server = Server::start(Duration::ZERO);
    let bytes = tar_gz(&[("lib/libdxcompiler.so", LIBRARY)]);
    let good = server.serve("/good.tar.gz", bytes.clone());
    let mut missing = archive_source(
        format!("{}/missing.tar.gz", server.base),
        b"x",
        ArchiveFormat::TarGz,
        &["lib/libdxcompiler.so"],
    );
    missing.what = "first source".into();
    let second = archive_source(
        good,
        &bytes,
        ArchiveFormat::TarGz,
        &["lib/libdxcompiler.so"],
    );
    let cache = tempfile::tempdir().unwrap();
    let p = Provisioner::new(cache.path(), vec![missing.clone(), second]);
    let (got, lines) = provide(&p);
    assert_eq!(std::fs::read(got.unwrap().path).unwrap(), LIBRARY);
    assert_eq!(lines.len(), 2, "one line per source tried: {lines:?}");

    let cache = tempfile::tempdir().unwrap();
    let mut also = missing.clone();
    also.what = "second source".into();
    also.key = "0".repeat(64);
    let e = provide(&Provisioner::new(cache.path(), vec![missing, also]))
        .0
        .unwrap_err();
    assert!(
        e.contains("tried first source (curl") && e.contains("then second source"),
        "{e}"
    );
    assert!(e.contains("404"), "{e}");
}

#[test]
fn offline_uses_a_filled_cache_and_explains_an_empty_one() {
    let server = Server::start(Duration::ZERO);
    let bytes = tar_gz(&[("lib/libdxcompiler.so", LIBRARY)]);
    let url = server.serve("/dxc.tar.gz", bytes.clone());
    let source = archive_source(url, &bytes, ArchiveFormat::TarGz, &["lib/libdxcompiler.so"]);
    let empty = tempfile::tempdir().unwrap();
    let offline =
        Provisioner::new(empty.path(), vec![source.clone()]).offline("CARGO_NET_OFFLINE is set");
    let e = provide(&offline).0.unwrap_err();
    assert!(
        e.contains("CARGO_NET_OFFLINE is set")
            && e.contains("shadowdusk setup")
            && e.contains("SHADOWDUSK_DXC="),
        "{e}"
    );
    assert_eq!(server.hits(), 0, "offline never asks the network");

    let filled = tempfile::tempdir().unwrap();
    provide(&Provisioner::new(filled.path(), vec![source.clone()]))
        .0
        .unwrap();
    let offline =
        Provisioner::new(filled.path(), vec![source]).offline("SHADOWDUSK_OFFLINE is set");
    assert_eq!(
        std::fs::read(provide(&offline).0.unwrap().path).unwrap(),
        LIBRARY
    );
    assert_eq!(server.hits(), 1);
}

#[test]
fn two_first_uses_at_once_fetch_once_and_both_get_the_whole_copy() {
    // The answer is slow, so the second caller arrives while the first holds the lock.
    let server = Server::start(Duration::from_millis(400));
    let bytes = tar_gz(&[("lib/libdxcompiler.so", LIBRARY)]);
    let url = server.serve("/dxc.tar.gz", bytes.clone());
    let source = archive_source(url, &bytes, ArchiveFormat::TarGz, &["lib/libdxcompiler.so"]);
    let cache = tempfile::tempdir().unwrap();
    let root = cache.path().to_path_buf();
    let callers: Vec<_> = (0..2)
        .map(|_| {
            let (root, source) = (root.clone(), source.clone());
            std::thread::spawn(move || provide(&Provisioner::new(root, vec![source])))
        })
        .collect();
    let results: Vec<_> = callers.into_iter().map(|c| c.join().unwrap()).collect();
    for (r, _) in &results {
        assert_eq!(std::fs::read(&r.as_ref().unwrap().path).unwrap(), LIBRARY);
    }
    assert_eq!(server.hits(), 1, "one download for two callers");
    let lines: usize = results.iter().map(|(_, l)| l.len()).sum();
    assert_eq!(lines, 1, "one notice for one download");
}

#[test]
fn the_sources_variable_picks_and_orders_and_names_what_exists() {
    let all = pins::for_platform("linux", "x86_64", None);
    let names = |v: &[Source]| v.iter().map(|s| s.name).collect::<Vec<_>>();
    assert_eq!(
        names(&pick(all.clone(), "release, pip").unwrap()),
        ["release", "pip"]
    );
    assert_eq!(names(&pick(all.clone(), "pip").unwrap()), ["pip"]);
    let e = pick(all, "curl").unwrap_err();
    assert!(
        e.contains("SHADOWDUSK_DXC_SOURCES names `curl`") && e.contains("pip, release"),
        "{e}"
    );
}

#[test]
fn a_platform_with_no_pin_names_the_variable() {
    let p = Provisioner::new("/nowhere", Vec::new());
    let e = p.provide(&|_| {}).unwrap_err();
    assert!(
        e.contains("no DXC build is pinned") && e.contains("SHADOWDUSK_DXC="),
        "{e}"
    );
}
