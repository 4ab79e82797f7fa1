//! An independent verifier: re-checks every entry of a solution against the values of its
//! successors, using only the forward relation (never the predecessors or counters the solver
//! used), in the spirit of Syzygy's `rtbver`.

use std::fmt;

use crate::par::prelude::*;
use crate::value::{ByteCode, Code, EntryWidth, Value, WideCode};
use crate::{Dtm, Graph, Node};

/// The first inconsistency found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckError {
    pub index: u64,
    /// The stored value (`None`: marked illegal).
    pub stored: Option<Value>,
    pub problem: Problem,
}

/// What is wrong with an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The game says the entry is not a legal position.
    Illegal,
    /// The game says the entry is terminal with this value.
    Terminal(Value),
    /// Its successors' values call for this value.
    Successors(Value),
    /// This successor is marked illegal in the solution.
    IllegalSuccessor(u64),
    /// The game calls the entry inner but gives it no successor: a broken [`Graph`] contract.
    NoSuccessors,
    /// The entry is won, but none of its successors is lost ([`restore_wins`](crate::restore_wins)).
    NoLoss,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: Option<Value>| match v {
            Some(v) => v.to_string(),
            None => "illegal".to_string(),
        };
        write!(f, "entry {} holds {}", self.index, show(self.stored))?;
        match self.problem {
            Problem::Illegal => write!(f, " but is not a legal position"),
            Problem::Terminal(v) => write!(f, " but the game ends there with a {v}"),
            Problem::Successors(v) => write!(f, " but its successors call for {v}"),
            Problem::IllegalSuccessor(s) => write!(f, " but its successor {s} is marked illegal"),
            Problem::NoSuccessors => write!(f, " but the game gives this inner entry no successor"),
            Problem::NoLoss => write!(f, " but none of its successors is lost"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Checks every one-byte entry ([`ByteCode`]) of a solution; see [`check_with`].
pub fn check<G: Graph>(game: &G, entries: &[u8], progress: &(dyn Fn(u64) + Sync)) -> Result<(), CheckError> {
    check_with(game, entries, EntryWidth::One, progress)
}

/// Checks every entry of a solution stored `width` bytes per entry: an illegal entry has no
/// legal position, a terminal entry holds exactly the value the game gives it, and an inner
/// entry agrees with its successors' values: a win in `d` has a move to a loss in `d - 1` and
/// none to a shorter loss, a loss in `d` has only moves to wins, the longest being `d - 1`, and a
/// draw has no move to a loss and one to a draw.
///
/// `progress` is called with the number of entries checked since its last call.
pub fn check_with<G: Graph>(
    game: &G,
    entries: &[u8],
    width: EntryWidth,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), CheckError> {
    assert_eq!(entries.len() as u64, game.size() * width.bytes() as u64, "solution and game differ in size");
    match width {
        EntryWidth::One => check_code::<G, ByteCode>(game, entries, progress),
        EntryWidth::Two => check_code::<G, WideCode>(game, entries, progress),
    }
}

fn check_code<G: Graph, E: Code>(
    game: &G,
    entries: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), CheckError> {
    const CHUNK: usize = 1 << 12;
    let n = entries.len() / E::WIDTH.bytes();
    let value = |i: usize| E::decode(E::read_raw(entries, i));
    (0..n.div_ceil(CHUNK)).into_par_iter().try_for_each_init(Vec::new, |succ, c| {
        let start = c * CHUNK;
        let end = (start + CHUNK).min(n);
        for i in start..end {
            let stored = value(i);
            let fail = |problem| Err(CheckError { index: i as u64, stored, problem });
            succ.clear();
            match game.successors(i as u64, succ) {
                Node::Illegal if stored.is_some() => return fail(Problem::Illegal),
                Node::Illegal => continue,
                Node::Terminal(v) if stored != Some(v) => return fail(Problem::Terminal(v)),
                Node::Terminal(_) => continue,
                Node::Inner if succ.is_empty() => return fail(Problem::NoSuccessors),
                Node::Inner => {}
            }
            let mut best_loss: Option<u16> = None; // shortest loss among replies
            let mut longest_win: u16 = 0;
            let mut any_draw = false;
            for &s in succ.iter() {
                match value(s as usize) {
                    None => return fail(Problem::IllegalSuccessor(s)),
                    Some(Value::Loss(d)) => best_loss = Some(best_loss.map_or(d.0, |b| b.min(d.0))),
                    Some(Value::Win(d)) => longest_win = longest_win.max(d.0),
                    Some(Value::Draw) => any_draw = true,
                }
            }
            let expected = if let Some(d) = best_loss {
                Value::Win(Dtm(d + 1))
            } else if any_draw {
                Value::Draw
            } else {
                Value::Loss(Dtm(longest_win + 1))
            };
            if stored != Some(expected) {
                return fail(Problem::Successors(expected));
            }
        }
        progress((end - start) as u64);
        Ok(())
    })
}

/// Forward and backward relations of a game that do not describe the same edges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationMismatch {
    /// Distinct (entry, successor) pairs seen from the forward side.
    pub forward_edges: u64,
    /// Distinct (predecessor, entry) pairs seen from the backward side.
    pub backward_edges: u64,
}

impl fmt::Display for RelationMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "successors and predecessors disagree: {} forward edges, {} backward edges{}",
            self.forward_edges,
            self.backward_edges,
            if self.forward_edges == self.backward_edges { " (same count, different edges)" } else { "" }
        )
    }
}

impl std::error::Error for RelationMismatch {}

/// An edge that one relation of a game has and the other lacks, found by
/// [`check_relations_every`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingEdge {
    /// The entry the move is from.
    pub from: u64,
    /// The entry the move leads to.
    pub to: u64,
    /// Whether the forward relation has the edge (and the backward one lacks it), or the
    /// other way round.
    pub forward: bool,
}

impl fmt::Display for MissingEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (self.from, self.to);
        if self.forward {
            write!(f, "entry {to} is a successor of {from}, but {from} is not among its predecessors")
        } else {
            write!(f, "entry {from} is a predecessor of {to}, but {to} is not among its successors")
        }
    }
}

impl std::error::Error for MissingEdge {}

/// [`check_relations`] around every `every`-th entry (`0`, `every`, `2 every`, …): each
/// successor `q` of such an inner entry `p` lists `p` among its predecessors, and each
/// predecessor `p` of such a legal entry `q` is inner and lists `q` among its successors. Every
/// edge at a sampled entry is checked exactly, whichever side of it the entry is on; edges
/// between two entries off the sample are not. Returns the number of edges checked.
pub fn check_relations_every<G: Graph>(game: &G, every: u64) -> Result<u64, MissingEdge> {
    assert!(every > 0, "a stride of at least one entry");
    let n = game.size();
    (0..n.div_ceil(every))
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(succ, other), k| {
                let i = k * every;
                let mut edges = 0u64;
                succ.clear();
                let node = game.successors(i, succ);
                if node == Node::Inner {
                    succ.sort_unstable();
                    succ.dedup();
                    for &q in succ.iter() {
                        other.clear();
                        game.predecessors(q, other);
                        if !other.contains(&i) {
                            return Err(MissingEdge { from: i, to: q, forward: true });
                        }
                        edges += 1;
                    }
                }
                if node == Node::Illegal {
                    return Ok(edges);
                }
                succ.clear();
                game.predecessors(i, succ);
                succ.sort_unstable();
                succ.dedup();
                for &p in succ.iter() {
                    other.clear();
                    if game.successors(p, other) != Node::Inner || !other.contains(&i) {
                        return Err(MissingEdge { from: p, to: i, forward: false });
                    }
                    edges += 1;
                }
                Ok(edges)
            },
        )
        .reduce(|| Ok(0), |a, b| Ok(a? + b?))
}

fn edge_hash(p: u64, q: u64) -> u64 {
    // splitmix64 finaliser over the pair.
    let mut z = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ q.wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Checks the [`Graph`] contract over the whole index space: the set of distinct edges `p -> q`
/// from the `successors` of inner entries equals the one from the `predecessors` of legal
/// entries (compared by count and by a sum of 64-bit edge hashes). So no inner entry has a move
/// to an illegal one, and no terminal entry is reported as a predecessor. The predecessors of
/// illegal entries are not asked for (the solver never asks either).
/// Returns the number of edges.
pub fn check_relations<G: Graph>(game: &G) -> Result<u64, RelationMismatch> {
    const CHUNK: u64 = 1 << 12;
    let n = game.size();
    let (fc, fh, bc, bh) = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(succ, pred), c| {
                let (mut fc, mut fh, mut bc, mut bh) = (0u64, 0u64, 0u64, 0u64);
                for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    succ.clear();
                    match game.successors(i, succ) {
                        Node::Illegal => continue,
                        // A terminal entry has no moves, whatever it pushed.
                        Node::Terminal(_) => {}
                        Node::Inner => {
                            succ.sort_unstable();
                            succ.dedup();
                            fc += succ.len() as u64;
                            fh = succ.iter().fold(fh, |h, &q| h.wrapping_add(edge_hash(i, q)));
                        }
                    }
                    pred.clear();
                    game.predecessors(i, pred);
                    pred.sort_unstable();
                    pred.dedup();
                    bc += pred.len() as u64;
                    bh = pred.iter().fold(bh, |h, &p| h.wrapping_add(edge_hash(p, i)));
                }
                (fc, fh, bc, bh)
            },
        )
        .reduce(|| (0, 0, 0, 0), |a, b| (a.0 + b.0, a.1.wrapping_add(b.1), a.2 + b.2, a.3.wrapping_add(b.3)));
    if fc == bc && fh == bh {
        Ok(fc)
    } else {
        Err(RelationMismatch { forward_edges: fc, backward_edges: bc })
    }
}
