import Glibc

/// Monotonic wall clock, in seconds.
func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Timings of one engine in one workload.
struct Samples {
    var seconds: [Double] = []
    var median: Double {
        let s = seconds.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    var min: Double { seconds.min() ?? .nan }
    var max: Double { seconds.max() ?? .nan }
}

/// Runs each contender once untimed (warm-up), then `runs` timed rounds in which the
/// contenders take turns, so that drift of the machine hits all of them (workloads.md §3).
/// Every run's result goes through `check`; a run with a wrong result is an error.
///
/// Each round takes the contenders in a new order (a fixed-seed shuffle, the same every run
/// of the benchmark), so each one follows each other about equally often. In a fixed order
/// a contender always ran after the same one, in its cache and branch-predictor state: 3b's
/// parse+run, which always followed SQLite, took 2.2–2.4× its run-only time, which always
/// followed it, for 1.5× the instructions.
func alternate(runs: Int, _ contenders: [(name: String, run: () throws -> Void)]) throws -> [Samples] {
    for c in contenders { try c.run() }
    var out = Array(repeating: Samples(), count: contenders.count)
    var order = Array(contenders.indices)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<runs {
        for i in stride(from: order.count - 1, to: 0, by: -1) {     // Fisher–Yates
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(i, Int((seed >> 33) % UInt64(i + 1)))
        }
        for k in order {
            let c = contenders[k]
            let start = now()
            try c.run()
            out[k].seconds.append(now() - start)
        }
    }
    return out
}

/// A report cell: "median (min–max)".
func cell(_ s: Samples) -> String { "\(milliseconds(s.median)) (\(milliseconds(s.min))–\(milliseconds(s.max)))" }

/// `s` padded with spaces to `n` characters (report columns).
func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }

/// "12.3 ms" style, three significant figures.
func milliseconds(_ s: Double) -> String {
    let ms = s * 1000
    if ms >= 100 { return String(format1: ms, decimals: 0) + " ms" }
    if ms >= 10 { return String(format1: ms, decimals: 1) + " ms" }
    if ms >= 1 { return String(format1: ms, decimals: 2) + " ms" }
    let us = ms * 1000
    if us >= 100 { return String(format1: us, decimals: 0) + " µs" }
    if us >= 10 { return String(format1: us, decimals: 1) + " µs" }
    return String(format1: us, decimals: 2) + " µs"
}

extension String {
    /// Fixed-point text without Foundation.
    init(format1 value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (value * scale).rounded()
        let whole = Int(r / scale)
        let frac = Int(abs(r) - abs(Double(whole)) * scale)
        if decimals == 0 { self = String(whole); return }
        var f = String(frac)
        while f.count < decimals { f = "0" + f }
        self = (r < 0 && whole == 0 ? "-" : "") + String(whole) + "." + f
    }
}
