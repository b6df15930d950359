//! The gate both generation loops share: an SPRT over the candidate's colour-swapped pairs that
//! decides whether it replaces the best so far, and the "recorded verdict or play" step that makes
//! a decided gate survive a restart.
//!
//! What stays with each loop: its SPRT settings (the network loop's `sprt_alpha` for both error
//! rates, the NNUE loop's [`SprtConfig::new`] defaults), its match runner (and so how games reach
//! the gate), the file its verdict is recorded in and that file's format, and what acceptance does.
//! What is shared: how pairs move the test, when it stops, what an undecided test at the game limit
//! means ([`Undecided`]), the typed [`Verdict`], and reading the verdict recorded earlier or else
//! playing the gate and recording its verdict atomically ([`recorded_or_play`]).

use crate::eval::{Decision, Sprt, SprtConfig, SprtError, SprtStatus};
use std::ops::ControlFlow;
use std::path::Path;

/// What a gate decides when its game limit is reached before the SPRT decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// Accept when the candidate scored at least one half (the network loop: a network that
    /// holds its own may take over, so self-play data keeps moving).
    AcceptIfScoreAtLeastHalf,
    /// Reject (the NNUE loop: only a network that passed the test is published).
    Reject,
}

/// A gate's outcome, which each loop records in its own format.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Whether the candidate replaces the best so far.
    pub accepted: bool,
    /// Why: the SPRT's decision (`Continue` when the game limit came first and [`Undecided`]
    /// decided).
    pub decision: Decision,
    /// The candidate's score share over the games counted.
    pub score: f64,
    /// Games counted (both games of every pair fed to the test).
    pub games: u64,
    /// The SPRT's last log-likelihood ratio.
    pub llr: f64,
    /// The test's last status (bounds, counts, Elo estimate).
    pub status: SprtStatus,
}

/// A gate in progress: feed it pairs until it says stop, then read its [`Verdict`].
#[derive(Clone, Debug)]
pub struct Gate {
    sprt: Sprt,
    undecided: Undecided,
    points: f64,
    games: u64,
}

impl Gate {
    /// A gate with no games yet; an error when the SPRT's settings are refused.
    pub fn new(config: SprtConfig, undecided: Undecided) -> Result<Gate, SprtError> {
        Ok(Gate { sprt: Sprt::new(config)?, undecided, points: 0.0, games: 0 })
    }

    /// Counts a finished pair (the candidate's score in each of its two games), if any, and says
    /// whether to play on: `Break` once the SPRT has decided (a pair arriving after that is not
    /// counted).
    pub fn add(&mut self, pair: Option<(f64, f64)>) -> ControlFlow<()> {
        if self.decided() {
            return ControlFlow::Break(());
        }
        if let Some((first, second)) = pair {
            self.sprt.add_pair(first, second);
            self.points += first + second;
            self.games += 2;
        }
        if self.decided() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Whether the SPRT has reached a bound.
    pub fn decided(&self) -> bool {
        self.sprt.decision() != Decision::Continue
    }

    /// The running test (for progress lines).
    pub fn sprt(&self) -> &Sprt {
        &self.sprt
    }

    /// The outcome of the pairs counted so far; when the SPRT has not decided, the [`Undecided`]
    /// rule does.
    pub fn verdict(&self) -> Verdict {
        let status = self.sprt.status();
        let score = self.points / self.games.max(1) as f64;
        let accepted = match status.decision {
            Decision::AcceptH1 => true,
            Decision::AcceptH0 => false,
            Decision::Continue => match self.undecided {
                Undecided::AcceptIfScoreAtLeastHalf => score >= 0.5,
                Undecided::Reject => false,
            },
        };
        Verdict { accepted, decision: status.decision, score, games: self.games, llr: self.sprt.llr(), status }
    }
}

/// The gate's decision on a stream of pairs (the candidate's scores in each colour-swapped pair),
/// which ends at the game limit: pairs after the SPRT decides are not counted.
pub fn decide(
    config: SprtConfig,
    undecided: Undecided,
    pairs: impl IntoIterator<Item = (f64, f64)>,
) -> Result<Verdict, SprtError> {
    let mut gate = Gate::new(config, undecided)?;
    for pair in pairs {
        if gate.add(Some(pair)).is_break() {
            break;
        }
    }
    Ok(gate.verdict())
}

/// The verdict recorded in `path` by an earlier run (`read` is the loop's reader: `None` when
/// there is none), else `play` the gate and record its verdict there (`encode` is the loop's
/// format), atomically ([`crate::fsutil::write_atomic`]) so a kill never leaves half a verdict.
/// `io_error` turns a failed write into the loop's error.
pub fn recorded_or_play<T, E>(
    path: &Path,
    read: impl FnOnce(&Path) -> Result<Option<T>, E>,
    play: impl FnOnce() -> Result<T, E>,
    encode: impl FnOnce(&T) -> String,
    io_error: impl FnOnce(&Path, std::io::Error) -> E,
) -> Result<T, E> {
    if let Some(verdict) = read(path)? {
        return Ok(verdict);
    }
    let verdict = play()?;
    crate::fsutil::write_atomic(path, encode(&verdict).as_bytes()).map_err(|e| io_error(path, e))?;
    Ok(verdict)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::SprtData;

    /// Pair-score streams the loops' gate decisions are pinned on (elo 0..50).
    pub(crate) const STREAMS: [(&str, &[(f64, f64)]); 5] = [
        ("strong", &[(1.0, 1.0); 40]),
        ("weak", &[(0.0, 0.0); 40]),
        ("ahead", &[(1.0, 0.5), (0.5, 0.5), (1.0, 0.0)]),
        ("even", &[(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]),
        ("behind", &[(0.0, 0.5), (0.5, 0.5), (1.0, 0.0)]),
    ];

    #[test]
    fn a_gate_stops_at_a_bound_and_the_policy_decides_an_undecided_one() {
        let config = SprtConfig { elo0: 0.0, elo1: 50.0, alpha: 0.1, beta: 0.1, data: SprtData::Pentanomial };
        for (name, pairs) in STREAMS {
            let lenient = decide(config, Undecided::AcceptIfScoreAtLeastHalf, pairs.iter().copied()).unwrap();
            let strict = decide(config, Undecided::Reject, pairs.iter().copied()).unwrap();
            // The policy changes nothing but the undecided case's acceptance.
            assert_eq!(Verdict { accepted: lenient.accepted, ..strict.clone() }, lenient, "{name}");
            assert_eq!(
                lenient.accepted,
                strict.accepted || (lenient.decision == Decision::Continue && lenient.score >= 0.5)
            );
            assert_eq!(lenient.games, lenient.status.trinomial.games(), "{name}");
            assert_eq!(lenient.llr, lenient.status.llr, "{name}");
        }
        // A gate that has decided counts no more pairs.
        let mut gate = Gate::new(config, Undecided::Reject).unwrap();
        while gate.add(Some((1.0, 1.0))).is_continue() {}
        let games = gate.verdict().games;
        assert!(gate.add(Some((0.0, 0.0))).is_break() && gate.add(None).is_break());
        assert_eq!(gate.verdict().games, games);
        assert!(Gate::new(SprtConfig::new(10.0, 0.0), Undecided::Reject).is_err());
    }

    #[test]
    fn a_recorded_verdict_is_read_and_an_unrecorded_one_played_once_and_recorded() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("verdict.txt");
        let read = |p: &Path| -> Result<Option<String>, String> { Ok(std::fs::read_to_string(p).ok()) };
        let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
        let mut plays = 0;
        let mut play = || -> Result<String, String> {
            plays += 1;
            Ok("accepted\n".to_string())
        };
        assert_eq!(recorded_or_play(&path, read, &mut play, |v| v.clone(), io).unwrap(), "accepted\n");
        assert_eq!(recorded_or_play(&path, read, &mut play, |v| v.clone(), io).unwrap(), "accepted\n");
        assert_eq!(plays, 1);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "accepted\n");
        // A failed play records nothing; a failed write is the loop's error.
        let other = t.path().join("other.txt");
        assert!(recorded_or_play(&other, read, || Err("lost".to_string()), |v| v.clone(), io).is_err());
        assert!(!other.exists());
        let nowhere = t.path().join("missing-dir/verdict.txt");
        let e = recorded_or_play(&nowhere, read, || Ok("x".to_string()), |v| v.clone(), io).unwrap_err();
        assert!(e.contains("missing-dir"), "{e}");
    }
}
