//! Running results of a two-player match from one player's ("A") point of view: W/D/L, finished
//! colour-swapped pairs (pentanomial), and how games ended. Games of a pair may finish in any
//! order; a pair counts when its second game arrives.

use super::elo::{Pentanomial, Trinomial};
use super::records::{RecordGame, TextRecord};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Match results from player A's side.
#[derive(Clone, Debug, Default)]
pub struct MatchTally {
    /// All finished games.
    pub trinomial: Trinomial,
    /// Finished pairs.
    pub pentanomial: Pentanomial,
    /// Games per `Termination` value.
    pub terminations: BTreeMap<String, u64>,
    /// Moves, nodes and seconds of A (index 0) and B (index 1), from records with the runner's
    /// `WhiteNodes`/`WhiteSeconds`/… tags.
    pub effort: [Effort; 2],
    /// A's score in the first finished game of each open pair, by `Pair` tag.
    open: HashMap<String, f64>,
    /// Unpaired games of tallies merged into this one ([`MatchTally::merge`]).
    unpaired: usize,
}

/// What a player spent over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Effort {
    /// Moves it chose.
    pub moves: u64,
    /// Nodes (or simulations) its searches reported.
    pub nodes: u64,
    /// Thinking time in seconds.
    pub seconds: f64,
}

impl Effort {
    /// White's and black's effort in one game, from the runner's `WhiteNodes`, `WhiteSeconds`,
    /// `BlackNodes` and `BlackSeconds` tags; `None` for records without them.
    pub fn of_record<S: RecordGame>(record: &TextRecord<S>) -> Option<[Effort; 2]> {
        let (wn, bn) = (record.tag("WhiteNodes")?, record.tag("BlackNodes")?);
        let secs = |t: Option<&str>| t.and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        // Moves chosen by the players: after the opening, white first if white is then to move.
        let played = record.moves.len().saturating_sub(record.opening_plies) as u64;
        let white_first = (record.start.side() == crate::game::Color::White) == (record.opening_plies % 2 == 0);
        let (first, second) = (played.div_ceil(2), played / 2);
        Some([
            Effort {
                moves: if white_first { first } else { second },
                nodes: wn.parse().unwrap_or(0),
                seconds: secs(record.tag("WhiteSeconds")),
            },
            Effort {
                moves: if white_first { second } else { first },
                nodes: bn.parse().unwrap_or(0),
                seconds: secs(record.tag("BlackSeconds")),
            },
        ])
    }

    /// Adds another effort to this one.
    pub fn add(&mut self, other: &Effort) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.seconds += other.seconds;
    }

    /// `nodes/move, seconds/move`, or `-` before any move.
    pub fn per_move(&self) -> String {
        if self.moves == 0 {
            return "-".to_string();
        }
        let m = self.moves as f64;
        format!("{:.0} nodes, {:.3} s", self.nodes as f64 / m, self.seconds / m)
    }
}

impl MatchTally {
    /// An empty tally.
    pub fn new() -> MatchTally {
        MatchTally::default()
    }

    /// Adds a finished game in which A had white (`a_white`) or black. Returns A's scores in the
    /// two games of the pair (in arrival order) when this game completes a pair. Unfinished games
    /// are ignored.
    pub fn add<S: RecordGame>(&mut self, a_white: bool, record: &TextRecord<S>) -> Option<(f64, f64)> {
        let w = record.white_score()?;
        let score = if a_white { w } else { 1.0 - w };
        match (score * 2.0).round() as i64 {
            2 => self.trinomial.wins += 1,
            1 => self.trinomial.draws += 1,
            _ => self.trinomial.losses += 1,
        }
        *self.terminations.entry(record.termination()).or_default() += 1;
        self.add_effort(a_white, record);
        let Some(pair) = record.tag("Pair").map(str::to_string) else {
            self.unpaired += 1;
            return None;
        };
        match self.open.remove(&pair) {
            Some(first) => {
                self.pentanomial.add_pair(first, score);
                Some((first, score))
            }
            None => {
                self.open.insert(pair, score);
                None
            }
        }
    }

    /// Adds both players' moves, nodes and time from the record's tags (absent tags add nothing).
    fn add_effort<S: RecordGame>(&mut self, a_white: bool, record: &TextRecord<S>) {
        let Some([white, black]) = Effort::of_record(record) else { return };
        let (a, b) = if a_white { (white, black) } else { (black, white) };
        self.effort[0].add(&a);
        self.effort[1].add(&b);
    }

    /// Adds another tally's games (a second match between the same players, seen from the same
    /// A). Its unfinished pairs stay unfinished: pairs are matched within a tally only.
    pub fn merge(&mut self, other: &MatchTally) {
        let (t, o) = (&mut self.trinomial, other.trinomial);
        (t.wins, t.draws, t.losses) = (t.wins + o.wins, t.draws + o.draws, t.losses + o.losses);
        for (c, o) in self.pentanomial.counts.iter_mut().zip(other.pentanomial.counts) {
            *c += o;
        }
        for (k, n) in &other.terminations {
            *self.terminations.entry(k.clone()).or_default() += n;
        }
        for (e, o) in self.effort.iter_mut().zip(&other.effort) {
            e.add(o);
        }
        self.unpaired += other.unpaired();
    }

    /// Games whose colour-swapped partner is not in the tally (a match cut short, or records
    /// without `Pair` tags): counted in W/D/L, not in the pairs.
    pub fn unpaired(&self) -> usize {
        self.open.len() + self.unpaired
    }

    /// The summary a match prints: counts, score, both Elo intervals and terminations.
    pub fn summary(&self, a: &str, b: &str) -> String {
        let t = self.trinomial;
        let mut out = String::new();
        let pct = if t.games() > 0 { 100.0 * t.points() / t.games() as f64 } else { 0.0 };
        let _ = writeln!(
            out,
            "{a} vs {b}: W/D/L {} / {} / {}, score {} / {} ({pct:.1}%)",
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            t.games()
        );
        let tri = t.elo_interval().map_or("no games".to_string(), |e| e.to_string());
        let _ = writeln!(out, "trinomial:   {tri}");
        let penta = self.pentanomial.elo_interval();
        let penta = penta.map_or("no complete pairs".to_string(), |e| format!("{e}; pairs {}", self.pentanomial));
        let _ = writeln!(out, "pentanomial: {penta}");
        let ends: Vec<String> = self.terminations.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(out, "terminations: {}", if ends.is_empty() { "-".to_string() } else { ends.join(", ") });
        if self.effort.iter().any(|e| e.moves > 0) {
            let _ = writeln!(out, "per move: {a} {}; {b} {}", self.effort[0].per_move(), self.effort[1].per_move());
        }
        out
    }
}

/// The games of a records file between two players, from A's side ([`tally_records`]).
#[derive(Clone, Debug)]
pub struct Tallied {
    /// Player A's spec.
    pub a: String,
    /// Player B's spec.
    pub b: String,
    /// The finished games between them.
    pub tally: MatchTally,
    /// Games between other players, left out (only with a named B).
    pub others: usize,
    /// Games between A and B saved unfinished (`*`), left out.
    pub unfinished: usize,
}

/// Why the games of a records file do not tally ([`tally_records`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TallyError {
    /// The file holds no games.
    #[error("no games")]
    NoGames,
    /// A named A plays no game.
    #[error("no game of {0}")]
    NoGameOf(String),
    /// A and B name the same player.
    #[error("A and B are the same player, {0} (records of a player against itself cannot tell the sides apart)")]
    SamePlayer(String),
    /// A game (1-based) between other players, where every game must be between A and B.
    #[error("game {game} is {white} vs {black}, not between {a} and {b}")]
    NotBetween {
        /// The game's number, from 1.
        game: usize,
        /// Its white.
        white: String,
        /// Its black.
        black: String,
        /// Player A.
        a: String,
        /// Player B.
        b: String,
    },
    /// No game between A and B has a result.
    #[error("no finished games between {a} and {b}")]
    NoFinished {
        /// Player A.
        a: String,
        /// Player B.
        b: String,
    },
}

/// Tallies the games of `records` between A and B from A's side. A is `a`, or the first game's
/// white; B is `b`, or A's opponent in the first game A plays. With `b` unset every game must
/// be between A and B (a match's or SPRT's records); with `b` set, games between other players
/// are left out (a head-to-head out of a tournament's records). Pairs are matched by the `Pair`
/// tag. The error names the first game (1-based) that does not fit, or says that none does.
pub fn tally_records<S: RecordGame>(
    records: &[TextRecord<S>],
    a: Option<&str>,
    b: Option<&str>,
) -> Result<Tallied, TallyError> {
    let first = records.first().ok_or(TallyError::NoGames)?;
    let a = a.unwrap_or(&first.white).to_string();
    let b_given = b.is_some();
    let b = match b {
        Some(b) => b.to_string(),
        None => {
            let g =
                records.iter().find(|r| r.white == a || r.black == a).ok_or_else(|| TallyError::NoGameOf(a.clone()))?;
            if g.white == a {
                g.black.clone()
            } else {
                g.white.clone()
            }
        }
    };
    if a == b {
        return Err(TallyError::SamePlayer(a));
    }
    let mut t = Tallied { a, b, tally: MatchTally::new(), others: 0, unfinished: 0 };
    for (i, r) in records.iter().enumerate() {
        let a_white = match (r.white == t.a && r.black == t.b, r.black == t.a && r.white == t.b) {
            (true, _) => true,
            (_, true) => false,
            _ if b_given => {
                t.others += 1;
                continue;
            }
            _ => {
                return Err(TallyError::NotBetween {
                    game: i + 1,
                    white: r.white.clone(),
                    black: r.black.clone(),
                    a: t.a,
                    b: t.b,
                })
            }
        };
        if r.white_score().is_none() {
            t.unfinished += 1;
            continue;
        }
        t.tally.add(a_white, r);
    }
    if t.tally.trinomial.games() == 0 {
        return Err(TallyError::NoFinished { a: t.a, b: t.b });
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use crate::game::{EndRule, Outcome};
    use crate::rules::{Position, Variant};

    fn rec(pair: &str, winner: Option<Color>) -> TextRecord {
        TextRecord {
            event: "t".into(),
            white: "x".into(),
            black: "y".into(),
            start: Position::startpos(Variant::default()),
            moves: vec![],
            opening_plies: 0,
            outcome: Some(Outcome { winner, rule: EndRule::Adjudication }),
            detail: Some("ply-cap".into()),
            tags: vec![("Pair".into(), pair.into())],
        }
    }

    #[test]
    fn pairs_complete_in_any_order() {
        let mut t = MatchTally::new();
        assert_eq!(t.add(true, &rec("0", Some(Color::White))), None);
        assert_eq!(t.add(true, &rec("1", None)), None);
        assert_eq!(t.add(false, &rec("1", Some(Color::White))), Some((0.5, 0.0)));
        assert_eq!(t.add(false, &rec("0", Some(Color::White))), Some((1.0, 0.0)));
        assert_eq!(t.trinomial, Trinomial::new(1, 1, 2));
        assert_eq!(t.pentanomial.counts, [0, 1, 1, 0, 0]);
        let s = t.summary("A", "B");
        assert!(s.contains("W/D/L 1 / 1 / 2") && s.contains("adjudication/ply-cap 4"), "{s}");
        assert!(!s.contains("per move"), "no effort tags, no effort line: {s}");
    }

    #[test]
    fn effort_is_split_by_player_and_colour() {
        let mut t = MatchTally::new();
        let mut r = rec("0", None);
        // Five Up start: white moves first; 3 opening plies, then 5 player moves (black 3, white 2).
        let mut p = r.start.clone();
        for _ in 0..8 {
            let m = p.legal_moves()[0];
            r.moves.push(m);
            p.make(m);
        }
        r.opening_plies = 3;
        r.tags.extend(
            [("WhiteNodes", "200"), ("WhiteSeconds", "0.5"), ("BlackNodes", "900"), ("BlackSeconds", "1.5")]
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        t.add(false, &r);
        assert_eq!(t.effort[0], Effort { moves: 3, nodes: 900, seconds: 1.5 });
        assert_eq!(t.effort[1], Effort { moves: 2, nodes: 200, seconds: 0.5 });
        assert!(t.summary("A", "B").contains("per move: A 300 nodes, 0.500 s; B 100 nodes, 0.250 s"));
    }

    fn game(white: &str, black: &str, pair: &str, winner: Option<Color>) -> TextRecord {
        TextRecord { white: white.into(), black: black.into(), ..rec(pair, winner) }
    }

    #[test]
    fn records_are_tallied_between_two_players_and_pooled() {
        let g = [
            game("a", "b", "0", Some(Color::White)),
            game("b", "a", "0", None),
            game("b", "a", "1", Some(Color::White)),
            game("a", "b", "1", Some(Color::Black)),
            game("a", "b", "2", Some(Color::White)),
        ];
        // A defaults to the first game's white, B to its opponent.
        let t = tally_records(&g, None, None).unwrap();
        assert_eq!((t.a.as_str(), t.b.as_str()), ("a", "b"));
        assert_eq!(t.tally.trinomial, Trinomial::new(2, 1, 2));
        assert_eq!(t.tally.pentanomial.counts, [1, 0, 0, 1, 0]);
        assert_eq!(t.tally.unpaired(), 1);
        // From B's side everything turns round.
        let tb = tally_records(&g, Some("b"), None).unwrap();
        assert_eq!(tb.tally.trinomial, Trinomial::new(2, 1, 2));
        assert_eq!(tb.tally.pentanomial.counts, [0, 1, 0, 0, 1]);
        // Pooled with itself: counts double, unpaired games stay unpaired.
        let mut p = t.tally.clone();
        p.merge(&t.tally);
        assert_eq!(p.trinomial, Trinomial::new(4, 2, 4));
        assert_eq!(p.pentanomial.counts, [2, 0, 0, 2, 0]);
        assert_eq!(p.unpaired(), 2);
        assert_eq!(p.terminations.values().sum::<u64>(), 10);
        // A game of another player: an error naming it, unless B is named.
        let mut h = g.to_vec();
        h.insert(2, game("a", "c", "9", None));
        let e = tally_records(&h, None, None).unwrap_err().to_string();
        assert_eq!(e, "game 3 is a vs c, not between a and b");
        let n = tally_records(&h, None, Some("b")).unwrap();
        assert_eq!((n.others, n.tally.trinomial), (1, Trinomial::new(2, 1, 2)));
        // Unfinished games are left out and counted; no finished game is an error.
        let mut u = game("a", "b", "3", None);
        u.outcome = None;
        let with_u = [g[0].clone(), u.clone()];
        assert_eq!(tally_records(&with_u, None, None).unwrap().unfinished, 1);
        assert_eq!(tally_records(&[u], None, None).unwrap_err().to_string(), "no finished games between a and b");
        assert_eq!(
            tally_records(&g, Some("a"), Some("a")).unwrap_err().to_string(),
            "A and B are the same player, a (records of a player against itself cannot tell the sides apart)"
        );
        assert_eq!(tally_records::<crate::rules::Position>(&[], None, None).unwrap_err().to_string(), "no games");
    }
}
