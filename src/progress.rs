//! Progress of long work: a progress bar with an ETA when stderr is a terminal, and otherwise (a
//! log file, a pipe, `nohup`) a `tracing` info line when the work starts, every
//! [`LOG_INTERVAL`] while it runs and when it ends, so that a run watched through its log is never
//! silent for long.
//!
//! One [`Progress`] serves every long loop (bootstrap games, training steps, self-play games,
//! evaluation matches); it is `Sync`, so rayon workers may advance it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a non-terminal progress line is written.
pub const LOG_INTERVAL: Duration = Duration::from_secs(30);

/// A progress report: a bar on a terminal, periodic log lines elsewhere.
pub struct Progress {
    bar: ProgressBar,
    label: String,
    unit: &'static str,
    /// `None` when the bar is drawn (no log lines while it runs).
    log: Option<Mutex<LogState>>,
}

/// What the log mode remembers between lines.
struct LogState {
    interval: Duration,
    start: Instant,
    start_pos: u64,
    last: Instant,
    message: String,
    /// Whether a periodic line was written (a short job gets no closing line).
    wrote: bool,
}

impl Progress {
    /// A report of `len` `unit`s (e.g. "games", "steps") of work called `label`: a bar when
    /// stderr is a terminal, a log line every [`LOG_INTERVAL`] otherwise.
    pub fn new(len: u64, label: &str, unit: &'static str) -> Self {
        let log = (!std::io::stderr().is_terminal()).then_some(LOG_INTERVAL);
        Self::with_log_interval(len, label, unit, log)
    }

    /// As [`Progress::new`], with the mode chosen by the caller: `Some(interval)` writes log lines
    /// that often (and draws no bar), `None` draws the bar on stderr.
    pub fn with_log_interval(len: u64, label: &str, unit: &'static str, log: Option<Duration>) -> Self {
        let target = if log.is_some() { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
        let bar = ProgressBar::with_draw_target(Some(len), target);
        let template =
            format!("{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{elapsed_precise}} eta {{eta}} {{msg}}");
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
        let now = Instant::now();
        let log = log.map(|interval| {
            Mutex::new(LogState { interval, start: now, start_pos: 0, last: now, message: String::new(), wrote: false })
        });
        Self { bar, label: label.to_string(), unit, log }
    }

    /// Sets the position without counting it as work done now (work resumed from disk), and writes
    /// the starting line in log mode.
    pub fn resume_at(&self, pos: u64) {
        self.bar.set_position(pos);
        if let Some(state) = &self.log {
            let mut s = lock(state);
            s.start_pos = pos;
            s.start = Instant::now();
            s.last = s.start;
        }
        if self.log.is_some() {
            let len = self.bar.length().unwrap_or(0);
            tracing::info!("{}: {pos}/{len} {} done, starting", self.label, self.unit);
        }
    }

    /// Sets the amount of work, once it is known (a phase whose size the one before decides).
    pub fn set_length(&self, len: u64) {
        self.bar.set_length(len);
    }

    /// Moves to `pos` units done.
    pub fn set_position(&self, pos: u64) {
        self.bar.set_position(pos);
        self.maybe_log();
    }

    /// Adds `n` units done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        self.maybe_log();
    }

    /// Sets the text shown after the counts (e.g. the current loss).
    pub fn set_message(&self, msg: impl Into<String>) {
        let msg = msg.into();
        if let Some(state) = &self.log {
            lock(state).message.clone_from(&msg);
        }
        self.bar.set_message(msg);
    }

    /// Ends the report: clears the bar, or in log mode writes a last line if the work took long
    /// enough to have had a periodic one.
    pub fn finish(&self) {
        // Taken before the bar is finished, which moves its position to its length: work that
        // ends short of it (a held-out set from fewer games than asked) reports what it did.
        let line = self.final_line();
        self.bar.finish_and_clear();
        if let Some(line) = line {
            tracing::info!("{line} (finished)");
        }
    }

    /// [`Progress::finish`]'s line in log mode, if a periodic one was written.
    fn final_line(&self) -> Option<String> {
        let s = lock(self.log.as_ref()?);
        s.wrote.then(|| status_line(&self.label, self.counts(), self.unit, s.start.elapsed(), None, &s.message))
    }

    /// (position, length).
    fn counts(&self) -> (u64, u64) {
        (self.bar.position(), self.bar.length().unwrap_or(0))
    }

    fn maybe_log(&self) {
        if let Some(state) = &self.log {
            if let Some(line) = self.due_line(&mut lock(state), Instant::now()) {
                tracing::info!("{line}");
            }
        }
    }

    /// The line to write at `now`, if one is due.
    fn due_line(&self, s: &mut LogState, now: Instant) -> Option<String> {
        if now.duration_since(s.last) < s.interval {
            return None;
        }
        s.last = now;
        s.wrote = true;
        let (pos, len) = self.counts();
        let elapsed = now.duration_since(s.start);
        let eta = eta(pos.saturating_sub(s.start_pos), len.saturating_sub(pos), elapsed);
        Some(status_line(&self.label, (pos, len), self.unit, elapsed, eta, &s.message))
    }
}

fn lock(m: &Mutex<LogState>) -> std::sync::MutexGuard<'_, LogState> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The time left for `remaining` units at the rate of `done` units in `elapsed` (`None` before the
/// first unit).
pub fn eta(done: u64, remaining: u64, elapsed: Duration) -> Option<Duration> {
    (done > 0).then(|| elapsed.mul_f64(remaining as f64 / done as f64))
}

/// A duration as `45s`, `3m05s` or `2h07m`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// One progress line: `label: 1200/3000 steps (40%), 2m05s elapsed, eta 3m08s, loss 2.31`.
pub fn status_line(
    label: &str,
    (pos, len): (u64, u64),
    unit: &str,
    elapsed: Duration,
    eta: Option<Duration>,
    message: &str,
) -> String {
    let pct = if len > 0 { 100.0 * pos as f64 / len as f64 } else { 100.0 };
    let mut line = format!("{label}: {pos}/{len} {unit} ({pct:.0}%), {} elapsed", format_duration(elapsed));
    if let Some(e) = eta {
        line += &format!(", eta {}", format_duration(e));
    }
    if !message.is_empty() {
        line += ", ";
        line += message;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_the_counts_the_time_and_the_eta() {
        let line = status_line("bootstrap training", (1200, 3000), "steps", Duration::from_secs(125), None, "");
        assert_eq!(line, "bootstrap training: 1200/3000 steps (40%), 2m05s elapsed");
        let e = eta(1200, 1800, Duration::from_secs(120));
        assert_eq!(e, Some(Duration::from_secs(180)));
        let line = status_line("gen 3 self-play", (5, 96), "games", Duration::from_secs(7300), e, "loss 2.310");
        assert_eq!(line, "gen 3 self-play: 5/96 games (5%), 2h01m elapsed, eta 3m00s, loss 2.310");
        assert_eq!(eta(0, 10, Duration::from_secs(5)), None, "no rate before the first unit");
        assert_eq!(format_duration(Duration::from_secs(59)), "59s");
    }

    #[test]
    fn log_mode_writes_a_line_once_per_interval_with_an_eta_from_work_done_now() {
        let p = Progress::with_log_interval(100, "gen 0 training", "steps", Some(Duration::from_secs(30)));
        p.resume_at(40);
        let t0 = lock(p.log.as_ref().unwrap()).start;
        p.bar.set_position(50);
        p.set_message("loss 1.5");
        let mut s = lock(p.log.as_ref().unwrap());
        assert_eq!(p.due_line(&mut s, t0 + Duration::from_secs(10)), None, "not due before the interval");
        // 10 steps in 60 s since the resume: 50 left take 300 s.
        let line = p.due_line(&mut s, t0 + Duration::from_secs(60)).expect("due");
        assert_eq!(line, "gen 0 training: 50/100 steps (50%), 1m00s elapsed, eta 5m00s, loss 1.5");
        assert_eq!(p.due_line(&mut s, t0 + Duration::from_secs(70)), None, "the next one 30 s later");
        assert!(p.due_line(&mut s, t0 + Duration::from_secs(91)).is_some());
    }

    #[test]
    fn the_last_line_counts_what_was_done_when_the_work_ends_short() {
        let p = Progress::with_log_interval(100, "held-out set", "positions", Some(Duration::from_secs(30)));
        p.resume_at(0);
        p.bar.set_position(61);
        assert_eq!(p.final_line(), None, "no last line without a periodic one");
        lock(p.log.as_ref().unwrap()).wrote = true;
        let line = p.final_line().expect("a last line");
        assert!(line.starts_with("held-out set: 61/100 positions (61%)"), "{line}");
        p.finish();
    }
}
