//! Judges that end a game before its rules do: endgame tables before any move
//! ([`tablebase_adjudicator`]) and material at the ply cap ([`material_adjudicator`]). The match
//! runner ([`super::runner`]) asks them; a game's records type ([`super::records::RecordGame`])
//! says which material judge it has.

use crate::game::{EndRule, Outcome, State};
use crate::rules::Position;
use std::sync::Arc;

/// A judge that ends a game when it knows the result. An early judge is shown the position before
/// each move and may answer the outcome and the termination's detail (`tablebase`); a judge at the
/// cap is shown only the position that reaches the ply cap, and decides it instead of the draw
/// (`material`), or leaves the draw.
#[derive(Clone)]
pub struct Adjudicator<S> {
    /// The judge.
    pub judge: Arc<Judge<S>>,
    /// Whether it is asked only at the ply cap (else before every move).
    pub at_cap: bool,
    /// The margin in pawns of the game's own material judge
    /// ([`crate::eval::records::RecordGame::material_adjudicator`], on the default piece values):
    /// what a game played on a worker carries to build the same judge there. `None` for any
    /// other judge (endgame tables, a judge on other values), which workers cannot rebuild.
    pub material_pawns: Option<f64>,
}

/// What an [`Adjudicator`] calls: the outcome and the termination's detail, or `None` to play on.
pub type Judge<S> = dyn Fn(&S) -> Option<(Outcome, String)> + Send + Sync;

impl<S> std::fmt::Debug for Adjudicator<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Adjudicator")
    }
}

/// Adjudication by endgame tables (5x5x5 games): a position the tables hold ends the game with
/// their result, recorded as `adjudication/tablebase`. A win counts only when its mate fits in
/// what is left of the fifty-move count (the tables' distances ignore that rule); otherwise the
/// game goes on.
pub fn tablebase_adjudicator(tables: Arc<crate::tablebase::Tablebases>) -> Adjudicator<Position> {
    use crate::tablebase::Dtm;
    let judge = Arc::new(move |pos: &Position| {
        let value = tables.probe(pos)?;
        let left = 100u16.saturating_sub(pos.halfmove().min(100) as u16);
        let side = pos.side();
        let outcome = match value {
            Dtm::Draw => Outcome::draw(EndRule::Adjudication),
            Dtm::Win(n) if n <= left => Outcome::win(side, EndRule::Adjudication),
            Dtm::Loss(n) if n <= left => Outcome::win(side.flip(), EndRule::Adjudication),
            _ => return None,
        };
        Some((outcome, "tablebase".to_string()))
    });
    Adjudicator { judge, at_cap: false, material_pawns: None }
}

/// Most nodes of the quiescence search that plays the captures out before material is counted.
pub const MATERIAL_NODES: u64 = 100_000;

/// Adjudication at the ply cap by material, for games whose men seldom run out before the cap
/// (Mixed 3D's 256): the position reaching the cap is searched by quiescence with `material`, an
/// evaluation of material alone (captures and recaptures played out, up to [`MATERIAL_NODES`] nodes); a side
/// ahead by at least `margin` centipawns wins (`adjudication/material`), otherwise the game is
/// drawn as usual.
pub fn material_adjudicator<B: crate::engine::SearchBoard>(material: B::Eval, margin: i32) -> Adjudicator<B::Pos>
where
    B::Pos: State,
{
    let config = crate::engine::EngineConfig { hash_mb: 1, keep_tt: false, threads: 1 };
    let engine = std::sync::Mutex::new(crate::engine::Engine::<B>::with_eval(material, config));
    let judge = Arc::new(move |pos: &B::Pos| {
        let mut engine = engine.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let score = engine.quiesce(pos, MATERIAL_NODES).score.0;
        let side = pos.side();
        let winner = if score >= margin {
            side
        } else if score <= -margin {
            side.flip()
        } else {
            return None;
        };
        Some((Outcome::win(winner, EndRule::Adjudication), "material".to_string()))
    });
    Adjudicator { judge, at_cap: true, material_pawns: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_material_judge_decides_at_the_cap_after_the_captures() {
        use crate::engine::mixed3d::{M3Board, M3Weights};
        use crate::mixed3d::Position as M3;
        let a = material_adjudicator::<M3Board>(M3Weights::default().material_only(), 300);
        assert_eq!(a.material_pawns, None, "a judge on given values cannot travel to workers");
        assert!(a.at_cap);
        assert_eq!((a.judge)(&M3::start()), None);
        let cube = |l1: &str, side: &str| {
            let e = "8/8/8/8/8/8/8/8";
            M3::from_text(&format!("{l1}|{e}|{e}|{e}|{e}|{e}|{e}|4k3/8/8/8/8/8/8/8 {side} - - 0 1")).unwrap()
        };
        // White a queen up: white wins, whoever is to move.
        for side in ["w", "b"] {
            let (o, detail) = (a.judge)(&cube("8/8/8/8/8/8/8/3QK3", side)).expect("a win");
            assert_eq!((o.winner, detail.as_str()), (Some(crate::game::Color::White), "material"));
        }
        // The same queen hangs to a black pawn with Black to move: the capture evens it out.
        assert_eq!((a.judge)(&cube("8/8/8/8/8/2p5/3Q4/4K3", "b")), None);
    }
}
