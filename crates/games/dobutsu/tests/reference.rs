//! An independent, slow reference move generator on plain character arrays, checked against the
//! crate's perft from the start, from random positions, and against the pinned figures of
//! `tests/data/dobutsu-perft.txt`.

use dobutsu_shogi::{fen, perft, Position, Rules, TryRule};

mod common;
use common::XorShift;

/// A board of characters, `b[rank][file]`, rank 0 = rank 1; upper case first player, 'H' hen.
#[derive(Clone, PartialEq, Debug)]
struct Ref {
    b: [[char; 3]; 4],
    /// Pieces in hand, letters in upper case, per player (0 first).
    hand: [Vec<char>; 2],
    /// 0 first, 1 second.
    turn: usize,
}

fn owner(c: char) -> Option<usize> {
    if c == '.' {
        None
    } else if c.is_ascii_uppercase() {
        Some(0)
    } else {
        Some(1)
    }
}

/// (rank, file) steps.
fn steps(role: char, player: usize) -> Vec<(i32, i32)> {
    let fwd = if player == 0 { 1 } else { -1 };
    match role {
        'L' => vec![(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
        'G' => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
        'E' => vec![(1, 1), (1, -1), (-1, 1), (-1, -1)],
        'C' => vec![(fwd, 0)],
        'H' => vec![(fwd, 0), (fwd, 1), (fwd, -1), (0, 1), (0, -1), (-fwd, 0)],
        _ => unreachable!(),
    }
}

impl Ref {
    fn from_fen(s: &str) -> Ref {
        let (board, rest) = s.split_once('[').unwrap();
        let (hands, rest) = rest.split_once(']').unwrap();
        let mut b = [['.'; 3]; 4];
        for (i, row) in board.split('/').enumerate() {
            let (mut f, mut plus) = (0, false);
            for c in row.chars() {
                match c {
                    '1'..='3' => f += c as usize - '0' as usize,
                    '+' => plus = true,
                    _ => {
                        b[3 - i][f] = if plus {
                            if c == 'C' {
                                'H'
                            } else {
                                'h'
                            }
                        } else {
                            c
                        };
                        plus = false;
                        f += 1;
                    }
                }
            }
        }
        let mut hand = [Vec::new(), Vec::new()];
        for c in hands.chars().filter(|&c| c != '-') {
            hand[owner(c).unwrap()].push(c.to_ascii_uppercase());
        }
        let turn = if rest.trim_start().starts_with('w') { 0 } else { 1 };
        Ref { b, hand, turn }
    }

    fn lion(&self, p: usize) -> Option<(i32, i32)> {
        let l = if p == 0 { 'L' } else { 'l' };
        for r in 0..4 {
            for f in 0..3 {
                if self.b[r][f] == l {
                    return Some((r as i32, f as i32));
                }
            }
        }
        None
    }

    fn attacked_by(&self, p: usize, sq: (i32, i32)) -> bool {
        for r in 0..4i32 {
            for f in 0..3i32 {
                let c = self.b[r as usize][f as usize];
                if owner(c) == Some(p)
                    && steps(c.to_ascii_uppercase(), p).iter().any(|&(dr, df)| (r + dr, f + df) == sq)
                {
                    return true;
                }
            }
        }
        false
    }

    fn over(&self, rule: TryRule) -> bool {
        let (me, you) = (self.turn, 1 - self.turn);
        let (Some(mine), Some(yours)) = (self.lion(me), self.lion(you)) else { return true };
        let far = |p: usize| if p == 0 { 3 } else { 0 };
        let my_try = mine.0 == far(me);
        let your_try = yours.0 == far(you);
        match rule {
            TryRule::Tanaka => my_try || (your_try && !self.attacked_by(me, yours)),
            TryRule::SafeTry => {
                (my_try && !self.attacked_by(you, mine)) || (your_try && !self.attacked_by(me, yours))
            }
        }
    }

    fn children(&self) -> Vec<Ref> {
        let p = self.turn;
        let mut out = Vec::new();
        for r in 0..4i32 {
            for f in 0..3i32 {
                let c = self.b[r as usize][f as usize];
                if owner(c) != Some(p) {
                    continue;
                }
                for (dr, df) in steps(c.to_ascii_uppercase(), p) {
                    let (nr, nf) = (r + dr, f + df);
                    if !(0..4).contains(&nr) || !(0..3).contains(&nf) {
                        continue;
                    }
                    let target = self.b[nr as usize][nf as usize];
                    if owner(target) == Some(p) {
                        continue;
                    }
                    let mut n = self.clone();
                    if target != '.' {
                        let up = target.to_ascii_uppercase();
                        if up != 'L' {
                            n.hand[p].push(if up == 'H' { 'C' } else { up });
                        }
                    }
                    let far = if p == 0 { 3 } else { 0 };
                    let moved = if c.eq_ignore_ascii_case(&'C') && nr == far {
                        if p == 0 {
                            'H'
                        } else {
                            'h'
                        }
                    } else {
                        c
                    };
                    n.b[nr as usize][nf as usize] = moved;
                    n.b[r as usize][f as usize] = '.';
                    n.turn = 1 - p;
                    out.push(n);
                }
            }
        }
        let mut kinds = self.hand[p].clone();
        kinds.sort();
        kinds.dedup();
        for k in kinds {
            for r in 0..4 {
                for f in 0..3 {
                    if self.b[r][f] == '.' {
                        let mut n = self.clone();
                        let at = n.hand[p].iter().position(|&h| h == k).unwrap();
                        n.hand[p].remove(at);
                        n.b[r][f] = if p == 0 { k } else { k.to_ascii_lowercase() };
                        n.turn = 1 - p;
                        out.push(n);
                    }
                }
            }
        }
        out
    }

    fn perft(&self, rule: TryRule, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over(rule) {
            return 0;
        }
        self.children().iter().map(|c| c.perft(rule, depth - 1)).sum()
    }
}

/// A position of the data file, its rules and its `(depth, nodes)` counts.
type Section = (String, Rules, Vec<(u32, u64)>);

fn sections() -> Vec<Section> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dobutsu-perft.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(rest) = line.strip_prefix("position ") {
            let (fen, rules) = rest.split_once(" rules ").expect("position <fen> rules <name>");
            out.push((fen.to_string(), Rules::from_name(rules.trim()).unwrap(), Vec::new()));
        } else {
            let mut w = line.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            let (d, n) = (w.next().unwrap(), w.next().unwrap());
            out.last_mut().expect("a position line first").2.push((d as u32, n));
        }
    }
    out
}

/// The pinned figures, by the crate's perft and (to depth 6) by the reference.
#[test]
fn perft_figures_from_the_data_file() {
    let all = sections();
    assert!(all.len() >= 2);
    for (fen_str, rules, counts) in all {
        let pos = fen::parse_position(&fen_str).unwrap();
        let reference = Ref::from_fen(&fen_str);
        assert!(!counts.is_empty());
        for (depth, nodes) in counts {
            assert_eq!(perft(&pos, &rules, depth), nodes, "{fen_str} {} depth {depth}", rules.name());
            if depth <= 6 {
                assert_eq!(reference.perft(rules.try_rule, depth), nodes, "reference {fen_str} {depth}");
            }
        }
    }
}

/// Random positions from random games: the crate and the reference agree on perft 3 and on the
/// string form after every move.
#[test]
fn reference_agrees_on_random_positions() {
    let mut rng = XorShift(0xdeadbeef12345);
    let mut compared = 0;
    for rules in Rules::all() {
        for _ in 0..300 {
            let mut pos = Position::start();
            for _ in 0..rng.below(40) {
                let moves = pos.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&rules, moves[rng.below(moves.len())]).unwrap();
            }
            let reference = Ref::from_fen(&pos.to_string());
            assert_eq!(reference.over(rules.try_rule), pos.outcome(&rules).is_some(), "{pos}");
            assert_eq!(reference.perft(rules.try_rule, 3), perft(&pos, &rules, 3), "{pos}");
            let mut mine: Vec<String> = Vec::new();
            if pos.outcome(&rules).is_none() {
                pos.for_each_move(|m| mine.push(pos.play_unchecked(m).to_string()));
            }
            let mut theirs: Vec<String> = if reference.over(rules.try_rule) {
                Vec::new()
            } else {
                reference.children().iter().map(|c| Position::to_string(&to_pos(c))).collect()
            };
            mine.sort();
            theirs.sort();
            assert_eq!(mine, theirs, "{pos}");
            compared += 1;
        }
    }
    assert_eq!(compared, 600);
}

/// The reference's position through the crate's FEN reader (written here by hand).
fn to_pos(r: &Ref) -> Position {
    let mut s = String::new();
    for rank in (0..4).rev() {
        let mut empty = 0;
        for f in 0..3 {
            let c = r.b[rank][f];
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            match c {
                'H' => s.push_str("+C"),
                'h' => s.push_str("+c"),
                _ => s.push(c),
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push('[');
    // A captured lion is in the captor's hand.
    for p in 0..2 {
        if r.lion(1 - p).is_none() {
            s.push(if p == 0 { 'L' } else { 'l' });
        }
        for &k in &r.hand[p] {
            s.push(if p == 0 { k } else { k.to_ascii_lowercase() });
        }
    }
    s.push_str(if r.turn == 0 { "] w" } else { "] b" });
    fen::parse_position(&s).unwrap_or_else(|e| panic!("{e}"))
}
