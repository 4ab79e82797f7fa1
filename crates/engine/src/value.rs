//! Values, distances to mate and their encodings in one or two bytes.

use std::fmt;

use crate::cell::Cell;

/// A value without its distance, for the side to move: what the API's `category` says, written
/// `win`, `loss` or `draw` ([`Category::as_str`], `Display`, and serde's form with the feature
/// `serde`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Category {
    Win,
    Loss,
    Draw,
}

impl Category {
    /// `"win"`, `"loss"` or `"draw"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::Loss => "loss",
            Category::Draw => "draw",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Distance to mate in plies, counted from the position it belongs to: a position whose side to
/// move has no legal move is a loss with `Dtm(0)`; a move into it is a win with `Dtm(1)`.
///
/// | value | DTM |
/// |---|---|
/// | loss | even: 0, 2, 4, … (the loser delays mate as long as it can) |
/// | win  | odd: 1, 3, 5, … (the winner mates as fast as it can) |
///
/// The parity is part of the encodings ([`ByteCode`], [`WideCode`]): a decided entry stores only
/// the distance, and the distance says who wins. A game's terminal values must follow it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dtm(pub u16);

/// The game-theoretic value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(Dtm),
    Loss(Dtm),
    Draw,
}

impl Value {
    /// The value seen from the other side (of the position a move leads to, say).
    pub fn negate(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            Value::Draw => Value::Draw,
        }
    }

    /// A total order, best first for the side to move: fastest win, draws, slowest loss.
    pub fn rank_key(self) -> (u8, i32) {
        match self {
            Value::Win(d) => (0, d.0 as i32),
            Value::Draw => (1, 0),
            Value::Loss(d) => (2, -(d.0 as i32)),
        }
    }

    /// Won, lost or drawn, without the distance.
    pub fn category(self) -> Category {
        match self {
            Value::Win(_) => Category::Win,
            Value::Loss(_) => Category::Loss,
            Value::Draw => Category::Draw,
        }
    }

    pub fn dtm(self) -> Option<Dtm> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// Whether the distance has the parity of the outcome: a loss at an even distance, a win at
    /// an odd one (see [`Dtm`]). Only such values can be stored.
    pub fn has_valid_parity(self) -> bool {
        match self {
            Value::Win(d) => d.0 % 2 == 1,
            Value::Loss(d) => d.0 % 2 == 0,
            Value::Draw => true,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {}", d.0),
            Value::Loss(d) => write!(f, "loss in {}", d.0),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// One entry of a solution in one byte ([`EntryWidth::One`]): the payload of today's tablebase
/// files, pinned byte for byte by the golden tests.
///
/// | byte | meaning |
/// |---|---|
/// | 0 | draw (no side can force mate) |
/// | 1 ..= 254 | decided, DTM = byte − 1 plies: even = loss, odd = win for the side to move |
/// | 255 | not a legal position (unused index entry) |
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ByteCode(pub u8);

impl ByteCode {
    pub const DRAW: ByteCode = ByteCode(0);
    pub const ILLEGAL: ByteCode = ByteCode(255);
    /// The largest DTM one byte can hold.
    pub const MAX_DTM: u16 = 253;

    #[inline]
    pub const fn decided(dtm: u16) -> ByteCode {
        assert!(dtm <= Self::MAX_DTM, "a distance over what the entry holds");
        ByteCode(dtm as u8 + 1)
    }

    /// The value, or `None` for an unused entry.
    #[inline]
    pub const fn value(self) -> Option<Value> {
        match self.0 {
            0 => Some(Value::Draw),
            255 => None,
            b => {
                let d = (b - 1) as u16;
                if d.is_multiple_of(2) {
                    Some(Value::Loss(Dtm(d)))
                } else {
                    Some(Value::Win(Dtm(d)))
                }
            }
        }
    }

    pub fn from_value(v: Value) -> ByteCode {
        match v {
            Value::Draw => ByteCode::DRAW,
            Value::Win(d) | Value::Loss(d) => ByteCode::decided(d.0),
        }
    }
}

/// One entry of a solution in two bytes ([`EntryWidth::Two`]), stored little-endian: the
/// one-byte table with the illegal mark moved to the top, for games whose distances to mate
/// exceed 253 plies.
///
/// | value (`u16`) | meaning |
/// |---|---|
/// | 0 | draw (no side can force mate) |
/// | 1 ..= 65534 | decided, DTM = value − 1 plies: even = loss, odd = win for the side to move |
/// | 65535 | not a legal position (unused index entry) |
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WideCode(pub u16);

impl WideCode {
    pub const DRAW: WideCode = WideCode(0);
    pub const ILLEGAL: WideCode = WideCode(u16::MAX);
    /// The largest DTM two bytes can hold.
    pub const MAX_DTM: u16 = u16::MAX - 2;

    #[inline]
    pub const fn decided(dtm: u16) -> WideCode {
        assert!(dtm <= Self::MAX_DTM, "a distance over what the entry holds");
        WideCode(dtm + 1)
    }

    /// The value, or `None` for an unused entry.
    #[inline]
    pub const fn value(self) -> Option<Value> {
        match self.0 {
            0 => Some(Value::Draw),
            u16::MAX => None,
            v => {
                let d = v - 1;
                if d % 2 == 0 {
                    Some(Value::Loss(Dtm(d)))
                } else {
                    Some(Value::Win(Dtm(d)))
                }
            }
        }
    }

    pub fn from_value(v: Value) -> WideCode {
        match v {
            Value::Draw => WideCode::DRAW,
            Value::Win(d) | Value::Loss(d) => WideCode::decided(d.0),
        }
    }
}

/// How many bytes one entry of a solution takes, and so which encoding it uses: [`ByteCode`] or
/// [`WideCode`]. A parameter of [`crate::solve_with`]; a file records it so that a reader
/// needs nothing else to read the entries.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EntryWidth {
    /// [`ByteCode`]: DTM up to 253 plies.
    #[default]
    One,
    /// [`WideCode`], little-endian: DTM up to 65533 plies.
    Two,
}

impl EntryWidth {
    /// Bytes per entry.
    pub const fn bytes(self) -> usize {
        match self {
            EntryWidth::One => 1,
            EntryWidth::Two => 2,
        }
    }

    /// The width of `bytes` bytes per entry, if there is such an encoding.
    pub const fn from_bytes(bytes: u64) -> Option<EntryWidth> {
        match bytes {
            1 => Some(EntryWidth::One),
            2 => Some(EntryWidth::Two),
            _ => None,
        }
    }

    /// The largest distance to mate an entry of this width holds.
    pub const fn max_dtm(self) -> u16 {
        match self {
            EntryWidth::One => ByteCode::MAX_DTM,
            EntryWidth::Two => WideCode::MAX_DTM,
        }
    }

    /// The value of entry `index` of a solution's bytes, or `None` for an unused entry.
    /// Panics if `index` is out of range.
    #[inline]
    pub fn value(self, entries: &[u8], index: u64) -> Option<Value> {
        match self {
            EntryWidth::One => ByteCode::read(entries, index as usize).value(),
            EntryWidth::Two => WideCode::read(entries, index as usize).value(),
        }
    }

    /// The entries among the first `count` of a solution's bytes that are wins in `at_least`
    /// plies or more, as (distance, index), in index order: a whole table's longest wins.
    pub fn wins_of_at_least(self, entries: &[u8], count: u64, at_least: u16) -> Vec<(u16, u64)> {
        (0..count)
            .filter_map(|i| match self.value(entries, i) {
                Some(Value::Win(d)) if d.0 >= at_least => Some((d.0, i)),
                _ => None,
            })
            .collect()
    }
}

impl fmt::Display for EntryWidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryWidth::One => f.write_str("one byte"),
            EntryWidth::Two => f.write_str("two bytes"),
        }
    }
}

/// An encoding as the solver, the checker and [`crate::Stats`] use it, generic at compile
/// time so that each width gets its own loops.
pub(crate) trait Code: Copy + Send + Sync {
    /// The atomic cell the solver keeps an entry in while it works.
    type Cell: Cell<Raw = Self::Raw>;
    type Raw: Copy + Eq + Send + Sync + Into<usize>;
    const WIDTH: EntryWidth;
    const DRAW: Self::Raw;
    const ILLEGAL: Self::Raw;
    const MAX_DTM: u16;
    fn decided(dtm: u16) -> Self::Raw;
    fn decode(raw: Self::Raw) -> Option<Value>;
    /// Entry `i` of a solution's bytes.
    fn read_raw(entries: &[u8], i: usize) -> Self::Raw;
    /// Writes one entry into its bytes.
    fn write_raw(raw: Self::Raw, out: &mut [u8]);
}

impl ByteCode {
    #[inline]
    fn read(entries: &[u8], i: usize) -> ByteCode {
        ByteCode(entries[i])
    }
}

impl WideCode {
    #[inline]
    fn read(entries: &[u8], i: usize) -> WideCode {
        WideCode(u16::from_le_bytes([entries[2 * i], entries[2 * i + 1]]))
    }
}

impl Code for ByteCode {
    type Cell = std::sync::atomic::AtomicU8;
    type Raw = u8;
    const WIDTH: EntryWidth = EntryWidth::One;
    const DRAW: u8 = ByteCode::DRAW.0;
    const ILLEGAL: u8 = ByteCode::ILLEGAL.0;
    const MAX_DTM: u16 = ByteCode::MAX_DTM;
    #[inline]
    fn decided(dtm: u16) -> u8 {
        ByteCode::decided(dtm).0
    }
    #[inline]
    fn decode(raw: u8) -> Option<Value> {
        ByteCode(raw).value()
    }
    #[inline]
    fn read_raw(entries: &[u8], i: usize) -> u8 {
        entries[i]
    }
    #[inline]
    fn write_raw(raw: u8, out: &mut [u8]) {
        out[0] = raw;
    }
}

impl Code for WideCode {
    type Cell = std::sync::atomic::AtomicU16;
    type Raw = u16;
    const WIDTH: EntryWidth = EntryWidth::Two;
    const DRAW: u16 = WideCode::DRAW.0;
    const ILLEGAL: u16 = WideCode::ILLEGAL.0;
    const MAX_DTM: u16 = WideCode::MAX_DTM;
    #[inline]
    fn decided(dtm: u16) -> u16 {
        WideCode::decided(dtm).0
    }
    #[inline]
    fn decode(raw: u16) -> Option<Value> {
        WideCode(raw).value()
    }
    #[inline]
    fn read_raw(entries: &[u8], i: usize) -> u16 {
        WideCode::read(entries, i).0
    }
    #[inline]
    fn write_raw(raw: u16, out: &mut [u8]) {
        out.copy_from_slice(&raw.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        assert_eq!(ByteCode(0).value(), Some(Value::Draw));
        assert_eq!(ByteCode(1).value(), Some(Value::Loss(Dtm(0))));
        assert_eq!(ByteCode(2).value(), Some(Value::Win(Dtm(1))));
        assert_eq!(ByteCode(254).value(), Some(Value::Win(Dtm(253))));
        assert_eq!(ByteCode(255).value(), None);
        for b in 0..255u8 {
            assert_eq!(ByteCode::from_value(ByteCode(b).value().unwrap()), ByteCode(b));
        }
    }

    #[test]
    fn wide_encoding_extends_the_narrow_one() {
        assert_eq!(WideCode(0).value(), Some(Value::Draw));
        assert_eq!(WideCode(1).value(), Some(Value::Loss(Dtm(0))));
        assert_eq!(WideCode(65534).value(), Some(Value::Win(Dtm(65533))));
        assert_eq!(WideCode(65535).value(), None);
        // Every one-byte value has the same number in two bytes; only the illegal mark moves.
        for b in 0..255u8 {
            assert_eq!(WideCode(u16::from(b)).value(), ByteCode(b).value());
        }
        for v in [0u16, 1, 2, 254, 255, 256, 1000, 65533, 65534] {
            assert_eq!(WideCode::from_value(WideCode(v).value().unwrap()), WideCode(v));
        }
        // Little-endian in the bytes.
        let bytes = [0x01, 0x00, 0xfe, 0xff, 0xff, 0xff];
        assert_eq!(EntryWidth::Two.value(&bytes, 0), Some(Value::Loss(Dtm(0))));
        assert_eq!(EntryWidth::Two.value(&bytes, 1), Some(Value::Win(Dtm(65533))));
        assert_eq!(EntryWidth::Two.value(&bytes, 2), None);
        assert_eq!(EntryWidth::One.value(&bytes, 2), Some(Value::Win(Dtm(253))));
        assert_eq!(EntryWidth::from_bytes(2), Some(EntryWidth::Two));
        assert_eq!(EntryWidth::from_bytes(3), None);
    }

    #[test]
    fn parity_says_who_wins() {
        assert!(Value::Loss(Dtm(0)).has_valid_parity());
        assert!(Value::Win(Dtm(1)).has_valid_parity());
        assert!(!Value::Win(Dtm(2)).has_valid_parity());
        assert!(!Value::Loss(Dtm(3)).has_valid_parity());
        assert!(Value::Draw.has_valid_parity());
    }

    #[test]
    fn ordering_prefers_fast_wins_and_slow_losses() {
        let mut v = vec![
            Value::Loss(Dtm(2)),
            Value::Draw,
            Value::Win(Dtm(5)),
            Value::Loss(Dtm(8)),
            Value::Win(Dtm(1)),
        ];
        v.sort_by_key(|v| v.rank_key());
        assert_eq!(
            v,
            vec![
                Value::Win(Dtm(1)),
                Value::Win(Dtm(5)),
                Value::Draw,
                Value::Loss(Dtm(8)),
                Value::Loss(Dtm(2))
            ]
        );
        assert_eq!(Value::Win(Dtm(3)).negate(), Value::Loss(Dtm(3)));
    }
}
