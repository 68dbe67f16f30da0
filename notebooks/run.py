"""Executes every notebook headless (nbclient), in order; the first failing cell fails the run.

The committed notebooks stay without outputs: they are executed in memory and not written back.
The figures they save go to KINEMA_FIGURES (default: docs/figures).
"""
import pathlib
import sys
import time

import nbclient
import nbformat

here = pathlib.Path(__file__).resolve().parent
books = sorted(here.glob("[0-9][0-9]-*.ipynb"))
for path in books:
    started = time.monotonic()
    book = nbformat.read(path, as_version=4)
    try:
        nbclient.NotebookClient(book, timeout=1200, kernel_name="python3",
                                resources={"metadata": {"path": str(here)}}).execute()
    except nbclient.exceptions.CellExecutionError as error:
        print(f"{path.name}: a cell failed\n{error}", file=sys.stderr)
        sys.exit(1)
    print(f"{path.name}: ran in {time.monotonic() - started:.1f} s", file=sys.stderr)
print(f"{len(books)} notebooks ran", file=sys.stderr)
