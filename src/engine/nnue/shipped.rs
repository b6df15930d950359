//! The networks shipped in the binary (`nets/`), one per ruleset that has one.

use super::{Network, NetworkFormatError};
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

/// Why [`shipped`] has no network for a ruleset; the text is the one line a player's error shows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShippedError {
    /// No network is shipped for the ruleset.
    #[error("no network is shipped for {0} yet; name one with eval=nnue:FILE")]
    NotShipped(Ruleset),
    /// The shipped file cannot be read (a broken build).
    #[error("the shipped {ruleset} network: {source}")]
    Format {
        /// The ruleset.
        ruleset: Ruleset,
        /// What is wrong with the file.
        #[source]
        source: NetworkFormatError,
    },
}

/// The network shipped for `ruleset` (`ab:eval=nnue`; the files in `nets/`, built into the
/// binary), or why there is none. Read and checked once per process.
pub fn shipped(ruleset: Ruleset) -> Result<std::sync::Arc<Network>, ShippedError> {
    use std::sync::{Arc, OnceLock};
    static CELLS: [OnceLock<Result<Arc<Network>, ShippedError>>; Ruleset::ALL.len()] =
        [const { OnceLock::new() }; Ruleset::ALL.len()];
    let Some(bytes) = shipped_file(ruleset) else {
        return Err(ShippedError::NotShipped(ruleset));
    };
    CELLS[ruleset.index()]
        .get_or_init(|| {
            Network::from_bytes(bytes, Some(ruleset))
                .map(Arc::new)
                .map_err(|source| ShippedError::Format { ruleset, source })
        })
        .clone()
}
