import RealModule

/// Turns a motion into keyframes: values at knots, keyTimes, and a cubic-bezier timing function
/// per segment.
///
/// - `uniform`: fps × duration segments, end point included, linear timing (the seed's method
///   done right; its loop dropped the last frame).
/// - `turningPoints`: knots at every extremum and impact; each segment the Hermite cubic from the
///   exact velocities, `(1/3, d0·Δt/(3Δv), 2/3, 1 − d1·Δt/(3Δv))`.
/// - `adaptive`: the turning-point knots, each segment's controls then fitted (Nelder–Mead on the
///   max error, x and y kept in [0, 1]) when the Hermite ones miss the tolerance, and knots added
///   where a segment still misses it. Impacts are always knots.
public enum KeyframeBaker {
    public enum Strategy: String, CaseIterable, Sendable {
        case uniform, turningPoints = "turning-points", adaptive
    }

    /// Bakes `source`.
    /// - Parameters:
    ///   - source: the motion: an easing or a simulated trajectory.
    ///   - strategy: where the knots go and how each segment's timing function is found.
    ///   - tolerance: for `adaptive`, the max error allowed as a fraction of the travel (the range
    ///     of values), default 0.001.
    ///   - framesPerSecond: for `uniform`.
    ///   - keyPath: the animated property's name, carried into the exports.
    /// - Throws: `KinemaError` for a non-positive tolerance or frame rate.
    /// - Complexity: O(keyframes × fitting work); bounded at 10,000 keyframes.
    public static func bake(_ source: MotionSource, strategy: Strategy = .adaptive, tolerance: Double = 0.001,
                            framesPerSecond: Double = 60, keyPath: String = "value") throws -> KeyframeFit {
        try KinemaError.requirePositive(tolerance, "tolerance")
        try KinemaError.requirePositive(framesPerSecond, "fps")
        let d = source.duration
        switch strategy {
        case .uniform:
            let n = max(1, Int((framesPerSecond * d).rounded()))
            guard n <= 1_000_000 else {
                throw KinemaError(parameter: "fps × duration", value: "\(n)", rule: "at most 1000000 frames")
            }
            let times = (0...n).map { $0 == n ? d : d * Double($0) / Double(n) }
            return try finish(source, knots: times, functions: Array(repeating: .linear, count: n), keyPath: keyPath)
        case .turningPoints, .adaptive:
            let knots = turningPoints(source)
            let travel = travel(source, knots)
            let absolute = tolerance * (travel > 0 ? travel : 1)
            var times: [Double] = [knots[0]], functions: [CubicBezierTimingFunction] = []
            for (a, b) in zip(knots, knots.dropFirst()) {
                if strategy == .turningPoints {
                    functions.append(hermite(source, a, b))
                    times.append(b)
                } else {
                    try fitAdaptively(source, a, b, absolute, depth: 0, times: &times, functions: &functions)
                }
            }
            return try finish(source, knots: times, functions: functions, keyPath: keyPath)
        }
    }

    /// 0, every extremum (velocity sign change, refined by bisection), every impact, and the end.
    static func turningPoints(_ source: MotionSource) -> [Double] {
        let d = source.duration
        var knots = [0.0]
        let pieces = [0.0] + source.breakpoints + [d]
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            // 2,000 samples over the duration: any extrema at least duration/1000 apart are seen.
            let count = max(64, Int(2_000 * (b - a) / d))
            var previousT = a, previousV = source.velocity(a, false)
            for i in 1...count {
                let t = i == count ? b : a + (b - a) * Double(i) / Double(count)
                let v = source.velocity(t, true)
                if previousV != 0 && v != 0 && (previousV < 0) != (v < 0) && t < b {
                    var low = previousT, high = t
                    for _ in 0..<56 {  // from a 1/2000 bracket to below an ulp
                        let middle = 0.5 * (low + high)
                        if (source.velocity(middle, true) < 0) == (previousV < 0) { low = middle } else { high = middle }
                    }
                    knots.append(0.5 * (low + high))
                } else if v == 0 && t < b && t > a {
                    knots.append(t)
                }
                previousT = t
                previousV = v
            }
            if b < d { knots.append(b) }
        }
        knots.append(d)
        var unique: [Double] = []
        for t in knots where unique.last.map({ t - $0 > 1e-12 * max(1, d) }) ?? true { unique.append(t) }
        return unique
    }

    /// The distance from the first value to the last (a spring's |to − from|, an easing's 1);
    /// the range of the knot values when the motion ends where it started.
    static func travel(_ source: MotionSource, _ knots: [Double]) -> Double {
        let net = abs(source.value(source.duration) - source.value(0))
        if net > 0 { return net }
        let values = knots.map(source.value)
        return (values.max() ?? 0) - (values.min() ?? 0)
    }

    /// The Hermite controls from the exact one-sided velocities at the ends of [a, b].
    static func hermite(_ source: MotionSource, _ a: Double, _ b: Double) -> CubicBezierTimingFunction {
        let dv = source.value(b) - source.value(a), dt = b - a
        guard abs(dv) > 1e-300 else { return .linear }
        // At an extremum the velocity is 0 up to the bisection's rounding: snap such y to [0, 1].
        func snap(_ y: Double) -> Double { y < 0 && y > -1e-9 ? 0 : y > 1 && y < 1 + 1e-9 ? 1 : y }
        let y1 = snap(source.velocity(a, false) * dt / (3 * dv))
        let y2 = snap(1 - source.velocity(b, true) * dt / (3 * dv))
        return CubicBezierTimingFunction(uncheckedX1: 1.0 / 3, y1: y1, x2: 2.0 / 3, y2: y2)
    }

    /// Max |segment − source| on [a, b] for a timing function, sampled at `count` points.
    static func segmentError(_ source: MotionSource, _ a: Double, _ b: Double, _ f: CubicBezierTimingFunction,
                             count: Int) -> (error: Double, at: Double) {
        let va = source.value(a), dv = source.value(b) - va
        var worst = 0.0, at = 0.5 * (a + b)
        for i in 1..<count {
            let t = a + (b - a) * Double(i) / Double(count)
            let e = abs(va + dv * f.value(at: Double(i) / Double(count)) - source.value(t))
            if e > worst { worst = e; at = t }
        }
        return (worst, at)
    }

    static func fitAdaptively(_ source: MotionSource, _ a: Double, _ b: Double, _ tolerance: Double, depth: Int,
                              times: inout [Double], functions: inout [CubicBezierTimingFunction]) throws {
        var best = hermite(source, a, b)
        var (error, worstAt) = segmentError(source, a, b, best, count: 128)
        if error > tolerance {
            let fitted = optimize(source, a, b, start: best, goal: 0.9 * tolerance)
            let fittedError = segmentError(source, a, b, fitted, count: 128)
            if fittedError.error < error { (best, error, worstAt) = (fitted, fittedError.error, fittedError.at) }
        }
        guard error > tolerance, depth < 24, times.count < 10_000 else {
            functions.append(best)
            times.append(b)
            return
        }
        // Split where the fit is worst (kept away from the ends so both halves shrink).
        let split = min(max(worstAt, a + 0.25 * (b - a)), b - 0.25 * (b - a))
        try fitAdaptively(source, a, split, tolerance, depth: depth + 1, times: &times, functions: &functions)
        try fitAdaptively(source, split, b, tolerance, depth: depth + 1, times: &times, functions: &functions)
    }

    /// Nelder–Mead on (x1, y1, x2, y2) ∈ [0, 1]⁴, minimizing the max error at 24 points; it stops
    /// once the error is below `goal` (absolute), since a better fit buys no fewer keyframes.
    static func optimize(_ source: MotionSource, _ a: Double, _ b: Double, start: CubicBezierTimingFunction,
                         goal: Double) -> CubicBezierTimingFunction
    {
        let count = 24
        let va = source.value(a), dv = source.value(b) - va
        let targets = (1..<count).map { (source.value(a + (b - a) * Double($0) / Double(count)) - va) / dv }
        // Points are SIMD4 (x1, y1, x2, y2): the simplex never allocates.
        func make(_ p: SIMD4<Double>) -> CubicBezierTimingFunction {
            let q = p.clamped(lowerBound: .zero, upperBound: .one)
            return CubicBezierTimingFunction(uncheckedX1: q[0], y1: q[1], x2: q[2], y2: q[3])
        }
        func cost(_ p: SIMD4<Double>) -> Double {
            let f = make(p)
            var worst = 0.0
            for (i, target) in targets.enumerated() {
                worst = max(worst, abs(f.value(at: Double(i + 1) / Double(count)) - target))
            }
            return worst
        }
        let origin = SIMD4(start.x1, start.y1, start.x2, start.y2).clamped(lowerBound: .zero, upperBound: .one)
        var simplex = (origin, origin, origin, origin, origin)
        func point(_ j: Int) -> SIMD4<Double> {
            switch j { case 0: return simplex.0; case 1: return simplex.1; case 2: return simplex.2; case 3: return simplex.3; default: return simplex.4 }
        }
        func setPoint(_ j: Int, _ p: SIMD4<Double>) {
            switch j { case 0: simplex.0 = p; case 1: simplex.1 = p; case 2: simplex.2 = p; case 3: simplex.3 = p; default: simplex.4 = p }
        }
        for k in 0..<4 {
            var p = origin
            p[k] = p[k] > 0.5 ? p[k] - 0.1 : p[k] + 0.1
            setPoint(k + 1, p)
        }
        var costs = SIMD8<Double>(repeating: .infinity)
        for j in 0..<5 { costs[j] = cost(point(j)) }
        for _ in 0..<400 {
            // Sort the five points by cost (insertion sort, no allocation).
            for i in 1..<5 {
                var j = i
                while j > 0 && costs[j] < costs[j - 1] {
                    let (c, p) = (costs[j], point(j))
                    costs[j] = costs[j - 1]; setPoint(j, point(j - 1))
                    costs[j - 1] = c; setPoint(j - 1, p)
                    j -= 1
                }
            }
            if costs[0] * abs(dv) <= goal || costs[4] - costs[0] <= 1e-9 * costs[0] + 1e-15 { break }
            let centroid = (point(0) + point(1) + point(2) + point(3)) / 4
            func along(_ factor: Double) -> SIMD4<Double> { centroid + factor * (point(4) - centroid) }
            let reflected = along(-1), reflectedCost = cost(reflected)
            if reflectedCost < costs[0] {
                let expanded = along(-2), expandedCost = cost(expanded)
                if expandedCost < reflectedCost { setPoint(4, expanded); costs[4] = expandedCost } else {
                    setPoint(4, reflected); costs[4] = reflectedCost
                }
            } else if reflectedCost < costs[3] {
                setPoint(4, reflected); costs[4] = reflectedCost
            } else {
                let contracted = along(0.5), contractedCost = cost(contracted)
                if contractedCost < costs[4] { setPoint(4, contracted); costs[4] = contractedCost } else {
                    for j in 1...4 {
                        setPoint(j, point(0) + 0.5 * (point(j) - point(0)))
                        costs[j] = cost(point(j))
                    }
                }
            }
        }
        var bestIndex = 0
        for j in 1..<5 where costs[j] < costs[bestIndex] { bestIndex = j }
        return make(point(bestIndex))
    }

    /// Builds the animation from knots and segment functions and measures it against the source.
    static func finish(_ source: MotionSource, knots: [Double], functions: [CubicBezierTimingFunction],
                       keyPath: String) throws -> KeyframeFit {
        let d = source.duration
        var keyTimes = knots.map { $0 / d }
        keyTimes[0] = 0
        keyTimes[keyTimes.count - 1] = 1
        let animation = try KeyframeAnimation(keyPath: keyPath, values: knots.map { [source.value($0)] }, keyTimes: keyTimes,
                                              timingFunctions: functions, calculationMode: .linear, duration: d)
        let outside = functions.reduce(0) { $0 + ($1.y1 < 0 || $1.y1 > 1 ? 1 : 0) + ($1.y2 < 0 || $1.y2 > 1 ? 1 : 0) }
        return KeyframeFit(animation: animation, maxError: maxError(animation, source), controlsOutsideUnitInterval: outside)
    }

    /// Max |animation(t) − source(t)|: 192 samples per segment, then a golden-section search
    /// around the worst sample.
    public static func maxError(_ animation: KeyframeAnimation, _ source: MotionSource) -> Double {
        let d = source.duration
        func error(_ t: Double) -> Double { abs(animation.scalarValue(at: t / d) - source.value(t)) }
        var worst = 0.0
        for (a, b) in zip(animation.keyTimes, animation.keyTimes.dropFirst()) where b > a {
            let count = 192
            var bestT = a * d, bestE = 0.0
            for i in 0...count {
                let t = (a + (b - a) * Double(i) / Double(count)) * d
                let e = error(t)
                if e > bestE { bestE = e; bestT = t }
            }
            var low = max(a * d, bestT - (b - a) * d / Double(count)), high = min(b * d, bestT + (b - a) * d / Double(count))
            // Golden-section search for the maximum, one new evaluation per iteration.
            let ratio = 0.6180339887498949
            var m1 = high - ratio * (high - low), m2 = low + ratio * (high - low)
            var e1 = error(m1), e2 = error(m2)
            for _ in 0..<30 {
                if e1 > e2 {
                    high = m2; m2 = m1; e2 = e1
                    m1 = high - ratio * (high - low); e1 = error(m1)
                } else {
                    low = m1; m1 = m2; e1 = e2
                    m2 = low + ratio * (high - low); e2 = error(m2)
                }
            }
            worst = max(worst, bestE, e1, e2)
        }
        return worst
    }
}
