"""pytest setup for the analyze package: imports it from playbooks/lib."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "logs")
sys.path.insert(0, os.path.join(ROOT, "playbooks", "lib"))


def fixture_lines(name):
    with open(os.path.join(FIXTURES, name), "rb") as stream:
        return stream.read().split(b"\n")
