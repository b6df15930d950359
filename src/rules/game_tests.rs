//! The shared end-of-game rules and game history on the 5x5x5 games.

use crate::game::end::{prior_occurrences, EndRule, Outcome, Status};
use crate::game::{Color, Game, LineErrorKind, RefusedMove};
use crate::rules::notation::parse_move;
use crate::rules::{Position, Ruleset, Variant};

fn game(text: &str) -> Game<Position> {
    Game::new(Position::from_text(text, Variant::plain(Ruleset::FiveUp)).unwrap())
}

#[test]
fn fools_mate_is_checkmate() {
    let mut g = Game::new(Position::startpos(Variant::default()));
    let n = g.play_line("1. P-Cc2 P-Cc4 2. B-De4/G PAd4-Bd3 3. N-Db3/S P-Cc3 4. SxBe4++").unwrap();
    assert_eq!(n, 7);
    let s = g.status();
    assert_eq!(s, Status::Over(Outcome::win(Color::White, EndRule::Checkmate)));
    assert_eq!(s.to_string(), "checkmate, white wins");
    assert_eq!(s.outcome().unwrap().result(), "1-0");
    // No move after the end.
    let m = g.undo().unwrap();
    assert_eq!(g.status(), Status::Ongoing);
    g.play(m).unwrap();
    let err = g.play_line("4... Cc2").unwrap_err();
    assert!(matches!(err.kind, LineErrorKind::GameOver(_)), "{err}");
    let err = Game::new(Position::startpos(Variant::default())).play_line("1. Cc2 {good move Cc4").unwrap_err();
    assert_eq!(err.kind, LineErrorKind::UnclosedComment('}'), "{err}");
    assert_eq!(err.to_string(), "move 1. {good move Cc4: this comment is never closed; close it with '}'");
}

#[test]
fn ambiguous_and_misnumbered_moves_are_named() {
    let mut g = Game::new(Position::startpos(Variant::default()));
    let err = g.play_line("1. P-Cc2 P-Cc4 2. B-De4/G P-Bd3").unwrap_err();
    assert_eq!(err.to_string(), "move 2... P-Bd3: ambiguous: Ad4Bd3, Bd4Bd3");
    assert_eq!(g.moves().len(), 3);
    let err = g.play_line("3. N-Db3/S").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 2... N-Db3/S: the written move number 3. does not match the position (2... is next)"
    );
    let err = g.play_line("2... Q-Cc2").unwrap_err();
    assert!(err.to_string().starts_with("move 2... Q-Cc2: illegal"), "{err}");
}

#[test]
fn threefold_repetition_by_knight_shuffles() {
    let mut g = Game::new(Position::startpos(Variant::default()));
    // The first knight moves lose their placement rights, so positions repeat from move 2 on.
    g.play_line("1. N-Db3 N-Bb3").unwrap();
    assert_eq!(g.repetitions(), 1);
    g.play_line("2. N-Eb1 N-Ab5").unwrap();
    assert_eq!(g.repetitions(), 1, "rights differ from the start");
    g.play_line("3. N-Db3 N-Bb3").unwrap();
    assert_eq!(g.repetitions(), 2);
    g.play_line("4. N-Eb1 N-Ab5 5. N-Db3").unwrap();
    assert_eq!(g.status(), Status::Ongoing);
    g.play_line("5... N-Bb3").unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::Repetition)));
    assert_eq!(g.status().to_string(), "draw by threefold repetition");
    g.undo();
    assert_eq!(g.status(), Status::Ongoing);
}

#[test]
fn fifty_move_rule_and_mate_precedence() {
    // Kings and a white rook; clock at 99.
    let mut g = game("k4/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/R1K2 w - - - 99 80");
    assert_eq!(g.status(), Status::Ongoing);
    let m = parse_move(g.position(), "Ea1Eb1").unwrap();
    g.play(m).unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::FiftyMoves)));
    assert!(matches!(g.play(m), Err(RefusedMove::GameOver(_))));
    // A mate on the hundredth ply is a mate: black king Aa5 walled in by its own pawns.
    let mut g = game("kp3/p4/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/R1K2 w - - - 99 80");
    g.play_line("80. R-Ea5++").unwrap();
    assert_eq!(g.position().halfmove(), 100);
    assert_eq!(g.status(), Status::Over(Outcome::win(Color::White, EndRule::Checkmate)));
}

#[test]
fn bare_kings_depend_on_placement() {
    let v = Variant::plain(Ruleset::FiveUp);
    // Two kings, white holds a wizard and its king has never moved: not yet a draw.
    let t = "4k/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/2K2 w W Ec1 - 0 1";
    let g = Game::new(Position::from_text(t, v).unwrap());
    assert!(!g.bare_kings());
    assert_eq!(g.status(), Status::Ongoing);
    // The same without the right (the king has moved): draw.
    let g = Game::new(Position::from_text(&t.replace(" Ec1 ", " - "), v).unwrap());
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
    // A right but no reserve: draw.
    let g = Game::new(Position::from_text(&t.replace(" W Ec1 ", " - Ec1 "), v).unwrap());
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
    // Raumschach: two kings are always bare.
    let r = "4k/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/2K2 w - - - 0 1";
    let g = Game::new(Position::from_text(r, Variant::plain(Ruleset::Raumschach)).unwrap());
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::BareKings)));
}

#[test]
fn stalemate_is_a_draw() {
    // Black king Aa5; white queen Bb4 (guarded from Cc3) covers Ab5, Aa4 and Ba5 without check.
    let t = "k4/5/5/5/5|5/1Q3/5/5/5|5/5/2G2/5/5|5/5/5/5/5|2K2/5/5/5/5 b - - - 0 1";
    let g = game(t);
    if g.position().in_check() || g.position().has_legal_move() {
        panic!("test position is not stalemate: {}", crate::rules::notation::diagram(g.position()));
    }
    assert_eq!(g.status(), Status::Over(Outcome::draw(EndRule::Stalemate)));
}

#[test]
fn repetition_window() {
    assert_eq!(prior_occurrences(&[5, 1, 5, 2], 5, 4), 2);
    assert_eq!(prior_occurrences(&[5, 1, 5, 2], 5, 2), 1);
    assert_eq!(prior_occurrences(&[], 5, 9), 0);
}

#[test]
fn outcome_values_for_the_side_to_move() {
    let mate = Outcome::win(Color::White, EndRule::Checkmate);
    assert_eq!(mate.wdl_for(Color::White), [1.0, 0.0, 0.0]);
    assert_eq!(mate.wdl_for(Color::Black), [0.0, 0.0, 1.0]);
    assert_eq!(Outcome::draw(EndRule::BareKings).wdl_for(Color::Black), [0.0, 1.0, 0.0]);
}

#[test]
fn end_rule_names_round_trip() {
    for r in EndRule::ALL {
        assert_eq!(r.name().parse::<EndRule>().unwrap(), r);
    }
    assert!("resign".parse::<EndRule>().is_err());
}
