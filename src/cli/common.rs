//! Helpers shared by the playing subcommands: concurrency, progress bars, record writers.

use anyhow::{bail, Result};
use fiveup::eval::RecordWriter;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;

/// The worker count: the flag, or every available core.
pub fn concurrency(flag: Option<usize>) -> Result<usize> {
    match flag {
        Some(0) => bail!("--concurrency must be at least 1"),
        Some(n) if n > 1024 => bail!("--concurrency {n} is more than 1024"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A progress bar on stderr (drawn only when stderr is a terminal).
pub fn progress(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    let style = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}

/// A record writer for `--out FILE`, truncating the file (`None` without the flag).
pub fn writer(out: Option<&Path>) -> Result<Option<RecordWriter>> {
    Ok(match out {
        Some(p) => Some(RecordWriter::create(p)?),
        None => None,
    })
}
