"""The example notebook, `python/examples/explore.ipynb`, run as Jupyter runs it (nbclient, the
library `jupyter nbconvert --execute` runs notebooks with) over the test run's tables: every
cell runs without an error, the board is drawn as SVG, DuckDB's answer is shown and the plot is
rendered as a PNG."""

from __future__ import annotations

import os
from pathlib import Path

import nbclient
import nbformat

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "explore.ipynb"


def test_the_example_notebook_runs_and_draws(tables: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NANA_TABLEBASE_DIR", str(tables.resolve()))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = [set(o.get("data", {})) for o in outputs]
    assert sum("image/svg+xml" in k for k in kinds) == 2, kinds  # the start and the mate
    assert any("image/png" in k for k in kinds), kinds  # the plot
    text = "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "win 31 K*2a" in text, text
    assert "1-0" in text, text
    assert "│ win " in text and "│ loss " in text, text  # DuckDB's table of the sample
