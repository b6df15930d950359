//! The networks shipped in the binary (`nets/`), one per ruleset that has one.

use super::Network;
use crate::rules::Ruleset;

/// The file of the network shipped for `ruleset`, built into the binary (`nets/`), if any.
pub fn shipped_file(ruleset: Ruleset) -> Option<&'static [u8]> {
    match ruleset {
        Ruleset::FiveUp => Some(include_bytes!("../../../nets/nnue-fiveup.nnue")),
        Ruleset::Raumschach => Some(include_bytes!("../../../nets/nnue-raumschach.nnue")),
        Ruleset::FiveUp2001 => None,
    }
}

/// Whether a network is shipped for `ruleset` ([`shipped`]).
pub fn ships(ruleset: Ruleset) -> bool {
    shipped_file(ruleset).is_some()
}

/// The network shipped for `ruleset` (`ab:eval=nnue`; the files in `nets/`, built into the
/// binary), or why there is none. Read and checked once per process.
pub fn shipped(ruleset: Ruleset) -> Result<std::sync::Arc<Network>, String> {
    use std::sync::{Arc, OnceLock};
    static CELLS: [OnceLock<Result<Arc<Network>, String>>; Ruleset::ALL.len()] =
        [const { OnceLock::new() }; Ruleset::ALL.len()];
    let Some(bytes) = shipped_file(ruleset) else {
        return Err(format!("no network is shipped for {ruleset} yet; name one with eval=nnue:FILE"));
    };
    CELLS[ruleset.index()]
        .get_or_init(|| {
            Network::from_bytes(bytes, Some(ruleset))
                .map(Arc::new)
                .map_err(|e| format!("the shipped {ruleset} network: {e}"))
        })
        .clone()
}
