//! Expanding a leaf with an evaluation, and the root's exploration noise.

use super::tree::{NodeId, Tree, EXPANDED, TERMINAL};
use crate::nn::Evaluation;
use rand::Rng;
use rand_distr::{Distribution, Gamma, Gumbel};

/// Creates `id`'s children for `moves` with the evaluation's policy as priors (renormalised; a
/// malformed policy falls back to uniform) and stores its value. Returns the leaf WDL to back up.
pub fn expand<M: Copy>(
    tree: &mut Tree<M>,
    id: NodeId,
    moves: &[M],
    eval: &Evaluation,
    scratch: &mut Vec<f32>,
) -> [f32; 3] {
    scratch.clear();
    let ok = eval.policy.len() == moves.len() && eval.policy.iter().all(|p| p.is_finite() && *p >= 0.0);
    let total: f32 = if ok { eval.policy.iter().sum() } else { 0.0 };
    if ok && total > 0.0 {
        scratch.extend(eval.policy.iter().map(|p| p / total));
    } else {
        scratch.extend(std::iter::repeat_n(1.0 / moves.len().max(1) as f32, moves.len()));
    }
    tree.add_children(id, moves, scratch);
    let wdl = sanitize_wdl(eval.wdl);
    let n = tree.get_mut(id);
    n.nn_q = wdl[2] - wdl[0];
    n.flags |= EXPANDED;
    wdl
}

/// Marks `id` terminal with the rules' result `wdl` (side to move's view, one-hot).
pub fn mark_terminal<M: Copy>(tree: &mut Tree<M>, id: NodeId, wdl: [f32; 3]) {
    let n = tree.get_mut(id);
    n.nn_q = wdl[2] - wdl[0];
    n.flags |= EXPANDED | TERMINAL;
}

/// The side-to-move WDL of a terminal node (terminal positions are lost or drawn for the mover).
pub fn terminal_wdl<M: Copy>(tree: &Tree<M>, id: NodeId) -> [f32; 3] {
    if tree.get(id).nn_q > 0.0 {
        [0.0, 0.0, 1.0]
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// A WDL clamped to non-negative values summing to 1 (draw if unusable).
pub fn sanitize_wdl(w: [f32; 3]) -> [f32; 3] {
    let w = w.map(|x| if x.is_finite() { x.max(0.0) } else { 0.0 });
    let s: f32 = w.iter().sum();
    if s > 0.0 {
        w.map(|x| x / s)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// Mixes Dirichlet(alpha) noise into the priors of `id`'s children: `(1 − eps)·P + eps·noise`.
pub fn add_dirichlet_noise<M: Copy>(tree: &mut Tree<M>, id: NodeId, alpha: f32, eps: f32, rng: &mut impl Rng) {
    let range = tree.children(id);
    if eps <= 0.0 || range.len() < 2 {
        return;
    }
    let Ok(gamma) = Gamma::new(alpha.max(1e-3), 1.0) else {
        return;
    };
    let noise: Vec<f32> = range.clone().map(|_| gamma.sample(rng)).collect();
    let total: f32 = noise.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return;
    }
    for (node, x) in tree.nodes[range].iter_mut().zip(noise) {
        node.prior = (1.0 - eps) * node.prior + eps * x / total;
    }
}

/// `n` independent Gumbel(0, 1) samples.
pub fn gumbel_noise(n: usize, rng: &mut impl Rng) -> Vec<f32> {
    let g = Gumbel::new(0.0f32, 1.0).expect("valid Gumbel parameters");
    (0..n).map(|_| g.sample(rng)).collect()
}
