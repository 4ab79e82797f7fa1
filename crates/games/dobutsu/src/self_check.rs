//! Dobutsu's exhaustive check of its index, over the whole space or a sample of it: the
//! self-check (`nana verify --self-check`, [`whole_space_checks`]) runs it whole, the tests run
//! the same function over a sample. The self-check also solves both rule sets with the fast
//! paths' cross-checks on ([`nana_engine::cross_check`]) and re-checks every entry of both
//! tables; see [`crate::front`].

use nana_front::{CheckFailed, WholeCheck};
use rayon::prelude::*;

use crate::index::{is_self_mirror_pair, rank, unrank, SIZE};
use crate::Side;

/// The positions the tables value: every legal position where the side to move cannot take the
/// lion, up to the side to move and the mirror image (the solved set's size, as `nana --game
/// dobutsu stats` reports a table's wins, losses and draws).
pub const SOLVED_SET: u64 = 243_345_746;

/// The self-check's part for Dobutsu beyond its solves and entry checks.
pub fn whole_space_checks() -> Vec<WholeCheck> {
    vec![WholeCheck::new("rank ∘ unrank over the whole index", || index_round_trip(1))]
}

/// Rank ∘ unrank over the entries `0`, `every`, `2 every`, …: a used one round-trips through
/// rank, has both lions, the first player to move and the lion out of the mover's reach, and
/// lands on the same entry turned to the other side to move and mirrored; an unused one has
/// both lions on file b, where the larger of two mirror images is left unused. Over the whole
/// space (`every` = 1) the used entries are the solved set, one each.
pub fn index_round_trip(every: u64) -> Result<String, CheckFailed> {
    const CHUNK: u64 = 1 << 16;
    let samples = SIZE.div_ceil(every);
    let (used, bad) = (0..samples.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (mut used, mut bad) = (0u64, None);
            for i in (c * CHUNK..(c * CHUNK + CHUNK).min(samples)).map(|k| k * every) {
                let ok = match unrank(i) {
                    Some(p) => {
                        used += 1;
                        rank(&p) == i
                            && p.side_to_move() == Side::First
                            && p.lion(Side::First).is_some()
                            && p.lion(Side::Second).is_some()
                            && !p.can_capture_lion()
                            && rank(&p.rotate()) == i
                            && rank(&p.mirror()) == i
                    }
                    None => is_self_mirror_pair(i),
                };
                if !ok && bad.is_none() {
                    bad = Some(i);
                }
            }
            (used, bad)
        })
        .reduce(|| (0, None), |a, b| (a.0 + b.0, a.1.or(b.1)));
    if let Some(i) = bad {
        return Err(CheckFailed(format!("entry {i} does not round-trip through unrank and rank")));
    }
    if unrank(SIZE).is_some() {
        return Err(CheckFailed(format!("an entry past the index's {SIZE}")));
    }
    if every == 1 && used != SOLVED_SET {
        return Err(CheckFailed(format!("{used} entries are used, not the solved set's {SOLVED_SET}")));
    }
    Ok(format!("{samples} entries round-trip, {used} of them used"))
}
