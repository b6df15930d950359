//! Backing a leaf's value up the path, alternating the point of view at each ply.

use super::tree::{NodeId, Tree};

/// Adds one visit with value `wdl` (win, draw, loss for the side to move at the leaf, the last
/// node of `path`) to every node of `path`, each from its mover's point of view; when `release`
/// is set, also removes the simulation from the nodes' in-flight counts.
pub fn backup<M: Copy>(tree: &mut Tree<M>, path: &[NodeId], wdl: [f32; 3], release: bool) {
    // The leaf's stats are from the view of the side that moved into it: loss minus win.
    let mut q = wdl[2] - wdl[0];
    let d = wdl[1];
    for &id in path.iter().rev() {
        let n = tree.get_mut(id);
        n.visits += 1;
        n.sum_q += q;
        n.sum_d += d;
        if release {
            debug_assert!(n.in_flight > 0);
            n.in_flight -= 1;
        }
        q = -q;
    }
}

/// Marks a simulation as in flight along `path` (each node's count goes up by one).
pub fn add_in_flight<M: Copy>(tree: &mut Tree<M>, path: &[NodeId]) {
    for &id in path {
        let n = tree.get_mut(id);
        n.in_flight = n.in_flight.checked_add(1).expect("at most 255 simulations in flight per node");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;

    #[test]
    fn values_alternate_up_the_path() {
        let mut t = Tree::default();
        t.reset();
        let m = Move::from_bits(0).unwrap();
        t.add_children(0, &[m], &[1.0]);
        t.add_children(1, &[m], &[1.0]);
        add_in_flight(&mut t, &[0, 1, 2]);
        // The side to move at node 2 wins: node 2 (its opponent's move) gets −1, node 1 +1, root −1.
        backup(&mut t, &[0, 1, 2], [1.0, 0.0, 0.0], true);
        assert_eq!((t.get(2).sum_q, t.get(1).sum_q, t.get(0).sum_q), (-1.0, 1.0, -1.0));
        assert_eq!(t.get(1).wdl(), [1.0, 0.0, 0.0]);
        assert!(t.nodes.iter().all(|n| n.in_flight == 0 && n.visits == 1));
    }
}
