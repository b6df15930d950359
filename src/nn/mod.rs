//! The neural stack's model-free half: encoding, the policy map, symmetries and the evaluator
//! interface that search calls.

pub mod encode;
pub mod policy;
pub mod symmetry;

#[cfg(test)]
mod testutil;
