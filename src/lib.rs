//! fiveup: rules, engines, self-play and tournaments for Five Up and Raumschach (5x5x5 3D chess).

#![warn(missing_docs)]

pub mod catalog;
pub mod engine;
pub mod eval;
pub mod fsutil;
pub mod game;
pub mod layers;
pub mod mcts;
pub mod mixed3d;
pub mod nn;
pub mod player;
pub mod progress;
pub mod protocol;
pub mod quasi_alice;
pub mod rng;
pub mod rules;
pub mod selfplay;
pub mod serve;
pub mod store;
pub mod tablebase;
pub mod tomlcfg;
pub mod train;
pub mod values;
