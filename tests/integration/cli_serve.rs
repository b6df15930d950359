//! `fiveup serve` end to end: the binary listens, serves the page and the API over a real socket,
//! refuses bad options before it listens, and stops on SIGTERM.

use crate::common::BIN;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running server, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(args: &[&str]) -> Server {
    let mut child = Command::new(BIN)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    Server { child, addr }
}

/// One HTTP/1.1 request; returns (status, headers, body).
fn request(addr: &str, method: &str, path: &str, body: Option<(&str, &str)>) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some((ct, b)) = body {
        req += &format!("Content-Type: {ct}\r\nContent-Length: {}\r\n\r\n{b}", b.len());
    } else {
        req += "\r\n";
    }
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

#[test]
fn serves_the_page_and_the_api_over_a_socket() {
    let server = start(&[]);
    let (status, head, body) = request(&server.addr, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(head.to_ascii_lowercase().contains("content-type: text/html"), "{head}");
    assert!(body.contains("<html") || body.contains("<!doctype") || body.contains("<!DOCTYPE"), "{body}");
    let (status, _, body) =
        request(&server.addr, "POST", "/api/game", Some(("application/json", r#"{"moves":["P-Cc2"]}"#)));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""coord":"Dc2Cc2""#), "{body}");
    let (status, _, body) = request(
        &server.addr,
        "POST",
        "/api/search",
        Some(("application/json", r#"{"moves":["P-Cc2"],"spec":"ab:depth=2"}"#)),
    );
    assert_eq!(status, 200);
    assert!(body.contains("event: info") && body.contains("event: bestmove"), "{body}");
    let (status, _, body) =
        request(&server.addr, "POST", "/api/game", Some(("application/json", r#"{"moves":["Dc2Dc5"]}"#)));
    assert_eq!(status, 400);
    assert!(body.contains("move 1 (Dc2Dc5)"), "{body}");
}

#[test]
fn bad_options_fail_with_one_line_before_listening() {
    let t = tempfile::tempdir().unwrap();
    let missing = t.path().join("missing");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--bind".into(), "example.com".into()], "--bind example.com: not an IP address"),
        (vec!["--max-searches".into(), "0".into()], "--max-searches 0"),
        (vec!["--max-think".into(), "0".into()], "--max-think 0"),
        (vec!["--max-think".into(), "NaN".into()], "--max-think NaN"),
        (vec!["--runs".into(), missing.display().to_string()], "--runs "),
        (vec!["--engine".into(), "ab:depth=0".into()], "--engine ab:depth=0"),
    ];
    for (args, wanted) in cases {
        let out = Command::new(BIN).args(["serve", "--port", "0"]).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(wanted), "{args:?}: {err}");
        assert!(String::from_utf8_lossy(&out.stdout).is_empty(), "{args:?}: nothing listened");
    }
    // A port in use.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::new(BIN).args(["serve", "--port", &port]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("cannot listen on 127.0.0.1:{port}")));
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_cleanly() {
    let mut server = start(&[]);
    // An analysis in progress (it would run for --max-think) must not hold the shutdown up.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    let body = r#"{"spec":"ab","infinite":true}"#;
    let req = format!(
        "POST /api/search HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut first = [0u8; 64];
    let n = s.read(&mut first).unwrap();
    assert!(String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"));
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    for _ in 0..100 {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the server did not stop on SIGTERM");
}

#[test]
fn slow_and_hostless_requests_are_closed_or_refused() {
    let server = start(&[]);
    // HTTP/1.0 without a Host header: refused, not served.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(b"GET /api/info HTTP/1.0\r\n\r\n").unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    assert!(raw.starts_with("HTTP/1.0 400") || raw.starts_with("HTTP/1.1 400"), "{raw}");
    assert!(raw.contains("names no Host"), "{raw}");
    // Every answer carries the page's Content-Security-Policy.
    let (_, head, _) = request(&server.addr, "GET", "/", None);
    let csp = head.lines().find(|l| l.to_ascii_lowercase().starts_with("content-security-policy:")).unwrap_or("");
    assert!(csp.contains("script-src 'self' 'sha256-") && csp.contains("frame-ancestors 'none'"), "{head}");
    // A head that stalls half-sent, and a body that stalls half-sent, at the same time.
    let addr = server.addr.clone();
    let head = std::thread::spawn(move || {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
        s.write_all(b"GET /api/info HTTP/1.1\r\nHo").unwrap();
        let t0 = std::time::Instant::now();
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
        t0.elapsed()
    });
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
    let req = format!(
        "POST /api/game HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"moves\":",
        server.addr
    );
    s.write_all(req.as_bytes()).unwrap();
    let t0 = std::time::Instant::now();
    let mut first = [0u8; 256];
    let n = s.read(&mut first).unwrap();
    let answer = String::from_utf8_lossy(&first[..n]).into_owned();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    let closed_after = head.join().unwrap();
    assert!(closed_after < Duration::from_secs(30), "a stalled head was held {closed_after:?}");
}
