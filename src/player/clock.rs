//! Time controls, game clocks and how a player spends its clock.
//!
//! - [`TimeControl`]: `BASE+INC` in seconds (`10+0.1`: ten seconds for the game, a tenth of a
//!   second added after every move), `BASE` alone (no increment), or cutechess's
//!   `MOVES/BASE+INC` (`40/60+0`: sixty seconds for every forty moves, added again when they are
//!   made).
//! - [`GameClock`]: the runner's clock for one game. [`GameClock::charge`] takes a move's wall
//!   time off the mover's clock; a clock that goes below zero has flagged, else the increment is
//!   added (and the base again at the end of a `MOVES/` period).
//! - [`Clock`]: what a player is told before a move (the UCI `wtime btime winc binc movestogo`).
//! - [`allocate`]: how our players turn a clock into a target (`soft`: no new iteration after it)
//!   and a hard limit for one move: a share of the time left (a fixed move count to go, or 25
//!   more moves in sudden death) plus three quarters of the increment, never more than three
//!   quarters of what is left, with a small reserve for the harness's own overhead.

use super::text::clip;
use crate::game::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control for both players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period (`None`: the base is for the whole game).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Time added after every move.
    pub increment: Duration,
}

/// Longest base time a control may give, in seconds (a week).
const MAX_BASE: f64 = 604_800.0;

/// A time control that does not parse: the text (clipped) and what is wrong with it, then the
/// forms accepted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("time control '{text}': {why} (expected BASE+INC in seconds, e.g. 10+0.1, or MOVES/BASE+INC, e.g. 40/60+0)")]
pub struct TimeControlError {
    /// The control as given, clipped.
    pub text: String,
    /// What is wrong with it.
    pub why: TimeControlFault,
}

/// What is wrong with a time control.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TimeControlFault {
    /// The `MOVES/` part is not a move count in range.
    #[error("the move count must be a whole number from 1 to 1000")]
    MoveCount,
    /// The base or the increment is not a number of seconds in its range.
    #[error("{what} '{value}' must be a number of seconds from {lo} to {hi}")]
    Seconds {
        /// `the base` or `the increment`.
        what: &'static str,
        /// The value as given.
        value: String,
        /// The least accepted.
        lo: f64,
        /// The most accepted.
        hi: f64,
    },
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = |why: TimeControlFault| TimeControlError { text: clip(s), why };
        let t = s.trim();
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => match m.trim().parse::<u32>() {
                Ok(n) if (1..=1000).contains(&n) => (Some(n), r),
                _ => return Err(bad(TimeControlFault::MoveCount)),
            },
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let secs = |v: &str, what: &'static str, lo: f64, hi: f64| -> Result<Duration, TimeControlError> {
            match v.trim().parse::<f64>() {
                Ok(x) if x.is_finite() && x >= lo && x <= hi => Ok(Duration::from_secs_f64(x)),
                _ => Err(bad(TimeControlFault::Seconds { what, value: v.trim().to_string(), lo, hi })),
            }
        };
        let base = secs(base, "the base", 0.001, MAX_BASE)?;
        let increment = match inc {
            Some(i) => secs(i, "the increment", 0.0, 3600.0)?,
            None => Duration::ZERO,
        };
        Ok(TimeControl { moves, base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// The canonical form (parses back to the same control): `10+0.1`, `40/60+0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}+{}", self.base.as_secs_f64(), self.increment.as_secs_f64())
    }
}

/// The clocks as a player sees them before its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Time left, indexed by [`Color::index`] (white first).
    pub remaining: [Duration; 2],
    /// Increment per move, indexed the same way.
    pub increment: [Duration; 2],
    /// Moves until the next time control, for the side to move (`None`: sudden death).
    pub moves_to_go: Option<u32>,
}

/// Time kept back from every allocation for the harness's overhead (process pipes, thread
/// start-up): the smaller of 20 ms and a twentieth of what is left.
fn reserve(left: Duration) -> Duration {
    (left / 20).min(Duration::from_millis(20))
}

/// Moves assumed still to come in sudden death.
const SUDDEN_DEATH_MOVES: u32 = 25;

/// How long `side` should think on `clock`: `(soft, hard)`, the target after which no new
/// iteration starts and the limit at which the search stops (see the module docs).
pub fn allocate(clock: &Clock, side: Color) -> (Duration, Duration) {
    let left = clock.remaining[side.index()];
    let inc = clock.increment[side.index()];
    let usable = left.saturating_sub(reserve(left));
    let to_go = clock.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).clamp(1, 100);
    let hard = if to_go == 1 { usable.mul_f64(0.9) } else { usable.mul_f64(0.75) };
    let soft = (usable / to_go + inc.mul_f64(0.75)).min(hard);
    let hard = hard.min(soft * 4).max(Duration::from_millis(1));
    (soft.max(Duration::from_micros(500)).min(hard), hard)
}

/// One game's clocks under a [`TimeControl`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameClock {
    tc: TimeControl,
    remaining: [Duration; 2],
    /// Moves each side has made on the clock.
    moves: [u32; 2],
}

impl GameClock {
    /// Both clocks at the base time.
    pub fn new(tc: TimeControl) -> GameClock {
        GameClock { tc, remaining: [tc.base; 2], moves: [0; 2] }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.tc
    }

    /// Time left for `side`.
    pub fn remaining(&self, side: Color) -> Duration {
        self.remaining[side.index()]
    }

    /// What `side` is told before its move.
    pub fn clock(&self, side: Color) -> Clock {
        Clock {
            remaining: self.remaining,
            increment: [self.tc.increment; 2],
            moves_to_go: self.tc.moves.map(|m| m - self.moves[side.index()] % m),
        }
    }

    /// Charges `side` for a move that took `elapsed`: `false` when its clock ran out (it lost on
    /// time, and the clock shows zero); else the increment is added, and the base again when a
    /// period's moves are made.
    pub fn charge(&mut self, side: Color, elapsed: Duration) -> bool {
        let i = side.index();
        if elapsed > self.remaining[i] {
            self.remaining[i] = Duration::ZERO;
            return false;
        }
        self.remaining[i] -= elapsed;
        self.remaining[i] += self.tc.increment;
        self.moves[i] += 1;
        if self.tc.moves.is_some_and(|m| self.moves[i] % m == 0) {
            self.remaining[i] += self.tc.base;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print_canonically() {
        for (text, canonical) in
            [("10+0.1", "10+0.1"), ("60", "60+0"), ("40/60+0", "40/60+0"), (" 5 + 0.05 ", "5+0.05")]
        {
            let tc: TimeControl = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(tc.to_string(), canonical);
            assert_eq!(canonical.parse::<TimeControl>().unwrap(), tc);
        }
        for bad in ["", "+1", "0+1", "-5+0", "10+-1", "nan", "10+x", "0/10", "x/10+1", "1e9", "10+0.1+2"] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains("expected BASE+INC") && !e.contains('\n'), "{bad}: {e}");
        }
    }

    #[test]
    fn allocation_spends_a_share_and_keeps_a_reserve() {
        let clock = |left: f64, inc: f64, mtg| Clock {
            remaining: [Duration::from_secs_f64(left), Duration::from_secs(99)],
            increment: [Duration::from_secs_f64(inc); 2],
            moves_to_go: mtg,
        };
        let (soft, hard) = allocate(&clock(10.0, 0.1, None), Color::White);
        assert!((soft.as_secs_f64() - (9.98 / 25.0 + 0.075)).abs() < 1e-6, "{soft:?}");
        assert!(hard > soft && hard <= Duration::from_secs_f64(7.5), "{hard:?}");
        // Little time left: never more than three quarters of it, and a reserve stays.
        for left in [0.002, 0.05, 0.3] {
            let (soft, hard) = allocate(&clock(left, 1.0, None), Color::White);
            assert!(soft <= hard && hard.as_secs_f64() <= left * 0.75 + 1e-3, "{left}: {soft:?} {hard:?}");
        }
        // One move to the control: most of what is left may go into it.
        let (soft, _) = allocate(&clock(10.0, 0.0, Some(1)), Color::White);
        assert!(soft.as_secs_f64() > 8.0);
        // Black's clock for black.
        let (soft, _) = allocate(&clock(1.0, 0.0, None), Color::Black);
        assert!(soft.as_secs_f64() > 3.0);
    }

    #[test]
    fn game_clock_charges_adds_increments_and_flags() {
        let mut c = GameClock::new("1+0.5".parse().unwrap());
        assert!(c.charge(Color::White, Duration::from_millis(300)));
        assert_eq!(c.remaining(Color::White), Duration::from_millis(1200));
        assert_eq!(c.clock(Color::Black).remaining, [Duration::from_millis(1200), Duration::from_secs(1)]);
        assert!(!c.charge(Color::Black, Duration::from_millis(1001)));
        assert_eq!(c.remaining(Color::Black), Duration::ZERO);
        // A period of two moves: the base comes back after the second.
        let mut c = GameClock::new("2/10+0".parse().unwrap());
        assert_eq!(c.clock(Color::White).moves_to_go, Some(2));
        assert!(c.charge(Color::White, Duration::from_secs(4)));
        assert_eq!(c.clock(Color::White).moves_to_go, Some(1));
        assert!(c.charge(Color::White, Duration::from_secs(4)));
        assert_eq!(c.remaining(Color::White), Duration::from_secs(12));
        assert_eq!(c.clock(Color::White).moves_to_go, Some(2));
    }
}
