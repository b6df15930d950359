//! Neural-network side of the project as seen by search: the batching evaluator interface.
//!
//! Search and self-play reach a network only through [`evaluator::Evaluator`]; every network path
//! has a model-free twin ([`evaluator::UniformEvaluator`]) so tests and benches run without one.

pub mod evaluator;

pub use evaluator::{EvalInput, Evaluation, Evaluator, UniformEvaluator};
