//! The `fiveup` command line: thin on purpose. Parsing and dispatch live in [`cli`]; this file only
//! prints the error (one line, each cause once; see [`cli::errors::error_report`]) and sets the exit status.

mod cli;

use std::process::ExitCode;

/// Whether standard output was closed when the process started (`fiveup show >&-`), noted before
/// Rust's runtime starts: the runtime then opens `/dev/null` in its place, and every write would
/// succeed unseen.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = {
    extern "C" fn note() {
        // SAFETY: fcntl(F_GETFD) only reads the descriptor table; -1 with EBADF means closed.
        let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
        STDOUT_CLOSED.store(closed, std::sync::atomic::Ordering::Relaxed);
    }
    note
};

fn main() -> ExitCode {
    #[cfg(target_os = "linux")]
    if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!("error: standard output is closed: nothing fiveup writes could be read (redirect it to a file or /dev/null)");
        return ExitCode::FAILURE;
    }
    let args = cli::Cli::parse_args();
    // Logs to stderr; RUST_LOG overrides the level (e.g. RUST_LOG=fiveup=debug).
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    // Not locked for the whole run: `fiveup uci` writes from its search thread too.
    let mut out = std::io::stdout();
    match cli::run(args, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        // `fiveup moves | head`: a closed pipe is not an error worth reporting.
        Err(e) if cli::errors::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            if cli::errors::is_interrupted(&e) {
                eprintln!("stopped: {}; resume with: {}", cli::errors::error_report(&e), cli::errors::resume_command());
                // 130: the shell's code for a process stopped by SIGINT.
                return ExitCode::from(130);
            }
            eprintln!("error: {}", cli::errors::error_report(&e));
            ExitCode::FAILURE
        }
    }
}
