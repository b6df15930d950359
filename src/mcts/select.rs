//! Child selection: PUCT with first-play urgency, and the Gumbel rules of Danihelka et al. (2022),
//! "Policy improvement by planning with Gumbel".
//!
//! Everything here is a pure function of a node's children (see [`super::tree`] for the value
//! convention), so each formula can be checked on hand-made toy trees.
//!
//! Gumbel quantities, with `q` the mean backed-up win-minus-loss of a child from the point of view
//! of the side to move at the parent, mapped to [0, 1] by `q01 = (q + 1) / 2` (fixed, no min-max
//! rescaling, so targets do not depend on how close the children happen to be):
//! - `σ(q) = (c_visit + max_b N(b)) · c_scale · q01` (eq. 8);
//! - mixed value `v_mix = (v̂ + ΣN / Σ_{N(b)>0} π(b) · Σ_{N(b)>0} π(b) q(b)) / (1 + ΣN)` (eq. 33),
//!   where `v̂` is the network's value of the parent and `π` its prior;
//! - completed Q: `q(a)` when `N(a) > 0`, else `v_mix`;
//! - improved policy `π' = softmax(log π + σ(completed Q))`;
//! - non-root selection: `argmax_a π'(a) − N(a) / (1 + ΣN)` (eq. 14), where `N` counts
//!   simulations in flight too, so batched descents spread over the children.

use super::tree::Node;

/// Parameters of the Gumbel transform σ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelParams {
    /// `c_visit` (50 in the paper).
    pub c_visit: f32,
    /// `c_scale` (1.0 in the paper).
    pub c_scale: f32,
}

impl Default for GumbelParams {
    fn default() -> Self {
        GumbelParams { c_visit: 50.0, c_scale: 1.0 }
    }
}

/// σ(q) for a q in [-1, 1] given the largest child visit count.
#[inline]
pub fn sigma(q: f32, max_visits: u32, p: GumbelParams) -> f32 {
    (p.c_visit + max_visits as f32) * p.c_scale * (q + 1.0) / 2.0
}

/// The mixed value approximation for a node whose network value is `v_hat` (side to move's view).
pub fn mixed_value<M>(v_hat: f32, children: &[Node<M>]) -> f32 {
    let (mut sum_n, mut sum_p, mut sum_pq) = (0.0f64, 0.0f64, 0.0f64);
    for c in children.iter().filter(|c| c.visits > 0) {
        sum_n += c.visits as f64;
        sum_p += c.prior as f64;
        sum_pq += c.prior as f64 * (c.sum_q / c.visits as f32) as f64;
    }
    if sum_n == 0.0 || sum_p <= 0.0 {
        return v_hat;
    }
    ((v_hat as f64 + sum_n / sum_p * sum_pq) / (1.0 + sum_n)) as f32
}

/// Completed Q of every child (side to move's view at the parent) into `out`.
pub fn completed_q<M>(v_hat: f32, children: &[Node<M>], out: &mut Vec<f32>) {
    let v_mix = mixed_value(v_hat, children);
    out.clear();
    out.extend(children.iter().map(|c| c.q().unwrap_or(v_mix)));
}

/// The improved policy `softmax(log prior + σ(completed Q))` into `out`.
pub fn improved_policy<M>(v_hat: f32, children: &[Node<M>], p: GumbelParams, out: &mut Vec<f32>) {
    completed_q(v_hat, children, out);
    let max_n = children.iter().map(|c| c.visits).max().unwrap_or(0);
    for x in out.iter_mut() {
        *x = sigma(*x, max_n, p);
    }
    let top = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0f32;
    for (x, c) in out.iter_mut().zip(children) {
        *x = c.prior.max(0.0) * (*x - top).exp();
        total += *x;
    }
    if total > 0.0 && total.is_finite() {
        out.iter_mut().for_each(|x| *x /= total);
    } else {
        let u = 1.0 / out.len().max(1) as f32;
        out.iter_mut().for_each(|x| *x = u);
    }
}

/// Non-root Gumbel selection: `argmax π'(a) − N(a) / (1 + ΣN)` (N includes simulations in flight).
pub fn gumbel_child<M: Copy>(v_hat: f32, children: &[Node<M>], p: GumbelParams, scratch: &mut Vec<f32>) -> usize {
    improved_policy(v_hat, children, p, scratch);
    let total: u32 = children.iter().map(Node::n_with_flight).sum();
    let denom = 1.0 + total as f32;
    argmax(children.iter().zip(scratch.iter()).map(|(c, &pi)| pi - c.n_with_flight() as f32 / denom))
}

/// The visit count the simulation with each index gives its chosen root action, for sequential
/// halving with `m` considered actions and `n` simulations (as in DeepMind's mctx), together with
/// the halving phase each simulation belongs to.
///
/// Each phase gives every remaining action `max(1, ⌊n / (⌈log2 m⌉ · remaining)⌋)` more visits,
/// then keeps the better half (at least 2).
pub fn considered_visits(m: u32, n: u32) -> (Vec<u32>, Vec<u16>) {
    if m <= 1 {
        return ((0..n).collect(), vec![0; n as usize]);
    }
    let log2m = (32 - (m - 1).leading_zeros()).max(1);
    let mut seq = Vec::with_capacity(n as usize);
    let mut phase = Vec::with_capacity(n as usize);
    let mut visits = vec![0u32; m as usize];
    let mut considered = m as usize;
    let mut ph = 0u16;
    while seq.len() < n as usize {
        let extra = (n / (log2m * considered as u32)).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..considered]);
            phase.extend(std::iter::repeat_n(ph, considered));
            visits[..considered].iter_mut().for_each(|v| *v += 1);
        }
        considered = (considered / 2).max(2);
        ph += 1;
    }
    seq.truncate(n as usize);
    phase.truncate(n as usize);
    (seq, phase)
}

/// PUCT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctParams {
    /// Exploration constant.
    pub c_puct: f32,
    /// First-play urgency reduction: an unvisited child's Q is the parent's Q minus this times the
    /// square root of the prior mass of the visited children.
    pub fpu_reduction: f32,
}

/// PUCT selection; `parent_q` is the parent's value (side to move's view). Simulations in flight
/// count as visits that lost (virtual loss).
pub fn puct_child<M: Copy>(children: &[Node<M>], parent_q: f32, p: PuctParams) -> usize {
    let mut parent_n = 0u32;
    let mut visited_p = 0.0f32;
    for c in children {
        let n = c.n_with_flight();
        parent_n += n;
        if n > 0 {
            visited_p += c.prior;
        }
    }
    let fpu = parent_q - p.fpu_reduction * visited_p.sqrt();
    let explore = p.c_puct * (parent_n.max(1) as f32).sqrt();
    argmax(children.iter().map(|c| {
        let n = c.n_with_flight();
        let q = if n > 0 { (c.sum_q - c.in_flight as f32) / n as f32 } else { fpu };
        q + explore * c.prior / (1 + n) as f32
    }))
}

/// Index of the largest value (the first one on ties); 0 for an empty iterator.
pub fn argmax(it: impl Iterator<Item = f32>) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, x) in it.enumerate() {
        if x > best.1 {
            best = (i, x);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;

    fn child(prior: f32, visits: u32, q: f32) -> Node {
        let mut n = Node::new(Move::from_bits(0).unwrap(), prior);
        n.visits = visits;
        n.sum_q = q * visits as f32;
        n
    }

    #[test]
    fn sequential_halving_schedule_by_hand() {
        // m = 4, n = 16: log2 m = 2; phase 0 gives 16 / (2·4) = 2 visits to each of 4 actions,
        // phase 1 gives 16 / (2·2) = 4 visits to each of the 2 survivors.
        let (seq, phase) = considered_visits(4, 16);
        assert_eq!(seq, vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        assert_eq!(phase, vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
        // m = 16, n = 32: log2 m = 4; 32/64 -> 1 visit x 16, 32/32 -> 1 x 8, 32/16 -> 2 x 4.
        let (seq, phase) = considered_visits(16, 32);
        assert_eq!(&seq[..16], &[0; 16]);
        assert_eq!(&seq[16..24], &[1; 8]);
        assert_eq!(&seq[24..], &[2, 2, 2, 2, 3, 3, 3, 3]);
        assert_eq!((phase[15], phase[16], phase[24], phase[31]), (0, 1, 2, 2));
        // m = 3, n = 5: log2 m = 2; 5/6 -> 1 x 3, then 2 survivors get 5/4 = 1 each.
        assert_eq!(considered_visits(3, 5).0, vec![0, 0, 0, 1, 1]);
        assert_eq!(considered_visits(1, 3).0, vec![0, 1, 2]);
    }

    #[test]
    fn completed_q_and_improved_policy_by_hand() {
        // Priors 0.5, 0.3, 0.2; child 0 visited twice with q = 0.6, child 1 once with q = -0.2.
        let kids = [child(0.5, 2, 0.6), child(0.3, 1, -0.2), child(0.2, 0, 0.0)];
        let v_hat = 0.1;
        // v_mix = (0.1 + 3 / 0.8 · (0.5·0.6 + 0.3·(−0.2))) / 4 = (0.1 + 3.75 · 0.24) / 4 = 0.25.
        assert!((mixed_value(v_hat, &kids) - 0.25).abs() < 1e-6);
        let mut cq = Vec::new();
        completed_q(v_hat, &kids, &mut cq);
        assert!((cq[0] - 0.6).abs() < 1e-6 && (cq[1] + 0.2).abs() < 1e-6 && (cq[2] - 0.25).abs() < 1e-6);
        // σ with max N = 2: 52 · q01 → 41.6, 20.8, 32.5.
        let p = GumbelParams::default();
        assert!((sigma(0.6, 2, p) - 41.6).abs() < 1e-4);
        let mut pi = Vec::new();
        improved_policy(v_hat, &kids, p, &mut pi);
        let w = [0.5f64 * (41.6f64).exp(), 0.3 * (20.8f64).exp(), 0.2 * (32.5f64).exp()];
        let z: f64 = w.iter().sum();
        for i in 0..3 {
            assert!((pi[i] as f64 - w[i] / z).abs() < 1e-6, "{i}: {} vs {}", pi[i], w[i] / z);
        }
        assert!((pi.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        // A gentler scale to check the non-root rule: c_visit = 0, c_scale = 0.1.
        let p = GumbelParams { c_visit: 0.0, c_scale: 0.1 };
        improved_policy(v_hat, &kids, p, &mut pi);
        // σ = 2 · 0.1 · q01 = 0.16, 0.08, 0.125; π' ∝ prior · e^σ.
        let w = [0.5f64 * 0.16f64.exp(), 0.3 * 0.08f64.exp(), 0.2 * 0.125f64.exp()];
        let z: f64 = w.iter().sum();
        let want: Vec<f64> = w.iter().map(|x| x / z).collect();
        assert!((pi[0] as f64 - want[0]).abs() < 1e-6);
        // Selection scores π' − N / (1 + 3): 0.5154 − 0.5, 0.2855 − 0.25, 0.1991 − 0 → child 2.
        let mut scratch = Vec::new();
        assert_eq!(gumbel_child(v_hat, &kids, p, &mut scratch), 2);
    }

    #[test]
    fn mixed_value_without_visits_is_the_network_value() {
        let kids = [child(0.5, 0, 0.0), child(0.5, 0, 0.0)];
        assert_eq!(mixed_value(-0.3, &kids), -0.3);
    }

    #[test]
    fn puct_first_play_urgency_and_virtual_loss() {
        // Parent q = 0; child 0 visited (q = 0.1, prior 0.6), child 1 unvisited (prior 0.4).
        let kids = [child(0.6, 1, 0.1), child(0.4, 0, 0.0)];
        let p = PuctParams { c_puct: 1.0, fpu_reduction: 0.5 };
        // child 0: 0.1 + 1·0.6/2 = 0.4; child 1: −0.5·√0.6 + 0.4 = 0.0127 → child 0.
        assert_eq!(puct_child(&kids, 0.0, p), 0);
        // A virtual loss on child 0: q = (0.1 − 1)/2 = −0.45, U = √2·0.6/3 → child 1 wins.
        let mut kids2 = kids;
        kids2[0].in_flight = 1;
        assert_eq!(puct_child(&kids2, 0.0, p), 1);
    }
}
