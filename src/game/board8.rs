//! One 8x8 chess board: squares, the leaper tables and sliding attacks, shared by the games
//! whose boards are made of 8x8 planes (4D Quasi-Alice's four boards, Mixed 3D's levels and the
//! other planes through its cube).
//!
//! A square is `file + 8 * rank` (a1 = 0, h8 = 63); sets of squares are `u64`s. Sliding attacks use
//! ray tables: the ray in a direction up to the first blocker, found by a bit scan.

/// The file of a square, 0..8 (a..h).
#[inline]
pub const fn file(sq: usize) -> usize {
    sq & 7
}

/// The rank of a square, 0..8 (ranks 1..8).
#[inline]
pub const fn rank(sq: usize) -> usize {
    sq >> 3
}

/// A square's text, `e4`.
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + file(sq) as u8) as char, rank(sq) + 1)
}

/// Reads a square (`e4`) from the start of `s`.
pub fn parse_square(s: &[u8]) -> Option<usize> {
    match s {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => Some((f - b'a') as usize + 8 * (r - b'1') as usize),
        _ => None,
    }
}

/// Appends one board's FEN field to `s`: ranks 8 to 1 joined by `/`, files a-h, a digit for each
/// run of empty squares; `char_at` gives the letter of the man on a square.
pub fn write_fen_board(s: &mut String, char_at: impl Fn(usize) -> Option<char>) {
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            match char_at(r * 8 + f) {
                Some(c) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if r > 0 {
            s.push('/');
        }
    }
}

/// The squares reached from each square by the given (file, rank) steps.
pub const fn leaper_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq & 7) as i32, (sq >> 3) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nf + 8 * nr);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Knight attacks from each square.
pub const KNIGHT: [u64; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
/// King steps from each square.
pub const KING: [u64; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
/// `PAWN_ATTACKS[color][sq]`: the squares a pawn of `color` on `sq` attacks.
pub const PAWN_ATTACKS: [[u64; 64]; 2] = [leaper_table(&[(1, 1), (-1, 1)]), leaper_table(&[(1, -1), (-1, -1)])];

/// The eight directions: the first four point to higher squares (the nearest blocker is the
/// lowest set bit), the last four to lower ones (the highest set bit).
const DIRS: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];

const fn ray_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq & 7) as i32, (sq >> 3) as i32);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][sq] |= 1u64 << (f + 8 * r);
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[direction][sq]`: every square from `sq` in a direction to the board's edge.
pub const RAYS: [[u64; 64]; 8] = ray_table();

/// `BETWEEN[a][b]`: the squares strictly between two squares on a line, or empty.
pub static BETWEEN: [[u64; 64]; 64] = between_table();

const fn between_table() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 64 {
            let mut ray = RAYS[d][a];
            while ray != 0 {
                let b = ray.trailing_zeros() as usize;
                ray &= ray - 1;
                // Squares from a in direction d strictly before b.
                t[a][b] = RAYS[d][a] & !RAYS[d][b] & !(1u64 << b);
            }
            a += 1;
        }
        d += 1;
    }
    t
}

#[inline]
fn ray_attacks(d: usize, sq: usize, occ: u64) -> u64 {
    let ray = RAYS[d][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let first = if d < 4 { blockers.trailing_zeros() as usize } else { 63 - blockers.leading_zeros() as usize };
    ray ^ RAYS[d][first]
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline]
pub fn rook_attacks(sq: usize, occ: u64) -> u64 {
    ray_attacks(0, sq, occ) | ray_attacks(1, sq, occ) | ray_attacks(4, sq, occ) | ray_attacks(5, sq, occ)
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline]
pub fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    ray_attacks(2, sq, occ) | ray_attacks(3, sq, occ) | ray_attacks(6, sq, occ) | ray_attacks(7, sq, occ)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_chess() {
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KNIGHT[27].count_ones(), 8);
        assert_eq!(KING[0].count_ones(), 3);
        assert_eq!(rook_attacks(0, 0).count_ones(), 14);
        assert_eq!(bishop_attacks(27, 0).count_ones(), 13);
        // Rook on a1, blocker on a4: a2, a3, a4 and the first rank.
        assert_eq!(rook_attacks(0, 1 << 24), 0xFE | (1 << 8) | (1 << 16) | (1 << 24));
        assert_eq!(BETWEEN[0][63].count_ones(), 6);
        assert_eq!(BETWEEN[0][9], 0);
        assert_eq!(BETWEEN[0][10], 0);
        assert_eq!(PAWN_ATTACKS[0][12], (1 << 19) | (1 << 21));
        assert_eq!(PAWN_ATTACKS[1][52], (1 << 43) | (1 << 45));
    }

    #[test]
    fn square_text_round_trips() {
        for sq in 0..64 {
            assert_eq!(parse_square(square_name(sq).as_bytes()), Some(sq));
        }
        assert_eq!(parse_square(b"i1"), None);
    }
}
