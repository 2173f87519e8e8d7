"""Offline analysis of MongoDB server logs: the engine behind playbooks/analyze.

Readers: source (plain files, byte ranges, gzip, stdin), logv2 (JSON logs,
4.4+), legacy (text logs, 2.2 to 4.2). Reports, one module each: cursors,
refresh, queries. scan runs a report over the inputs (one process per core
for big plain files), a line at a time (state.feed) or, for a report that
has it, a block at a time (state.feed_span: cursors and queries read the
usual slow query lines of a block with one regex and feed the rest); cli is
the command line.
"""

from . import cursors, queries, refresh

REPORTS = {"cursors": cursors, "refresh": refresh, "queries": queries}


def main(argv=None):
    from .cli import main as cli_main
    return cli_main(argv)
