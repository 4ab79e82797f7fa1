"""Shared fixtures: this build's ``nana`` (``NANA_BIN``) and the test run's tables of both games
(``NANA_TEST_TABLES``), both given by ``tests/python.rs``, which ``cargo xtask test`` runs."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import nana

# The games and named rule sets whose tables are in `NANA_TEST_TABLES`, as `nana --game G
# --rules R` names them (`NANA_TEST_RULE_SETS`, `game/rules` by commas): every one in the
# self-check; the test command leaves out Dobutsu's safe-try reading, a second whole-game solve.
RULE_SETS = [
    tuple(pair.split("/", 1)) for pair in os.environ.get("NANA_TEST_RULE_SETS", "").split(",") if pair
]


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "self_check: left to the exhaustive tier, `cargo xtask self-check` (whole-table work)",
    )


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests through `cargo xtask test` (tests/python.rs)")
    return value


def pytest_collection_finish(session) -> None:
    if not RULE_SETS:
        raise pytest.UsageError("NANA_TEST_RULE_SETS is not set: run these tests through `cargo xtask test` (tests/python.rs)")


@pytest.fixture(scope="session")
def nana_bin() -> str:
    return _env("NANA_BIN")


@pytest.fixture(scope="session")
def tables() -> Path:
    return Path(_env("NANA_TEST_TABLES"))


@pytest.fixture(scope="session")
def tb(tables: Path):
    with nana.open_tablebases(tables) as tb:
        yield tb


def run_nana(nana_bin: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `nana ARGS`; its output as text."""
    done = subprocess.run([nana_bin, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"nana {' '.join(args)} failed: {done.stderr}")
    return done


def query_json(nana_bin: str, tables: Path, game: str, rules: str, fen: str | None = None) -> dict:
    """`nana --game G query --rules R --json [FEN]` over the folder's table."""
    args = ["--game", game, "--tablebase-dir", str(tables), "query", "--rules", rules, "--json"]
    if fen is not None:
        args.append(fen)
    return json.loads(run_nana(nana_bin, *args).stdout)
