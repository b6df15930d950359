//! How an error reaches the user: one line holding each cause once ([`error_report`]), the kinds
//! `main` treats apart (a stopped training run, a closed pipe) and the command that resumes a run.

/// Whether an error is a training run stopped by Ctrl-C.
pub fn is_interrupted(e: &anyhow::Error) -> bool {
    e.chain().any(|c| matches!(c.downcast_ref(), Some(fiveup::train::TrainError::Interrupted { .. })))
}

/// Whether an error is a closed output pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

/// The text printed after `error: `: one line holding every cause of the chain once, then the
/// further lines of any multi-line message (such as the accepted player specs) as they are.
///
/// Library errors often show their source in their own message (`{path}: {source}`) and anyhow's
/// chain lists that source again, so a cause whose text the line already holds is left out. Runs
/// of whitespace become one space, and a word longer than 100 characters (an echoed input) is cut
/// with an ellipsis and its length.
pub fn error_report(e: &anyhow::Error) -> String {
    let mut line = String::new();
    let mut notes: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        let mut lines = text.lines();
        let first = fiveup::player::text::clip_words(lines.next().unwrap_or_default());
        if !first.is_empty() && !line.contains(&first) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&first);
        }
        for l in lines.map(str::trim_end).filter(|l| !l.trim().is_empty()) {
            let l = l.to_string();
            if !notes.contains(&l) {
                notes.push(l);
            }
        }
    }
    let mut out = line;
    for n in notes {
        out.push('\n');
        out.push_str(&n);
    }
    out
}

/// The command that resumes this `train` run: its own arguments, each quoted when needed.
pub fn resume_command() -> String {
    let quote = |a: String| {
        if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c)) {
            a
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    std::env::args().map(quote).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error whose message repeats its source, as thiserror's `{path}: {source}` does.
    #[derive(Debug, thiserror::Error)]
    #[error("{path}: {source}")]
    struct WithSource {
        path: String,
        source: std::io::Error,
    }

    #[test]
    fn error_reports_name_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory (os error 2)");
        let e = anyhow::Error::new(WithSource { path: "a.toml".into(), source: io }).context("--config");
        assert_eq!(error_report(&e), "--config: a.toml: No such file or directory (os error 2)");
        let inner = anyhow::anyhow!("white has 0 kings (exactly one is required)");
        let e = inner.context("invalid position: white has 0 kings (exactly one is required)");
        assert_eq!(error_report(&e), "invalid position: white has 0 kings (exactly one is required)");
    }

    #[test]
    fn error_reports_cut_long_words_and_keep_extra_lines() {
        let e = anyhow::anyhow!("bad move '{}'", "x".repeat(10_000));
        let r = error_report(&e);
        assert!(r.len() < 200 && r.ends_with("… (10002 characters)"), "{r}");
        // A spec the library already cut is not cut twice.
        let long = format!("mcts:{}", "x".repeat(10_000));
        let e = long.parse::<fiveup::player::spec::PlayerSpec>().unwrap_err();
        let r = error_report(&anyhow::Error::new(e));
        let first = r.lines().next().unwrap();
        assert!(first.contains("… (10005 characters)'") && first.matches("characters)").count() == 2, "{first}");
        let e = "ab:depth=0".parse::<fiveup::player::spec::PlayerSpec>().unwrap_err();
        let r = error_report(&anyhow::Error::new(e).context("--engine"));
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "--engine: bad player spec 'ab:depth=0': depth=0: expected 1..=64");
        assert_eq!(lines[1], "accepted player specs:");
        assert!(lines.iter().any(|l| l.trim_start().starts_with("random[:seed=N]")), "{r}");
    }
}
