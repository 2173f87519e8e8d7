"""Times kept as (template, time of day): printed back exactly, ordered right."""
import pytest

from analyze.common import UNKNOWN_TIME, time_key
from analyze.timecodec import Times


@pytest.mark.parametrize("text", [
    "2022-03-02T06:47:26.367-05:00",
    "2022-03-02T06:47:26.367Z",
    "2022-03-02T06:47:26.367-0500",
    "Thu Oct  6 11:28:42.556",
    "Thu Oct 6 11:28:42.556",
    "Mon Aug  5 20:21:16",
])
def test_every_time_prints_back_as_written(text):
    times = Times()
    tid, hms, _ = times.encode(text)
    assert times.decode(tid, hms) == text


def test_keys_are_epoch_milliseconds_with_the_zone_applied():
    times = Times()
    assert times.encode("2022-03-02T06:47:26.367-05:00")[2] == time_key("2022-03-02T11:47:26.367Z")
    assert times.encode("2022-03-02T11:47:26.367Z")[2] == 1646221646367


def test_ctime_has_no_year_so_no_key():
    assert Times().encode("Thu Oct  6 11:28:42.556")[2] == UNKNOWN_TIME


def test_templates_are_shared_by_the_lines_of_a_day():
    times = Times()
    a = times.encode("2022-03-02T06:47:26.367-05:00")
    b = times.encode("2022-03-02T23:59:59.999-05:00")
    assert a[0] == b[0] and len(times.templates) == 1 and a[2] < b[2]
