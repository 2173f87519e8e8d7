#!/usr/bin/env python3
"""Run one client command and measure it as a process, the way `time` would.

Usage: timed.py [--stdout null|count|FILE] [--stdin FILE] -- COMMAND [ARG...]

Prints one JSON line: {"wall": s, "user": s, "sys": s, "maxRssBytes": n,
"exit": code, "stdoutBytes": n|null}. CPU and peak memory come from
os.wait4(), i.e. getrusage() of that child and of the descendants it waited
for, so nothing else on the machine (the server included) is counted.
--stdout count reads the command's standard output through a pipe and counts
the bytes (the pipe's reader is this script, whose CPU is not counted).
The command's stderr goes to this script's stderr. Exit status: the
command's (the JSON line is printed in every case).
"""
import json
import os
import subprocess
import sys
import time


def main(argv):
    out_mode = "null"
    stdin_path = None
    while argv and argv[0] != "--":
        if argv[0] == "--stdout" and len(argv) > 1:
            out_mode = argv[1]
            argv = argv[2:]
        elif argv[0] == "--stdin" and len(argv) > 1:
            stdin_path = argv[1]
            argv = argv[2:]
        else:
            sys.stderr.write("timed.py: usage: timed.py [--stdout null|count|FILE] [--stdin FILE] -- COMMAND [ARG...]\n")
            return 2
    argv = argv[1:]
    if not argv:
        sys.stderr.write("timed.py: no command after --\n")
        return 2

    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    if out_mode == "count":
        stdout = subprocess.PIPE
    elif out_mode == "null":
        stdout = subprocess.DEVNULL
    else:
        stdout = open(out_mode, "wb")

    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout)
    except OSError as err:
        sys.stderr.write(f"timed.py: cannot run {argv[0]}: {err.strerror}\n")
        print(json.dumps({"wall": 0, "user": 0, "sys": 0, "maxRssBytes": 0, "exit": 127, "stdoutBytes": None}))
        return 127
    counted = None
    if out_mode == "count":
        counted = 0
        while True:
            chunk = proc.stdout.read(1 << 20)
            if not chunk:
                break
            counted += len(chunk)
    # wait4 gives the rusage of exactly this child (and what it reaped).
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    # ru_maxrss is KiB on Linux and bytes on macOS.
    rss = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    print(json.dumps({
        "wall": round(wall, 6),
        "user": round(usage.ru_utime, 6),
        "sys": round(usage.ru_stime, 6),
        "maxRssBytes": rss,
        "exit": proc.returncode,
        "stdoutBytes": counted,
    }))
    return proc.returncode if proc.returncode >= 0 else 128 - proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
