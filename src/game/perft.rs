//! Perft over any game: the number of leaves of the legal move tree, the last ply bulk-counted.

use super::State;
use rayon::prelude::*;

/// perft(depth) from `pos`; depth 0 counts 1. The last ply is counted without making its moves.
pub fn perft<S: State>(pos: &mut S, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<S::Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_rec(pos, depth, &mut bufs)
}

fn perft_rec<S: State>(pos: &mut S, depth: u32, bufs: &mut [Vec<S::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
            buf.clear();
            pos.legal_moves_into(buf);
            let mut n = 0;
            for &m in buf.iter() {
                let u = pos.make(m);
                n += perft_rec(pos, depth - 1, rest);
                pos.unmake(m, u);
            }
            n
        }
    }
}

/// Leaf counts per root move (the `--divide` view), in generation order.
pub fn divide<S: State>(pos: &S, depth: u32, threads: usize) -> Vec<(S::Move, u64)> {
    let moves = super::legal_moves(pos);
    let sub = depth.saturating_sub(1);
    let work = |m: &S::Move| {
        let mut p = pos.clone();
        p.make(*m);
        (*m, perft(&mut p, sub))
    };
    if threads <= 1 || depth <= 1 {
        moves.iter().map(work).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        match pool {
            Ok(pool) => pool.install(|| moves.par_iter().map(work).collect()),
            Err(_) => moves.iter().map(work).collect(),
        }
    }
}

/// perft(depth) split over `threads` worker threads by root move.
pub fn perft_parallel<S: State>(pos: &S, depth: u32, threads: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
}
