"""Runs one report over the sources: big plain files are cut into byte
ranges aligned to line starts and scanned by one process per core; gzip and
stdin are read in order by this process. Each part builds its own state,
folded together in file order."""

import os
from array import array

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


def _worker(conn, report_name, source, needles, start, end):
    import signal
    from . import REPORTS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it ends the workers
    try:
        result = (True, _scan_range(REPORTS[report_name], source, needles, start, end))
    except Exception as exc:  # the parent raises it, as a pool would
        result = (False, exc)
    # Sent only when the parent asks: a part waiting for its turn is not
    # held twice (the state and its pickle) while the parent merges another.
    conn.recv()
    _send(conn, result)
    conn.close()


BIG = 1 << 16


def _send(conn, result):
    """(ok, state) through conn, a state's big arrays (the per-cursor and
    per-refresh records) as their bytes, one at a time, instead of inside one
    pickle: neither side then holds a second copy of the whole part."""
    ok, state = result
    big = {}
    if ok and hasattr(state, "__dict__"):
        for name, value in vars(state).items():
            if isinstance(value, array) and len(value) * value.itemsize >= BIG:
                big[name] = value
        for name in big:
            setattr(state, name, None)
    conn.send((ok, state, [(name, value.typecode) for name, value in big.items()]))
    for value in big.values():
        conn.send_bytes(value)


def _receive(conn):
    ok, state, big = conn.recv()
    for name, typecode in big:
        value = array(typecode)
        value.frombytes(conn.recv_bytes())
        setattr(state, name, value)
    return ok, state


def _parts(report, report_name, source, needles, parts):
    """The states of parts, in order: the last one scanned by this process,
    each other one by a process of its own that sends it when asked and
    exits. A pool kept an idle parent and every worker, with the memory its
    part had taken, until the last part was in (a log of distinct cursors:
    130 MiB for the processes together against 60 MiB in one)."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    running = []
    try:
        for start, end in parts[:-1]:
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(theirs, report_name, source, needles, start, end))
            proc.start()
            theirs.close()
            running.append((proc, mine))
        last = _scan_range(report, source, needles, *parts[-1])
        for proc, receive in running:
            try:
                receive.send(True)
                ok, result = _receive(receive)
            except (EOFError, BrokenPipeError):
                raise OSError("a worker process ended without its part (exit %s)" % proc.exitcode) from None
            receive.close()
            proc.join()
            if not ok:
                raise result
            yield result
            del result  # merged: freed before the next part comes in
        yield last
    finally:
        for proc, _ in running:
            if proc.is_alive():
                proc.terminate()
                proc.join()


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
                for part in _parts(report, report_name, source, needles, parts):
                    state.merge(part)
                continue
        state.merge(_scan_range(report, source, needles, 0, None))
    return state
