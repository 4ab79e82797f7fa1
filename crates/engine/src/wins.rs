//! Wins' distances restored: a solution whose won entries hold no distance (a table that stores
//! every win as one value and leaves its distance to a search of its moves) made whole again.
//!
//! A won inner entry's distance is one more than the least distance of a lost entry among its
//! successors; a won terminal entry's is the game's. Losses and draws hold their distances
//! already, so one pass over the won entries, reading nothing but losses, restores every one.

use crate::par::prelude::*;
use crate::value::{ByteCode, Code, EntryWidth, Value, WideCode};
use crate::{CheckError, Dtm, Graph, Node, Problem};

/// Entries one task restores in a row.
const CHUNK: usize = 1 << 12;

/// The entries of `stored` (`width` bytes each) with every win's distance restored from its
/// successors: each won entry (whatever distance it holds) takes the distance the game and the
/// losses among its successors call for; every other entry is copied as it is. `progress` is
/// called with the number of entries done since its last call.
///
/// # Errors
/// The first won entry (in no particular order) that the game calls illegal or terminal with
/// another value, or whose successors hold no loss, or whose distance the width cannot hold.
pub fn restore_wins<G: Graph>(
    game: &G,
    stored: &[u8],
    width: EntryWidth,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<u8>, CheckError> {
    assert_eq!(stored.len() as u64, game.size() * width.bytes() as u64, "solution and game differ in size");
    match width {
        EntryWidth::One => restore::<G, ByteCode>(game, stored, progress),
        EntryWidth::Two => restore::<G, WideCode>(game, stored, progress),
    }
}

fn restore<G: Graph, E: Code>(
    game: &G,
    stored: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<u8>, CheckError> {
    let bytes = E::WIDTH.bytes();
    let mut restored = stored.to_vec();
    restored.par_chunks_mut(CHUNK * bytes).enumerate().try_for_each_init(Vec::new, |succ, (c, chunk)| {
        for (j, out) in chunk.chunks_exact_mut(bytes).enumerate() {
            let i = c * CHUNK + j;
            let held = E::decode(E::read_raw(stored, i));
            if !matches!(held, Some(Value::Win(_))) {
                continue;
            }
            let win = win_distance::<G, E>(game, stored, i as u64, succ)?;
            E::write_raw(E::decided(win), out);
        }
        progress((chunk.len() / bytes) as u64);
        Ok(())
    })?;
    Ok(restored)
}

/// The distance of won entry `index` of `stored`: the game's where it is terminal, else one more
/// than the least loss among its successors (`succ` is the successors' buffer).
fn win_distance<G: Graph, E: Code>(
    game: &G,
    stored: &[u8],
    index: u64,
    succ: &mut Vec<u64>,
) -> Result<u16, CheckError> {
    let value = |i: u64| E::decode(E::read_raw(stored, i as usize));
    let fail = |problem| Err(CheckError { index, stored: value(index), problem });
    succ.clear();
    match game.successors(index, succ) {
        Node::Illegal => fail(Problem::Illegal),
        Node::Terminal(Value::Win(d)) => Ok(d.0),
        Node::Terminal(other) => fail(Problem::Terminal(other)),
        Node::Inner => {
            let losses = succ.iter().filter_map(|&s| match value(s) {
                Some(Value::Loss(d)) => Some(d.0),
                _ => None,
            });
            match losses.min() {
                Some(d) if d < E::MAX_DTM => Ok(d + 1),
                Some(d) => fail(Problem::Successors(Value::Win(Dtm(d + 1)))),
                None if succ.is_empty() => fail(Problem::NoSuccessors),
                None => fail(Problem::NoLoss),
            }
        }
    }
}

/// The won entries of `stored` (`width` bytes each, wins' distances as in [`restore_wins`]: any)
/// that win in at least `at_least` plies, each with its distance, in increasing order of entry,
/// found without restoring every win: a win in `d ≥ 2` has a successor lost in `d - 1`, so
/// the wins asked for are among the predecessors of the entries lost in `at_least - 1` plies or
/// more, and only those are valued from their successors. For `at_least` below 2 every win is
/// restored ([`restore_wins`]).
///
/// # Errors
/// [`restore_wins`]'s, for the won entries valued.
pub fn wins_of_at_least<G: Graph>(
    game: &G,
    stored: &[u8],
    width: EntryWidth,
    at_least: u16,
) -> Result<Vec<(u16, u64)>, CheckError> {
    assert_eq!(stored.len() as u64, game.size() * width.bytes() as u64, "solution and game differ in size");
    match width {
        EntryWidth::One => long_wins::<G, ByteCode>(game, stored, at_least),
        EntryWidth::Two => long_wins::<G, WideCode>(game, stored, at_least),
    }
}

fn long_wins<G: Graph, E: Code>(
    game: &G,
    stored: &[u8],
    at_least: u16,
) -> Result<Vec<(u16, u64)>, CheckError> {
    let value = |i: u64| E::decode(E::read_raw(stored, i as usize));
    if at_least < 2 {
        let restored = restore::<G, E>(game, stored, &|_| {})?;
        return Ok(E::WIDTH.wins_of_at_least(&restored, game.size(), at_least));
    }
    let far_losses: Vec<u64> = (0..game.size())
        .into_par_iter()
        .filter(|&i| matches!(value(i), Some(Value::Loss(d)) if d.0 + 1 >= at_least))
        .collect();
    let mut candidates: Vec<u64> = far_losses
        .par_iter()
        .map(|&i| {
            let mut out = Vec::new();
            game.predecessors(i, &mut out);
            out.retain(|&p| matches!(value(p), Some(Value::Win(_))));
            out
        })
        .collect::<Vec<_>>()
        .concat();
    candidates.sort_unstable();
    candidates.dedup();
    let mut wins = Vec::new();
    let mut succ = Vec::new();
    for i in candidates {
        let d = win_distance::<G, E>(game, stored, i, &mut succ)?;
        if d >= at_least {
            wins.push((d, i));
        }
    }
    Ok(wins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{Cycle, Leaves, TakeAway};
    use crate::{check, solve, NoProgress};

    /// Every win of `game`'s solution folded into one value (that of a win in 1), restored: the
    /// solve's entries again, which the check passes.
    fn restores<G: Graph>(game: &G) {
        let solution = solve(game, &NoProgress).unwrap();
        let exact = solution.as_whole().unwrap().to_vec();
        check(game, &exact, &|_| {}).unwrap();
        let folded: Vec<u8> = exact
            .iter()
            .map(|&v| match ByteCode(v).value() {
                Some(Value::Win(_)) => ByteCode::decided(1).0,
                _ => v,
            })
            .collect();
        assert_ne!(folded, exact, "the game has a win longer than 1");
        assert_eq!(restore_wins(game, &folded, EntryWidth::One, &|_| {}).unwrap(), exact);
        // The long wins, found through the predecessors of long losses: those of the exact
        // entries, for every bound.
        for at_least in 0..=5 {
            let want = EntryWidth::One.wins_of_at_least(&exact, game.size(), at_least);
            assert_eq!(
                wins_of_at_least(game, &folded, EntryWidth::One, at_least).unwrap(),
                want,
                "{at_least}"
            );
        }
    }

    #[test]
    fn folded_wins_are_restored_to_the_solves_distances() {
        restores(&TakeAway);
        restores(&Cycle);
        restores(&Leaves);
    }

    /// A won entry whose successors hold no loss is an error, never a distance.
    #[test]
    fn a_win_without_a_lost_successor_is_an_error() {
        let solution = solve(&TakeAway, &NoProgress).unwrap();
        let mut entries = solution.as_whole().unwrap().to_vec();
        // 3 is lost (both its moves lead to wins); marked won, it has no lost successor. (The
        // game's ten entries are one task's, restored in order: 3 is the first error.)
        entries[3] = ByteCode::decided(1).0;
        let err = restore_wins(&TakeAway, &entries, EntryWidth::One, &|_| {}).unwrap_err();
        assert_eq!((err.index, err.problem), (3, Problem::NoLoss));
    }
}
