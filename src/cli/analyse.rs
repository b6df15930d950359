//! `fiveup analyse`: search one position with a player spec and print what it sees.

use super::common::PositionArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use fiveup::catalog::GameId;
use fiveup::engine::Iteration;
use fiveup::game::{Game, Status};
use fiveup::player::alphabeta::AlphaBetaPlayer;
use fiveup::player::mcts::MctsPlayer;
use fiveup::player::spec::PlayerSpec;
use fiveup::player::{Go, PlayGame, Player, SearchInfo, Turn};
use fiveup::rules::notation::{coordinate, figurine, format_line};
use fiveup::rules::Position;
use std::io::Write;

/// `fiveup analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Player spec: `ab[:depth=N,...]`, `mcts:EVAL,sims=N`, `random` (a bad spec lists them all;
    /// default: depth 4 with the stronger evaluation of the ruleset, the shipped network for Five Up).
    #[arg(long, value_name = "SPEC", default_value = fiveup::player::spec::DEFAULT_PLAYER)]
    pub engine: String,
    /// Rules and position.
    #[command(flatten)]
    pub pos: PositionArgs,
}

/// Alpha-beta: one line per completed depth; MCTS: the most visited moves and a summary line;
/// then `bestmove <coordinate move>` last.
pub fn run(a: &AnalyseArgs, out: &mut dyn Write) -> Result<()> {
    match a.pos.game()? {
        GameId::QuasiAlice => return run_game(&a.pos.quasi_alice()?, &a.engine, out),
        GameId::Mixed3d => return run_game(&a.pos.mixed3d()?, &a.engine, out),
        GameId::FiveUp(_) => {}
    }
    let pos = a.pos.position("analyse")?;
    if let Status::Over(o) = Game::new(pos.clone()).status() {
        bail!("nothing to analyse: the game is over ({o})");
    }
    let spec: PlayerSpec = a.engine.parse().context("--engine")?;
    let best = match spec {
        PlayerSpec::AlphaBeta(ab) => {
            let mut player = AlphaBetaPlayer::new(ab)?;
            if let Some(v) = player.tablebase_value(&pos) {
                writeln!(out, "tablebase {v} (the side to move's view)")?;
            }
            let mut io_error = None;
            let r = player.analyse(&pos, &[], |it| {
                if io_error.is_none() {
                    io_error = writeln!(out, "{}", depth_line(&pos, it)).err();
                }
            })?;
            if let Some(e) = io_error {
                return Err(e.into());
            }
            r.best
        }
        PlayerSpec::Mcts(m) => {
            let mut player = MctsPlayer::new(m)?;
            match player.analyse(&pos, &[])? {
                Some(an) => {
                    let r = &an.result;
                    // The chosen move first, then by visits and, among equal visits (a Gumbel
                    // search with as many root moves as simulations visits each once), by the
                    // search's policy, which is what it chose by.
                    let mut order: Vec<usize> = (0..r.moves.len()).collect();
                    order.sort_by(|&a, &b| {
                        (r.moves[b] == r.best)
                            .cmp(&(r.moves[a] == r.best))
                            .then(r.visits[b].cmp(&r.visits[a]))
                            .then(r.policy[b].total_cmp(&r.policy[a]))
                    });
                    for &i in order.iter().take(5) {
                        let m = r.moves[i];
                        writeln!(
                            out,
                            "{:<14} {:<12} visits {:>7}  policy {:.3}",
                            figurine(&pos, m),
                            coordinate(m),
                            r.visits[i],
                            r.policy[i]
                        )?;
                    }
                    let [w, d, l] = r.root_wdl;
                    let best_visits = r.moves.iter().position(|&m| m == r.best).map_or(0, |i| r.visits[i]);
                    let secs = an.time.as_secs_f64();
                    writeln!(
                        out,
                        "sims {} visits {best_visits}/{} value {:+.3} wdl {w:.3}/{d:.3}/{l:.3} time {secs:.3}s sims/s {:.0} pv {}",
                        r.simulations,
                        r.visits.iter().sum::<u32>(),
                        w - l,
                        r.simulations as f64 / secs.max(1e-9),
                        format_line(&pos, &an.pv)
                    )?;
                    Some(r.best)
                }
                None => pos.legal_moves().first().copied(),
            }
        }
        PlayerSpec::Random { .. } | PlayerSpec::Uci(_) => Some(spec.build()?.choose(&pos, &[])?.mv),
    };
    match best {
        Some(m) => writeln!(out, "bestmove {}", coordinate(m))?,
        None => bail!("no move found"),
    }
    Ok(())
}

/// `analyse` of a game other than the 5x5x5 ones: the player's `play`, one line per completed depth
/// from what it reports, then `bestmove <move>`.
fn run_game<S: PlayGame>(pos: &S, engine: &str, out: &mut dyn Write) -> Result<()> {
    if let Status::Over(o) = Game::new(pos.clone()).status() {
        bail!("nothing to analyse: the game is over ({o})");
    }
    let spec: PlayerSpec = engine.parse().context("--engine")?;
    let mut player = S::build_player(&spec)?;
    let go = Go::default();
    let turn = Turn { pos, history: &[], start: pos, moves: &[], go: &go };
    let mut io_error = None;
    let choice = player.play(&turn, &mut |info: &SearchInfo<S::Move>| {
        if io_error.is_none() && info.depth > 0 {
            let secs = info.time.as_secs_f64();
            let pv = fiveup::game::line::numbered_line(pos, &info.pv, |p, m| p.move_text(m));
            let score = info.score.map_or("-".to_string(), |s| s.to_string());
            io_error = writeln!(
                out,
                "depth {} seldepth {} score {score} nodes {} nps {:.0} time {secs:.3}s pv {pv}",
                info.depth,
                info.seldepth,
                info.nodes,
                info.nodes as f64 / secs.max(1e-9),
            )
            .err();
        }
    })?;
    if let Some(e) = io_error {
        return Err(e.into());
    }
    writeln!(out, "bestmove {}", pos.move_text(choice.mv))?;
    Ok(())
}

/// `depth 3 seldepth 7 score cp 35 nodes 12345 nps 250000 time 0.049s pv 4. SxBe4++`.
fn depth_line(pos: &Position, it: &Iteration) -> String {
    let secs = it.time.as_secs_f64();
    format!(
        "depth {} seldepth {} score {} nodes {} nps {:.0} time {secs:.3}s pv {}",
        it.depth,
        it.seldepth,
        it.score,
        it.nodes,
        it.nodes as f64 / secs.max(1e-9),
        format_line(pos, &it.pv)
    )
}
