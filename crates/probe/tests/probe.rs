//! The probe layer on a test double, solved by the engine in both entry widths: the ranking,
//! the endings' order of preference, terminal wins, mainlines, draws, the consistency check,
//! unused entries and the JSON answer.
//!
//! Long: every test shares the test double and its solved tables.

use nana_engine::{check_with, solve_with, Dtm, EntryWidth, Graph, NoProgress, Node, Value};
use nana_probe::{Ending, InputError, Probe, ProbeError, ProbeRules, Terminal, Wins};

use Value::{Draw, Loss, Win};

const EXACT: Ending = Ending::new("exact");
const OVERSHOOT: Ending = Ending::new("overshoot");
const TRY: Ending = Ending::new("try");
/// What an unused entry of a legal position means for a game that says nothing of its own.
const UNUSED: &str = "the table was not built for these rules";

/// Counter race: a counter on 0 ..= 8; the side to move adds 1, 2 or 3 (`+1`, `+2`, `+3`), and
/// from 1 may take 1 back (`-1`). Whoever has to move at 6 ("exact") or at 7 or 8
/// ("overshoot") has lost; whoever has to move at 3 has won at once ("try", a terminal win in
/// 1, as when the side to move can take the opponent's lion). From 0 the move `x` leads into a
/// separate loop 9 ⇄ 10 (`+1` and `-1`), drawn. Index = counter; entry 11 is unused.
#[derive(Debug, Clone, Copy)]
struct Race;

impl Race {
    fn moves(&self, c: u64) -> Vec<(&'static str, u64)> {
        match c {
            0 | 2 | 4 | 5 => vec![("+1", c + 1), ("+2", c + 2), ("+3", c + 3)],
            1 => vec![("+1", 2), ("+2", 3), ("+3", 4), ("-1", 0)],
            9 => vec![("+1", 10)],
            10 => vec![("-1", 9)],
            _ => Vec::new(),
        }
        .into_iter()
        .chain((c == 0).then_some(("x", 9)))
        .collect()
    }
}

impl ProbeRules for Race {
    type Position = u64;
    type Move = &'static str;
    type ParseError = InputError;
    // Overshooting is preferred, to show that the preference comes before the notation order.
    const ENDINGS: &'static [Ending] = &[OVERSHOOT, EXACT, TRY];
    const TERMINAL_VALUES: &'static [Value] = &[Loss(Dtm(0)), Win(Dtm(1))];

    fn size(&self) -> u64 {
        12
    }
    fn index(&self, c: &u64) -> u64 {
        *c
    }
    fn for_each_move(&self, c: &u64, mut f: impl FnMut(&'static str, &u64)) {
        for (mv, child) in self.moves(*c) {
            f(mv, &child);
        }
    }
    fn terminal(&self, c: &u64) -> Option<Terminal> {
        let loss = |ending| Some(Terminal { value: Loss(Dtm(0)), ending });
        match c {
            3 => Some(Terminal { value: Win(Dtm(1)), ending: TRY }),
            6 => loss(EXACT),
            7 | 8 => loss(OVERSHOOT),
            _ => None,
        }
    }
    fn machine_notation(&self, _: &u64, mv: &'static str) -> String {
        mv.to_string()
    }
    fn human_notation(&self, c: &u64, mv: &'static str) -> String {
        format!("{c}{mv}")
    }
    fn position_string(&self, c: &u64) -> String {
        format!("at {c}")
    }
    fn unindex(&self, i: u64) -> Option<u64> {
        (i < 11).then_some(i)
    }
    fn start(&self) -> u64 {
        0
    }
    fn parse_position(&self, input: &str) -> Result<u64, InputError> {
        let c = input.strip_prefix("at ").and_then(|c| c.parse().ok()).filter(|&c| c < 11);
        c.ok_or_else(|| InputError(format!("not a counter: {input}")))
    }
    fn parse_move(&self, c: &u64, input: &str) -> Result<&'static str, InputError> {
        let found = self.moves(*c).into_iter().find(|&(mv, _)| mv == input);
        found.map(|(mv, _)| mv).ok_or_else(|| InputError(format!("not a legal move at {c}: {input}")))
    }
    fn play(&self, c: &u64, mv: &'static str) -> u64 {
        self.moves(*c).into_iter().find(|&(m, _)| m == mv).expect("a legal move").1
    }
}

impl Graph for Race {
    fn size(&self) -> u64 {
        12
    }
    fn successors(&self, c: u64, out: &mut Vec<u64>) -> Node {
        if c == 11 {
            return Node::Illegal;
        }
        if let Some(t) = ProbeRules::terminal(self, &c) {
            return Node::Terminal(t.value);
        }
        out.extend(self.moves(c).into_iter().map(|(_, child)| child));
        Node::Inner
    }
    fn predecessors(&self, c: u64, out: &mut Vec<u64>) {
        out.extend((0..11).filter(|&p| self.moves(p).iter().any(|&(_, child)| child == c)));
    }
}

fn solved(width: EntryWidth) -> Vec<u8> {
    let s = solve_with(&Race, width, &NoProgress).unwrap();
    check_with(&Race, &s.bytes(), width, &|_| {}).unwrap();
    s.into_bytes()
}

/// `(move, value for the player making it, counted from before the move, ending)`, best first.
fn ranked(probe: &Probe<'_, Race>, c: u64) -> Vec<(&'static str, Value, Option<&'static str>)> {
    let moves = probe.ranked_moves(&c).unwrap();
    moves.iter().map(|m| (m.mv, m.value_before(), m.ending.map(|e| e.name))).collect()
}

#[test]
fn values_and_ranking_in_both_widths() {
    for width in [EntryWidth::One, EntryWidth::Two] {
        let entries = solved(width);
        let probe = Probe::with_width(Race, &entries, width).unwrap();
        let values: Vec<Value> = (0..11).map(|c| probe.value(&c).unwrap()).collect();
        let expected = [
            Win(Dtm(3)),  // 0: +2 leaves the opponent at 2
            Win(Dtm(3)),  // 1: +1 too
            Loss(Dtm(2)), // 2: every move hands the opponent a win in 1
            Win(Dtm(1)),  // 3: terminal win
            Win(Dtm(1)),  // 4: +2 or +3
            Win(Dtm(1)),  // 5: any move
            Loss(Dtm(0)),
            Loss(Dtm(0)),
            Loss(Dtm(0)),
            Draw,
            Draw,
        ];
        assert_eq!(values, expected, "{width}");
        // Fastest win, draws, slowest loss.
        assert_eq!(
            ranked(&probe, 0),
            vec![
                ("+2", Win(Dtm(3)), None),
                ("x", Draw, None),
                ("+1", Loss(Dtm(4)), None),
                ("+3", Loss(Dtm(2)), Some("try"))
            ],
            "{width}"
        );
        // Equal values: a move that ends the game first (the try), then the notation order.
        assert_eq!(
            ranked(&probe, 1),
            vec![
                ("+1", Win(Dtm(3)), None),
                ("-1", Loss(Dtm(4)), None),
                ("+2", Loss(Dtm(2)), Some("try")),
                ("+3", Loss(Dtm(2)), None)
            ],
            "{width}"
        );
        // Equal values: the game's preferred ending first, whatever the notation order.
        let both = |e| (Win(Dtm(1)), Some(e));
        let r5: Vec<_> = ranked(&probe, 5).into_iter().map(|(mv, v, e)| (mv, (v, e))).collect();
        assert_eq!(r5, vec![("+2", both("overshoot")), ("+3", both("overshoot")), ("+1", both("exact"))]);
        let r4: Vec<_> = ranked(&probe, 4).into_iter().map(|(mv, ..)| mv).collect();
        assert_eq!(r4, vec!["+3", "+2", "+1"]);
        // A terminal position has no moves, whether lost or won.
        assert!(probe.ranked_moves(&3).unwrap().is_empty());
        assert!(probe.ranked_moves(&6).unwrap().is_empty());
        assert_eq!(probe.best_move(&6).unwrap(), None);
        assert_eq!(probe.best_move(&0).unwrap().map(|m| m.mv), Some("+2"));
        // The best move is the first ranked one everywhere (ties of value and ending among
        // them), and an error where ranking is one.
        for p in 0..12 {
            match probe.ranked_moves(&p) {
                Ok(moves) => assert_eq!(probe.best_move(&p).unwrap(), moves.into_iter().next(), "{p}"),
                Err(e) => assert_eq!(probe.best_move(&p), Err(e), "{p}"),
            }
        }
    }
}

#[test]
fn mainlines_end_with_the_game_and_drawing_lines_at_their_length() {
    let entries = solved(EntryWidth::One);
    let probe = Probe::new(Race, &entries).unwrap();
    // To the terminal win of the opponent at 3: the win in 3 plies is two moves and the try.
    assert_eq!(probe.mainline(&0, 10).unwrap(), vec!["+2", "+1"]);
    assert_eq!(probe.mainline(&5, 0).unwrap(), vec!["+2"]);
    assert_eq!(probe.mainline(&6, 10).unwrap(), Vec::<&str>::new());
    assert_eq!(probe.mainline(&9, 5).unwrap(), vec!["+1", "-1", "+1", "-1", "+1"]);
    assert_eq!(probe.mainline(&9, 0).unwrap(), Vec::<&str>::new());
}

#[test]
fn unused_entries_and_wrong_sizes_are_errors() {
    let entries = solved(EntryWidth::One);
    let probe = Probe::new(Race, &entries).unwrap();
    assert_eq!(probe.value(&11), Err(ProbeError::Unused { index: 11, meaning: UNUSED }));
    // A legal position whose entry is marked unused: the table is not this game's.
    let mut spoiled = entries.clone();
    spoiled[6] = 255;
    let probe = Probe::new(Race, &spoiled).unwrap();
    assert_eq!(probe.ranked_moves(&5), Err(ProbeError::Unused { index: 6, meaning: UNUSED }));
    let e = probe.mainline(&4, 10).unwrap_err();
    assert_eq!(
        e.to_string(),
        "entry 6 of a legal position is marked unused: the table was not built for these rules"
    );
    // One-byte entries read as two-byte ones, and a table one entry short.
    assert_eq!(
        Probe::with_width(Race, &entries, EntryWidth::Two).unwrap_err(),
        ProbeError::WrongSize { entries: 6, expected: 12 }
    );
    assert_eq!(
        Probe::new(Race, &entries[..11]).unwrap_err(),
        ProbeError::WrongSize { entries: 11, expected: 12 }
    );
    // An odd number of bytes in two-byte entries.
    let wide = solved(EntryWidth::Two);
    let part = Probe::with_width(Race, &wide[..23], EntryWidth::Two).unwrap_err();
    assert_eq!(part, ProbeError::PartEntry { bytes: 23, width: EntryWidth::Two });
    assert_eq!(part.to_string(), "the table has 23 bytes, not a whole number of entries of two bytes");
}

#[test]
fn a_value_that_disagrees_with_the_moves_or_the_rules_is_inconsistent() {
    let entries = solved(EntryWidth::One);
    let inconsistent = |at: &str| ProbeError::Inconsistent { position: at.to_string() };
    // 5 is a win in 1, stored as a win in 3.
    let mut spoiled = entries.clone();
    spoiled[5] = 4;
    let probe = Probe::new(Race, &spoiled).unwrap();
    assert_eq!(probe.ranked_moves(&5), Err(inconsistent("at 5")));
    assert_eq!(
        probe.mainline(&5, 10).unwrap_err().to_string(),
        "the table is inconsistent at at 5: its value disagrees with its moves' values"
    );
    // The terminal win at 3 stored as a loss in 0: wrong at 3 itself and seen from 2.
    let mut spoiled = entries.clone();
    spoiled[3] = 1;
    let probe = Probe::new(Race, &spoiled).unwrap();
    assert_eq!(probe.ranked_moves(&3), Err(inconsistent("at 3")));
    assert_eq!(probe.ranked_moves(&2), Err(inconsistent("at 3")));
    // A draw stored as a loss.
    let mut spoiled = entries;
    spoiled[9] = 3;
    let probe = Probe::new(Race, &spoiled).unwrap();
    assert_eq!(probe.ranked_moves(&9), Err(inconsistent("at 9")));
}

#[test]
fn the_json_answer_names_the_games_endings() {
    let entries = solved(EntryWidth::Two);
    let probe = Probe::with_width(Race, &entries, EntryWidth::Two).unwrap();
    assert_eq!(
        json(&probe.answer(&5, 10).unwrap()),
        r#"{"fen":"at 5","category":"win","dtm":1,"overshoot":false,"exact":false,"try":false,"best_move":"+2","moves":[{"uci":"+2","san":"5+2","usi":"+2","category":"loss","dtm":0,"overshoot":true,"exact":false,"try":false},{"uci":"+3","san":"5+3","usi":"+3","category":"loss","dtm":0,"overshoot":true,"exact":false,"try":false},{"uci":"+1","san":"5+1","usi":"+1","category":"loss","dtm":0,"overshoot":false,"exact":true,"try":false}],"mainline":["+2"]}"#
    );
    assert_eq!(
        json(&probe.answer(&3, 10).unwrap()),
        r#"{"fen":"at 3","category":"win","dtm":1,"overshoot":false,"exact":false,"try":true,"best_move":null,"moves":[],"mainline":[]}"#
    );
    assert_eq!(
        json(&probe.summary(&9).unwrap()),
        r#"{"fen":"at 9","category":"draw","dtm":null,"overshoot":false,"exact":false,"try":false,"best_move":"+1"}"#
    );
    let answer = probe.answer(&9, 3).unwrap();
    assert_eq!(answer.mainline, ["+1", "-1", "+1"]);
    assert!(answer.moves[0].endings.ending.is_none());
    assert!(probe.answer(&6, 3).unwrap().position.endings.is("exact"));
    assert_eq!(probe.answer(&11, 3), Err(ProbeError::Unused { index: 11, meaning: UNUSED }));
}

fn json<T: serde::Serialize>(answer: &T) -> String {
    serde_json::to_string(answer).unwrap()
}

/// The answer types serialise byte for byte as plain structs of API v1's fields (docs/EXPLORER.md:
/// `uci`, `san` and `usi` for a move, `kif` left out where the game has none, one snake_case key
/// per ending), for a game whose endings are Nana's.
#[test]
fn the_answer_serialises_as_nana_query_did() {
    #[derive(serde::Serialize)]
    struct JsonMove {
        uci: String,
        san: String,
        usi: String,
        category: &'static str,
        dtm: Option<u16>,
        checkmate: bool,
        stalemate: bool,
    }
    #[derive(serde::Serialize)]
    struct JsonValue {
        fen: String,
        category: &'static str,
        dtm: Option<u16>,
        checkmate: bool,
        stalemate: bool,
        best_move: Option<String>,
    }
    #[derive(serde::Serialize)]
    struct JsonQuery {
        #[serde(flatten)]
        value: JsonValue,
        moves: Vec<JsonMove>,
        mainline: Vec<String>,
    }
    const CHECKMATE: Ending = Ending::new("checkmate");
    const STALEMATE: Ending = Ending::new("stalemate");
    const NANA: &[Ending] = &[CHECKMATE, STALEMATE];
    let endings = |ending| nana_probe::Endings { all: NANA, ending };
    for (ending, best_move) in [(None, Some("B*2c")), (Some(CHECKMATE), None), (Some(STALEMATE), None)] {
        let old_value = JsonValue {
            fen: "RCK/2B/2k w b".into(),
            category: "loss",
            dtm: Some(2),
            checkmate: ending == Some(CHECKMATE),
            stalemate: ending == Some(STALEMATE),
            best_move: best_move.map(String::from),
        };
        let new_value = nana_probe::Summary {
            fen: "RCK/2B/2k w b".into(),
            category: nana_engine::Category::Loss,
            dtm: Some(2),
            endings: endings(ending),
            best_move: best_move.map(String::from),
        };
        assert_eq!(json(&new_value), json(&old_value));
        let old_move = |e: Option<Ending>| JsonMove {
            uci: "B*2c".into(),
            san: "B*2c".into(),
            usi: "B*2c".into(),
            category: "draw",
            dtm: None,
            checkmate: e == Some(CHECKMATE),
            stalemate: e == Some(STALEMATE),
        };
        let new_move = |e| nana_probe::MoveAnswer {
            uci: "B*2c".into(),
            san: "B*2c".into(),
            usi: "B*2c".into(),
            kif: None,
            category: nana_engine::Category::Draw,
            dtm: None,
            endings: endings(e),
        };
        let old = JsonQuery {
            value: old_value,
            moves: vec![old_move(ending), old_move(None)],
            mainline: vec!["B*2c".into(), "2a2c".into()],
        };
        let new = nana_probe::Answer {
            position: new_value,
            moves: vec![new_move(ending), new_move(None)],
            mainline: vec!["B*2c".into(), "2a2c".into()],
        };
        assert_eq!(json(&new), json(&old));
    }
}

/// The race with a rule option: its table is a file of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rated(EntryWidth);

mod table {
    use super::*;
    use nana_probe::table::{self, RulesError, Source, Table, TableError, TableRules};
    use nana_tablebase::{Encoding, Expected, Header, TablebaseError};

    impl ProbeRules for Rated {
        type Position = u64;
        type Move = &'static str;
        type ParseError = InputError;
        const ENDINGS: &'static [Ending] = Race::ENDINGS;
        const TERMINAL_VALUES: &'static [Value] = Race::TERMINAL_VALUES;
        fn size(&self) -> u64 {
            ProbeRules::size(&Race)
        }
        fn index(&self, c: &u64) -> u64 {
            *c
        }
        fn for_each_move(&self, c: &u64, f: impl FnMut(&'static str, &u64)) {
            Race.for_each_move(c, f)
        }
        fn terminal(&self, c: &u64) -> Option<Terminal> {
            ProbeRules::terminal(&Race, c)
        }
        fn machine_notation(&self, c: &u64, mv: &'static str) -> String {
            Race.machine_notation(c, mv)
        }
        fn human_notation(&self, c: &u64, mv: &'static str) -> String {
            Race.human_notation(c, mv)
        }
        fn position_string(&self, c: &u64) -> String {
            Race.position_string(c)
        }
        fn unindex(&self, i: u64) -> Option<u64> {
            Race.unindex(i)
        }
        fn start(&self) -> u64 {
            Race.start()
        }
        fn parse_position(&self, input: &str) -> Result<u64, InputError> {
            Race.parse_position(input)
        }
        fn parse_move(&self, c: &u64, input: &str) -> Result<&'static str, InputError> {
            Race.parse_move(c, input)
        }
        fn play(&self, c: &u64, mv: &'static str) -> u64 {
            Race.play(c, mv)
        }
    }

    impl TableRules for Rated {
        fn file_name(&self) -> String {
            format!("race-{}.tb", self.0.bytes())
        }
        fn rule_set_name(&self) -> String {
            "race".into()
        }
        fn options_text(&self) -> String {
            format!("width {}", self.0.bytes())
        }
        fn expected(&self) -> Expected<'static> {
            Expected {
                game: "race",
                rule_set_id: 0,
                option_bits: self.0.bytes() as u32,
                layout_version: 1,
                entry_width: self.0.bytes() as u32,
                // Both encodings: two-byte tables store every win as one value.
                encoding: match self.0 {
                    EntryWidth::One => Encoding::DtmPlies,
                    EntryWidth::Two => Encoding::DtmPliesWinsAsOne,
                },
                entries: 12,
            }
        }
        fn from_header(header: &Header) -> Result<Rated, RulesError> {
            match (header.rule_set_id, header.option_bits) {
                (0, 1) => Ok(Rated(EntryWidth::One)),
                (0, 2) => Ok(Rated(EntryWidth::Two)),
                (0, bits) => Err(RulesError::OptionBits(bits)),
                (id, _) => Err(RulesError::RuleSetId(id)),
            }
        }
        fn solve(
            &self,
            progress: &dyn nana_engine::Progress,
        ) -> Result<nana_engine::Solution, nana_engine::SolveError> {
            solve_with(&Race, self.0, progress)
        }
        fn check(
            &self,
            entries: &[u8],
            width: EntryWidth,
            progress: &(dyn Fn(u64) + Sync),
        ) -> Result<(), nana_engine::CheckError> {
            check_with(&Race, entries, width, progress)
        }
        fn restore_wins(
            &self,
            entries: &[u8],
            width: EntryWidth,
        ) -> Result<Vec<u8>, nana_engine::CheckError> {
            nana_engine::restore_wins(&Race, entries, width, &|_| {})
        }
        fn wins_of_at_least(
            &self,
            entries: &[u8],
            width: EntryWidth,
            at_least: u16,
        ) -> Result<Vec<(u16, u64)>, nana_engine::CheckError> {
            nana_engine::wins_of_at_least(&Race, entries, width, at_least)
        }
    }

    #[test]
    fn headers_name_their_rules_and_meet_only_their_expectations() {
        nana_fixture::assert_header_round_trip(&[Rated(EntryWidth::One), Rated(EntryWidth::Two)]);
    }

    /// Written, opened by rules and by any rules, refused for other rules, damaged, and solved
    /// on demand when missing; every way reads the same values, in either encoding (the
    /// two-byte table's wins stored as one value, their distances searched and restored).
    ///
    /// Long: each refusal is checked on the table the round trip wrote.
    #[test]
    fn tables_round_trip_and_refuse_what_was_not_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        for width in [EntryWidth::One, EntryWidth::Two] {
            let game = Rated(width);
            let solution = game.solve(&NoProgress).unwrap();
            let path = table::write(&game, dir.path(), &solution).unwrap();
            assert_eq!(path, dir.path().join(game.file_name()));

            let opened = Table::open(game, &path).unwrap();
            assert!(matches!(opened.source(), Source::File(_)));
            assert_eq!((opened.width(), opened.entries()), (width, &*solution.bytes()));
            assert_eq!(opened.stats(), solution.stats);
            assert_eq!(opened.probe().value(&0).unwrap(), Win(Dtm(3)));
            // Written in compressed blocks and read an entry at a time: every position reads
            // as the solve's entries say.
            let file = match opened.source() {
                Source::File(file) => file,
                Source::Memory(_) => unreachable!(),
            };
            assert_eq!(file.storage().layout, nana_tablebase::Layout::DEFAULT);
            // The two-byte file's stored entries hold no win's distance.
            assert_eq!(file.entries().unwrap()[..] == solution.bytes()[..], width == EntryWidth::One);
            let in_memory = Probe::of_solution(game, &solution).unwrap();
            for pos in 0..ProbeRules::size(&game) {
                let (read, solved) = (opened.probe().value(&pos), in_memory.value(&pos));
                assert_eq!(read.map_err(|e| e.to_string()), solved.map_err(|e| e.to_string()), "{pos}");
            }
            // The long wins, found without the entries read whole, and with them.
            for at_least in 0..6 {
                let want = width.wins_of_at_least(&solution.bytes(), 12, at_least);
                let fresh = Table::open(game, &path).unwrap();
                assert_eq!(fresh.wins_of_at_least(at_least).unwrap(), want, "{at_least}");
                assert_eq!(opened.wins_of_at_least(at_least).unwrap(), want, "{at_least}");
            }
            game.check(opened.entries(), opened.width(), &|_| {}).unwrap();
            assert_eq!(Table::<Rated>::open_any(&Rated(EntryWidth::One), &path).unwrap().game(), &game);

            let announced = std::cell::Cell::new(false);
            let found = Table::load_or_solve(game, None, dir.path(), &NoProgress, |_, _| announced.set(true))
                .unwrap();
            assert!(!announced.get() && matches!(found.source(), Source::File(_)));
        }

        // The other option's file is not this rule set's table.
        let other = dir.path().join(Rated(EntryWidth::Two).file_name());
        let err = Table::open(Rated(EntryWidth::One), &other).unwrap_err();
        assert!(matches!(err, TableError::OtherRules { .. }), "{err}");
        assert!(
            err.to_string().ends_with(
                "the table was built with rules \"race, width 2\" of race, but rules \"race, width 1\" were asked for"
            ),
            "{err}"
        );
        assert!(!err.needs_regeneration());

        // A flipped byte of the (only) compressed block is a damaged file, which a new solve
        // cures: the file opens, and the block is refused whenever it is read, never read as a
        // value or as an unused entry.
        let path = dir.path().join(Rated(EntryWidth::One).file_name());
        let mut bytes = std::fs::read(&path).unwrap();
        // The block's first byte, after the header and the block index's one record.
        bytes[nana_tablebase::HEADER_SIZE + 12] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let damaged = Table::open(Rated(EntryWidth::One), &path).unwrap();
        for _ in 0..2 {
            let err = damaged.probe().value(&0).unwrap_err();
            assert!(matches!(err, ProbeError::Damaged { index: 0, .. }) && err.needs_regeneration(), "{err}");
            assert!(err.to_string().contains("checksum mismatch in compressed block 0 "), "{err}");
        }
        for err in [damaged.check_blocks().unwrap_err(), damaged.try_entries().unwrap_err()] {
            assert!(
                matches!(err, TableError::File { error: TablebaseError::BlockChecksum { block: 0, .. }, .. }),
                "{err}"
            );
            assert!(err.needs_regeneration());
        }

        // A table whose unused entries are don't-care is refused by a game that cannot tell
        // which they are.
        let game = Rated(EntryWidth::One);
        let solution = game.solve(&NoProgress).unwrap();
        let s = &solution.stats;
        let counts =
            nana_tablebase::Counts { wins: s.wins, losses: s.losses, draws: s.draws, illegal: s.illegal };
        let header = nana_tablebase::Header { dont_care: true, ..game.header(counts, u32::from(s.max_dtm)) };
        let filled = dir.path().join("filled.tb");
        nana_tablebase::write(&filled, &header, &solution.bytes()).unwrap();
        let err = Table::open(game, &filled).unwrap_err();
        assert!(matches!(err, TableError::DontCare(_)), "{err}");
        assert!(err.to_string().contains("don't-care"), "{err}");

        // A folder is not a table; a missing table is solved, announced with the path looked for.
        assert!(matches!(Table::open(Rated(EntryWidth::One), dir.path()), Err(TableError::IsDirectory(_))));
        let empty = tempfile::tempdir().unwrap();
        let mut looked_for = None;
        let solved = Table::load_or_solve(Rated(EntryWidth::One), None, empty.path(), &NoProgress, |_, p| {
            looked_for = Some(p.to_path_buf())
        })
        .unwrap();
        assert_eq!(looked_for, Some(empty.path().join("race-1.tb")));
        assert!(matches!(solved.source(), Source::Memory(_)));
        assert_eq!(solved.origin(), "solved in memory");
        assert_eq!(solved.probe().value(&2).unwrap(), Loss(Dtm(2)));
    }
}

/// With every win's entry rewritten as a win in 1, a probe that searches wins' distances
/// answers every position as the probe of the solved entries does; with a win's entry marked a
/// loss, or with no lost position among a win's moves, it is inconsistent.
#[test]
fn wins_searched_from_their_moves_answer_as_wins_stored() {
    let solved = solved(EntryWidth::One);
    let rewritten: Vec<u8> =
        solved.iter().map(|&v| if v != 0 && v != 255 && v % 2 == 0 { 2 } else { v }).collect();
    assert_ne!(rewritten, solved, "some win is longer than 1");
    let stored = Probe::new(Race, &solved).unwrap();
    let searched = Probe::new(Race, &rewritten).unwrap().with_wins(Wins::Searched);
    let mut losing = Vec::new();
    for c in 0..11 {
        assert_eq!(searched.value(&c), stored.value(&c), "at {c}");
        assert_eq!(searched.best_move_and_counts(&c), stored.best_move_and_counts(&c), "at {c}");
        assert_eq!(json(&searched.answer(&c, 6).unwrap()), json(&stored.answer(&c, 6).unwrap()), "at {c}");
        if let Ok(Loss(d)) = stored.value(&c) {
            losing.extend((d.0 > 0).then_some((c, d.0)));
        }
    }
    // A losing position's best move leads to the slowest win, one ply shorter: with its loss
    // stored two plies longer or shorter, no move's searched win is that, and the walk says so.
    assert!(!losing.is_empty(), "some position loses with a move to make");
    for (c, d) in losing {
        for wrong in [d + 2, d - 2] {
            let mut broken = rewritten.clone();
            broken[c as usize] = (wrong + 1) as u8;
            let searched = Probe::new(Race, &broken).unwrap().with_wins(Wins::Searched);
            let best = searched.best_move_and_counts(&c);
            assert!(matches!(best, Err(ProbeError::Inconsistent { .. })), "{c} lost in {wrong}: {best:?}");
        }
    }
    // 5 wins (its three moves lead to 6, 7 and 8, each lost at once); with those marked draws,
    // none of its moves loses.
    let mut broken = rewritten.clone();
    broken[6..9].fill(0);
    let searched = Probe::new(Race, &broken).unwrap().with_wins(Wins::Searched);
    assert!(matches!(searched.value(&5), Err(ProbeError::Inconsistent { .. })), "{:?}", searched.value(&5));
}
