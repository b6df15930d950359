//! `fiveup serve`: checks the options, then hands over to [`fiveup::serve::serve`].

use anyhow::{bail, Result};
use clap::Args;
use fiveup::serve::{run_dirs, serve, ServeConfig};
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// `fiveup serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// TCP port (0: any free port; the `listening on` line says which).
    #[arg(long, value_name = "N", default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. Anything but loopback lets other machines play and read the --runs
    /// directories: a deliberate choice.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: String,
    /// A run directory the page may read (a tournament's output, a training run, any directory of
    /// record files); repeat for several.
    #[arg(long, value_name = "DIR")]
    pub runs: Vec<PathBuf>,
    /// An extra player spec the page offers; specs that read a file or start a program (`uci:`,
    /// `values=`, `eval=nnue:FILE`, `net=`) are allowed only when given here. Repeatable.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// A host name the server answers to when bound to a non-loopback address (as the browser
    /// writes it in the address bar, without port); repeat for several. Without it such a
    /// server answers to any name; a loopback server always answers only to loopback names.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Engine searches running at once, 1..=64 (more are answered 429).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub max_searches: usize,
    /// The longest one search may run, in seconds (0.1..=3600), analysis included.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub max_think: f64,
    /// A folder of endgame tables (`fiveup tablebase generate`): the page shows "mate in N" for
    /// the positions they hold, and its alpha-beta players probe them.
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(a: &ServeArgs, out: &mut dyn Write) -> Result<()> {
    let ip: IpAddr = match a.bind.trim() {
        "localhost" => IpAddr::from([127, 0, 0, 1]),
        s => match s.parse() {
            Ok(ip) => ip,
            Err(_) => {
                bail!("--bind {}: not an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0)", fiveup::player::text::clip(s))
            }
        },
    };
    if !(1..=64).contains(&a.max_searches) {
        bail!("--max-searches {}: expected 1..=64", a.max_searches);
    }
    if !(a.max_think.is_finite() && (0.1..=3600.0).contains(&a.max_think)) {
        bail!("--max-think {}: expected 0.1..=3600 seconds", a.max_think);
    }
    let runs = run_dirs(&a.runs).map_err(anyhow::Error::msg)?;
    if !ip.is_loopback() {
        tracing::warn!("listening on {ip}: other machines can use this server and read the --runs directories");
        if a.allow_hosts.is_empty() {
            tracing::warn!("no --allow-host: the server answers to any host name (DNS rebinding is not guarded)");
        }
    }
    let config = ServeConfig {
        addr: SocketAddr::new(ip, a.port),
        runs,
        engines: a.engines.clone(),
        max_searches: a.max_searches,
        max_think: Duration::from_secs_f64(a.max_think),
        allow_hosts: a.allow_hosts.iter().map(|h| h.trim().to_string()).filter(|h| !h.is_empty()).collect(),
        tablebases: a.tablebases.clone(),
    };
    serve(config, out).map_err(anyhow::Error::msg)
}
