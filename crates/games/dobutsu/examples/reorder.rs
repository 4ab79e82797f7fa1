//! Writes a Dobutsu table's entries in another order, for the codec tool to measure
//! (`RAW=1`, docs/PERFORMANCE.md, "Value coding and codec"): one byte an entry, the
//! don't-care entries (a mirror image's) as 255, the entries sorted by a key made of the
//! position's digits in the order given.
//!
//! `cargo run --release -p dobutsu-shogi --example reorder -- TABLE.tb OUT.bin [ORDER]`
//!
//! The digits of an entry's position, seen as the index sees it (the side to move is the first
//! player, its lions a canonical pair): `ml` and `ol`, the mover's and the opponent's lion
//! squares (12 each: `3 × rank + file`, rank 0 the mover's home rank); `s0` … `s11`, each
//! square's contents as the index numbers them (9: empty or a lion, then the mover's giraffe,
//! the opponent's, elephants, chicks and hens likewise); or `k0` … `k11` and `o0` … `o11`, its
//! kind (5: empty or lion, giraffe, elephant, chick, hen) and owner (2) apart; `hg`, `he`, `hc`,
//! the giraffes, elephants and chicks the mover holds (3 each); and some made of them: `board`,
//! the pieces of each kind on the board (27, `9g + 3e + c`), `inhand`, the pieces in both hands
//! (7), `material`, the mover's pieces on the board and in hand, its lion aside (7), and `mg`,
//! `me`, `mc`, those of each kind (3 each, a hen a chick). `ORDER` names digits outermost first, separated by commas; the digits it leaves
//! out follow in the index's order (`ml,ol,s0,…,s11,hg,he,hc`), so that the key tells every
//! entry apart, and the empty order is the index's own (the stream is then the table's entries
//! as stored, the don't-care ones 255). A square's contents count once: `sN`, or `kN` and `oN`.
//!
//! A don't-care entry is the mirror image of a used one whose lions are both on file b: it is
//! placed at its own position's key. The stream's length is the index's, 259,374,340.
use std::io::Write;
use std::path::Path;

use dobutsu_shogi::{index, Position, Role, Side};
use nana_tablebase::Tablebase;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (table, out, order) = match &args[..] {
        [t, o] => (t, o, String::new()),
        [t, o, order] => (t, o, order.clone()),
        _ => panic!("usage: reorder TABLE.tb OUT.bin [ORDER]"),
    };
    let digits = digits(&order);
    let radix: f64 = digits.iter().map(|d| d.radix() as f64).product();
    assert!(radix < 2f64.powi(56), "the key of {order:?} does not fit 56 bits");
    println!("order (outermost first): {}", digits.iter().map(Digit::name).collect::<Vec<_>>().join(","));
    let table = Tablebase::open(Path::new(table)).expect("a readable table");
    assert_eq!(table.header().entries, index::SIZE, "a Dobutsu table");
    let entries = table.entries().expect("decodable entries");
    let key = |pos: &Position| -> u64 { key(&digits, pos) };
    let start = std::time::Instant::now();
    const RUN: u64 = 1 << 22;
    let runs: Vec<u64> = (0..index::SIZE.div_ceil(RUN)).collect();
    let mut keyed: Vec<u64> = runs
        .par_iter()
        .flat_map_iter(|&r| {
            let mut v = Vec::with_capacity(RUN as usize * 17 / 16);
            index::for_each_position(r * RUN..(r + 1) * RUN, |i, pos| {
                v.push(key(pos) << 8 | u64::from(entries[i as usize]));
                if index::is_self_mirror_pair(i) {
                    let m = pos.mirror();
                    if m.setup().board != pos.setup().board {
                        v.push(key(&m) << 8 | 255);
                    }
                }
            });
            v
        })
        .collect();
    assert_eq!(keyed.len() as u64, index::SIZE, "every entry once, the mirror images as don't-care");
    let keyed_s = start.elapsed().as_secs_f64();
    keyed.par_sort_unstable();
    assert!(keyed.windows(2).all(|w| w[0] >> 8 != w[1] >> 8), "two entries of one key");
    let bytes: Vec<u8> = keyed.iter().map(|&k| k as u8).collect();
    drop(keyed);
    std::fs::File::create(out).and_then(|mut f| f.write_all(&bytes)).expect("the output written");
    println!(
        "{} entries ({} don't-care) to {out}: keyed in {keyed_s:.1} s, sorted and written in {:.1} s",
        bytes.len(),
        bytes.iter().filter(|&&b| b == 255).count(),
        start.elapsed().as_secs_f64() - keyed_s
    );
}

/// One digit of the key.
#[derive(Clone, Copy, PartialEq)]
enum Digit {
    MoverLion,
    OpponentLion,
    Square(usize),
    Kind(usize),
    Owner(usize),
    Hand(usize),
    Board,
    InHand,
    Material,
    Owned(usize),
}

impl Digit {
    fn radix(self) -> u64 {
        match self {
            Digit::MoverLion | Digit::OpponentLion => 12,
            Digit::Square(_) => 9,
            Digit::Kind(_) => 5,
            Digit::Owner(_) => 2,
            Digit::Hand(_) => 3,
            Digit::Board => 27,
            Digit::InHand => 7,
            Digit::Material => 7,
            Digit::Owned(_) => 3,
        }
    }

    fn name(&self) -> String {
        match *self {
            Digit::MoverLion => "ml".into(),
            Digit::OpponentLion => "ol".into(),
            Digit::Square(s) => format!("s{s}"),
            Digit::Kind(s) => format!("k{s}"),
            Digit::Owner(s) => format!("o{s}"),
            Digit::Hand(k) => ["hg", "he", "hc"][k].into(),
            Digit::Board => "board".into(),
            Digit::InHand => "inhand".into(),
            Digit::Material => "material".into(),
            Digit::Owned(k) => ["mg", "me", "mc"][k].into(),
        }
    }

    fn parse(s: &str) -> Digit {
        let square = |rest: &str| -> usize {
            let n: usize = rest.parse().expect("a square number");
            assert!(n < 12, "squares are 0 to 11");
            n
        };
        match s {
            "ml" => Digit::MoverLion,
            "ol" => Digit::OpponentLion,
            "hg" => Digit::Hand(0),
            "he" => Digit::Hand(1),
            "hc" => Digit::Hand(2),
            "board" => Digit::Board,
            "inhand" => Digit::InHand,
            "material" => Digit::Material,
            "mg" => Digit::Owned(0),
            "me" => Digit::Owned(1),
            "mc" => Digit::Owned(2),
            _ if s.starts_with('s') => Digit::Square(square(&s[1..])),
            _ if s.starts_with('k') => Digit::Kind(square(&s[1..])),
            _ if s.starts_with('o') => Digit::Owner(square(&s[1..])),
            _ => panic!("unknown digit {s:?}"),
        }
    }
}

/// The digits of `order`, then those it leaves out in the index's order.
fn digits(order: &str) -> Vec<Digit> {
    let mut digits: Vec<Digit> = order.split(',').filter(|d| !d.is_empty()).map(Digit::parse).collect();
    for (i, d) in digits.iter().enumerate() {
        assert!(!digits[..i].contains(d), "{} twice", d.name());
    }
    let has = |digits: &[Digit], d: Digit| digits.contains(&d);
    for d in [Digit::MoverLion, Digit::OpponentLion] {
        if !has(&digits, d) {
            digits.push(d);
        }
    }
    for s in 0..12 {
        let split = has(&digits, Digit::Kind(s)) || has(&digits, Digit::Owner(s));
        if split {
            assert!(!has(&digits, Digit::Square(s)), "s{s} with k{s} or o{s}");
            for d in [Digit::Kind(s), Digit::Owner(s)] {
                if !has(&digits, d) {
                    digits.push(d);
                }
            }
        } else if !has(&digits, Digit::Square(s)) {
            digits.push(Digit::Square(s));
        }
    }
    for k in 0..3 {
        if !has(&digits, Digit::Hand(k)) {
            digits.push(Digit::Hand(k));
        }
    }
    digits
}

/// The key of a position of the index (the first player to move): its digits, the first
/// outermost.
fn key(digits: &[Digit], pos: &Position) -> u64 {
    let setup = pos.setup();
    // A square's contents as the index numbers them, and its kind and owner.
    let contents = |s: usize| -> (u64, u64, u64) {
        match setup.board[s] {
            None => (0, 0, 0),
            Some(p) if p.role == Role::Lion => (0, 0, 0),
            Some(p) => {
                let kind = p.role as u64 - 1;
                let owner = u64::from(p.side == Side::Second);
                (1 + 2 * (kind - 1) + owner, kind, owner)
            }
        }
    };
    let lion = |side| pos.lion(side).expect("both lions on the board").index() as u64;
    let hand = |k: usize| u64::from(setup.hands[0][k]);
    let mut key = 0u64;
    for &d in digits {
        let v = match d {
            Digit::MoverLion => lion(Side::First),
            Digit::OpponentLion => lion(Side::Second),
            Digit::Square(s) => contents(s).0,
            Digit::Kind(s) => contents(s).1,
            Digit::Owner(s) => contents(s).2,
            Digit::Hand(k) => hand(k),
            Digit::Board => {
                let on = |role: Role| -> u64 {
                    (0..12)
                        .filter(|&s| {
                            setup.board[s].is_some_and(|p| {
                                p.role == role || (role == Role::Chick && p.role == Role::Hen)
                            })
                        })
                        .count() as u64
                };
                9 * on(Role::Giraffe) + 3 * on(Role::Elephant) + on(Role::Chick)
            }
            Digit::InHand => (0..3).map(|k| u64::from(setup.hands[0][k] + setup.hands[1][k])).sum(),
            Digit::Material => {
                let on_board = (0..12)
                    .filter(|&s| {
                        setup.board[s].is_some_and(|p| p.side == Side::First && p.role != Role::Lion)
                    })
                    .count() as u64;
                on_board + (0..3).map(|k| u64::from(setup.hands[0][k])).sum::<u64>()
            }
            Digit::Owned(k) => {
                let role = [Role::Giraffe, Role::Elephant, Role::Chick][k];
                let on_board = (0..12)
                    .filter(|&s| {
                        setup.board[s].is_some_and(|p| {
                            p.side == Side::First && (p.role == role || (k == 2 && p.role == Role::Hen))
                        })
                    })
                    .count() as u64;
                on_board + u64::from(setup.hands[0][k])
            }
        };
        debug_assert!(v < d.radix());
        key = key * d.radix() + v;
    }
    key
}
