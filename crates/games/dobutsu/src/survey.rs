//! The positions Dobutsu's tables value, and what the solver's forward pass needs of each, in
//! one sweep over the index.
//!
//! A table values **every legal position where the side to move cannot capture the lion** (the
//! solved set): reachable from the start or not, so a position that arises after a player
//! declines to take the lion has a value too. A position where the side to move can take the
//! lion is a win in 1 that the probe decides from the rules
//! ([`ProbeRules::value_by_rules`](nana_probe::ProbeRules::value_by_rules)); the solver never
//! needs its value either, since a move into one (a move that *loses at once*) gives the mover
//! a loss in 2, the quickest loss there is, which decides a position only where every move
//! loses at once.
//!
//! The sweep builds the position of every used entry of the index ([`index::for_each_position`]:
//! the index holds the solved set and nothing else, but for unused mirror images) and records a
//! byte for each entry of the index: unused, how the game is over there, or the number of
//! distinct entries reached by its moves that do not lose at once. The bytes are the solver's
//! forward pass ([`nana_engine::solve_census`]), in place.
//!
//! Half the index lies in pages (of [`PAGE`] entries) of one byte that no solve writes: unused
//! entries, or games over with no move into them (most of them lion pairs where the game is
//! over whatever else stands where). The sweep gives such a page's byte once ([`Survey::pages`])
//! and never writes its bytes, which the solve leaves alone too: memory allocated zeroed takes
//! none until it is written, so the solve holds about half the index (123 of 247 MiB).

use std::ops::Range;

use nana_engine::par::prelude::*;
use nana_engine::{Census, Counted, Dtm, Node, Value, PAGE};

use crate::index::{self, SIZE};
use crate::position::{Exposure, Move, Position, Squares, FAR_RANK};
use crate::types::{Rules, Side};

/// The entries of one run of the sweep.
pub const RUN: u64 = 64 * 1024;

/// What the sweep learnt of every entry of the index, one byte each.
#[derive(Debug)]
pub struct Survey {
    /// The byte of each entry ([`byte`]), in index order; 0 in the pages of `pages`.
    pub bytes: Vec<u8>,
    /// For each page of [`PAGE`] entries, the byte of all its entries where they have one
    /// that the solve never writes ([`settles`]), else 0: the census's pages
    /// ([`Census::pages`]).
    pub pages: Vec<u8>,
}

impl Survey {
    /// The byte of `entry`.
    pub fn byte(&self, entry: u64) -> u8 {
        match self.pages[(entry / PAGE as u64) as usize] {
            0 => self.bytes[entry as usize],
            b => b,
        }
    }

    /// The solver's forward pass.
    pub fn into_census(self) -> Census {
        Census { bytes: self.bytes, read: counted, pages: self.pages }
    }
}

/// Whether a page whose entries all have byte `b` is given once: where the solve never writes
/// such an entry (unused, or a game over with no move into it).
pub fn settles(b: u8) -> bool {
    counted(b).settles()
}

/// The bytes of [`Survey`]: a count of distinct successors, or how the game is over.
pub mod byte {
    /// The most distinct successors a surveyed inner entry records (far above Dobutsu's 38).
    pub const MAX_COUNT: u8 = 249;
    /// An unused entry: a mirror image's.
    pub const UNUSED: u8 = 250;
    /// An entry where the game goes on and a move wins at once, completing a try or leaving
    /// the opponent no move (the opponent has lost after it): a win in 1, decided here, so
    /// that nothing walks back from the lost ones.
    pub const TRY_WINS: u8 = 251;
    /// An entry where the game goes on but every move loses at once: a loss in 2.
    pub const ALL_MOVES_LOSE: u8 = 252;
    /// An entry where the game is over: a draw.
    pub const TERMINAL_DRAW: u8 = 253;
    /// An entry where the side to move has lost: the opponent's try, or no move.
    pub const TERMINAL_LOSS: u8 = 254;
    /// An entry where the side to move wins with the next ply (a try at its own turn); only
    /// moves that lose at once lead into one.
    pub const TERMINAL_WIN: u8 = 255;
}

/// What a byte of the survey says, as the solver's forward pass wants it
/// ([`nana_engine::Census`]): the node (an unused entry is illegal); for an inner one, its number of distinct successors;
/// for a terminal one, whether a move of the solved game leads into it (not into a win in 1 by
/// a try, [`byte::TERMINAL_WIN`], nor into a try completed, [`byte::TERMINAL_LOSS`]).
pub fn counted(b: u8) -> Counted {
    let terminal =
        |value, has_predecessors| Counted { node: Node::Terminal(value), successors: 0, has_predecessors };
    match b {
        byte::UNUSED => Counted { node: Node::Illegal, successors: 0, has_predecessors: false },
        byte::TERMINAL_WIN => terminal(Value::Win(Dtm(1)), false),
        byte::TRY_WINS => terminal(Value::Win(Dtm(1)), true),
        byte::TERMINAL_LOSS => terminal(Value::Loss(Dtm(0)), false),
        byte::TERMINAL_DRAW => terminal(Value::Draw, true),
        byte::ALL_MOVES_LOSE => terminal(Value::Loss(Dtm(2)), true),
        count => Counted { node: Node::Inner, successors: count, has_predecessors: true },
    }
}

/// More than the moves of any position: at most 56 steps (the lion and six more pieces, each
/// with at most 8 targets) and 30 drops (three kinds on at most 10 empty squares).
const MOVES_BOUND: usize = 96;

/// Whether an entry is in the solved set: a legal position where the side to move cannot take
/// the lion. Said plainly, for the checks; the sweep tells it from what it computes anyway.
pub fn in_set(entry: u64) -> bool {
    index::unrank(entry).is_some_and(|pos| !pos.can_capture_lion())
}

/// Calls `f` with every entry of the solved set in `range` and its position, in index order:
/// the entries where [`in_set`] holds, every used entry of the index
/// ([`index::for_each_position`]).
pub fn for_each_in_set(range: Range<u64>, f: impl FnMut(u64, &Position)) {
    index::for_each_position(range, f)
}

/// What tells, a move at a time, whether a move of the side to move may end the game at once
/// with its win: complete a try, or leave the opponent without a move. Moves it rules out
/// cannot (checked after every move by the self-check); the others are played and looked at.
struct Enders {
    us: usize,
    /// The mover's lion stands on its far rank already, attacked (the safe-try reading): any
    /// move may make it safe.
    lion_home: bool,
    /// The opponent holds nothing in hand and every square next to its lion holds one of its
    /// pieces.
    boxed_in: bool,
    /// The opponent, holding nothing, has no move before the move.
    frozen: bool,
}

impl Enders {
    fn new(pos: &Position, them: Side, their_lion: Option<u8>) -> Enders {
        let us = pos.turn.index();
        // A move completes a try only by bringing the lion onto its far rank, or, where it
        // stands there already but attacked (the safe-try reading), by making it safe.
        let lion_home = pos.lion(pos.turn).is_some_and(|l| FAR_RANK[us] & 1 << l.0 != 0);
        // A move leaves the opponent without a move only where it holds nothing in hand, and
        // only by taking one of its pieces, unless it has no move already: a move that takes
        // nothing changes neither its pieces nor the squares they may go to (a square of ours
        // is one). A capture only frees squares for it (the one taken, now ours, and the one
        // our piece left), so it can leave the opponent without a move only where every square
        // next to its lion holds one of its pieces already: rare, and read once for all moves.
        let boxed_in =
            pos.hands[them.index()] == [0; 3] && their_lion.is_some_and(|l| pos.lion_boxed_in(them, l));
        let frozen = boxed_in && !pos.could_move(them);
        Enders { us, lion_home, boxed_in, frozen }
    }

    /// Whether `mv` may end the game at once.
    fn may_end(&self, pos: &Position, mv: Move) -> bool {
        self.lion_home
            || self.frozen
            || matches!(mv, Move::Step { to, .. }
                if FAR_RANK[self.us] & 1 << to.0 != 0 || self.boxed_in && pos.board[to.index()] != 0)
    }
}

/// Checks, when the self-check's switch is on ([`nana_engine::cross_check`]), what `byte_of`
/// reads off a move of `pos` without playing it against the position after it: where the game is not over before the move, a win at once after it
/// can only be the lion's capture (`loses`); and a move [`Enders`] rules out does not end the
/// game with the mover's win. The move is played once for both.
fn check_move(pos: &Position, rules: &Rules, mv: Move, loses: bool, enders: &Enders) {
    let end = pos.play_unchecked(mv).solver_end(rules);
    assert_eq!(loses, matches!(end, Some((Value::Win(_), _))), "{mv} loses at once");
    assert!(
        loses || enders.may_end(pos, mv) || !matches!(end, Some((Value::Loss(_), _))),
        "{mv} ends the game"
    );
}

/// The number of distinct entries among `children`, sorted in place.
fn distinct(children: &mut [u64]) -> usize {
    children.sort_unstable();
    children.len() - children.windows(2).filter(|w| w[0] == w[1]).count()
}

/// The squares on which a board and its mirror image differ.
fn unlike_mirror(pos: &Position) -> Squares {
    (0..12).filter(|&sq| pos.board[sq] != pos.board[index::mirror_square(sq)]).fold(0, |u, sq| u | 1 << sq)
}

/// The squares a move changes.
fn changes(mv: Move) -> Squares {
    match mv {
        Move::Step { from, to, .. } => 1 << from.0 | 1 << to.0,
        Move::Drop { to, .. } => 1 << to.0,
    }
}

/// The byte of a position of the solved set (not one where the side to move can take the lion).
fn byte_of(pos: &Position, rules: &Rules) -> u8 {
    if let Some((value, _)) = pos.solver_end(rules) {
        return match value {
            Value::Win(_) => byte::TERMINAL_WIN,
            Value::Loss(_) => byte::TERMINAL_LOSS,
            Value::Draw => byte::TERMINAL_DRAW,
        };
    }
    // The moves that do not lose at once, and the entries they reach. Two moves reach one entry
    // only if their children are mirror images of each other (two moves never make the same
    // position), which needs the opponent's lion, where neither move moves it, on file b, which
    // the mirror keeps. It needs more: where the children of moves changing the squares `s1`
    // and `s2` are mirror images, the board and its mirror image differ on squares of `s1` and
    // of the mirror image of `s2` alone, so on at most two squares off either move's. Only the
    // children of the moves that leave at most two such squares are ranked to tell the distinct
    // ones; every other move reaches an entry of its own.
    let exposure = pos.exposure();
    let them = pos.turn.other();
    let their_lion = pos.lion(them).map(|l| l.0);
    // The squares where the board and its mirror image differ, if a child may be ranked.
    let unlike =
        their_lion.filter(|l| l % 3 == 1).map(|_| unlike_mirror(pos)).filter(|u| u.count_ones() <= 4);
    let enders = Enders::new(pos, them, their_lion);
    // Most positions need no move played: no child to rank, and only a step of the lion onto
    // its far rank may end the game (the other moves [`Enders`] may not rule out onto the far
    // rank are steps of other pieces, which neither complete a try nor, the opponent not
    // boxed in, leave it without a move). Their moves are counted from the squares.
    if unlike.is_none() && !enders.lion_home && !enders.boxed_in {
        let mut try_wins = false;
        let safe =
            pos.safe_moves(&exposure, |mv| try_wins |= side_to_move_lost(&pos.play_unchecked(mv), rules));
        if let Some(n) = safe {
            let b = if try_wins { byte::TRY_WINS } else { count_byte(n as usize) };
            if nana_engine::cross_check::on() {
                assert_eq!(b, byte_by_moves(pos, rules, &exposure, &enders, None), "{pos:?}");
            }
            return b;
        }
    }
    byte_by_moves(pos, rules, &exposure, &enders, unlike)
}

/// The byte of a position of the solved set where the game is not over, from its moves one
/// at a time: each played where it may end the game, or where its child is ranked to tell
/// the distinct entries (`unlike`: the squares where the board and its mirror image differ).
fn byte_by_moves(
    pos: &Position,
    rules: &Rules,
    exposure: &Exposure,
    enders: &Enders,
    unlike: Option<Squares>,
) -> u8 {
    let mut children = [0u64; MOVES_BOUND];
    let (mut n, mut ranked) = (0, 0);
    let mut try_wins = false;
    pos.for_each_move(|mv| {
        let loses = exposure.loses_at_once(mv);
        if nana_engine::cross_check::on() {
            check_move(pos, rules, mv, loses, enders);
        }
        if loses || try_wins {
            return;
        }
        let may_end = enders.may_end(pos, mv);
        let rank_child = unlike.is_some_and(|u| (u & !changes(mv)).count_ones() <= 2);
        if may_end || rank_child {
            let after = pos.play_unchecked(mv);
            if may_end && side_to_move_lost(&after, rules) {
                try_wins = true;
                return;
            }
            if rank_child {
                children[ranked] = index::rank(&after);
                ranked += 1;
            }
        }
        n += 1;
    });
    if try_wins {
        return byte::TRY_WINS;
    }
    count_byte(n - ranked + distinct(&mut children[..ranked]))
}

/// Whether the game is over at `pos` with a loss for its side to move: what a move into it
/// does is win at once.
fn side_to_move_lost(pos: &Position, rules: &Rules) -> bool {
    matches!(pos.solver_end(rules), Some((Value::Loss(_), _)))
}

/// The byte of a position where the game goes on and its moves that do not lose at once reach
/// `distinct` entries.
fn count_byte(distinct: usize) -> u8 {
    match u8::try_from(distinct) {
        Ok(0) => byte::ALL_MOVES_LOSE,
        Ok(count) if count <= byte::MAX_COUNT => count,
        _ => unreachable!("fewer moves than MOVES_BOUND"),
    }
}

/// Sweeps the index under `rules`; `progress` is called with the entries of each run done.
/// The bytes are allocated zeroed, and a page of one byte that [`settles`] is never written.
pub fn survey(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Survey {
    let mut bytes = vec![0u8; SIZE as usize];
    let mut pages = vec![0u8; (SIZE as usize).div_ceil(PAGE)];
    let runs = bytes.par_chunks_mut(RUN as usize).zip(pages.par_chunks_mut(RUN as usize / PAGE));
    runs.enumerate().for_each_init(
        || vec![0u8; RUN as usize],
        |swept, (r, (run, run_pages))| {
            let first = r as u64 * RUN;
            let swept = &mut swept[..run.len()];
            swept.fill(byte::UNUSED);
            for_each_in_set(first..first + run.len() as u64, |entry, pos| {
                swept[(entry - first) as usize] = byte_of(pos, rules);
            });
            for ((out, page), settled) in run.chunks_mut(PAGE).zip(swept.chunks(PAGE)).zip(run_pages) {
                match page[0] {
                    b if settles(b) && page.iter().all(|&e| e == b) => *settled = b,
                    _ => out.copy_from_slice(page),
                }
            }
            progress(run.len() as u64);
        },
    );
    Survey { bytes, pages }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte of a position of the solved set, plainly: every move played and its child
    /// ranked whole, the distinct entries counted; and whether two moves reach one entry.
    fn plain_byte(pos: &Position, rules: &Rules) -> (u8, bool) {
        if let Some((value, _)) = pos.solver_end(rules) {
            let b = match value {
                Value::Win(_) => byte::TERMINAL_WIN,
                Value::Loss(_) => byte::TERMINAL_LOSS,
                Value::Draw => byte::TERMINAL_DRAW,
            };
            return (b, false);
        }
        let mut children = Vec::new();
        let mut try_wins = false;
        pos.for_each_move(|mv| {
            let after = pos.play_unchecked(mv);
            match after.solver_end(rules) {
                Some((Value::Win(_), _)) => {}
                Some((Value::Loss(_), _)) => try_wins = true,
                _ => children.push(index::rank(&after)),
            }
        });
        children.sort_unstable();
        let moves = children.len();
        children.dedup();
        let b = match children.len() {
            _ if try_wins => byte::TRY_WINS,
            0 => byte::ALL_MOVES_LOSE,
            n => n as u8,
        };
        (b, !try_wins && children.len() < moves)
    }

    /// The pages given once are those of unused entries and of games over that no move of the
    /// solved game leads into: the bytes that read as entries no solve writes.
    #[test]
    fn pages_settle_for_unused_entries_and_games_over_without_a_move_into_them() {
        let settling: Vec<u8> = (0..=u8::MAX).filter(|&b| settles(b)).collect();
        assert_eq!(settling, [byte::UNUSED, byte::TERMINAL_LOSS, byte::TERMINAL_WIN]);
    }

    /// The positions of the index whose side to move has no move, as the census of every entry
    /// finds them (`cargo run --release -p dobutsu-shogi --example legal_census`).
    const NO_MOVE: [&str; 2] = ["GE1/LGE/CCl/3[-] w 0 1", "GEl/LGE/CC1/3[-] w 0 1"];

    /// A position whose side to move has no move is a terminal loss, and nothing of the set
    /// walks back from it: every position a move leads from into it is a finished game (the
    /// second player's lion came from its far rank, or cannot have moved), so no value but its own depends on it.
    #[test]
    fn no_move_is_a_terminal_loss_with_no_predecessor_in_the_set() {
        for rules in [Rules::from_name("tanaka").unwrap(), Rules::from_name("safe-try").unwrap()] {
            for fen in NO_MOVE {
                let pos = crate::fen::parse_position(fen).unwrap();
                assert_eq!(pos.solver_end(&rules), Some((Value::Loss(Dtm(0)), crate::End::NoMove)), "{fen}");
                assert_eq!(byte_of(&pos, &rules), byte::TERMINAL_LOSS, "{fen}");
                crate::game::for_each_unmove(&pos, |prev, _, _| {
                    assert!(prev.solver_end(&rules).is_some(), "{prev} leads to {fen}");
                });
            }
        }
    }

    /// The survey's byte of every entry of the set in runs spread over the index, under both
    /// readings of the try, is the plain one; some of them have two moves that reach one entry.
    #[test]
    fn bytes_are_those_of_every_move_ranked() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let (mut checked, mut twice) = (0, 0);
        for rules in [Rules::from_name("tanaka").unwrap(), Rules::from_name("safe-try").unwrap()] {
            for _ in 0..400 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let start = state % SIZE;
                for_each_in_set(start..start + 5000, |_, pos| {
                    let (b, one_entry_twice) = plain_byte(pos, &rules);
                    assert_eq!(byte_of(pos, &rules), b, "{pos:?}");
                    twice += usize::from(one_entry_twice);
                    checked += 1;
                });
            }
        }
        assert!(checked > 200_000, "{checked} entries");
        assert!(twice > 20, "{twice} entries where two moves reach one entry");
    }
}
