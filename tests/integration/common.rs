//! Helpers shared by the end-to-end tests: running the built binary and reading what it printed.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_fiveup");

/// The Five Up start position's text.
pub const FIVEUP_START: &str =
    "rnknr/ppppp/5/5/5|ubqub/ppppp/5/5/5|5/5/5/5/5|5/5/5/PPPPP/UBQUB|5/5/5/PPPPP/RNKNR w WGSwgs E1D1A5B5 - 0 1";

/// Runs the binary with `args` and no input.
pub fn fiveup(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

/// Runs the binary with `input` on stdin.
pub fn fiveup_with_input(args: &[&str], input: &str) -> Output {
    fiveup_with_bytes(args, input.as_bytes())
}

/// Runs the binary with `input` on stdin. A binary that refuses its arguments may exit before
/// reading stdin; the broken pipe that leaves is not a failure of the test.
pub fn fiveup_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    match child.stdin.take().expect("stdin").write_all(input) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => panic!("write stdin: {e}"),
    }
    child.wait_with_output().expect("the binary finishes")
}

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// What the run printed on stdout (asserted to be UTF-8).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// What the run printed on stderr (asserted to be UTF-8).
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 output")
}

/// Asserts a successful run, showing both streams otherwise.
pub fn assert_ok(o: &Output) {
    assert!(o.status.success(), "status {:?}\nstdout:\n{}\nstderr:\n{}", o.status, stdout(o), stderr(o));
}

/// Asserts a successful run and returns its stdout.
pub fn ok(o: &Output) -> String {
    assert_ok(o);
    stdout(o)
}

/// Asserts a failed run whose stderr is exactly one line starting with `error: ` and containing
/// `want`.
pub fn assert_one_line_error(o: &Output, want: &str) {
    assert!(!o.status.success(), "expected failure, got {:?}\n{}", o.status, stdout(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(want), "{err:?} should contain {want:?}");
}

/// A fresh, empty scratch directory for one test (`group` keeps test files apart).
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fiveup-{group}-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}
