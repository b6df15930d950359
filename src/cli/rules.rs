//! The rules commands: `perft`, `moves`, `show` and `replay`.

use super::common::{self, PositionArgs};
use anyhow::{bail, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::game::line::numbered_line;
use fiveup::game::perft::{divide, perft_parallel};
use fiveup::game::{Game, State};
use fiveup::rules::notation::{coordinate, figurine, format_line};
use fiveup::rules::Position;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// `fiveup perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Print the leaf count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads, 1..=1024 (default: all available cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Rules and position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// `fiveup replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The moves, e.g. `1. P-Cc2 P-Cc4 2. B-De4/G` (one argument or many).
    #[arg(required_unless_present = "record", value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Replay a game of this records file (PGN-style, as `match` and `tournament` write).
    #[arg(long, value_name = "FILE", conflicts_with = "moves")]
    pub record: Option<PathBuf>,
    /// Which game of the records file (1 = first).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "record")]
    pub game: usize,
    /// Rules and start position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// Deepest perft accepted (depth 5 from the Five Up start is already billions of leaves).
const MAX_PERFT_DEPTH: u32 = 32;

pub fn run_perft(a: &PerftArgs, out: &mut dyn Write) -> Result<()> {
    match a.pos.game()? {
        GameId::QuasiAlice => perft_of(&a.pos.quasi_alice()?, a, out),
        GameId::Mixed3d => perft_of(&a.pos.mixed3d()?, a, out),
        GameId::FiveUp(_) => perft_of(&a.pos.position("perft")?, a, out),
    }
}

fn perft_of<S: State>(pos: &S, a: &PerftArgs, out: &mut dyn Write) -> Result<()> {
    if a.depth > MAX_PERFT_DEPTH {
        bail!("perft depth {} is beyond {MAX_PERFT_DEPTH}; it would not finish", a.depth);
    }
    let threads = common::threads_flag(a.threads)?;
    let t = Instant::now();
    let total = if a.divide && a.depth > 0 {
        let mut rows: Vec<(String, u64)> =
            divide(pos, a.depth, threads).into_iter().map(|(m, n)| (pos.move_text(m), n)).collect();
        rows.sort();
        for (m, n) in &rows {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft_parallel(pos, a.depth, threads)
    };
    let secs = t.elapsed().as_secs_f64();
    writeln!(out, "perft({}) = {total}", a.depth)?;
    eprintln!("{secs:.3} s, {:.0} leaves/s, {threads} threads", total as f64 / secs.max(1e-9));
    Ok(())
}

/// `fiveup moves`: on 5x5x5 each move in coordinate and figurine form, otherwise the game's move
/// text.
pub fn run_moves(a: &PositionArgs, out: &mut dyn Write) -> Result<()> {
    let pos = match a.game()? {
        GameId::QuasiAlice => return list_moves(&a.quasi_alice()?, out),
        GameId::Mixed3d => return list_moves(&a.mixed3d()?, out),
        GameId::FiveUp(_) => a.position("moves")?,
    };
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|m| m.to_string());
    for &m in &moves {
        writeln!(out, "{:<12} {}", coordinate(m), figurine(&pos, m))?;
    }
    writeln!(out, "{} legal moves", moves.len())?;
    Ok(())
}

/// The legal moves of a game off the 5x5x5 board in its move text, sorted, and their number.
fn list_moves<S: State>(pos: &S, out: &mut dyn Write) -> Result<()> {
    let mut moves: Vec<String> = fiveup::game::legal_moves(pos).into_iter().map(|m| pos.move_text(m)).collect();
    moves.sort();
    for m in &moves {
        writeln!(out, "{m}")?;
    }
    writeln!(out, "{} legal moves", moves.len())?;
    Ok(())
}

/// `fiveup show`.
pub fn run_show_args(a: &PositionArgs, out: &mut dyn Write) -> Result<()> {
    match a.game()? {
        GameId::QuasiAlice => show(&Game::new(a.quasi_alice()?), "quasi-alice", out),
        GameId::Mixed3d => show(&Game::new(a.mixed3d()?), "mixed3d", out),
        GameId::FiveUp(_) => run_show(&Game::new(a.position("show")?), out),
    }
}

/// Diagram, rule set, position text and status of a 5x5x5 game.
pub fn run_show(game: &Game<Position>, out: &mut dyn Write) -> Result<()> {
    show(game, &game.position().variant().to_string(), out)
}

fn show<S: State>(game: &Game<S>, ruleset: &str, out: &mut dyn Write) -> Result<()> {
    let pos = game.position();
    write!(out, "{}", pos.diagram())?;
    writeln!(out, "ruleset: {ruleset}")?;
    writeln!(out, "position: {}", pos.to_text())?;
    writeln!(out, "status: {}", game.status())?;
    Ok(())
}

pub fn run_replay(a: &ReplayArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &a.record {
        // The file names its game and is read as one of it, whatever --ruleset says.
        match fiveup::eval::records::records_ruleset(path).as_deref() {
            Some(fiveup::quasi_alice::NAME) => return replay_record::<fiveup::quasi_alice::Position>(path, a, out),
            Some(fiveup::mixed3d::NAME) => return replay_record::<fiveup::mixed3d::Position>(path, a, out),
            _ => {}
        }
        let records = fiveup::eval::records::read_records(path)?;
        let game = record_game(&records, path, a.game, out)?;
        writeln!(out, "moves: {}", format_line(game.start(), game.moves()))?;
        return run_show(&game, out);
    }
    match a.pos.game()? {
        GameId::QuasiAlice => return replay_line(Game::new(a.pos.quasi_alice()?), &a.moves, out),
        GameId::Mixed3d => return replay_line(Game::new(a.pos.mixed3d()?), &a.moves, out),
        GameId::FiveUp(_) => {}
    }
    let mut game = Game::new(a.pos.position("replay")?);
    game.play_line(&a.moves.join(" "))?;
    writeln!(out, "moves: {}", format_line(game.start(), game.moves()))?;
    run_show(&game, out)
}

/// Plays `moves` in a game off the 5x5x5 board and shows where they lead.
fn replay_line<S: State>(mut game: Game<S>, moves: &[String], out: &mut dyn Write) -> Result<()> {
    game.play_line(&moves.join(" "))?;
    writeln!(out, "moves: {}", numbered_line(game.start(), game.moves(), |p, m| p.move_text(m)))?;
    let name = game.position().game_name();
    show(&game, name, out)
}

/// Replays game `a.game` of the records file `path` of a game off the 5x5x5 board.
fn replay_record<S: fiveup::eval::records::RecordGame>(
    path: &std::path::Path,
    a: &ReplayArgs,
    out: &mut dyn Write,
) -> Result<()> {
    let records = fiveup::eval::records::read_records_of::<S>(path)?;
    let game = record_game(&records, path, a.game, out)?;
    writeln!(out, "moves: {}", numbered_line(game.start(), game.moves(), |p, m| p.move_text(m)))?;
    show(&game, game.start().game_name(), out)
}

/// Game `number` (1-based) of `records` read from `path`, after a line naming it.
fn record_game<S: fiveup::eval::records::RecordGame>(
    records: &[fiveup::eval::TextRecord<S>],
    path: &std::path::Path,
    number: usize,
    out: &mut dyn Write,
) -> Result<Game<S>> {
    let Some(r) = number.checked_sub(1).and_then(|i| records.get(i)) else {
        bail!("{} has {} games; --game {number} is not one of them", path.display(), records.len());
    };
    writeln!(
        out,
        "game {number} of {}: {} vs {}, {} ({})",
        records.len(),
        r.white,
        r.black,
        r.result_text(),
        r.termination()
    )?;
    Ok(r.game())
}

#[cfg(test)]
mod tests {
    use super::super::{parse, run, Command};

    #[test]
    fn replay_takes_many_words() {
        match parse(&["replay", "1.", "Cc2", "Cc4", "--ruleset", "fiveup"]).command {
            Command::Replay(a) => assert_eq!(a.moves.join(" "), "1. Cc2 Cc4"),
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn perft_writes_its_count_last() {
        let mut buf = Vec::new();
        let cli = parse(&["perft", "1", "--threads", "1"]);
        run(cli, &mut buf).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), "perft(1) = 209\n");
    }
}
