"""Runs one report over the sources: big plain files are cut into byte
ranges aligned to line starts and scanned by one process per core; gzip and
stdin are read in order by this process. Each part builds its own state,
folded together in file order."""

import os

from .source import line_spans, matching_lines_any, ranges

PARALLEL_MIN = 64 << 20  # below this, starting processes costs more than it saves
PART_MIN = 16 << 20


def _scan_range(report, source, needles, start, end):
    state = report.new_state()
    src = source.index
    if hasattr(state, "feed_span"):
        # The report reads whole blocks (its fast path) and passes the
        # lines it cannot read that way to feed itself.
        feed_span = state.feed_span
        for buf, a, b, offset in line_spans(source.blocks(start, end), start):
            feed_span(src, buf, a, b, offset, needles)
        return state
    feed = state.feed
    for offset, line in matching_lines_any(source.blocks(start, end), needles, start):
        feed(src, offset, line)
    return state


def _worker(args):
    report_name, source, needles, start, end = args
    from . import REPORTS
    return _scan_range(REPORTS[report_name], source, needles, start, end)


def workers():
    env = os.environ.get("ANALYZE_JOBS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def run(report_name, report, sources):
    state = report.new_state()
    jobs = workers()
    for source in sources:
        needles = report.needles(source) if hasattr(report, "needles") else (report.NEEDLE,)
        if jobs > 1 and source.splittable() and source.size >= PARALLEL_MIN:
            parts = ranges(source, jobs, PART_MIN)
            if len(parts) > 1:
                import multiprocessing
                ctx = multiprocessing.get_context("fork")
                with ctx.Pool(len(parts)) as pool:
                    for part in pool.imap(_worker, [(report_name, source, needles, a, b) for a, b in parts]):
                        state.merge(part)
                continue
        state.merge(_scan_range(report, source, needles, 0, None))
    return state
