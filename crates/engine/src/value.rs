//! Values, distances to mate and their one-byte encoding.

use std::fmt;

/// Distance to mate in plies, counted from the position it belongs to: a position whose side to
/// move has no legal move is a loss with `Dtm(0)`; a move into it is a win with `Dtm(1)`.
///
/// | value | DTM |
/// |---|---|
/// | loss | even: 0, 2, 4, … (the loser delays mate as long as it can) |
/// | win  | odd: 1, 3, 5, … (the winner mates as fast as it can) |
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

    /// `"win"`, `"loss"` or `"draw"`.
    pub fn category(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    pub fn dtm(self) -> Option<Dtm> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
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

/// One byte of the solution.
///
/// | byte | meaning |
/// |---|---|
/// | 0 | draw (no side can force mate) |
/// | 1 ..= 254 | decided, DTM = byte − 1 plies: even = loss, odd = win for the side to move |
/// | 255 | not a legal position (unused index entry) |
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry(pub u8);

impl Entry {
    pub const DRAW: Entry = Entry(0);
    pub const ILLEGAL: Entry = Entry(255);
    /// The largest DTM one byte can hold.
    pub const MAX_DTM: u16 = 253;

    #[inline]
    pub const fn decided(dtm: u16) -> Entry {
        debug_assert!(dtm <= Self::MAX_DTM);
        Entry(dtm as u8 + 1)
    }

    /// The value, or `None` for an unused entry.
    #[inline]
    pub const fn value(self) -> Option<Value> {
        match self.0 {
            0 => Some(Value::Draw),
            255 => None,
            b => {
                let d = (b - 1) as u16;
                if d % 2 == 0 {
                    Some(Value::Loss(Dtm(d)))
                } else {
                    Some(Value::Win(Dtm(d)))
                }
            }
        }
    }

    pub fn from_value(v: Value) -> Entry {
        match v {
            Value::Draw => Entry::DRAW,
            Value::Win(d) | Value::Loss(d) => Entry::decided(d.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        assert_eq!(Entry(0).value(), Some(Value::Draw));
        assert_eq!(Entry(1).value(), Some(Value::Loss(Dtm(0))));
        assert_eq!(Entry(2).value(), Some(Value::Win(Dtm(1))));
        assert_eq!(Entry(254).value(), Some(Value::Win(Dtm(253))));
        assert_eq!(Entry(255).value(), None);
        for b in 0..255u8 {
            assert_eq!(Entry::from_value(Entry(b).value().unwrap()), Entry(b));
        }
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
