//! The census's tests: a forward pass made beforehand stands for the game's own answers,
//! settled pages included.

use crate::tests::{values, Cycle, Leaves, TakeAway};
use crate::*;

/// A game whose forward pass is made beforehand: `inner`'s, written as census bytes (255
/// unused, 254 a loss in 0, 253 a win in 1 without predecessors, 252 a draw, 251 a win in 1,
/// 250 a loss in 0 without predecessors, else the count of distinct successors), where the
/// terminal entries of `silent` are said to have no predecessors.
struct Censused<G> {
    inner: G,
    silent: &'static [u64],
}

impl<G: Graph> Censused<G> {
    fn census(&self) -> Census {
        let inner = &self.inner;
        let mut succ = Vec::new();
        let bytes = (0..inner.size())
            .map(|i| {
                succ.clear();
                let node = inner.successors(i, &mut succ);
                succ.sort_unstable();
                succ.dedup();
                let silent = self.silent.contains(&i);
                match node {
                    Node::Illegal => 255,
                    Node::Terminal(Value::Loss(Dtm(0))) if silent => 250,
                    Node::Terminal(Value::Loss(Dtm(0))) => 254,
                    Node::Terminal(Value::Win(Dtm(1))) if silent => 253,
                    Node::Terminal(Value::Win(Dtm(1))) => 251,
                    Node::Terminal(Value::Draw) => 252,
                    Node::Inner => u8::try_from(succ.len()).unwrap(),
                    node => panic!("{i}: {node:?} has no census byte"),
                }
            })
            .collect();
        Census { bytes, read: Censused::<G>::read, pages: Vec::new() }
    }

    fn read(b: u8) -> Counted {
        let terminal = |value, has_predecessors| Counted {
            node: Node::Terminal(value),
            successors: 0,
            has_predecessors,
        };
        match b {
            255 => Counted { node: Node::Illegal, successors: 0, has_predecessors: false },
            250 => terminal(Value::Loss(Dtm(0)), false),
            254 => terminal(Value::Loss(Dtm(0)), true),
            253 => terminal(Value::Win(Dtm(1)), false),
            252 => terminal(Value::Draw, true),
            251 => terminal(Value::Win(Dtm(1)), true),
            n => Counted { node: Node::Inner, successors: n, has_predecessors: true },
        }
    }
}

/// Nothing but the census: the forward pass must not ask the game.
impl<G: Graph> Graph for Censused<G> {
    fn size(&self) -> u64 {
        self.inner.size()
    }
    fn successors(&self, _: u64, _: &mut Vec<u64>) -> Node {
        panic!("the forward pass asked for successors despite a census")
    }
    fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
        self.inner.predecessors(i, out)
    }
}

fn solve_censused<G: Graph>(inner: G, silent: &'static [u64]) -> Solution {
    let censused = Censused { inner, silent };
    solve_census(&censused, censused.census(), &NoProgress).unwrap()
}

/// A census gives the same solution as the game's own answers.
#[test]
fn a_census_stands_for_the_forward_pass() {
    let plain = solve(&Leaves, &NoProgress).unwrap();
    for silent in [&[][..], &[0, 4]] {
        assert_eq!(solve_censused(Leaves, silent).bytes(), plain.bytes(), "{silent:?}");
    }
    let plain = solve(&TakeAway, &NoProgress).unwrap();
    assert_eq!(solve_censused(TakeAway, &[]).bytes(), plain.bytes());
    let plain = solve(&Cycle, &NoProgress).unwrap();
    assert_eq!(solve_censused(Cycle, &[]).bytes(), plain.bytes());
    // A census of another size is an error, not a wrong solution.
    let short = Censused { inner: TakeAway, silent: &[] };
    let mut census = short.census();
    census.bytes.pop();
    assert_eq!(
        solve_census(&short, census, &NoProgress).unwrap_err(),
        SolveError::CensusSize { bytes: 9, size: 10 }
    );
}

#[test]
fn terminal_entries_without_predecessors_are_decided_without_a_walk_back() {
    let walked = solve(&Leaves, &NoProgress).unwrap();
    let settled = solve_censused(Leaves, &[0, 4]);
    assert_eq!(settled.bytes(), walked.bytes());
    assert_eq!(settled.stats, walked.stats);
    let (w, l) = (|d| Some(Value::Win(Dtm(d))), |d| Some(Value::Loss(Dtm(d))));
    assert_eq!(values(&Leaves), [w(1), l(0), w(1), l(2), w(1), w(3), l(4)]);
    // A census that says so of a terminal entry with a move into it loses the walk back
    // from it, and the check, which asks the game, finds the wrong value.
    let s = solve_censused(Leaves, &[1]);
    assert_eq!(s.value(2), Some(Value::Draw));
    assert_eq!(check(&Leaves, &s.bytes(), &|_| {}).unwrap_err().index, 2);
}

/// Four pages and a bit: page 0 take-away games of up to 9 stones (take one or two; entry
/// `i` holds `i % 10`, and who cannot move loses), page 1 unused, page 2 wins in 1 that no
/// move leads into, page 3 positions with two moves into page 0, and a few entries past
/// them that move into page 3.
struct Paged;

impl Paged {
    const UNUSED: u64 = PAGE as u64;
    const WON: u64 = 2 * PAGE as u64;
    const MIXED: u64 = 3 * PAGE as u64;
    const TAIL: u64 = 4 * PAGE as u64;
}

impl Graph for Paged {
    fn size(&self) -> u64 {
        Paged::TAIL + 5
    }
    fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
        match i {
            i if i < Paged::UNUSED => {
                out.extend((1..=2).filter(|&k| k <= i % 10).map(|k| i - k));
                Node::moves_or_loss(i % 10 > 0)
            }
            i if i < Paged::WON => Node::Illegal,
            i if i < Paged::MIXED => Node::Terminal(Value::Win(Dtm(1))),
            i if i < Paged::TAIL => {
                out.extend([(i * 7) % PAGE as u64, (i * 11 + 1) % PAGE as u64]);
                Node::Inner
            }
            i => {
                out.extend([Paged::MIXED + i % 4, Paged::MIXED + 100]);
                Node::Inner
            }
        }
    }
    fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
        match i {
            i if i < Paged::UNUSED => {
                out.extend((1..=2).map(|k| i + k).filter(|&p| p < Paged::UNUSED && p % 10 >= p - i));
                // The entries of page 3 with a move into `i`.
                let into = |p: &u64| (p * 7) % PAGE as u64 == i || (p * 11 + 1) % PAGE as u64 == i;
                out.extend((Paged::MIXED..Paged::TAIL).filter(into));
            }
            i if i < Paged::MIXED => {}
            i if i < Paged::TAIL => out.extend(
                (Paged::TAIL..Paged::TAIL + 5)
                    .filter(|p| Paged::MIXED + p % 4 == i || i == Paged::MIXED + 100),
            ),
            _ => {}
        }
    }
}

/// The census of `Paged` with pages 1 and 2 settled (unused; wins in 1 without
/// predecessors), their bytes in the array set to `scribble`.
fn paged_census(scribble: u8) -> Census {
    let censused = Censused { inner: Paged, silent: &[] };
    let mut census = censused.census();
    let (unused, won) = (Paged::UNUSED as usize, Paged::WON as usize);
    census.bytes[unused..won + PAGE].fill(scribble);
    census.pages = vec![0, 255, 253];
    census
}

/// Settled pages give the solution of every entry marked, with their bytes as the census
/// left them, written or not; a page settled with a byte the passes must walk back from or
/// count down is an error.
#[test]
fn settled_pages_stand_for_their_entries() {
    check_relations(&Paged).unwrap();
    let plain = solve(&Paged, &NoProgress).unwrap();
    check(&Paged, &plain.bytes(), &|_| {}).unwrap();
    let censused = Censused { inner: Paged, silent: &[] };
    for scribble in [0, 7, 255] {
        let s = solve_census(&censused, paged_census(scribble), &NoProgress).unwrap();
        assert_eq!(s.stats, plain.stats, "{scribble}");
        assert_eq!(s.bytes(), plain.bytes(), "{scribble}");
        assert!(s.as_whole().is_none());
        for i in (0..Paged.size()).step_by(97) {
            assert_eq!(s.value(i), plain.value(i), "{scribble}: {i}");
        }
        // Filled in pieces that start and end inside pages, as the writer asks.
        let mut filled = vec![0u8; Paged.size() as usize];
        for (k, piece) in filled.chunks_mut(1000).enumerate() {
            s.fill(k as u64 * 1000, piece);
        }
        assert_eq!(filled, *plain.bytes());
        assert_eq!(s.clone().into_whole().as_whole(), Some(&*plain.bytes()));
        // The settled pages' bytes are 0 once solved, where the census left them 0 too:
        // never written.
        assert!(s.entries[Paged::UNUSED as usize..Paged::MIXED as usize].iter().all(|&b| b == 0));
    }
    for (page, byte) in [(0, 3), (3, 252), (2, 251)] {
        let mut census = paged_census(0);
        census.pages.resize(4, 0);
        census.pages[page] = byte;
        let e = solve_census(&censused, census, &NoProgress).unwrap_err();
        assert_eq!(e, SolveError::UnsettledPage { page: page as u64, byte }, "{page}");
    }
}
