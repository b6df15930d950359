//! `fiveup uci`: the engine side of the protocol on stdin/stdout.

use super::common::RulesetArg;
use anyhow::{Context, Result};
use clap::Args;
use fiveup::rules::Ruleset;

/// `fiveup uci`.
#[derive(Args, Debug)]
#[command(mut_arg("given", |a| a.help(
    "The ruleset before any `setoption name UCI_Variant` (fiveup, fiveup-2001, raumschach) [default: fiveup]",
)))]
pub struct UciArgs {
    /// The player behind the protocol (the `Player` option's default): `ab`, `ab:values=FILE`,
    /// `mcts:net=DIR,batch=8`, ... A spec naming no limit lets each `go` set them.
    #[arg(long, value_name = "SPEC", default_value = "ab")]
    pub player: String,
    /// The rule set.
    #[command(flatten)]
    pub ruleset: RulesetArg,
}

/// `fiveup uci`: checks the player spec (a bad one is an error before the session starts), then
/// serves the protocol on stdin/stdout until `quit` or the end of input.
pub fn run(a: &UciArgs) -> Result<()> {
    let ruleset: Ruleset = a.ruleset.five_up("uci")?;
    let spec = fiveup::player::spec::PlayerSpec::parse_unlimited(&a.player).context("--player")?;
    // Networks and values files are loaded now, so a bad one fails here with one line.
    spec.build().context("--player")?;
    let opts = fiveup::protocol::ServeOptions { player: a.player.clone(), ruleset };
    fiveup::protocol::serve(std::io::stdin().lock(), Box::new(std::io::stdout()), &opts)?;
    Ok(())
}
