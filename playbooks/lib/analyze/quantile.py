"""A bounded quantile sketch of integer durations: counts per bucket of
values, the buckets made with integer arithmetic alone so that the Go
engine (analyze-go/quantile.go) makes the same ones and gives the same
result, byte for byte.

Bucket k holds the integers from BOUNDS[k] to BOUNDS[k + 1] - 1, where
BOUNDS starts at 0 and each width is max(1, BOUNDS[k] // 50): one integer
each below 100, then about 2% of the bucket's values. A bucket stands for
its value lo + width // 2, at most width // 2 <= lo / 100 from any of its
values: a quantile read from the sketch is within 1% (ERROR_PERCENT) of
the exact one, and exact below 100. A negative value v counts in bucket
-1 - bucket(-v). Whatever the number of values, a sketch holds at most
one count per bucket: about 2,100 buckets reach 2^63."""

from bisect import bisect_right

ERROR_PERCENT = 1
RELATIVE_ERROR = ERROR_PERCENT / 100  # what the report states
WIDTH_DIVISOR = 50  # width = lo // 50: lo / 100 either side of the middle

BOUNDS = [0]


def _grow():
    lo = BOUNDS[-1]
    BOUNDS.append(lo + max(1, lo // WIDTH_DIVISOR))  # value's width, too


def _reach(v):
    # The bounds are made as far as a value needs (Python's ints have no
    # end; Go's table stops at 2^63).
    while BOUNDS[-1] <= v:
        _grow()


_reach(1 << 20)


def bucket(v):
    """The bucket of the integer v."""
    if v < 0:
        return -1 - bucket(-v)
    if v >= BOUNDS[-1]:
        _reach(v)
    return bisect_right(BOUNDS, v) - 1


def value(k):
    """The value bucket k stands for."""
    if k < 0:
        return -value(-1 - k)
    while k >= len(BOUNDS):
        _grow()
    lo = BOUNDS[k]
    return lo + max(1, lo // WIDTH_DIVISOR) // 2


def rank(n, pct):
    """The nearest rank (1-based) of the pct-th percentile of n values:
    the smallest rank with at least pct% of the values at or below it."""
    return max(1, (n * pct + 99) // 100)


def quantile(counts, n, pct, low, high):
    """The pct-th percentile (nearest rank) of n values counted per bucket
    in counts (dict bucket -> count), whose smallest is low and largest
    high: the value of the bucket that holds that rank, kept within
    [low, high] (where the exact one is: never further from it). The
    first and last ranks are low and high themselves: a p95 of fewer than
    20 values is exact."""
    wanted = rank(n, pct)
    if wanted >= n:
        return high
    if wanted == 1:
        return low
    seen = 0
    for k in sorted(counts):
        seen += counts[k]
        if seen >= wanted:
            return min(max(value(k), low), high)
    raise ValueError("quantile: counts hold fewer than n values")
