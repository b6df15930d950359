//! Self-play records as PGN-style text: the same format as match and tournament records
//! ([`crate::eval::records`]), so `fiveup replay --record` and the piece-value regression read them.

use super::game::{move_from_bits, SelfPlayGame};
use super::records::Termination;
use super::records::{GameRecord, GameResult, RecordError};
use crate::eval::records::{RecordGame, TextRecord};
use crate::game::Color;
use crate::game::{EndRule, Outcome};
use crate::rules::Position;

/// The text record of a self-play game of the 5x5x5 games (players are named after the
/// evaluator).
pub fn to_text_record(g: &GameRecord) -> Result<TextRecord, RecordError> {
    to_text_record_of::<Position>(g)
}

/// The text of a self-play game's record, whichever game the record's ruleset names.
pub fn record_text(g: &GameRecord) -> Result<String, RecordError> {
    if <crate::quasi_alice::Position as SelfPlayGame>::is_ruleset(&g.variant.ruleset) {
        return Ok(to_text_record_of::<crate::quasi_alice::Position>(g)?.to_text());
    }
    Ok(to_text_record(g)?.to_text())
}

/// The text record of a self-play game of `S`.
pub fn to_text_record_of<S: SelfPlayGame + RecordGame>(g: &GameRecord) -> Result<TextRecord<S>, RecordError> {
    let start = g.start_of::<S>()?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(g.moves.len());
    for (index, &bits) in g.moves.iter().enumerate() {
        let m = move_from_bits(&pos, bits).ok_or(RecordError::IllegalMove { index, bits })?;
        pos.make(m);
        moves.push(m);
    }
    let rule = EndRule::from(g.termination);
    let outcome = match g.result {
        GameResult::WhiteWin => Outcome::win(Color::White, rule),
        GameResult::BlackWin => Outcome::win(Color::Black, rule),
        GameResult::Draw => Outcome::draw(rule),
    };
    let player = format!("selfplay:{}", g.evaluator);
    Ok(TextRecord {
        event: "selfplay".to_string(),
        white: player.clone(),
        black: player,
        start,
        moves,
        opening_plies: 0,
        outcome: Some(outcome),
        detail: (g.termination == Termination::PlyCap).then(|| "ply-cap".to_string()),
        tags: vec![("Game".to_string(), g.game_index.to_string())],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::records::parse_records;
    use crate::mcts::SearchConfig;
    use crate::nn::UniformEvaluator;
    use crate::rules::Variant;
    use crate::selfplay::{bench_config, run};

    #[test]
    fn exported_games_parse_back_with_the_same_moves_and_result() {
        let cfg =
            bench_config(crate::rules::Position::startpos(Variant::default()), SearchConfig::default(), 4, 2, 2, 30);
        let mut games = Vec::new();
        run(&cfg, &mut UniformEvaluator::default(), &mut |g| games.push(g), &mut |_| {}).unwrap();
        assert_eq!(games.len(), 2);
        let text: String = games.iter().map(|g| to_text_record(g).unwrap().to_text()).collect();
        let back = parse_records(&text).unwrap();
        for (g, r) in games.iter().zip(&back) {
            assert_eq!(r.moves.iter().map(|m| m.bits()).collect::<Vec<_>>(), g.moves);
            let want = match g.result {
                GameResult::WhiteWin => Some(1.0),
                GameResult::Draw => Some(0.5),
                GameResult::BlackWin => Some(0.0),
            };
            assert_eq!(r.white_score(), want);
        }
    }
}
