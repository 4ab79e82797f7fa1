//! Entries unranked one after another ([`Cursor`]): what the solver's forward pass asks for.

use super::{
    position_of, ranker_of, unrank_main, unrank_with_ranker, ChildRanker, Class, PairParts, Parts, MAIN,
};
use crate::position::Position;

/// Unranks entries in increasing order, each with the ranker of its children, as
/// [`unrank_with_ranker`] does, but from the entry before where it can: from one entry of the
/// main block to the next, the hand split grows by one (the board stays), or the last cube's
/// digit does (its owner or face changes; the other cubes and the Kings stay). That is seven
/// entries in eight with four cubes on the board, and more with fewer; any other step, and the
/// first, unranks the entry whole.
#[derive(Default)]
pub(crate) struct Cursor {
    last: Option<Last>,
}

/// The entry a cursor unranked last, and what the next one is put together from.
struct Last {
    index: u64,
    pos: Position,
    parts: &'static PairParts,
    class: &'static Class,
    split: u8,
    /// The last cube's row (times 8) and digit, as [`PairParts::cubes`] reads them (byte 0 of
    /// `at`, see [`unrank_main`]).
    at0: u8,
    /// The parts of the Kings and of every cube but the last.
    rest: Parts,
    /// What every cube but the last adds to the children's ranker's keys.
    rest_keys: [u64; 2],
}

impl Cursor {
    /// The position of `index` and the ranker of its children ([`unrank_with_ranker`]).
    #[inline]
    pub(crate) fn unrank_with_ranker(&mut self, index: u64) -> Option<(Position, Option<ChildRanker>)> {
        if let Some(last) = self.last.as_mut().filter(|last| index == last.index + 1 && index < MAIN) {
            let keys = if last.split + 1 < last.class.splits {
                last.split += 1;
                last.rest_keys
            } else if last.class.digit_bits >= 3 && last.at0 & 7 != 7 {
                // The last cube's next owner and face, the first hand split.
                last.split = 0;
                last.at0 += 1;
                last.rest_keys
            } else {
                return self.whole(index);
            };
            let cube = usize::from(last.at0 & 127);
            let all = last.rest | last.parts.cubes[cube];
            let pos =
                position_of(all, last.class.hands[usize::from(last.split)], last.pos.king_squares_raw());
            let keys = [0, 1].map(|m| keys[m] + last.parts.child_keys[cube][m]);
            let ranker = ranker_of(index, &pos, last.parts, keys);
            if nana_engine::cross_check::on() {
                let whole = unrank_with_ranker(index).expect("in range");
                assert_eq!(pos, whole.0, "entry {index} unranked from the one before");
            }
            last.index = index;
            last.pos = pos;
            return Some((pos, Some(ranker)));
        }
        self.whole(index)
    }

    /// Unranks `index` whole, and keeps what the next entry is put together from.
    fn whole(&mut self, index: u64) -> Option<(Position, Option<ChildRanker>)> {
        if index >= MAIN {
            self.last = None;
            return unrank_with_ranker(index);
        }
        let u = unrank_main(index);
        let cube = |i: usize| (u.at >> (8 * i)) as usize & 127;
        let rest = u.parts.kings | u.parts.cubes[cube(1)] | u.parts.cubes[cube(2)] | u.parts.cubes[cube(3)];
        let key = |i: usize| u.parts.child_keys[cube(i)];
        let rest_keys = [0, 1].map(|m| key(1)[m] + key(2)[m] + key(3)[m]);
        let keys = [0, 1].map(|m| rest_keys[m] + key(0)[m]);
        let ranker = ranker_of(index, &u.pos, u.parts, keys);
        self.last = Some(Last {
            index,
            pos: u.pos,
            parts: u.parts,
            class: u.class,
            split: u.split,
            at0: u.at as u8,
            rest,
            rest_keys,
        });
        Some((u.pos, Some(ranker)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{CUBE_CONFIGS, SIZE};

    /// The cursor gives what [`unrank_with_ranker`] gives, entry by entry: over a whole King
    /// pair (every class, pattern and split, and its last entry into the next pair), the
    /// opening entries, and after a jump.
    #[test]
    fn the_cursor_unranks_as_the_index_does() {
        let mut cursor = Cursor::default();
        let ranges = [0..CUBE_CONFIGS + 10, 5 * CUBE_CONFIGS - 3..5 * CUBE_CONFIGS + 4000, MAIN - 5..SIZE];
        for index in ranges.into_iter().flatten() {
            let (pos, ranker) = cursor.unrank_with_ranker(index).expect("in range");
            let (whole, whole_ranker) = unrank_with_ranker(index).expect("in range");
            assert_eq!(pos, whole, "entry {index}");
            let key = |r: Option<ChildRanker>| r.map(|r| (r.kp, r.mirrored, r.keys, r.board, r.hand));
            assert_eq!(key(ranker), key(whole_ranker), "the ranker of entry {index}");
        }
        assert!(cursor.unrank_with_ranker(SIZE).is_none());
    }
}
