"""pytest setup for the analyze package: imports it from playbooks/lib."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "logs")
sys.path.insert(0, os.path.join(ROOT, "playbooks", "lib"))


def fixture_lines(name):
    with open(os.path.join(FIXTURES, name), "rb") as stream:
        return stream.read().split(b"\n")


def spying(state_class):
    """A report's state class that also records which lines reached its
    line reader (feed), in state.fed."""

    class Spy(state_class):
        def __init__(self):
            super().__init__()
            self.fed = []

        def feed(self, src, offset, line):
            self.fed.append(line)
            super().feed(src, offset, line)

    return Spy


def generated_lines(tmp_path, kind, kib):
    """The lines of a synthetic JSON log (bench/analyze-log.py) of kib KiB."""
    path = str(tmp_path / (kind + ".log"))
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "analyze-log.py"), kind, path, str(kib)],
                   check=True, stdout=subprocess.DEVNULL)
    with open(path, "rb") as stream:
        return stream.read().split(b"\n")


class Discard:
    """An output stream that keeps nothing."""

    def write(self, text):
        return len(text)
