//! Game records of matches and tournaments in a PGN-style text format: a writer that appends
//! records as games finish and a reader that parses them back into games (for `replay`, resuming
//! tournaments and piece-value regression).
//!
//! # Format
//! One record per game, records separated by a blank line:
//! ```text
//! [Event "match"]
//! [White "ab:depth=1,hash=16"]
//! [Black "random:seed=0"]
//! [Ruleset "fiveup"]
//! [Flags "-"]
//! [Start "rnknr/ppppp/5/5/5|... w WGSwgs E1D1A5B5 - 0 1"]
//! [Opening "4"]
//! [Result "1-0"]
//! [Termination "checkmate"]
//! [Plies "57"]
//! [Pair "3"]
//!
//! 1. Cc2 Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S Cc3 4. SxBe4++ 1-0
//! ```
//! - Tags are `[Name "value"]`, one per line; values escape `\` and `"` with a backslash.
//!   Required, in this order when written: `Event`, `White`, `Black` (player spec strings),
//!   `Ruleset` (`fiveup`, `fiveup-2001`, `raumschach`), `Flags` (`-`, or a comma list of
//!   `castling`, `hypercylinder`), `Start` (position text of the start, before the opening),
//!   `Opening` (how many of the moves came from the opening book rather than the players),
//!   `Result` (`1-0`, `0-1`, `1/2-1/2`, or `*` for a game saved unfinished), `Termination` (the
//!   rule that ended the game, as [`EndRule::name`], optionally `/detail`, e.g.
//!   `adjudication/ply-cap`; `unterminated` for an unfinished game), `Plies` (number of moves). Any further tag (the runner writes `Game`, `Pair`, `Key`, ...) is kept in
//!   [`TextRecord::tags`].
//! - The movetext is the whole game from `Start` in figurine form with move numbers
//!   ([`format_line`]), wrapped at about 90 columns, then the result token. The reader accepts
//!   either notation and ignores `{comments}`.
//! - The reader replays every move, so a record that parses is a legal game; it checks `Plies`
//!   and that a `Result` of checkmate or stalemate agrees with the final position.

use crate::eval::model::RatedResult;
use crate::game::Color;
use crate::game::{EndRule, Game, Outcome, State};
use crate::player::PlayGame;
use crate::rules::notation::format_line;
use crate::rules::{Position, Ruleset, Variant};

/// What records need of a game beyond playing it: its `Ruleset` and `Flags` tags, its start
/// position from them, and its movetext.
pub trait RecordGame: PlayGame {
    /// The `Ruleset` and `Flags` tags of a game from `start`.
    fn tags(start: &Self) -> (&'static str, String);

    /// The start position named by the `Ruleset`, `Flags` and `Start` tags (`startpos`: the
    /// game's standard start), or why there is none.
    fn start_from_tags(ruleset: &str, flags: &str, start: &str) -> Result<Self, String>;

    /// The movetext of `moves` from `start`, with move numbers.
    fn movetext(start: &Self, moves: &[Self::Move]) -> String;

    /// Whether `color` has only its king left and nothing to place: it could never mate, so a
    /// forfeit against its opponent is a draw (as a FIDE arbiter rules a flag against a bare king).
    fn lone_king(&self, color: Color) -> bool;

    /// The judge that decides a game reaching the ply cap by a material lead of at least `pawns`
    /// pawns ([`super::adjudicate::material_adjudicator`]), for a game whose men seldom run out before
    /// the cap (Mixed 3D); `None` (the default): its games are drawn at the cap.
    fn material_adjudicator(pawns: f64) -> Option<super::adjudicate::Adjudicator<Self>> {
        let _ = pawns;
        None
    }
}

impl RecordGame for Position {
    fn tags(start: &Position) -> (&'static str, String) {
        let v = start.variant();
        let mut flags = Vec::new();
        if v.castling {
            flags.push("castling");
        }
        if v.hypercylinder {
            flags.push("hypercylinder");
        }
        let flags = if flags.is_empty() { "-".to_string() } else { flags.join(",") };
        (v.ruleset.name(), flags)
    }

    fn start_from_tags(ruleset: &str, flags: &str, start: &str) -> Result<Position, String> {
        let ruleset: Ruleset = ruleset.parse().map_err(|e| format!("{e}"))?;
        let (mut castling, mut hypercylinder) = (false, false);
        for f in flags.split(',').map(str::trim).filter(|f| !f.is_empty() && *f != "-") {
            match f {
                "castling" => castling = true,
                "hypercylinder" => hypercylinder = true,
                _ => return Err(format!("unknown flag '{f}'")),
            }
        }
        let variant = Variant::new(ruleset, castling, hypercylinder).map_err(|e| e.to_string())?;
        if start == "startpos" {
            Ok(Position::startpos(variant))
        } else {
            Position::from_text(start, variant).map_err(|e| format!("Start: {e}"))
        }
    }

    fn movetext(start: &Position, moves: &[crate::rules::Move]) -> String {
        format_line(start, moves)
    }

    fn lone_king(&self, color: Color) -> bool {
        self.color_bb(color).0.count_ones() == 1 && self.reserve(color) == 0
    }
}

impl RecordGame for crate::quasi_alice::Position {
    fn tags(_: &Self) -> (&'static str, String) {
        (crate::quasi_alice::NAME, "-".to_string())
    }

    fn start_from_tags(ruleset: &str, flags: &str, start: &str) -> Result<Self, String> {
        if ruleset != crate::quasi_alice::NAME {
            return Err(format!("Ruleset '{ruleset}' in a {} records file", crate::quasi_alice::NAME));
        }
        if flags.trim() != "-" {
            return Err(format!("unknown flag '{flags}' ({} has none)", crate::quasi_alice::NAME));
        }
        if start == "startpos" {
            Ok(crate::quasi_alice::Position::start())
        } else {
            crate::quasi_alice::Position::from_text(start).map_err(|e| format!("Start: {e}"))
        }
    }

    fn movetext(start: &Self, moves: &[crate::quasi_alice::Move]) -> String {
        crate::game::line::numbered_line(start, moves, |_, m| m.to_string())
    }

    fn lone_king(&self, color: Color) -> bool {
        (0..4).map(|b| self.men(color, b).count_ones()).sum::<u32>() == 1
    }
}

impl RecordGame for crate::mixed3d::Position {
    fn tags(_: &Self) -> (&'static str, String) {
        (crate::mixed3d::NAME, "-".to_string())
    }

    fn start_from_tags(ruleset: &str, flags: &str, start: &str) -> Result<Self, String> {
        if ruleset != crate::mixed3d::NAME {
            return Err(format!("Ruleset '{ruleset}' in a {} records file", crate::mixed3d::NAME));
        }
        if flags.trim() != "-" {
            return Err(format!("unknown flag '{flags}' ({} has none)", crate::mixed3d::NAME));
        }
        if start == "startpos" {
            Ok(crate::mixed3d::Position::start())
        } else {
            crate::mixed3d::Position::from_text(start).map_err(|e| format!("Start: {e}"))
        }
    }

    fn movetext(start: &Self, moves: &[crate::mixed3d::Move]) -> String {
        crate::game::line::numbered_line(start, moves, |_, m| m.to_string())
    }

    fn lone_king(&self, color: Color) -> bool {
        (0..crate::mixed3d::geometry::SIDE).map(|l| self.men(color, l).count_ones()).sum::<u32>() == 1
    }

    /// Material on the engine's default piece values.
    fn material_adjudicator(pawns: f64) -> Option<super::adjudicate::Adjudicator<Self>> {
        use crate::engine::mixed3d::{M3Board, M3Weights};
        let w = M3Weights::default();
        let margin = (pawns * f64::from(w.value(crate::mixed3d::Kind::Pawn))).round() as i32;
        let judge = super::adjudicate::material_adjudicator::<M3Board>(w.material_only(), margin);
        Some(super::adjudicate::Adjudicator { material_pawns: Some(pawns), ..judge })
    }
}
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// One finished game of `S` (by default the 5x5x5 games).
#[derive(Clone, Debug)]
pub struct TextRecord<S: State = Position> {
    /// What the game belonged to (`match`, `tournament`, `sprt`, ...).
    pub event: String,
    /// White's player spec.
    pub white: String,
    /// Black's player spec.
    pub black: String,
    /// Start position (before the opening moves); its variant is the game's variant.
    pub start: S,
    /// Every move from `start`, the opening's first.
    pub moves: Vec<S::Move>,
    /// How many of `moves` came from the opening rather than the players.
    pub opening_plies: usize,
    /// Winner and the rule that ended the game; `None` for a game saved unfinished (the runner
    /// always sets it).
    pub outcome: Option<Outcome>,
    /// A detail of the end rule (`ply-cap` for [`EndRule::Adjudication`] by the ply cap).
    pub detail: Option<String>,
    /// Further tags in order (`Game`, `Pair`, `Key`, ...).
    pub tags: Vec<(String, String)>,
}

/// A record that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {record} (line {line}): {reason}")]
pub struct TextRecordError {
    /// 1-based index of the record in its text.
    pub record: usize,
    /// 1-based line where the record starts.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// A records file that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordFileError {
    /// The file could not be opened, read or written.
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// A record in it is malformed.
    #[error("{0}: {1}")]
    Record(PathBuf, TextRecordError),
}

impl TextRecord {
    /// The game's variant.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }
}

impl<S: RecordGame> TextRecord<S> {
    /// The result in the form the rating code takes; `None` for an unfinished game.
    pub fn result(&self) -> Option<RatedResult> {
        Some(match self.outcome?.winner {
            Some(Color::White) => RatedResult::WhiteWins,
            Some(Color::Black) => RatedResult::BlackWins,
            None => RatedResult::Draw,
        })
    }

    /// White's score: 1, ½ or 0; `None` for an unfinished game.
    pub fn white_score(&self) -> Option<f64> {
        self.result().map(RatedResult::white_score)
    }

    /// The score of the player named `name` (white's score if it played white, else black's);
    /// `None` if it played neither side or the game is unfinished.
    pub fn score_of(&self, name: &str) -> Option<f64> {
        let w = self.white_score()?;
        if self.white == name {
            Some(w)
        } else if self.black == name {
            Some(1.0 - w)
        } else {
            None
        }
    }

    /// `Result` as written: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result_text(&self) -> &'static str {
        self.outcome.map_or("*", Outcome::result)
    }

    /// The value of an extra tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// `Termination` as written: the rule name, then `/detail` if any.
    pub fn termination(&self) -> String {
        let Some(o) = self.outcome else { return UNTERMINATED.to_string() };
        match &self.detail {
            Some(d) => format!("{}/{d}", o.rule.name()),
            None => o.rule.name().to_string(),
        }
    }

    /// The game replayed: every position from the start, with its history.
    pub fn game(&self) -> Game<S> {
        let mut g = Game::new(self.start.clone());
        for &m in &self.moves {
            g.play_unchecked(m);
        }
        g
    }

    /// Every position of the game, the start first and the final position last
    /// (`moves.len() + 1` positions).
    pub fn positions(&self) -> Vec<S> {
        let mut p = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(p.clone());
        for &m in &self.moves {
            p.make(m);
            out.push(p.clone());
        }
        out
    }

    /// The record as text (ending with a blank line).
    pub fn to_text(&self) -> String {
        let (ruleset, flags) = S::tags(&self.start);
        let mut out = String::new();
        let mut tag = |k: &str, val: &str| {
            let _ = writeln!(out, "[{k} \"{}\"]", escape(val));
        };
        tag("Event", &self.event);
        tag("White", &self.white);
        tag("Black", &self.black);
        tag("Ruleset", ruleset);
        tag("Flags", &flags);
        tag("Start", &self.start.to_text());
        tag("Opening", &self.opening_plies.to_string());
        tag("Result", self.result_text());
        tag("Termination", &self.termination());
        tag("Plies", &self.moves.len().to_string());
        for (k, val) in &self.tags {
            tag(k, val);
        }
        out.push('\n');
        let line = S::movetext(&self.start, &self.moves);
        let mut width = 0;
        for word in line.split(' ').filter(|w| !w.is_empty()).chain(std::iter::once(self.result_text())) {
            if width > 0 && width + 1 + word.len() > 90 {
                out.push('\n');
                width = 0;
            } else if width > 0 {
                out.push(' ');
                width += 1;
            }
            out.push_str(word);
            width += word.len();
        }
        out.push_str("\n\n");
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads a tag line `[Name "value"]`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_string(), unescape(value)))
}

/// One record's lines, before they are interpreted.
struct RawRecord {
    line: usize,
    tags: Vec<(String, String)>,
    movetext: String,
    /// Byte offset just past the record's last line.
    end: usize,
}

/// Splits text into raw records: tag lines, then movetext lines until the next tag line.
fn split(text: &str) -> Vec<RawRecord> {
    let mut out: Vec<RawRecord> = Vec::new();
    let mut in_moves = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        // A byte-order mark (files saved by some editors) starts the first line.
        let t = if i == 0 { line.trim_start_matches('\u{feff}').trim() } else { line.trim() };
        if t.is_empty() {
            if let Some(r) = out.last_mut() {
                r.end = offset;
            }
            continue;
        }
        let is_tag = t.starts_with('[');
        if is_tag && (in_moves || out.is_empty()) {
            out.push(RawRecord { line: i + 1, tags: Vec::new(), movetext: String::new(), end: offset });
            in_moves = false;
        }
        let Some(r) = out.last_mut() else {
            // Movetext before any tag: a record without tags (reported when interpreted).
            out.push(RawRecord { line: i + 1, tags: Vec::new(), movetext: t.to_string(), end: offset });
            in_moves = true;
            continue;
        };
        if is_tag && !in_moves {
            r.tags.push(parse_tag(t).unwrap_or_else(|| ("?".to_string(), t.to_string())));
        } else {
            in_moves = true;
            r.movetext.push_str(t);
            r.movetext.push(' ');
        }
        r.end = offset;
    }
    out
}

/// `Termination` of a game saved unfinished.
pub const UNTERMINATED: &str = "unterminated";

/// Tags every record must carry.
const REQUIRED: [&str; 10] =
    ["Event", "White", "Black", "Ruleset", "Flags", "Start", "Opening", "Result", "Termination", "Plies"];

fn interpret<S: RecordGame>(raw: &RawRecord, index: usize) -> Result<TextRecord<S>, TextRecordError> {
    let fail = |reason: String| TextRecordError { record: index + 1, line: raw.line, reason };
    if let Some((_, bad)) = raw.tags.iter().find(|(k, _)| k == "?") {
        return Err(fail(format!("malformed tag line {bad}")));
    }
    let get = |name: &str| -> Result<&str, TextRecordError> {
        raw.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).ok_or_else(|| fail(format!("no {name} tag")))
    };
    let start = S::start_from_tags(get("Ruleset")?, get("Flags")?, get("Start")?).map_err(fail)?;
    let mut game = Game::new(start.clone());
    if !raw.movetext.trim().is_empty() {
        game.play_line(&raw.movetext).map_err(|e| fail(e.to_string()))?;
    }
    let moves = game.moves().to_vec();
    let number = |name: &str| -> Result<usize, TextRecordError> {
        let v = get(name)?;
        v.parse::<usize>().map_err(|_| fail(format!("{name} '{v}' is not a whole number")))
    };
    let plies = number("Plies")?;
    if plies != moves.len() {
        return Err(fail(format!("Plies says {plies} but the movetext has {} moves", moves.len())));
    }
    let opening_plies = number("Opening")?;
    if opening_plies > moves.len() {
        return Err(fail(format!("Opening {opening_plies} is longer than the game")));
    }
    let winner = match get("Result")? {
        "1-0" => Some(Some(Color::White)),
        "0-1" => Some(Some(Color::Black)),
        "1/2-1/2" => Some(None),
        "*" => None,
        r => return Err(fail(format!("unknown Result '{r}'"))),
    };
    let termination = get("Termination")?;
    let (rule, detail) = match termination.split_once('/') {
        Some((r, d)) => (r, Some(d.to_string())),
        None => (termination, None),
    };
    let outcome = match winner {
        None if rule == UNTERMINATED => None,
        None => return Err(fail(format!("Result * needs Termination {UNTERMINATED}, not {termination}"))),
        Some(winner) => {
            let rule: EndRule = rule.parse().map_err(|e| fail(format!("Termination: {e}")))?;
            let o = Outcome { winner, rule };
            if matches!(rule, EndRule::Checkmate | EndRule::Stalemate) && game.status().outcome() != Some(o) {
                return Err(fail(format!(
                    "Termination {termination} with Result {} does not match the final position",
                    o.result()
                )));
            }
            Some(o)
        }
    };
    let tags = raw.tags.iter().filter(|(k, _)| !REQUIRED.contains(&k.as_str())).cloned().collect();
    Ok(TextRecord {
        event: get("Event")?.to_string(),
        white: get("White")?.to_string(),
        black: get("Black")?.to_string(),
        start,
        moves,
        opening_plies,
        outcome,
        detail,
        tags,
    })
}

/// Parses every record of `text`; fails on the first malformed one.
pub fn parse_records(text: &str) -> Result<Vec<TextRecord>, TextRecordError> {
    parse_records_of(text)
}

/// [`parse_records`] for the records of any game.
pub fn parse_records_of<S: RecordGame>(text: &str) -> Result<Vec<TextRecord<S>>, TextRecordError> {
    split(text).iter().enumerate().map(|(i, r)| interpret(r, i)).collect()
}

/// Parses the records of `text` up to the first malformed one: the good records, the byte length
/// of the text they span, and the error that stopped the reading (a record cut short by a killed
/// writer is normally the last one; a resuming writer truncates the file to that length).
pub fn parse_records_prefix(text: &str) -> (Vec<TextRecord>, usize, Option<TextRecordError>) {
    parse_records_prefix_of(text)
}

/// [`parse_records_prefix`] for the records of any game.
pub fn parse_records_prefix_of<S: RecordGame>(text: &str) -> (Vec<TextRecord<S>>, usize, Option<TextRecordError>) {
    let mut out = Vec::new();
    let mut good_end = 0;
    for (i, raw) in split(text).iter().enumerate() {
        match interpret(raw, i) {
            Ok(r) => {
                out.push(r);
                good_end = raw.end;
            }
            Err(e) => return (out, good_end, Some(e)),
        }
    }
    (out, good_end, None)
}

/// Reads every record of a file.
pub fn read_records(path: &Path) -> Result<Vec<TextRecord>, RecordFileError> {
    read_records_of(path)
}

/// [`read_records`] for the records of any game.
pub fn read_records_of<S: RecordGame>(path: &Path) -> Result<Vec<TextRecord<S>>, RecordFileError> {
    let text = std::fs::read_to_string(path).map_err(|e| RecordFileError::Io(path.to_path_buf(), e))?;
    parse_records_of(&text).map_err(|e| RecordFileError::Record(path.to_path_buf(), e))
}

/// The game of a records file: the value of its first `Ruleset` tag (`None` when it has none or
/// cannot be read), so that a reader can pick the game's parser.
pub fn records_ruleset(path: &Path) -> Option<String> {
    text_ruleset(&std::fs::read_to_string(path).ok()?)
}

/// [`records_ruleset`] of a records text already read (a pasted one).
pub fn text_ruleset(text: &str) -> Option<String> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .find_map(|l| parse_tag(l).filter(|(k, _)| k == "Ruleset").map(|(_, v)| v))
}

/// The finished records of a file that may still be written to (a match in progress, or one
/// killed mid-write): a last record cut short is left out, and then the byte offset where the
/// finished records end is returned with them. A malformed record before the last is an error.
pub fn read_finished_records(path: &Path) -> Result<(Vec<TextRecord>, Option<u64>), RecordFileError> {
    read_finished_records_of(path)
}

/// [`read_finished_records`] for the records of any game.
pub fn read_finished_records_of<S: RecordGame>(
    path: &Path,
) -> Result<(Vec<TextRecord<S>>, Option<u64>), RecordFileError> {
    let text = std::fs::read_to_string(path).map_err(|e| RecordFileError::Io(path.to_path_buf(), e))?;
    finished_records(path, &text)
}

/// [`read_finished_records`] of a file's text.
#[allow(clippy::type_complexity)]
fn finished_records<S: RecordGame>(
    path: &Path,
    text: &str,
) -> Result<(Vec<TextRecord<S>>, Option<u64>), RecordFileError> {
    let (records, end, err) = parse_records_prefix_of(text);
    match err {
        Some(e) if text[end..].matches("[Event ").count() > 1 => Err(RecordFileError::Record(path.to_path_buf(), e)),
        Some(_) => Ok((records, Some(end as u64))),
        None => Ok((records, None)),
    }
}

/// The finished records of a file a resumed run appends to: none when it does not exist; a last
/// record cut short by a killed writer is dropped and the file truncated before it, so appending
/// goes on cleanly. A malformed record before the last is an error (the file is not cut there).
pub fn read_records_resuming(path: &Path) -> Result<Vec<TextRecord>, RecordFileError> {
    read_records_resuming_of(path)
}

/// [`read_records_resuming`] for the records of any game.
pub fn read_records_resuming_of<S: RecordGame>(path: &Path) -> Result<Vec<TextRecord<S>>, RecordFileError> {
    let io = |e| RecordFileError::Io(path.to_path_buf(), e);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(e)),
    };
    let (records, cut) = finished_records(path, &text)?;
    if let Some(end) = cut {
        let f = std::fs::OpenOptions::new().write(true).open(path).map_err(io)?;
        f.set_len(end).map_err(io)?;
    }
    Ok(records)
}

/// Appends records to a file, each written whole and flushed as soon as it is given.
pub struct RecordWriter {
    path: PathBuf,
    file: std::fs::File,
}

impl RecordWriter {
    /// Opens `path` for appending (created if missing; parent folders too).
    pub fn append(path: &Path) -> Result<RecordWriter, RecordFileError> {
        let io = |e| RecordFileError::Io(path.to_path_buf(), e);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
        Ok(RecordWriter { path: path.to_path_buf(), file })
    }

    /// Creates (or empties) `path` and opens it for writing.
    pub fn create(path: &Path) -> Result<RecordWriter, RecordFileError> {
        let io = |e| RecordFileError::Io(path.to_path_buf(), e);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = std::fs::File::create(path).map_err(io)?;
        Ok(RecordWriter { path: path.to_path_buf(), file })
    }

    /// Appends one record (of any game) and flushes it.
    pub fn write<S: RecordGame>(&mut self, record: &TextRecord<S>) -> Result<(), RecordFileError> {
        let io = |e| RecordFileError::Io(self.path.clone(), e);
        self.file.write_all(record.to_text().as_bytes()).map_err(io)?;
        self.file.flush().map_err(io)
    }

    /// The file written to.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Status;

    fn fools_mate() -> TextRecord {
        let start = Position::startpos(Variant::default());
        let mut g = Game::new(start.clone());
        g.play_line("1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++").unwrap();
        let Status::Over(outcome) = g.status() else { panic!("mate") };
        TextRecord {
            event: "test \"quoted\"".into(),
            white: "ab:depth=1,hash=16".into(),
            black: "random:seed=0".into(),
            start,
            moves: g.moves().to_vec(),
            opening_plies: 2,
            outcome: Some(outcome),
            detail: None,
            tags: vec![("Pair".into(), "3".into()), ("Key".into(), "0-1/2/w".into())],
        }
    }

    fn same(a: &TextRecord, b: &TextRecord) {
        assert_eq!(a.to_text(), b.to_text());
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.start.to_text(), b.start.to_text());
        assert_eq!((a.outcome, &a.detail, &a.tags, a.opening_plies), (b.outcome, &b.detail, &b.tags, b.opening_plies));
    }

    #[test]
    fn a_byte_order_mark_before_the_first_record_is_read_past() {
        let text = format!("\u{feff}{}", fools_mate().to_text());
        let records = parse_records(&text).unwrap();
        same(&records[0], &fools_mate());
        assert_eq!(text_ruleset(&text).as_deref(), Some("fiveup"));
        let (_, end, err) = parse_records_prefix(&text);
        assert!(err.is_none() && end == text.len());
    }

    #[test]
    fn records_round_trip() {
        let a = fools_mate();
        let text = a.to_text();
        assert!(text.contains("[Termination \"checkmate\"]\n[Plies \"7\"]\n[Pair \"3\"]"), "{text}");
        assert!(text.contains("4. SxBe4++ 1-0\n\n"), "{text}");
        assert!(text.contains("[Event \"test \\\"quoted\\\"\"]"), "{text}");
        // A ply-capped draw from a position text on the hypercylinder.
        let v = Variant::new(Ruleset::FiveUp, false, true).unwrap();
        let start = crate::rules::random::scrambled(v, 10, 4);
        let mut p = start.clone();
        let mut moves = Vec::new();
        for i in 0..60 {
            let ms = p.legal_moves();
            let m = ms[(i * 7) % ms.len()];
            p.make(m);
            moves.push(m);
        }
        let b = TextRecord {
            event: "match".into(),
            white: "w".into(),
            black: "b".into(),
            start,
            moves,
            opening_plies: 0,
            outcome: Some(Outcome::draw(EndRule::Adjudication)),
            detail: Some("ply-cap".into()),
            tags: vec![],
        };
        assert!(b.to_text().lines().filter(|l| !l.starts_with('[')).all(|l| l.len() <= 100));
        let mut c = a.clone();
        c.moves.truncate(3);
        c.outcome = None;
        assert!(c.to_text().contains("[Result \"*\"]\n[Termination \"unterminated\"]"));
        assert!(c.to_text().contains("2. B-De4/G *\n"));
        let both = format!("{}{}{}", a.to_text(), b.to_text(), c.to_text());
        let back = parse_records(&both).unwrap();
        assert_eq!(back.len(), 3);
        same(&c, &back[2]);
        assert_eq!(back[2].white_score(), None);
        same(&a, &back[0]);
        same(&b, &back[1]);
        assert_eq!(back[1].termination(), "adjudication/ply-cap");
        assert_eq!(back[0].tag("Key"), Some("0-1/2/w"));
        assert_eq!(back[0].score_of("random:seed=0"), Some(0.0));
        assert_eq!(back[0].positions().len(), 8);
    }

    #[test]
    fn bad_records_are_named_and_prefixes_survive() {
        let a = fools_mate().to_text();
        let cut = &a[..a.len() - 12];
        let text = format!("{a}{a}{cut}");
        let e = parse_records(&text).unwrap_err();
        assert_eq!(e.record, 3, "{e}");
        let (good, end, err) = parse_records_prefix(&text);
        assert_eq!(good.len(), 2);
        assert_eq!(end, 2 * a.len());
        assert!(err.is_some());
        for (from, to, want) in [
            ("[Plies \"7\"]", "[Plies \"8\"]", "Plies says 8"),
            ("[Result \"1-0\"]", "[Result \"0-1\"]", "does not match"),
            ("[Ruleset \"fiveup\"]", "[Ruleset \"chess\"]", "unknown ruleset"),
            ("[Termination \"checkmate\"]", "[Termination \"resign\"]", "unknown end rule"),
            ("SxBe4++", "SxBe5", "illegal"),
            ("[Flags \"-\"]\n", "", "no Flags tag"),
        ] {
            let e = parse_records(&a.replace(from, to)).unwrap_err().to_string();
            assert!(e.contains(want) && e.starts_with("record 1 (line 1)"), "{want}: {e}");
        }
    }

    #[test]
    fn writer_appends_whole_records() {
        let dir = std::env::temp_dir().join(format!("fiveup-records-{}", std::process::id()));
        let path = dir.join("sub/games.pgn");
        let mut w = RecordWriter::create(&path).unwrap();
        w.write(&fools_mate()).unwrap();
        drop(w);
        let mut w = RecordWriter::append(&path).unwrap();
        w.write(&fools_mate()).unwrap();
        assert_eq!(read_records(&path).unwrap().len(), 2);
        std::fs::remove_dir_all(&dir).ok();
    }
}
