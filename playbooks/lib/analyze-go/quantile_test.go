package main

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// within: |estimate - truth| <= 1% of |truth|, in integers (a float's 53
// bits cannot tell 1% of a value near 2^63): for a whole d, d*100 <= t
// is d <= t/100. Both below 2^62 here.
func within(estimate, truth int64) bool {
	d := estimate - truth
	if d < 0 {
		d = -d
	}
	if truth < 0 {
		truth = -truth
	}
	return d <= truth/100*quantileErrorPercent
}

// The same buckets as the Python engine: 2086 of them below 2^63, bounds
// 100, 102, 104 after one per integer (tests/unit/python/
// test_analyze_quantile.py holds quantile.py to the same figures).
func TestTheBucketsAreThePythonEngines(t *testing.T) {
	if len(quantileBounds) != 2086 {
		t.Fatalf("%d buckets, want 2086", len(quantileBounds))
	}
	if got := quantileBounds[99:104]; !slices.Equal(got, []int64{99, 100, 102, 104, 106}) {
		t.Fatalf("bounds %v", got)
	}
}

func TestEachBucketValueIsWithinTheErrorOfEveryValueItHolds(t *testing.T) {
	for k := range quantileBounds {
		lo := quantileBounds[k]
		hi := maxInt64
		if k+1 < len(quantileBounds) {
			hi = quantileBounds[k+1] - 1
		}
		rep := quantileValue(int32(k))
		if rep < lo || rep > hi || !within(rep, lo) || !within(rep, hi) {
			t.Fatalf("bucket %d [%d, %d] stands for %d", k, lo, hi, rep)
		}
		if quantileBucket(lo) != int32(k) || quantileBucket(hi) != int32(k) {
			t.Fatalf("bucket %d: %d and %d are in %d and %d", k, lo, hi, quantileBucket(lo), quantileBucket(hi))
		}
	}
}

func TestValuesBelow100HaveBucketsOfTheirOwn(t *testing.T) {
	for v := int64(0); v < 100; v++ {
		if got := quantileValue(quantileBucket(v)); got != v {
			t.Fatalf("%d stands for %d", v, got)
		}
	}
}

func TestANegativeValueMirrorsItsOpposite(t *testing.T) {
	for _, v := range []int64{1, 99, 100, 12345, 1e12} {
		if quantileValue(quantileBucket(-v)) != -quantileValue(quantileBucket(v)) {
			t.Fatalf("-%d", v)
		}
	}
	if quantileBucket(-1) >= quantileBucket(0) {
		t.Fatal("-1 sorts after 0")
	}
}

func TestTheRankIsTheNearestRank(t *testing.T) {
	for _, c := range [][3]int64{{1, 95, 1}, {20, 95, 19}, {21, 95, 20}, {100, 50, 50}, {101, 50, 51}} {
		if got := quantileRank(c[0], c[1]); got != c[2] {
			t.Fatalf("rank(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

// sketched: the pct-th percentile of values read from their sketch.
func sketched(values []int64, pct int64) int64 {
	counts := map[int32]int64{}
	for _, v := range values {
		counts[quantileBucket(v)]++
	}
	buckets := make([]int32, 0, len(counts))
	for k := range counts {
		buckets = append(buckets, k)
	}
	slices.Sort(buckets)
	n := make([]int64, len(buckets))
	for i, k := range buckets {
		n[i] = counts[k]
	}
	return quantileOf(buckets, n, int64(len(values)), pct, slices.Min(values), slices.Max(values))
}

// Random and adversarial durations: the sketch's median and p95 within 1%
// of the exact nearest-rank ones.
func TestSketchPercentilesAreWithinTheErrorOfTheExactOnes(t *testing.T) {
	rng := rand.New(rand.NewSource(40))
	distributions := map[string]func() int64{
		"lognormal": func() int64 { return int64(math.Exp(4 + 1.2*rng.NormFloat64())) },
		"uniform":   func() int64 { return rng.Int63n(1e6) },
		"pareto":    func() int64 { return int64(math.Pow(1-rng.Float64(), -1/0.7)) },
		"small":     func() int64 { return rng.Int63n(120) },
		// at a bucket's edge, where the bucket's value is furthest
		"edges": func() int64 { return quantileBounds[100+rng.Intn(700)] - rng.Int63n(2) },
		// two far clusters: the percentile sits at the jump between them
		"bimodal": func() int64 {
			if rng.Intn(2) == 0 {
				return 1 + rng.Int63n(4)
			}
			return 1e7 + rng.Int63n(50)
		},
		"signed": func() int64 { return rng.Int63n(2e4) - 1e4 },
		"huge":   func() int64 { return 1<<52 + rng.Int63n(1<<50) },
	}
	for name, draw := range distributions {
		for round := 0; round < 60; round++ {
			n := []int{1, 2, 3, 19, 20, 21, 100, 1 + rng.Intn(3000)}[round%8]
			values := make([]int64, n)
			for i := range values {
				values[i] = draw()
			}
			ordered := slices.Clone(values)
			slices.Sort(ordered)
			for _, pct := range []int64{50, 95} {
				truth := ordered[quantileRank(int64(n), pct)-1]
				if got := sketched(values, pct); !within(got, truth) {
					t.Fatalf("%s, %d values, p%d: %d, exact %d", name, n, pct, got, truth)
				}
			}
		}
	}
}

// 2300 and 2100 are in buckets that stand for 2281 and 2109; the last rank
// is the max and the first the min, exactly.
func TestTheFirstAndLastRanksAreTheExactMinAndMax(t *testing.T) {
	cases := []struct {
		values    []int64
		pct, want int64
	}{
		{[]int64{460, 2100, 2300}, 95, 2300},
		{[]int64{2100, 2300}, 50, 2100},
		{[]int64{2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100, 2100,
			2100, 2100, 2100, 2300}, 95, 2109}, // rank 19 of 20: from the sketch
	}
	for _, c := range cases {
		if got := sketched(c.values, c.pct); got != c.want {
			t.Fatalf("p%d of %v: %d, want %d", c.pct, c.values, got, c.want)
		}
	}
}
