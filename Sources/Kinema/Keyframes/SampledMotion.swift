/// One coordinate of a simulated trajectory as a function of time: the cubic Hermite interpolant
/// of its samples (positions and velocities), split at the impacts where the velocity jumps.
///
/// A concrete type rather than a closure so that the baker's inner loops, which evaluate it a
/// thousand times per spring, inline it (`KeyframeBaker.segmentMaxError`, `SegmentFitter.load`).
struct SampledMotion: Sendable {
    /// An impact knot: time, position, and the velocity before and after.
    struct Impact: Sendable {
        var time: Double
        var x: Double
        var before: Double
        var after: Double
    }

    let times: [Double]
    let positions: [Double]
    let velocities: [Double]
    let impacts: [Impact]
    /// Samples per second, the first time and the last interval's index, for guessing the
    /// interval of a time (samples are nearly evenly spaced).
    let samplesPerSecond: Double
    private let start: Double
    private let lastInterval: Int
    /// Interval i's cubic in powers of t − times[i], for a trajectory without impacts: the same
    /// interpolant as `Hermite.value`, evaluated with no division and half the arithmetic (the
    /// baker evaluates it about a thousand times per spring).
    let pieces: [Piece]

    struct Piece {
        var c0, c1, c2, c3: Double
    }

    init(times: [Double], positions: [Double], velocities: [Double], impacts: [Impact]) {
        self.times = times
        self.positions = positions
        self.velocities = velocities
        self.impacts = impacts
        let duration = times.last ?? 0
        samplesPerSecond = times.count > 1 && duration > times[0] ? Double(times.count - 1) / (duration - times[0]) : 0
        start = times.first ?? 0
        lastInterval = max(times.count - 2, 0)
        pieces =
            impacts.isEmpty
            ? (1..<max(times.count, 1)).map { i in
                let h = times[i] - times[i - 1], x0 = positions[i - 1], v0 = velocities[i - 1], v1 = velocities[i]
                let slope = (positions[i] - x0) / h
                // c3 divides by h twice, not by h·h: h·h underflows below 1e-154 s.
                return Piece(c0: x0, c1: v0, c2: (3 * slope - 2 * v0 - v1) / h, c3: (v0 + v1 - 2 * slope) / h / h)
            } : []
    }

    /// The bracketing knots (t0, x0, v0) and (t1, x1, v1) of `t`, impacts included.
    @inline(__always)
    func locate(_ t: Double) -> (t0: Double, x0: Double, v0: Double, t1: Double, x1: Double, v1: Double) {
        // Guess the interval; bisect only when the guess misses.
        let last = times.count - 1, guess = interval(guessedFor: t)
        var low = 0, high = last
        if times[guess] <= t && (guess + 1 >= last || times[guess + 1] > t) {
            (low, high) = (guess, min(guess + 1, last))
        } else {
            while high - low > 1 {
                let middle = (low + high) / 2
                if times[middle] <= t { low = middle } else { high = middle }
            }
        }
        var knots = (
            t0: times[low], x0: positions[low], v0: velocities[low],
            t1: times[high], x1: positions[high], v1: velocities[high]
        )
        guard !impacts.isEmpty else { return knots }
        for impact in impacts where impact.time >= knots.t0 && impact.time <= knots.t1 {
            if impact.time <= t {
                (knots.t0, knots.x0, knots.v0) = (impact.time, impact.x, impact.after)
            } else {
                (knots.t1, knots.x1, knots.v1) = (impact.time, impact.x, impact.before)
                break
            }
        }
        return knots
    }

    /// The interval [times[i], times[i + 1]] that `t` would be in if the samples were evenly
    /// spaced, clamped to the intervals there are. Clamped as a Double first: a denormal duration
    /// makes the rate infinite, and 0 × ∞ is NaN (not above 0), which no Int can hold.
    @inline(__always)
    func interval(guessedFor t: Double) -> Int {
        let estimate = (t - start) * samplesPerSecond
        return estimate > 0 ? (estimate < Double(lastInterval) ? Int(estimate) : lastInterval) : 0
    }

    @inline(__always)
    func value(at t: Double) -> Double {
        if !pieces.isEmpty {
            // Strictly inside the guessed interval: its power form (a zero-length interval has no
            // piece that can hold t, and the last sample is its own value, not a rounding of it).
            let i = interval(guessedFor: t)
            if times[i] <= t && t < times[i + 1] {
                let p = pieces[i], u = t - times[i]
                return p.c0 + u * (p.c1 + u * (p.c2 + u * p.c3))
            }
        }
        let k = locate(t), h = k.t1 - k.t0
        guard h > 0 else { return k.x0 }
        return Hermite.value(k.x0, k.v0, k.x1, k.v1, (t - k.t0) / h, h)
    }

    /// `value(at:)` at four times: the power forms evaluated together when each time is strictly
    /// inside its guessed interval (the common case), lane by lane the same arithmetic.
    @inline(__always)
    func values(at t: SIMD4<Double>) -> SIMD4<Double> {
        let (i0, i1, i2, i3) = (
            interval(guessedFor: t[0]), interval(guessedFor: t[1]), interval(guessedFor: t[2]),
            interval(guessedFor: t[3])
        )
        func inside(_ i: Int, _ t: Double) -> Bool { times[i] <= t && t < times[i + 1] }
        guard !pieces.isEmpty, inside(i0, t[0]), inside(i1, t[1]), inside(i2, t[2]), inside(i3, t[3]) else {
            return SIMD4(value(at: t[0]), value(at: t[1]), value(at: t[2]), value(at: t[3]))
        }
        let (p0, p1, p2, p3) = (pieces[i0], pieces[i1], pieces[i2], pieces[i3])
        let u = t - SIMD4(times[i0], times[i1], times[i2], times[i3])
        return SIMD4(p0.c0, p1.c0, p2.c0, p3.c0)
            + u
            * (SIMD4(p0.c1, p1.c1, p2.c1, p3.c1)
                + u * (SIMD4(p0.c2, p1.c2, p2.c2, p3.c2) + u * SIMD4(p0.c3, p1.c3, p2.c3, p3.c3)))
    }

    /// The velocity at `t`; at an impact, the one before it (`fromLeft`) or after.
    func velocity(at t: Double, fromLeft: Bool) -> Double {
        if let impact = impacts.first(where: { abs($0.time - t) <= 1e-12 }) {
            return fromLeft ? impact.before : impact.after
        }
        let k = locate(t), h = k.t1 - k.t0
        guard h > 0 else { return k.v0 }
        return Hermite.slope(k.x0, k.v0, k.x1, k.v1, (t - k.t0) / h, h)
    }

    /// The extrema in (0, duration): each cubic piece's slope is a quadratic in s, and its roots
    /// are the extrema. Pieces run between samples, and between samples and the impacts between them.
    func extrema() -> [Double] {
        var extrema: [Double] = []
        for i in 1..<max(times.count, 1) where times[i] > times[i - 1] {
            let (a, b) = (times[i - 1], times[i])
            if !impacts.contains(where: { $0.time > a && $0.time < b }) {
                Hermite.appendSlopeRoots(
                    positions[i - 1], velocities[i - 1], positions[i], velocities[i], from: a, h: b - a,
                    to: &extrema)
            } else {
                let cuts = [a] + impacts.map(\.time).filter { $0 > a && $0 < b } + [b]
                for (p0, p1) in zip(cuts, cuts.dropFirst()) {
                    let k = locate(0.5 * (p0 + p1))
                    Hermite.appendSlopeRoots(k.x0, k.v0, k.x1, k.v1, from: k.t0, h: k.t1 - k.t0, to: &extrema)
                }
            }
            if velocities[i] == 0 && i < times.count - 1 && !impacts.contains(where: { $0.time == b }) {
                extrema.append(b)
            }
        }
        return extrema
    }
}
