//! A UCI-style line protocol for fiveup's games (`docs/PROTOCOL.md` is its specification): the
//! engine side ([`serve`], `fiveup uci`). The harness side (the `uci:COMMAND` player) is
//! [`crate::player::uci::UciPlayer`].
//!
//! The protocol is UCI with the board changed: moves in the game's text (on 5x5x5 the coordinate
//! form of docs/RULES.md §6, `Dc2Cc2`, `Eb1Db3/S`, `Aa4Aa5=Q`; in 4D Quasi-Alice `1e2e4>3`),
//! positions as `position startpos | text <position text> [moves …]`, and the game chosen by
//! `setoption name UCI_Variant value fiveup|fiveup-2001|raumschach|quasi-alice` with the two 5x5x5
//! rule flags as check options. Everything else (`uci`/`uciok`,
//! `isready`/`readyok`, `go` with clocks or limits, `info … pv …`, `stop`, `bestmove`, `quit`) is
//! as in UCI, so habits and tools carry over.
//!
//! The text forms both sides share (`go` arguments, `info` lines, moves) are in
//! [`crate::player::wire`].

mod server;

pub use server::{check_player, serve, ServeOptions};
