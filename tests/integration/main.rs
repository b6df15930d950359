//! The integration tests, one test binary (one link against libtorch instead of one per file):
//!
//! - end to end through the built binary: [`cli`] (rules commands, bad input, values, bench,
//!   NNUE commands), [`cli_force`] (outputs never overwritten without `--force`), [`cli_games`] (evaluation games
//!   on workers), [`cli_play`]
//!   (analyse, play, match, tournament), [`cli_quasi`] (4D Quasi-Alice Chess), [`cli_mixed3d`] (Mixed 3D Chess's rules commands), [`cli_serve`] (the web server), [`cli_tablebase`] (endgame tables), [`cli_uci`] (the
//!   protocol and outside engines), [`train`] (training runs, kills and resumes);
//! - through the library: [`fuzz`] (every reader of user input under arbitrary and mutated
//!   input), [`seeds`] (the seed text's games and diagrams), [`verify`] (the rules core against
//!   an independent reference implementation and the perft file).
//!
//! One module's tests: `cargo test --test integration cli_play::`.

mod common;

mod cli;
mod cli_force;
mod cli_games;
mod cli_mixed3d;
mod cli_play;
mod cli_quasi;
mod cli_serve;
mod cli_tablebase;
mod cli_uci;
mod fuzz;
mod seeds;
mod train;
mod verify;
