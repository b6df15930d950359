//! One table in memory: its material, its men in slot order and one value per entry.

use super::index::{canonical_index, decode};
use super::material::MAX_MEN;
use super::material::{Family, Material};
use crate::game::Color;
use crate::rules::{Kind, Piece, Position, Setup, Variant};

/// A position's value in a table, for the side to move, by distance to mate in plies (the
/// fifty-move rule ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtm {
    /// The side to move mates in this many plies (odd: 1 is mate in one).
    Win(u16),
    /// The side to move is mated in this many plies (even: 0 is checkmated now), against the
    /// longest defence.
    Loss(u16),
    /// Neither side can force mate.
    Draw,
}

impl Dtm {
    /// The value of a stored code (`None` for an entry that is no position).
    #[inline]
    pub const fn from_code(code: u16) -> Option<Dtm> {
        match code {
            DRAW => Some(Dtm::Draw),
            NONE => None,
            c => {
                let n = c - 2;
                Some(if n % 2 == 1 { Dtm::Win(n) } else { Dtm::Loss(n) })
            }
        }
    }

    /// The stored code of a value.
    #[inline]
    pub const fn code(self) -> u16 {
        match self {
            Dtm::Draw => DRAW,
            Dtm::Win(n) | Dtm::Loss(n) => n + 2,
        }
    }

    /// The value one ply earlier, for the side that moved into this position.
    #[inline]
    pub const fn parent(self) -> Dtm {
        match self {
            Dtm::Win(n) => Dtm::Loss(n + 1),
            Dtm::Loss(n) => Dtm::Win(n + 1),
            Dtm::Draw => Dtm::Draw,
        }
    }

    /// Whether `self` is better than `other` for the side to move (faster win, draw over loss,
    /// longer loss).
    pub fn better_than(self, other: Dtm) -> bool {
        let key = |d: Dtm| match d {
            Dtm::Win(n) => (2, -(n as i32)),
            Dtm::Draw => (1, 0),
            Dtm::Loss(n) => (0, n as i32),
        };
        key(self) > key(other)
    }

    /// Moves to mate for people: `mate in 3` (side to move wins), `mated in 2`, `draw`.
    pub fn describe(self) -> String {
        match self {
            Dtm::Win(n) => format!("mate in {}", n.div_ceil(2)),
            Dtm::Loss(0) => "checkmated".to_string(),
            Dtm::Loss(n) => format!("mated in {}", n / 2),
            Dtm::Draw => "draw".to_string(),
        }
    }
}

/// The stored code of a draw.
pub const DRAW: u16 = 0;
/// The stored code of an entry that is no position: men on one cell, the side not to move in
/// check, or not the canonical entry of its position.
pub const NONE: u16 = 1;

/// The values of a table, one byte each when its longest mate allows, else two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// One byte per entry.
    Narrow(Vec<u8>),
    /// Two bytes per entry.
    Wide(Vec<u16>),
}

impl Values {
    /// The code of entry `i`.
    #[inline]
    pub fn get(&self, i: u64) -> u16 {
        match self {
            Values::Narrow(v) => v[i as usize] as u16,
            Values::Wide(v) => v[i as usize],
        }
    }

    /// The number of entries.
    pub fn len(&self) -> u64 {
        match self {
            Values::Narrow(v) => v.len() as u64,
            Values::Wide(v) => v.len() as u64,
        }
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The codes in the narrowest width that holds them.
    pub fn from_codes(codes: Vec<u16>) -> Values {
        if codes.iter().all(|&c| c <= u8::MAX as u16) {
            Values::Narrow(codes.into_iter().map(|c| c as u8).collect())
        } else {
            Values::Wide(codes)
        }
    }
}

/// The men of a material in slot order (white king, black king, white's men, black's men) and
/// the pairs of slots holding interchangeable men.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Colour and kind of each slot.
    pub slots: Vec<(Color, Kind)>,
    /// Pairs of slots with the same colour and kind (adjacent slots).
    pub same: Vec<(usize, usize)>,
}

impl Layout {
    /// The layout of a material.
    pub fn of(m: &Material) -> Layout {
        let mut slots = vec![(Color::White, Kind::King), (Color::Black, Kind::King)];
        slots.extend(m.white.iter().map(|&k| (Color::White, k)));
        slots.extend(m.black.iter().map(|&k| (Color::Black, k)));
        let same =
            (2..slots.len().saturating_sub(1)).filter(|&i| slots[i] == slots[i + 1]).map(|i| (i, i + 1)).collect();
        Layout { slots, same }
    }

    /// The number of men.
    pub fn men(&self) -> usize {
        self.slots.len()
    }
}

/// A table: a material's value for every canonical entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The material, canonical.
    pub material: Material,
    /// Its men in slot order.
    pub layout: Layout,
    /// One code per entry.
    pub values: Values,
}

impl Table {
    /// The family of the table.
    pub fn family(&self) -> Family {
        self.material.family
    }

    /// The men of slot order on `cells`, `side` to move, set out on a board of the table's game;
    /// `None` when two men share a cell.
    pub fn setup_of(&self, cells: &[u8], side: Color) -> Option<Setup> {
        let mut s = Setup { side, ..Setup::empty(Variant::plain(self.family().ruleset())) };
        for (k, &(color, kind)) in self.layout.slots.iter().enumerate() {
            let cell = &mut s.board[cells[k] as usize];
            if cell.is_some() {
                return None;
            }
            *cell = Some(Piece::new(color, kind));
        }
        Some(s)
    }

    /// The position of entry `i` (`None` when the entry is no position: two men on one cell, the
    /// side not to move in check).
    pub fn position(&self, i: u64) -> Option<Position> {
        let mut cells = [0u8; MAX_MEN];
        let men = self.layout.men();
        let side = decode(i, &mut cells[..men]);
        Position::from_setup(self.setup_of(&cells[..men], side)?).ok()
    }

    /// The value of the position with the men of slot order on `cells` and `side` to move.
    #[inline]
    pub fn probe_cells(&self, cells: &[u8], side: Color) -> Option<Dtm> {
        let (i, _) = canonical_index(cells, &self.layout.same, side);
        Dtm::from_code(self.values.get(i))
    }
}

/// Tables in memory by material: what the builder reads its captures from.
#[derive(Clone, Debug, Default)]
pub struct Shelf {
    tables: std::collections::BTreeMap<Material, std::sync::Arc<Table>>,
}

impl Shelf {
    /// The table of a material, if on the shelf.
    pub fn get(&self, m: &Material) -> Option<&std::sync::Arc<Table>> {
        self.tables.get(m)
    }

    /// Puts a table on the shelf.
    pub fn insert(&mut self, t: Table) {
        self.tables.insert(t.material.clone(), std::sync::Arc::new(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_their_codes() {
        for d in [Dtm::Draw, Dtm::Loss(0), Dtm::Win(1), Dtm::Loss(2), Dtm::Win(301)] {
            assert_eq!(Dtm::from_code(d.code()), Some(d));
        }
        assert_eq!(Dtm::from_code(NONE), None);
        assert_eq!(Dtm::Loss(0).parent(), Dtm::Win(1));
        assert!(Dtm::Win(3).better_than(Dtm::Win(5)));
        assert!(Dtm::Draw.better_than(Dtm::Loss(40)));
        assert!(Dtm::Loss(8).better_than(Dtm::Loss(6)));
        assert_eq!(Dtm::Win(5).describe(), "mate in 3");
        assert_eq!(Dtm::Loss(4).describe(), "mated in 2");
    }

    #[test]
    fn a_layout_lists_the_kings_first_and_pairs_equal_men() {
        let m = Material::parse(Family::FiveUp, "KRRvK").unwrap();
        let l = Layout::of(&m);
        assert_eq!(l.men(), 4);
        assert_eq!(l.same, vec![(2, 3)]);
        let m = Material::parse(Family::FiveUp, "KRvKR").unwrap();
        assert!(Layout::of(&m).same.is_empty());
    }
}
