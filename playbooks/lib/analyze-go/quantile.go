package main

// The quantile sketch of the queries report: analyze/quantile.py, whose
// buckets are made with integer arithmetic alone so that both engines make
// the same ones. Bucket k holds the integers from quantileBounds[k] up to
// the next bound; each width is max(1, lo/50): one integer each below 100,
// then about 2% of the bucket's values. A bucket stands for lo + width/2,
// within 1% (quantileErrorPercent) of every value it holds. A negative v
// counts in bucket -1 - bucket(-v).

import "sort"

const (
	quantileErrorPercent = 1
	quantileWidthDivisor = 50
)

// quantileBounds: every bucket's lowest value, up to the last bucket that
// starts below 2^63 (about 2,100; the Python engine makes them as far as a
// value needs, the same ones).
var quantileBounds = func() []int64 {
	bounds := []int64{0}
	for {
		lo := bounds[len(bounds)-1]
		w := quantileWidth(lo)
		if lo > maxInt64-w {
			return bounds
		}
		bounds = append(bounds, lo+w)
	}
}()

const maxInt64 = int64(^uint64(0) >> 1)

func quantileWidth(lo int64) int64 {
	if w := lo / quantileWidthDivisor; w > 1 {
		return w
	}
	return 1
}

// quantileBucket: the bucket of v; |v| below 2^63 (add hands larger ones
// over before they come here).
func quantileBucket(v int64) int32 {
	if v < 0 {
		return -1 - quantileBucket(-v)
	}
	if v < quantileWidthDivisor*2 {
		return int32(v) // one integer per bucket
	}
	return int32(sort.Search(len(quantileBounds), func(i int) bool { return quantileBounds[i] > v }) - 1)
}

// quantileValue: the value bucket k stands for.
func quantileValue(k int32) int64 {
	if k < 0 {
		return -quantileValue(-1 - k)
	}
	lo := quantileBounds[k]
	return lo + quantileWidth(lo)/2
}

// quantileRank: the nearest rank (1-based) of the pct-th percentile of n.
func quantileRank(n, pct int64) int64 {
	return max(1, (n*pct+99)/100)
}

// quantileOf: quantile.quantile, the pct-th percentile (nearest rank) of n
// values counted per bucket, kept within [low, high], the values' own;
// the first and last ranks are low and high themselves.
func quantileOf(buckets []int32, counts []int64, n, pct, low, high int64) int64 {
	wanted := quantileRank(n, pct)
	if wanted >= n {
		return high
	}
	if wanted == 1 {
		return low
	}
	var seen int64
	for i, k := range buckets {
		seen += counts[i]
		if seen >= wanted {
			return min(max(quantileValue(k), low), high)
		}
	}
	panic("quantileOf: counts hold fewer than n values")
}
