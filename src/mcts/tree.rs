//! The search tree as an arena: nodes in one `Vec`, the children of a node a contiguous index range.
//!
//! Value convention: a node's statistics are from the point of view of the side that made the move
//! leading to it (the side to move at its parent), so a parent picks the child with the highest
//! Q directly. `q` is win minus loss in [-1, 1]; the draw share is kept beside it so the full WDL
//! can be recovered: `w = (1 + q - d) / 2`, `l = (1 - q - d) / 2`.
//!
//! Nodes hold the game's move type (the 5x5x5 [`Move`] by default); every game's moves are 32-bit
//! values, so a node is 32 bytes in each.

use crate::rules::Move;
use std::fmt::Debug;

/// A move a tree node can hold: a small `Copy` value, with a placeholder for the root (which no
/// move leads to).
pub trait TreeMove: Copy + Debug + Send + Sync + 'static {
    /// The root's meaningless move.
    fn placeholder() -> Self;
}

impl TreeMove for Move {
    fn placeholder() -> Move {
        Move::from_bits(0).expect("zero bits are a move")
    }
}

impl TreeMove for crate::quasi_alice::Move {
    fn placeholder() -> crate::quasi_alice::Move {
        crate::quasi_alice::Move::new(0, 0, 0, 0, None, crate::quasi_alice::Flag::Normal)
    }
}

impl TreeMove for crate::mixed3d::Move {
    fn placeholder() -> crate::mixed3d::Move {
        crate::mixed3d::Move::normal(0, 1)
    }
}

/// Index of a node in the arena.
pub type NodeId = u32;

/// The root is always node 0.
pub const ROOT: NodeId = 0;

/// Node flag: evaluated and children created (or found terminal).
pub const EXPANDED: u8 = 1;
/// Node flag: the position is terminal; `nn_q` holds its exact value.
pub const TERMINAL: u8 = 2;

/// One node; 32 bytes (pinned below).
#[derive(Clone, Copy, Debug)]
pub struct Node<M = Move> {
    /// Move from the parent to this node (meaningless for the root).
    pub mv: M,
    /// Prior probability of `mv` at the parent.
    pub prior: f32,
    /// Completed visits (backups through this node).
    pub visits: u32,
    /// First child's index (valid when `num_children > 0`).
    pub first_child: NodeId,
    /// The evaluator's value (or the terminal value), mover's view; 0 until expanded.
    pub nn_q: f32,
    /// Sum of backed-up `q` (win minus loss), mover's view.
    pub sum_q: f32,
    /// Sum of backed-up draw probabilities.
    pub sum_d: f32,
    /// Number of children.
    pub num_children: u16,
    /// Simulations through this node that wait for an evaluation.
    pub in_flight: u8,
    /// [`EXPANDED`] | [`TERMINAL`].
    pub flags: u8,
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);
const _: () = assert!(std::mem::size_of::<Node<crate::quasi_alice::Move>>() == 32);

impl<M> Node<M> {
    /// A fresh, unvisited node for `mv` with prior `prior`.
    pub fn new(mv: M, prior: f32) -> Node<M> {
        Node {
            mv,
            prior,
            visits: 0,
            first_child: 0,
            nn_q: 0.0,
            sum_q: 0.0,
            sum_d: 0.0,
            num_children: 0,
            in_flight: 0,
            flags: 0,
        }
    }

    /// Whether the node has been evaluated (or found terminal).
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }

    /// Whether the node's position ends the game.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }

    /// Mean backed-up q (mover's view); `None` when unvisited.
    #[inline]
    pub fn q(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.sum_q / self.visits as f32)
    }

    /// Visits including the simulations in flight.
    #[inline]
    pub fn n_with_flight(&self) -> u32 {
        self.visits + self.in_flight as u32
    }

    /// Mean backed-up WDL (mover's view); `[0, 1, 0]` when unvisited.
    pub fn wdl(&self) -> [f32; 3] {
        if self.visits == 0 {
            return [0.0, 1.0, 0.0];
        }
        let n = self.visits as f32;
        let (q, d) = (self.sum_q / n, self.sum_d / n);
        // Clamped: rounding in the sums can leave a component a hair below 0.
        [((1.0 + q - d) / 2.0).max(0.0), d.max(0.0), ((1.0 - q - d) / 2.0).max(0.0)]
    }
}

/// The arena.
#[derive(Clone, Debug)]
pub struct Tree<M = Move> {
    /// All nodes; the root is `nodes[0]`.
    pub nodes: Vec<Node<M>>,
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Tree { nodes: Vec::new() }
    }
}

impl<M: TreeMove> Tree<M> {
    /// Clears the tree (keeping its allocation) and adds a fresh root.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(M::placeholder(), 1.0));
    }
}

impl<M: Copy> Tree<M> {
    /// The node `id`.
    #[inline]
    pub fn get(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id as usize]
    }

    /// The node `id`, mutably.
    #[inline]
    pub fn get_mut(&mut self, id: NodeId) -> &mut Node<M> {
        &mut self.nodes[id as usize]
    }

    /// Index range of `id`'s children.
    #[inline]
    pub fn children(&self, id: NodeId) -> std::ops::Range<usize> {
        let n = self.get(id);
        n.first_child as usize..n.first_child as usize + n.num_children as usize
    }

    /// Children of `id` as a slice.
    #[inline]
    pub fn child_nodes(&self, id: NodeId) -> &[Node<M>] {
        &self.nodes[self.children(id)]
    }

    /// Appends children for `moves` with `priors` under `id` (which must have none yet).
    pub fn add_children(&mut self, id: NodeId, moves: &[M], priors: &[f32]) {
        debug_assert_eq!(moves.len(), priors.len());
        // The search stops below `search::MAX_TREE_NODES`, so an id always fits (never truncated).
        let first = NodeId::try_from(self.nodes.len()).expect("the search keeps the tree below 2^32 nodes");
        self.nodes.extend(moves.iter().zip(priors).map(|(&m, &p)| Node::new(m, p)));
        let n = self.get_mut(id);
        n.first_child = first;
        n.num_children = u16::try_from(moves.len()).expect("fewer than 65536 legal moves");
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no nodes at all (not even a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
