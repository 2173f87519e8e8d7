"""The quantile sketch of the queries report (analyze/quantile.py): every
bucket's value within 1% of each value it holds, and percentiles read from
the sketch within 1% of the exact nearest-rank ones, on random and
adversarial durations. The Go engine's sketch (analyze-go/quantile.go) is
held to the same bounds by its own tests and to these results by
test_analyze_queries.py, which runs both engines."""

import math
import random

import pytest

from analyze import quantile
from analyze.quantile import ERROR_PERCENT


def exact(values, pct):
    ordered = sorted(values)
    return ordered[quantile.rank(len(ordered), pct) - 1]


def sketched(values, pct):
    counts = {}
    for v in values:
        k = quantile.bucket(v)
        counts[k] = counts.get(k, 0) + 1
    return quantile.quantile(counts, len(values), pct, min(values), max(values))


def within(estimate, truth):
    # In integers: a float's 53 bits cannot tell 1% of a value near 2^63.
    return abs(estimate - truth) * 100 <= abs(truth) * ERROR_PERCENT


def test_each_bucket_value_is_within_the_error_of_every_value_it_holds():
    quantile.bucket(1 << 63)
    for k in range(len(quantile.BOUNDS) - 1):
        lo, hi = quantile.BOUNDS[k], quantile.BOUNDS[k + 1] - 1
        rep = quantile.value(k)
        assert lo <= rep <= hi
        assert within(rep, lo) and within(rep, hi), (k, lo, hi, rep)
        assert quantile.bucket(lo) == quantile.bucket(hi) == k


def test_the_buckets_are_the_go_engines():
    # analyze-go/quantile_test.go holds the Go table to the same figures.
    quantile.bucket((1 << 63) - 1)
    assert sum(1 for b in quantile.BOUNDS if b < 1 << 63) == 2086
    assert quantile.BOUNDS[99:104] == [99, 100, 102, 104, 106]


def test_values_below_100_have_buckets_of_their_own():
    assert [quantile.value(quantile.bucket(v)) for v in range(100)] == list(range(100))


def test_a_negative_value_mirrors_its_opposite():
    for v in (1, 99, 100, 12345, 10 ** 12):
        assert quantile.value(quantile.bucket(-v)) == -quantile.value(quantile.bucket(v))
    assert quantile.bucket(-1) < quantile.bucket(0)


def test_buckets_keep_the_order_of_values():
    values = sorted({int(math.exp(x / 10.0)) for x in range(400)})
    keys = [quantile.bucket(v) for v in values]
    assert keys == sorted(keys)


def test_values_beyond_2_to_the_63_get_buckets_too():
    v = 10 ** 25
    assert within(quantile.value(quantile.bucket(v)), v)


@pytest.mark.parametrize("n,pct,expected", [(1, 95, 1), (20, 95, 19), (21, 95, 20), (100, 50, 50), (101, 50, 51)])
def test_the_rank_is_the_nearest_rank(n, pct, expected):
    assert quantile.rank(n, pct) == expected


DISTRIBUTIONS = {
    "lognormal": lambda rng, n: [int(rng.lognormvariate(4, 1.2)) for _ in range(n)],
    "uniform": lambda rng, n: [rng.randrange(10 ** 6) for _ in range(n)],
    "pareto": lambda rng, n: [int(rng.paretovariate(0.7)) for _ in range(n)],
    "small": lambda rng, n: [rng.randrange(120) for _ in range(n)],
    "constant": lambda rng, n: [rng.randrange(10 ** 5)] * n,
    # Every value at a bucket's edge, where the bucket's value is furthest.
    "edges": lambda rng, n: [quantile.BOUNDS[rng.randrange(100, 800)] - rng.randrange(2) for _ in range(n)],
    # Two far clusters: the percentile sits at the jump between them.
    "bimodal": lambda rng, n: [rng.choice((rng.randrange(1, 5), rng.randrange(10 ** 7, 10 ** 7 + 50)))
                               for _ in range(n)],
    "signed": lambda rng, n: [rng.randrange(-10 ** 4, 10 ** 4) for _ in range(n)],
}


@pytest.mark.parametrize("name", sorted(DISTRIBUTIONS))
def test_sketch_percentiles_are_within_the_error_of_the_exact_ones(name):
    rng = random.Random(name)
    for _ in range(60):
        values = DISTRIBUTIONS[name](rng, rng.choice((1, 2, 3, 19, 20, 21, 100, rng.randrange(1, 3000))))
        for pct in (50, 95):
            truth = exact(values, pct)
            assert within(sketched(values, pct), truth), (name, len(values), pct)


def test_a_merged_sketch_reads_as_the_sketch_of_all_values():
    rng = random.Random(7)
    values = [int(rng.lognormvariate(6, 2)) for _ in range(5000)]
    whole = {}
    for v in values:
        whole[quantile.bucket(v)] = whole.get(quantile.bucket(v), 0) + 1
    parts = [{}, {}]
    for i, v in enumerate(values):
        parts[i % 2][quantile.bucket(v)] = parts[i % 2].get(quantile.bucket(v), 0) + 1
    merged = dict(parts[0])
    for k, n in parts[1].items():
        merged[k] = merged.get(k, 0) + n
    assert merged == whole
    assert len(whole) < 2100  # bounded whatever the count


def test_the_first_and_last_ranks_are_the_exact_min_and_max():
    # 2300 and 2100 are in buckets that stand for 2281 and 2109.
    assert quantile.value(quantile.bucket(2300)) == 2281 and quantile.value(quantile.bucket(2100)) == 2109
    assert sketched([460, 2100, 2300], 95) == 2300
    assert sketched([2100, 2300], 50) == 2100
    assert sketched([2100] * 19 + [2300], 95) == 2109  # rank 19 of 20: from the sketch


def test_counts_that_hold_fewer_values_than_said_are_an_error():
    with pytest.raises(ValueError):
        quantile.quantile({0: 1}, 3, 50, 0, 0)
