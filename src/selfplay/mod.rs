//! Self-play: the lockstep driver, the training-record schema and shard files.
//!
//! - [`driver`]: N games stepped together, one evaluator call per step, tree work on rayon;
//! - [`game`]: what a game provides to be recorded and replayed ([`SelfPlayGame`]);
//! - [`records`]: the versioned record schema, documented field by field;
//! - [`shards`]: atomic, checksummed shard files and their validating reader;
//! - [`stats`]: results, lengths, endings and the false-resignation rate of a set of games;
//! - [`bench`]: throughput measurement.

pub mod bench;
pub mod driver;
pub mod export;
pub mod game;
pub mod records;
pub mod shards;
pub mod stats;

pub use bench::{bench, bench_config, BenchReport};
pub use driver::{adjudicate_ply_cap, run, run_until, ResignConfig, ResignStreaks, SelfPlayConfig, SelfPlayCounts};
pub use game::SelfPlayGame;
pub use records::{GameRecord, GameResult, PositionRecord, Termination, SCHEMA_VERSION};
pub use shards::{read_shard, write_shard, ShardError, ShardWriter};
pub use stats::SelfplayStats;

#[cfg(test)]
mod tests;
