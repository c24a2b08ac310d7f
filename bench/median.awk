#!/usr/bin/awk -f
# Median MB/s (and ns/op) per benchmark name over `go test -bench ... -count=N` output.
#   go test -run='^$' -bench=Extract -benchtime=2s -count=5 ./internal/jsonl | awk -f bench/median.awk
# Prints a markdown table: name, runs, median/min/max wall MB/s, median MB/cpu-s, median ms/op.
function med(arr, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
	return (n % 2) ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
}
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	if (!(name in cnt)) order[++norder] = name
	k = ++cnt[name]
	for (f = 2; f <= NF; f++) {
		if ($f == "MB/s") mbs[name, k] = $(f - 1)
		if ($f == "ns/op") ns[name, k] = $(f - 1)
		if ($f == "MB/cpu-s") cpus[name, k] = $(f - 1)
	}
}
END {
	print "| benchmark | runs | median MB/s (wall) | min | max | median MB/cpu-s | median ms/op |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	for (o = 1; o <= norder; o++) {
		name = order[o]; n = cnt[name]
		lo = 1e18; hi = 0
		for (k = 1; k <= n; k++) { a[k] = mbs[name, k]; b[k] = ns[name, k]; c[k] = cpus[name, k]; if (a[k] < lo) lo = a[k]; if (a[k] > hi) hi = a[k] }
		printf "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.1f |\n", name, n, med(a, n), lo, hi, med(c, n), med(b, n) / 1e6
	}
}
