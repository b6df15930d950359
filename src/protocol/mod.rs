//! A UCI-style line protocol for 5x5x5 engines (`docs/PROTOCOL.md` is its specification): the
//! engine side ([`serve`], `fiveup uci`). The harness side (the `uci:COMMAND` player) is
//! [`crate::player::uci::UciPlayer`].
//!
//! The protocol is UCI with the board changed: moves in the coordinate form of docs/RULES.md §6
//! (`Dc2Cc2`, `Eb1Db3/S`, `Aa4Aa5=Q`), positions as `position startpos | text <position text>
//! [moves …]`, and the ruleset chosen by `setoption name UCI_Variant value fiveup|fiveup-2001|
//! raumschach` with the two rule flags as check options. Everything else (`uci`/`uciok`,
//! `isready`/`readyok`, `go` with clocks or limits, `info … pv …`, `stop`, `bestmove`, `quit`) is
//! as in UCI, so habits and tools carry over.
//!
//! The text forms both sides share (`go` arguments, `info` lines, moves) are in
//! [`crate::player::wire`].

mod server;

pub use server::{serve, ServeOptions};
