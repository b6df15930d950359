//! `fiveup uci`: the engine side of the protocol on stdin/stdout.

use super::common::RulesetArg;
use anyhow::{Context, Result};
use clap::Args;

/// `fiveup uci`.
#[derive(Args, Debug)]
#[command(mut_arg("given", |a| a.help(
    "The game before any `setoption name UCI_Variant` (fiveup, fiveup-2001, raumschach, quasi-alice, mixed3d) [default: fiveup]",
)))]
pub struct UciArgs {
    /// The player behind the protocol (the `Player` option's default): `ab:eval=auto` (the
    /// strongest evaluation of the game, as `play` and `analyse`), `ab`, `ab:values=FILE`,
    /// `mcts:net=DIR,batch=8`, ... A spec naming no limit lets each `go` set them.
    #[arg(long, value_name = "SPEC", default_value = fiveup::player::spec::DEFAULT_PLAYER)]
    pub player: String,
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
}

/// `fiveup uci`: checks the player spec for the game (a bad one, or a kind the game has no
/// player of, is an error before the session starts), then serves the protocol on stdin/stdout
/// until `quit` or the end of input.
pub fn run(a: &UciArgs) -> Result<()> {
    let game = a.ruleset.game()?;
    let spec = fiveup::player::spec::PlayerSpec::parse_unlimited(&a.player).context("--player")?;
    // Networks and values files are loaded now, so a bad one fails here with one line.
    fiveup::protocol::check_player(game, &spec).context("--player")?;
    let opts = fiveup::protocol::ServeOptions { player: a.player.clone(), game };
    fiveup::protocol::serve(std::io::stdin().lock(), Box::new(std::io::stdout()), &opts)?;
    Ok(())
}
