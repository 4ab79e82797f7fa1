"""``nana.Board`` against the command line (``nana moves``, ``nana play``) and the tables
(``probe``, ``mainline``); its drawing parsed as XML."""

from __future__ import annotations

import copy
import random
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

import nana
from conftest import RULE_SETS, run_nana

GAMES = ["nana", "dobutsu"]
SVG = "{http://www.w3.org/2000/svg}"


def walk(board: nana.Board, plies: int, seed: int) -> list[nana.Board]:
    """``board`` and the boards after each of up to ``plies`` random legal moves from it, pushed
    on ``board``: moves that do not end the game where there are any."""
    rng = random.Random(seed)
    boards = [board.copy()]
    for _ in range(plies):
        if board.is_game_over():
            break
        moves = [m for m in board.legal_moves if not after(board, m).is_game_over()] or board.legal_moves
        board.push(rng.choice(moves))
        boards.append(board.copy())
    return boards


def after(board: nana.Board, move: str) -> nana.Board:
    board = board.copy()
    board.push(move)
    return board


def pieces_on_board(fen: str) -> int:
    """The pieces a position string shows on the board: the letters before its first space or
    ``[`` (Nana's ``1K1/2R/1k1 w Brb``, Dobutsu's ``gle/1c1/1C1/ELG[-] w 0 1``)."""
    return sum(c.isalpha() for c in re.split(r"[ \[]", fen)[0])


def pieces_in_hand(fen: str) -> int:
    """The pieces a position string shows in hand: Dobutsu's between brackets, one letter a
    piece; Nana's third field, a count before a letter held more than once."""
    bracketed = re.search(r"\[(.*?)\]", fen)
    hands = bracketed.group(1) if bracketed else fen.split()[2]
    return sum(int(count or 1) for count, _ in re.findall(r"(\d*)([A-Za-z])", hands))


def run_nana_typed(nana_bin: str, args: list[str], stdin: str) -> str:
    """`nana ARGS` with ``stdin`` typed in; its output."""
    done = subprocess.run([nana_bin, *args], input=stdin, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def decided_positions(tb: nana.Tablebase, game: str, rules: str, category: str, n: int) -> list[str]:
    """``n`` stored positions won (or lost) in one ply or more, from runs of 2,000 entries at
    eighths of the index (a run may hold one category only)."""
    size, found = tb.size(game, rules), []
    for eighth in range(1, 8):
        rows = tb.record_batch(game, rules, size * eighth // 8, 2_000).to_pydict()
        found += [f for f, c, d in zip(rows["fen"], rows["category"], rows["dtm"]) if c == category and d][:1]
        if len(found) == n:
            return found
    raise AssertionError(f"fewer than {n} positions of {category} in the runs of {game} {rules}")


@pytest.mark.parametrize("game", GAMES)
def test_the_start_reads_back_and_is_the_tables(tb, game) -> None:
    board = nana.Board(game)
    rules = board.rules
    assert rules == {"nana": "current", "dobutsu": "tanaka"}[game]
    assert nana.Board(game, rules, board.fen()).fen() == board.fen()
    assert tb.probe(game, rules).fen == board.fen()
    assert board.move_stack == [] and not board.is_game_over() and board.result() == "*"
    assert eval(repr(board), {"Board": nana.Board}) == board


@pytest.mark.parametrize("game,rules", RULE_SETS)
def test_legal_moves_are_the_answers_moves(tb, game, rules) -> None:
    """At the start and along a random walk, the legal moves are the moves the table ranks."""
    for board in walk(nana.Board(game, rules), 12, seed=1):
        answer = tb.probe(game, rules, board)
        assert board.legal_moves == sorted(m.uci for m in answer.moves)
        assert [board.san(m.uci) for m in answer.moves] == [m.san for m in answer.moves]
        assert answer.fen == board.fen()


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_are_the_command_lines(nana_bin, game) -> None:
    for board in walk(nana.Board(game), 10, seed=2):
        lines = run_nana(nana_bin, "--game", game, "moves", "--rules", board.rules, "--position", board.fen())
        listed = [line.split("\t") for line in lines.stdout.splitlines()]
        assert board.legal_moves == sorted(machine for machine, _ in listed)
        assert [board.san(machine) for machine, _ in listed] == [human for _, human in listed]


@pytest.mark.parametrize("game", GAMES)
def test_push_and_pop_restore_the_position(game) -> None:
    board = nana.Board(game)
    boards = walk(board, 30, seed=3)
    assert len(boards) > 10
    assert board.move_stack == boards[-1].move_stack and len(board.move_stack) == len(boards) - 1
    for before in reversed(boards[:-1]):
        after_fen = board.fen()
        move = board.peek()
        assert board.pop() == move
        assert board.fen() == before.fen() and board == before
        assert board.move_stack == before.move_stack
        board.push(move)
        assert board.fen() == after_fen
        board.pop()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


@pytest.mark.parametrize("game", GAMES)
def test_a_move_in_the_human_notation_is_kept_in_the_machine_notation(game) -> None:
    board = nana.Board(game)
    for machine in board.legal_moves:
        human = board.san(machine)
        played = board.copy()
        assert played.push(human) == machine
        assert played.move_stack == [machine]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("move", ["9z9z", "K*2b", "b2b4", "C@b2", "2c2b x"])
def test_an_illegal_move_is_a_value_error_in_the_words_of_nana_play(nana_bin, tables, game, move) -> None:
    board = nana.Board(game)
    assert move not in board.legal_moves and not board.is_legal(move)
    with pytest.raises(ValueError) as raised:
        board.push(move)
    message = str(raised.value)
    assert "\n" not in message and message
    assert board.move_stack == [] and board.fen() == nana.Board(game).fen()
    with pytest.raises(ValueError):
        board.push("")
    # `nana play` answers the same line with the same words, then asks again.
    play = ["--game", game, "--tablebase-dir", str(tables), "play", "--rules", board.rules]
    done = run_nana_typed(nana_bin, play, f"{move}\nquit\n")
    assert f"your move> {message}; try again" in done


@pytest.mark.parametrize("game", GAMES)
def test_unknown_games_rules_and_positions_are_value_errors_as_probe_gives_them(tb, game) -> None:
    with pytest.raises(ValueError, match=r'unknown game "chess" \(known: nana, dobutsu\)'):
        nana.Board("chess")
    with pytest.raises(ValueError, match=r'unknown rule set "nope" of ' + game):
        nana.Board(game, "nope")
    with pytest.raises(ValueError) as probed:
        tb.probe(game, nana.Board(game).rules, "not a position")
    with pytest.raises(ValueError) as made:
        nana.Board(game, fen="not a position")
    assert str(made.value) == str(probed.value)


@pytest.mark.parametrize("game,rules", RULE_SETS)
def test_a_mainline_walked_as_boards_ends_where_the_game_is_over(tb, game, rules) -> None:
    for category in ["win", "loss"]:
        for fen in decided_positions(tb, game, rules, category, 3):
            answer = tb.probe(game, rules, fen)
            boards = tb.mainline_boards(game, rules, fen)
            line = tb.mainline(game, rules, fen)
            assert len(boards) == len(line) + 1 and line == answer.mainline and len(line) == answer.dtm
            assert boards[0] == nana.Board(game, rules, fen) and boards[0].move_stack == []
            for i, board in enumerate(boards):
                assert board.move_stack == line[:i]
                assert not board.is_game_over() or i == len(line)
            last = boards[-1]
            outcome = last.outcome()
            assert last.is_game_over() and outcome is not None and last.legal_moves == []
            mover = boards[0].turn
            assert (outcome.winner == mover) == (category == "win")
            assert outcome.winner is not None and last.result() == outcome.result()
            first_won = outcome.winner == nana.Board(game, rules).turn
            assert outcome.result() == ("1-0" if first_won else "0-1")
            # The table says the same of the last position: over, the same way.
            assert tb.probe(game, rules, last).endings[outcome.termination] is True
            with pytest.raises(ValueError):
                last.copy().push(line[-1])


def test_a_board_is_looked_up_where_a_fen_is_and_only_under_its_own_rules(tb) -> None:
    board = nana.Board("nana", "original")
    board.push(board.legal_moves[0])
    fen = board.fen()
    assert tb.probe("nana", "original", board) == tb.probe("nana", "original", fen)
    assert tb.probe_wdl("nana", "original", board) == tb.probe_wdl("nana", "original", fen)
    assert tb.probe_dtm("nana", "original", board) == tb.probe_dtm("nana", "original", fen)
    assert tb.get_mainline("nana", "original", board) == tb.mainline("nana", "original", fen)
    boards = tb.mainline_boards("nana", "original", board)
    assert boards[0] == board and boards[0].move_stack == board.move_stack
    for other in [("nana", "current"), ("dobutsu", "tanaka")]:
        with pytest.raises(ValueError, match="under the original rules"):
            tb.probe(*other, board)
    assert tb.probe("nana", "current", board.fen()).fen == fen


def test_copies_are_boards_of_their_own() -> None:
    board = nana.Board("nana")
    board.push("K*2a")
    for twin in [board.copy(), copy.copy(board), copy.deepcopy(board)]:
        assert twin == board and twin.move_stack == ["K*2a"]
        twin.push(twin.legal_moves[0])
        assert twin != board and board.move_stack == ["K*2a"]
    root = board.copy(stack=False)
    assert root == board and root.move_stack == []
    with pytest.raises(IndexError):
        root.pop()
    # Equal positions, other rule sets: other boards.
    assert nana.Board("nana", "current") != nana.Board("nana", "original")
    assert nana.Board("nana") != "3/3/3 b KRBkrb"
    with pytest.raises(TypeError):
        hash(board)


def svg_of(board: nana.Board, **options) -> ET.Element:
    root = ET.fromstring(board.svg(**options))
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("game", GAMES)
def test_the_drawing_has_a_piece_for_each_on_the_board_and_the_hands(game) -> None:
    boards = walk(nana.Board(game), 24, seed=5)
    players = [boards[0].turn, boards[1].turn]
    for board in boards:
        fen = board.fen()
        for flipped in [False, True]:
            root = svg_of(board, flipped=flipped)
            pieces = root.findall(f".//{SVG}g[@class='piece']")
            assert len(pieces) == pieces_on_board(fen), fen
            held = root.findall(f".//{SVG}g[@class='hand-piece']")
            assert sum(int(g.get("data-count")) for g in held) == pieces_in_hand(fen), fen
            # Each piece stands on its own square, turned round where its owner sits at the top.
            assert len({g.get("data-square") for g in pieces}) == len(pieces)
            top = players[0] if flipped else players[1]
            assert all((g.get("transform") is not None) == (g.get("data-owner") == top) for g in pieces)
            to_move = root.find(f".//{SVG}text[@class='to-move']")
            assert to_move is not None and board.turn in to_move.text.lower()
    assert any(pieces_on_board(b.fen()) >= 4 for b in boards)
    assert any(pieces_in_hand(b.fen()) > 0 for b in boards)


# A Nana cube shows its face and the mark of its cube, a Dobutsu animal the dots of its steps,
# as their board views say.
@pytest.mark.parametrize(
    "game,fen,dotted,marked", [("nana", "1K1/2R/1k1 w Brb", False, True), ("dobutsu", None, True, False)]
)
def test_the_notebook_shows_the_drawing(game, fen, dotted, marked) -> None:
    board = nana.Board(game, fen=fen)
    board.push(board.legal_moves[-1])
    assert board._repr_svg_() == board.svg()
    root = svg_of(board, size=200)
    assert root.get("width") == "200"
    html = ET.fromstring(board._repr_html_())
    assert html.find(f".//{SVG}svg") is not None
    assert board.fen() in "".join(html.itertext())
    dots = html.findall(f".//{SVG}circle[@class='dot']")
    kinds = html.findall(f".//{SVG}text[@class='kind']")
    assert (len(dots) > 0, len(kinds) > 0) == (dotted, marked)


@pytest.mark.parametrize("game", GAMES)
def test_str_is_the_diagram_of_nana_play(nana_bin, tables, game) -> None:
    board = nana.Board(game)
    play = ["--game", game, "--tablebase-dir", str(tables), "play"]
    assert str(board) in run_nana_typed(nana_bin, play, "quit\n")
