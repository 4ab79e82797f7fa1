//! The engine's floor for Nana (see docs/PERFORMANCE.md): how long the solve takes when move
//! generation costs nothing. Each rule set's successor lists are first taken from
//! [`NanaGame::solver`] into memory; a replay game then hands them to the solver as they were
//! reported. The solver does all its own work (the forward pass reading the lists, counting and
//! dealing the edges, the reversal, the backward passes, the entries written out); only the
//! moves are free. The real game and the replay are solved alternately, `ROUNDS` times each,
//! and their entries must be the same bytes.
//!
//! `cargo run --release -p nana-shogi --example engine_floor [ROUNDS]`
use std::sync::Mutex;
use std::time::Instant;

use nana_engine::{solve, Graph, Node, Progress};
use nana_shogi::{NanaGame, Rules};
use rayon::prelude::*;

/// A solved game's successor lists, replayed: entry `i` is `nodes[i]`, and an inner entry's
/// successors are `succ[first[i]..first[i + 1]]`.
struct Replay {
    game: NanaGame,
    nodes: Vec<Node>,
    first: Vec<u32>,
    succ: Vec<u32>,
}

impl Replay {
    fn record(game: NanaGame) -> Replay {
        let lists: Vec<(Node, Vec<u32>)> = (0..game.size())
            .into_par_iter()
            .map_init(Vec::new, |out, i| {
                out.clear();
                let node = game.successors(i, out);
                (node, out.iter().map(|&q| q as u32).collect())
            })
            .collect();
        let mut first = Vec::with_capacity(lists.len() + 1);
        let mut succ = Vec::new();
        let mut nodes = Vec::with_capacity(lists.len());
        for (node, list) in lists {
            first.push(succ.len() as u32);
            succ.extend(list);
            nodes.push(node);
        }
        first.push(succ.len() as u32);
        Replay { game, nodes, first, succ }
    }
}

impl Graph for Replay {
    fn size(&self) -> u64 {
        self.nodes.len() as u64
    }

    fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node {
        let i = index as usize;
        out.extend(
            self.succ[self.first[i] as usize..self.first[i + 1] as usize].iter().map(|&q| u64::from(q)),
        );
        self.nodes[i]
    }

    /// Only asked if the solver cannot keep the edges: the real game answers.
    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        self.game.predecessors(index, out);
    }

    fn reverse_successors(&self) -> bool {
        true
    }
}

/// Adds up the time of each of the solver's phases.
#[derive(Default)]
struct Phases(Mutex<PhaseTimes>);

#[derive(Default)]
struct PhaseTimes {
    /// The phase under way and when it began.
    current: Option<(String, Instant)>,
    /// Seconds per phase, in the order they first came.
    totals: Vec<(String, f64)>,
}

impl Progress for Phases {
    fn begin(&self, phase: &str, _: u64) {
        self.0.lock().unwrap().current = Some((phase.to_string(), Instant::now()));
    }
    fn advance(&self, _: u64) {}
    fn end(&self) {
        let mut times = self.0.lock().unwrap();
        let (phase, start) = times.current.take().expect("a phase began");
        let seconds = start.elapsed().as_secs_f64();
        match times.totals.iter_mut().find(|(p, _)| *p == phase) {
            Some((_, total)) => *total += seconds,
            None => times.totals.push((phase, seconds)),
        }
    }
}

impl Phases {
    fn summary(self) -> String {
        let totals = self.0.into_inner().unwrap().totals;
        totals.iter().map(|(p, s)| format!("{p} {s:.2} s")).collect::<Vec<_>>().join(", ")
    }
}

/// Solves each game in turn: their entries, the wall time, and the time of each phase.
fn solve_all<G: Graph>(games: &[G]) -> (Vec<Vec<u8>>, f64, String) {
    let phases = Phases::default();
    let t = Instant::now();
    let entries = games.iter().map(|g| solve(g, &phases).expect("solves").into_bytes()).collect();
    (entries, t.elapsed().as_secs_f64(), phases.summary())
}

fn main() {
    let rounds: usize = std::env::args().nth(1).map_or(3, |a| a.parse().expect("ROUNDS is a number"));
    let real: Vec<NanaGame> = [Rules::CURRENT, Rules::ORIGINAL].map(NanaGame::solver).into();
    let replays: Vec<Replay> = real.iter().cloned().map(Replay::record).collect();
    let edges: usize = replays.iter().map(|r| r.succ.len()).sum();
    println!("{edges} edges in both rule sets, {} threads", rayon::current_num_threads());
    for round in 1..=rounds {
        let (a, real_s, real_phases) = solve_all(&real);
        let (b, replay_s, replay_phases) = solve_all(&replays);
        assert!(a == b, "the replay's entries differ from the real game's");
        println!("round {round}: both rule sets solved in {real_s:.2} s ({real_phases})");
        println!("         replayed in {replay_s:.2} s ({replay_phases}), the same bytes");
    }
}
