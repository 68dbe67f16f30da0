import RealModule

/// Turns a motion into keyframes: values at knots, keyTimes, and a cubic-bezier timing function
/// per segment.
///
/// - `uniform`: fps × duration segments, end point included, linear timing (Lockwood's uniform method
///   done right; its loop dropped the last frame).
/// - `turningPoints`: knots at every extremum and impact; each segment the Hermite cubic from the
///   exact velocities, `(1/3, d0·Δt/(3Δv), 2/3, 1 − d1·Δt/(3Δv))` (at a vertical tangent the control
///   moves to its end's time, a third of the travel above or below).
/// - `adaptive`: the turning-point knots less the ripples smaller than half the tolerance (a settled
///   tail's, or a solver's rounding noise), then between each pair as few segments as it finds: from
///   each knot the longest piece whose timing function meets the tolerance, the Hermite one if it
///   does (unless its y-controls leave [0, 1] and fitted ones in [0, 1] do too), else one fitted by
///   `SegmentFitter` (controls in [0, 1]). Impacts are always knots.
public enum KeyframeBaker {
    /// Where keyframes go, as `kinema keyframes --strategy` names it.
    public enum Strategy: String, CaseIterable, Sendable {
        /// Keyframes at a fixed frame rate, linear between them: the 60 fps baseline.
        case uniform
        /// Keyframes at the extrema and impacts only, each segment's timing from its end velocities.
        case turningPoints = "turning-points"
        /// The fewest keyframes whose segments meet the tolerance (the default).
        case adaptive
    }

    /// Where the adaptive bake stops adding knots: past it each piece is taken whatever its error.
    public static let keyframeLimit = 10_000
    /// The shortest piece the adaptive bake tries, as a fraction of the duration.
    static let shortestPiece = 1e-9
    /// The piece that takes a jump at an end (`separatingEndJumps`), as a fraction of the duration.
    static let jumpPiece = 1e-4

    /// The shortest motion baked: near the smallest normal number (2.2e-308) the knot times'
    /// differences, and t/d for the keyTimes, are no longer faithful.
    public static var shortestDuration: Double { 1e-300 }

    /// Bakes `source`.
    /// - Parameters:
    ///   - source: the motion: an easing or a simulated trajectory.
    ///   - strategy: where the knots go and how each segment's timing function is found.
    ///   - tolerance: for `adaptive`, the max error allowed as a fraction of the travel (the range
    ///     of values), default 0.001.
    ///   - framesPerSecond: for `uniform`.
    ///   - keyPath: the animated property's name, carried into the exports.
    /// - Throws: `KinemaError` for a non-positive tolerance or frame rate.
    /// - Complexity: O(keyframes × fitting work); about `keyframeLimit` keyframes at most.
    public static func bake(
        _ source: MotionSource, strategy: Strategy = .adaptive, tolerance: Double = 0.001,
        framesPerSecond: Double = 60, keyPath: String = "value"
    ) throws -> KeyframeFit {
        try KinemaError.requirePositive(tolerance, "tolerance")
        try KinemaError.requirePositive(framesPerSecond, "fps")
        let d = source.duration
        guard d >= shortestDuration, d.isFinite else {
            throw KinemaError(parameter: "duration", value: "\(d)", rule: "a finite number ≥ \(shortestDuration) s")
        }
        switch strategy {
        case .uniform:
            let n = uniformSegmentCount(duration: d, framesPerSecond: framesPerSecond)
            guard n <= 1_000_000 else {
                throw KinemaError(parameter: "fps × duration", value: "\(n)", rule: "at most 1000000 frames")
            }
            let times = (0...n).map { $0 == n ? d : d * Double($0) / Double(n) }
            return try finish(
                source, knots: times, functions: Array(repeating: .linear, count: n), measured: [], keyPath: keyPath)
        case .turningPoints, .adaptive:
            return try knotted(source, strategy: strategy, keyPath: keyPath) { tolerance * ($0 > 0 ? $0 : 1) }
        }
    }

    /// An adaptive bake whose max error is `absoluteTolerance` in the source's own units (a
    /// canvas's pixels), not a fraction of its travel. A knot one segment across meets that error
    /// at (a resting body's chatter, a graze, an arc's apex) is not kept (`joiningAcrossKnots`).
    static func bake(_ source: MotionSource, absoluteTolerance: Double, keyPath: String) throws -> KeyframeFit {
        try KinemaError.requirePositive(absoluteTolerance, "tolerance")
        return try knotted(source, strategy: .adaptive, keyPath: keyPath, keepsEveryKnot: false) {
            _ in absoluteTolerance
        }
    }

    /// The turning-points and adaptive strategies, the adaptive one to the error `bound(travel)`.
    private static func knotted(
        _ source: MotionSource, strategy: Strategy, keyPath: String, keepsEveryKnot: Bool = true,
        bound: (Double) -> Double
    ) throws -> KeyframeFit {
        var knots = turningPoints(source)
        let absolute = bound(travel(source, knots))
        var jumps: [Double] = []
        if strategy == .adaptive {
            knots = significant(knots, source, swing: 0.5 * absolute)
            (knots, jumps) = separatingEndJumps(knots, source, above: absolute)
        }
        var times: [Double] = [knots[0]], functions: [CubicBezierTimingFunction] = [], measured: [Measured?] = []
        // Room for two segments per knot interval, the common case, without regrowing.
        times.reserveCapacity(2 * knots.count)
        functions.reserveCapacity(2 * knots.count)
        measured.reserveCapacity(2 * knots.count)
        var fitter = SegmentFitter()
        for (a, b) in zip(knots, knots.dropFirst()) {
            if strategy == .turningPoints {
                functions.append(hermite(source, a, b))
                times.append(b)
            } else if jumps.contains(a) {
                functions.append(.linear)
                measured.append(nil)
                times.append(b)
            } else {
                fitGreedily(
                    source, a, b, absolute, fitter: &fitter, times: &times, functions: &functions,
                    measured: &measured)
            }
        }
        if strategy == .adaptive && !keepsEveryKnot && functions.count > 1 {
            joiningAcrossKnots(
                source, absolute, fitter: &fitter, times: &times, functions: &functions, measured: &measured)
        }
        return try finish(
            source, knots: times, functions: functions, measured: measured, keyPath: keyPath,
            bound: strategy == .adaptive ? absolute : nil)
    }

    /// The segments on each side of a knot made one wherever one segment across it meets
    /// `tolerance`, from the start on: a run of small impacts (a resting body's chatter) becomes as
    /// few segments as the bound allows, a ballistic arc one segment across its apex, and an impact
    /// whose corner shows stays a knot. A joined segment's error is measured on each segment it
    /// replaces, as finely as that one was: over a long span, 65 samples could step over a bounce.
    static func joiningAcrossKnots(
        _ source: MotionSource, _ tolerance: Double, fitter: inout SegmentFitter, times: inout [Double],
        functions: inout [CubicBezierTimingFunction], measured: inout [Measured?]
    ) {
        var joinedTimes = [times[0]], joinedFunctions: [CubicBezierTimingFunction] = [],
            joinedMeasured: [Measured?] = []
        joinedTimes.reserveCapacity(times.count)
        joinedFunctions.reserveCapacity(functions.count)
        joinedMeasured.reserveCapacity(measured.count)
        // The segment being joined: from times[start] to times[k], timed by `function`.
        var start = 0, function = functions[0], error = measured[0]
        for k in 1..<functions.count {
            fitter.accepted = function
            let fit = fitSegment(source, times[start], times[k + 1], within: tolerance, fitter: &fitter)
            if fit.error <= tolerance,
                case let whole = joinedError(source, times[start...(k + 1)], fit.function, within: tolerance),
                whole <= tolerance
            {
                let measurement = Measurement(error: whole, ceiling: whole)
                (function, error) = (fit.function, Measured(a: times[start], b: times[k + 1], measurement: measurement))
                continue
            }
            joinedTimes.append(times[k])
            joinedFunctions.append(function)
            joinedMeasured.append(error)
            (start, function, error) = (k, functions[k], measured[k])
        }
        joinedTimes.append(times[times.count - 1])
        joinedFunctions.append(function)
        joinedMeasured.append(error)
        (times, functions, measured) = (joinedTimes, joinedFunctions, joinedMeasured)
    }

    /// Max |segment − source| for the segment from the first of `knots` to the last timed by `f`,
    /// measured on each interval between them (`largest`); past `limit`, the first interval's
    /// error above it.
    static func joinedError(
        _ source: MotionSource, _ knots: ArraySlice<Double>, _ f: CubicBezierTimingFunction, within limit: Double
    ) -> Double {
        let a = knots[knots.startIndex], b = knots[knots.endIndex - 1]
        let va = source.value(at: a), dv = source.value(at: b) - va
        var worst = 0.0
        for (p, q) in zip(knots, knots.dropFirst()) {
            worst = max(
                worst,
                largest { u in
                    let t = p + (q - p) * u
                    return abs(va + dv * f.value(at: (t - a) / (b - a)) - source.value(at: t))
                })
            if !(worst <= limit) { return worst }
        }
        return worst
    }

    /// The `uniform` strategy's segment count: fps × duration, rounded, at least 1 (its keyframe
    /// count is one more), and capped at 1e15 so that an absurd rate cannot overflow `Int`.
    package static func uniformSegmentCount(duration: Double, framesPerSecond: Double = 60) -> Int {
        Int(min(max(1, (framesPerSecond * duration).rounded()), 1e15))
    }

    /// 0, every extremum, every impact, every vertical tangent, and the end.
    static func turningPoints(_ source: MotionSource) -> [Double] {
        let d = source.duration
        var inside = source.extrema ?? sampledTurningPoints(source)  // the sampled search includes the impacts
        if source.extrema != nil { inside += source.breakpoints }
        inside += source.verticalTangents
        if source.extrema != nil || !source.verticalTangents.isEmpty { inside.sort() }
        var unique: [Double] = []
        unique.reserveCapacity(inside.count + 2)
        // Relative to the duration: a motion's shape, and so its knots, do not depend on its timescale.
        func add(_ t: Double) { if unique.last.map({ t - $0 > 1e-12 * d }) ?? true { unique.append(t) } }
        add(0)
        for t in inside { add(t) }
        add(d)
        // The last knot is the end: replaced when within rounding of it, added after a lone start
        // (a motion whose knots are all within the rounding bound is still one segment from 0 to d).
        if unique.count == 1 { unique.append(d) } else if unique.last != d { unique[unique.count - 1] = d }
        return unique
    }

    /// The knots with a piece of its own at each end where the value jumps by more than `tolerance`
    /// (Penner's expo and elastic, pinned to 0 and 1), and the starts of those pieces. No keyframes
    /// follow a jump: knots crowding towards it would not get closer. The piece is `jumpPiece` of
    /// the duration (or half the interval beside it) and linear; the pieces beside it follow the motion.
    static func separatingEndJumps(
        _ knots: [Double], _ source: MotionSource, above tolerance: Double
    ) -> (knots: [Double], jumpStarts: [Double]) {
        let d = source.duration, jumps = source.endJumps
        var knots = knots, starts: [Double] = []
        if abs(jumps.start) > tolerance {
            knots.insert(min(jumpPiece * d, 0.5 * knots[1]), at: 1)
            starts.append(0)
        }
        if abs(jumps.end) > tolerance {
            let e = d - min(jumpPiece * d, 0.5 * (d - knots[knots.count - 2]))
            knots.insert(e, at: knots.count - 1)
            starts.append(e)
        }
        return (knots, starts)
    }

    /// Extrema (velocity sign changes, refined by bisection) and impacts in (0, duration), for a
    /// source that does not know its extrema.
    static func sampledTurningPoints(_ source: MotionSource) -> [Double] {
        let d = source.duration
        var knots: [Double] = []
        knots.reserveCapacity(source.breakpoints.count + 32)  // room for the common case without regrowing
        let breakpoints = source.breakpoints
        for piece in 0...breakpoints.count {
            let a = piece == 0 ? 0 : breakpoints[piece - 1], b = piece == breakpoints.count ? d : breakpoints[piece]
            // 2,000 samples over the duration: any extrema at least duration/1000 apart are seen.
            let count = max(64, Int(2_000 * ((b - a) / d)))  // the fraction first: 2,000 × 1e308 overflows
            var previousT = a, previousV = source.velocity(at: a, fromLeft: false)
            for i in 1...count {
                let t = i == count ? b : a + (b - a) * Double(i) / Double(count)
                let v = source.velocity(at: t, fromLeft: true)
                if previousV != 0 && v != 0 && (previousV < 0) != (v < 0) && t < b {
                    var low = previousT, high = t
                    for _ in 0..<56 {  // from a 1/2000 bracket to below an ulp
                        let middle = 0.5 * (low + high)
                        if (source.velocity(at: middle, fromLeft: true) < 0) == (previousV < 0) {
                            low = middle
                        } else {
                            high = middle
                        }
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
        return knots
    }

    /// The knots without the wiggles: pairs of neighbouring extrema less than `swing` apart in
    /// value (a settled tail's ripples, or a solver's rounding noise) are dropped, keeping the more
    /// extreme of the two peaks they lay between, as are extrema within `swing` of a fixed knot.
    /// The ends and the impacts always stay.
    static func significant(_ knots: [Double], _ source: MotionSource, swing: Double) -> [Double] {
        var kept: [(t: Double, v: Double, droppable: Bool)] = []
        kept.reserveCapacity(knots.count)
        for t in knots {
            let v = source.value(at: t)
            let droppable =
                t != knots[0] && t != knots[knots.count - 1] && !source.breakpoints.contains(t)
                && !source.verticalTangents.contains(t)
            guard let last = kept.last, abs(v - last.v) < swing, droppable || last.droppable else {
                kept.append((t, v, droppable))
                continue
            }
            if !droppable { kept.removeLast(); kept.append((t, v, false)); continue }
            if !last.droppable { continue }
            // Drop the pair (last, this); the peak before them keeps whichever peak is further out.
            kept.removeLast()
            if let peak = kept.last, peak.droppable, let before = kept.dropLast().last,
                (v - peak.v) * (peak.v - before.v) > 0
            {
                kept[kept.count - 1] = (t, v, true)
            }
        }
        return kept.map(\.t)
    }

    /// The distance from the first value to the last (a spring's |to − from|, an easing's 1);
    /// the range of the knot values when the motion ends where it started.
    static func travel(_ source: MotionSource, _ knots: [Double]) -> Double {
        let net = abs(source.value(at: source.duration) - source.value(at: 0))
        if net > 0 { return net }
        let values = knots.map(source.value)
        return (values.max() ?? 0) - (values.min() ?? 0)
    }

    /// The Hermite controls from the exact one-sided velocities at the ends of [a, b].
    static func hermite(_ source: MotionSource, _ a: Double, _ b: Double) -> CubicBezierTimingFunction {
        let dv = source.value(at: b) - source.value(at: a), dt = b - a
        guard abs(dv) > 1e-300 else { return .linear }
        // At an extremum the velocity is 0 up to the bisection's rounding: snap such y to [0, 1].
        func snap(_ y: Double) -> Double { y < 0 && y > -1e-9 ? 0 : y > 1 && y < 1 + 1e-9 ? 1 : y }
        let d0 = source.velocity(at: a, fromLeft: false) * dt / dv,
            d1 = source.velocity(at: b, fromLeft: true) * dt / dv
        // A vertical tangent (circ-in at 1): the control straight above or below its end, a third
        // of the travel away, and the other end's two thirds of the time in: x(s) = s² (or
        // 1 − (1 − s)²), whose y follows a square root from that end at any scale.
        let (x1, y1) =
            d0.isInfinite
            ? (0.0, d0 > 0 ? 1.0 / 3 : -1.0 / 3) : d1.isInfinite ? (2.0 / 3, snap(2 * d0 / 3)) : (1.0 / 3, snap(d0 / 3))
        let (x2, y2) =
            d1.isInfinite
            ? (1.0, d1 > 0 ? 2.0 / 3 : 4.0 / 3)
            : d0.isInfinite ? (1.0 / 3, snap(1 - 2 * d1 / 3)) : (2.0 / 3, snap(1 - d1 / 3))
        return CubicBezierTimingFunction(uncheckedX1: x1, y1: y1, x2: x2, y2: y2)
    }

    /// A cubic-bezier easing's own curve between normalized times u and v (de Casteljau: the
    /// control points a third of the parameter span along the tangents at its ends), scaled onto
    /// the unit square: exact wherever it is a timing function (x-controls in [0, 1], y in [0, 1]
    /// as between extrema), nil elsewhere and on a flat piece.
    static func piece(of f: CubicBezierTimingFunction, _ u: Double, _ v: Double) -> CubicBezierTimingFunction? {
        let x = CubicBezierTimingFunction.Polynomial(f.x1, f.x2), y = CubicBezierTimingFunction.Polynomial(f.y1, f.y2)
        let s0 = f.parameter(at: u), s1 = f.parameter(at: v), third = (s1 - s0) / 3
        let (x0, x3, y0, y3) = (x.value(at: s0), x.value(at: s1), y.value(at: s0), y.value(at: s1))
        guard x3 > x0, y3 != y0 else { return nil }
        // Within rounding of an edge (a tangent that is flat or vertical there): on it.
        func unit(_ c: Double) -> Double? { c >= -1e-12 && c <= 1 + 1e-12 ? min(max(c, 0), 1) : nil }
        guard let x1 = unit(third * x.derivative(at: s0) / (x3 - x0)),
            let x2 = unit(1 - third * x.derivative(at: s1) / (x3 - x0)),
            let y1 = unit(third * y.derivative(at: s0) / (y3 - y0)),
            let y2 = unit(1 - third * y.derivative(at: s1) / (y3 - y0))
        else { return nil }
        return CubicBezierTimingFunction(uncheckedX1: x1, y1: y1, x2: x2, y2: y2)
    }

    /// A segment tried on [a, b]: its timing function, its error, and the error's measurement when
    /// it was measured as `maxError` measures it.
    typealias Attempt = (function: CubicBezierTimingFunction, error: Double, measured: Measurement?)

    /// One segment on [a, b], within `tolerance` if it finds one: the Hermite controls (for a
    /// bezier easing, its own piece) if they do, else the last segment's fitted ones if they do
    /// (a decaying oscillation's half-periods are nearly alike), else fitted ones starting from
    /// the better of the two. Each is checked at the fitter's 15 abscissae first and then, when it
    /// passes there, measured as `maxError` does (`largest`): accepted when that is within the
    /// tolerance. (The last segment's are not checked when the Hermite ones pass: the check costs
    /// more than the keyframes it saves.)
    static func fitSegment(
        _ source: MotionSource, _ a: Double, _ b: Double, within tolerance: Double, fitter: inout SegmentFitter
    ) -> Attempt {
        fitter.load(source, a, b)
        // A bezier easing's own piece, which is exact, where it has one.
        let own = source.bezier.flatMap { piece(of: $0, a / source.duration, b / source.duration) }
        var start = own ?? hermite(source, a, b), startError = fitter.error(of: start)
        if startError > 0.9 * tolerance, let previous = fitter.accepted,
            case let previousError = fitter.error(of: previous),
            previousError < startError
        {
            (start, startError) = (previous, previousError)
        }
        if startError <= 0.9 * tolerance {
            let measured = segmentMaxError(source, a, b, start, within: tolerance)
            if measured.error <= tolerance {
                // Steep ends give Hermite y-controls outside [0, 1], which can carry the value
                // past the segment's ends: fitted ones in [0, 1] where they meet the tolerance
                // on the same piece.
                guard start.controlsOutsideUnitInterval > 0,
                    case let fitted = fitter.fit(from: start, goal: 0.8 * tolerance), fitted.error <= tolerance,
                    case let inside = segmentMaxError(source, a, b, fitted.function, within: tolerance),
                    inside.error <= tolerance
                else { return (start, measured.error, measured) }
                return (fitted.function, inside.error, inside)
            }
        }
        let fitted = fitter.fit(from: start, goal: 0.8 * tolerance)
        guard fitted.error <= tolerance else { return (fitted.function, fitted.error, nil) }
        let measured = segmentMaxError(source, a, b, fitted.function, within: tolerance)
        return (fitted.function, measured.error, measured)
    }

    /// Covers [a, e] with as few segments as it finds. From each knot it tries the whole remainder,
    /// then shorter pieces predicted from the error (which falls like a high power of the length),
    /// then, unless the rest then fits in one piece, two bisections back towards the shortest piece
    /// that failed.
    /// Each segment's `measured` entry is its max error as `maxError` measures it, when the
    /// acceptance measured it (nil otherwise), so `finish` does not measure it again.
    static func fitGreedily(
        _ source: MotionSource, _ a: Double, _ e: Double, _ asked: Double,
        fitter: inout SegmentFitter, times: inout [Double], functions: inout [CubicBezierTimingFunction],
        measured: inout [Measured?]
    ) {
        var tolerance = asked, shortestError: Double?
        func attempt(_ a: Double, _ b: Double) -> Attempt {
            fitSegment(source, a, b, within: tolerance, fitter: &fitter)
        }
        /// Appends segment [a, b] and makes its controls the next attempt's alternative start.
        func accept(_ fit: Attempt, _ a: Double, _ b: Double) {
            functions.append(fit.function)
            measured.append(fit.measured.map { Measured(a: a, b: b, measurement: $0) })
            times.append(b)
            fitter.accepted = fit.function
        }
        let shortest = shortestPiece * source.duration
        var start = a
        while start < e {
            var end = e, fit = attempt(start, e), failed: Double?
            while !(fit.error <= tolerance) && end - start > shortest && times.count < keyframeLimit {
                failed = end
                let ratio = fit.error.isFinite ? min(0.9, max(0.25, 0.9 * Double.pow(tolerance / fit.error, 0.2))) : 0.5
                end = start + (end - start) * ratio
                fit = attempt(start, end)
            }
            if !(fit.error <= tolerance) && fit.error.isFinite && end - start <= shortest && tolerance == asked {
                // The shortest piece does not meet it. Past a singular point (poly-in-out(0.001)'s
                // start) the next piece may: this one is taken. When the next does not either, and
                // comes no closer, the tolerance is below the motion's rounding, and pieces as short
                // would follow to the keyframe limit: it is the longest within twice that error
                // (`maxError` reports it), and so are the pieces after it that come no closer.
                if let previous = shortestError, fit.error >= 0.5 * previous {
                    tolerance = 2 * fit.error
                    continue
                }
                shortestError = fit.error
            } else if tolerance == asked {
                shortestError = nil
            }
            if var high = failed, fit.error <= tolerance {
                // When the rest fits in one piece, [start, e] takes two, the fewest it can (it failed
                // whole), and pushing `end` further cannot save a keyframe: no bisection.
                let previous = fitter.accepted
                fitter.accepted = fit.function
                let rest = attempt(end, e)
                if rest.error <= asked {  // not a raised tolerance: the rest may meet the one asked
                    accept(fit, start, end)
                    accept(rest, end, e)
                    break
                }
                fitter.accepted = previous
                for _ in 0..<2 where high - end > 0.05 * (high - start) {
                    let middle = 0.5 * (end + high), trial = attempt(start, middle)
                    if trial.error <= tolerance { (end, fit) = (middle, trial) } else { high = middle }
                }
            }
            accept(fit, start, end)
            start = end
            tolerance = asked
        }
    }

    /// What measuring an error found: its max as `largest` refines it, or, where the samples
    /// showed that the max is at most `ceiling` and that was all that was asked, the largest sample
    /// (`error` ≤ max ≤ `ceiling`; they are equal when refined).
    struct Measurement {
        var error: Double
        var ceiling: Double
    }

    /// A segment's max error on [a, b], as `maxError` measures it.
    struct Measured {
        var a: Double
        var b: Double
        var measurement: Measurement
    }

    /// Max |segment − source| on [a, b] for the segment from source(a) to source(b) timed by `f`,
    /// as `maxError` measures it, when it can be within `tolerance`: refined only when the samples
    /// cannot show that it is (`largest`).
    static func segmentMaxError(
        _ source: MotionSource, _ a: Double, _ b: Double, _ f: CubicBezierTimingFunction, within tolerance: Double
    ) -> Measurement {
        let va = source.value(at: a)
        return segmentMaxError(
            source, a, b, from: va, to: source.value(at: b), f, unlessAbove: tolerance, refiningAbove: tolerance)
    }

    /// Max |segment − source| on [a, b] for the segment from `from` to `to` timed by `f` (`largest`).
    static func segmentMaxError(
        _ source: MotionSource, _ a: Double, _ b: Double, from va: Double, to vb: Double,
        _ f: CubicBezierTimingFunction, unlessAbove limit: Double = .infinity, refiningAbove floor: Double = -.infinity
    ) -> Measurement {
        // A trajectory's samples are evaluated inline, other sources through their closure.
        if let sampled = source.sampled {
            return segmentMaxError(sampled, a, b, from: va, to: vb, f, unlessAbove: limit, refiningAbove: floor)
        }
        return segmentMaxError(
            ClosureValues(closure: source.value), a, b, from: va, to: vb, f, unlessAbove: limit, refiningAbove: floor)
    }

    static func segmentMaxError<Values: MotionValues>(
        _ values: Values, _ a: Double, _ b: Double, from va: Double, to vb: Double,
        _ f: CubicBezierTimingFunction, unlessAbove limit: Double, refiningAbove floor: Double
    ) -> Measurement {
        // The curve's coefficients hoisted, and the 65 samples in one loop here, four at a time
        // (lane by lane the arithmetic of `error`, which the refinement calls).
        let dv = vb - va, x = CubicBezierTimingFunction.Polynomial(f.x1, f.x2),
            y = CubicBezierTimingFunction.Polynomial(f.y1, f.y2)
        func error(_ s: Double) -> Double {
            abs(va + dv * y.value(at: s) - values.value(at: a + (b - a) * x.value(at: s)))
        }
        return largest(
            unlessAbove: limit, refiningAbove: floor,
            sampling: { samples in
                for k in 0..<16 {
                    let s = (SIMD4<Double>(0, 1, 2, 3) + Double(4 * k)) / 64
                    let r = va + dv * y.value(at: s) - values.values(at: a + (b - a) * x.value(at: s))
                    (samples[4 * k], samples[4 * k + 1], samples[4 * k + 2], samples[4 * k + 3]) = (
                        abs(r[0]), abs(r[1]), abs(r[2]), abs(r[3])
                    )
                }
                samples[64] = error(1)
            }, error)
    }

    /// The largest value of `error` on [0, 1]: 65 samples, then each sampled local maximum within
    /// 10 % of the largest refined by successive parabolic interpolation between its neighbours
    /// (`peak`). (A fitted segment's error equioscillates: its peaks are nearly equal, and the
    /// highest between the samples need not be next to the highest sample.) NaN if any sample is.
    @inline(__always)
    static func largest(_ error: (Double) -> Double) -> Double {
        largest(
            unlessAbove: .infinity, refiningAbove: -.infinity,
            sampling: { samples in for i in 0...64 { samples[i] = error(Double(i) / 64) } }, error
        ).error
    }

    /// The same, with the 65 samples `error(i/64)` written by `sampling`; only the largest sample
    /// when it is above `limit`.
    ///
    /// A sampled peak e_i can rise between its neighbours by at most |D|/8, D = e_{i−1} − 2e_i +
    /// e_{i+1}, where the error is a parabola there, and by up to |D|/2 where it has a kink (an
    /// impact inside a uniform segment, halfway between samples); `e_i + |D|` is taken as its
    /// ceiling, which also covers a kink's sides curving up. A peak whose ceiling is below what
    /// refining has found already is not refined, and when no ceiling is above `floor` (a segment
    /// accepted within the tolerance) nothing is: the largest sample is returned with the largest
    /// ceiling, and `maxError` refines such a segment only if its ceiling can be the animation's
    /// max.
    @inline(__always)
    static func largest(
        unlessAbove limit: Double, refiningAbove floor: Double,
        sampling: (UnsafeMutableBufferPointer<Double>) -> Void, _ error: (Double) -> Double
    ) -> Measurement {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 65) { samples in
            sampling(samples)
            var best = 0.0
            for i in 0...64 {
                let e = samples[i]
                if e.isNaN { return Measurement(error: e, ceiling: e) }
                best = max(best, e)
            }
            guard best.isFinite, best <= limit else { return Measurement(error: best, ceiling: best) }
            /// The ceiling of sample i if it is a peak worth refining (one at an end is searched, not bounded).
            func ceiling(ofPeak i: Int) -> Double? {
                guard
                    samples[i] >= 0.9 * best && (i == 0 || samples[i] >= samples[i - 1])
                        && (i == 64 || samples[i] >= samples[i + 1])
                else { return nil }
                return i == 0 || i == 64
                    ? .infinity : samples[i] + (2 * samples[i] - samples[i - 1] - samples[i + 1])
            }
            var highest = best
            for i in 0...64 { if let top = ceiling(ofPeak: i) { highest = max(highest, top) } }
            if highest <= floor { return Measurement(error: best, ceiling: highest) }
            var worst = best
            for i in 0...64 {
                guard let top = ceiling(ofPeak: i), top > worst else { continue }
                if i == 0 || i == 64 {
                    // A peak at an end (the ends of a segment are knots: rarely): search inwards.
                    worst = max(worst, goldenMaximum(error, from: i == 0 ? 0 : 63.0 / 64, to: i == 0 ? 1.0 / 64 : 1))
                } else {
                    worst = max(
                        worst,
                        peak(
                            error, Double(i - 1) / 64, samples[i - 1], Double(i) / 64, samples[i],
                            Double(i + 1) / 64, samples[i + 1]))
                }
            }
            return Measurement(error: worst, ceiling: worst)
        }
    }

    /// The maximum of `error` near b, given a < b < c with error(b) ≥ error(a), error(c), by
    /// successive parabolic interpolation: the vertex of the parabola through the best three
    /// points, until it moves by less than 1e-7 of the bracket or the parabola and the function
    /// agree at the vertex, within 1e-9 of the peak, on a gain of at most that much (on the
    /// argument stop alone, peaks went on to the golden-section search when the parabolas met a
    /// kink of the interpolant: 315,000 in the 20,000-spring sweep's bakes, 41,000 now). Near a
    /// smooth peak that takes two to four evaluations, where a golden-section search takes
    /// eighteen. A peak the parabolas approach slowly (two merging, or a kink in a trajectory's
    /// interpolant next to it: a looser stop, 1e-5, let such peaks end up to 1e-5 low) or a
    /// vertex outside the bracket falls back
    /// to the golden-section search on what is left of the bracket. Only evaluated values are
    /// returned: never more than the true maximum.
    static func peak(
        _ error: (Double) -> Double, _ a: Double, _ ea: Double, _ b: Double, _ eb: Double,
        _ c: Double, _ ec: Double
    ) -> Double {
        var (a, ea, b, eb, c, ec) = (a, ea, b, eb, c, ec)
        let resolution = 1e-7 * (c - a)
        for _ in 0..<6 {
            // The parabola through the three points: second divided difference and vertex.
            let left = (eb - ea) / (b - a), right = (ec - eb) / (c - b), curvature = (right - left) / (c - a)
            let u = 0.5 * (a + b) - left / (2 * curvature)
            guard curvature < 0, u > a, u < c else { break }
            if abs(u - b) <= resolution { return eb }
            let eu = error(u)
            let vertex = ea + left * (u - a) + curvature * (u - a) * (u - b)
            if vertex - eb <= 1e-9 * eb && abs(eu - vertex) <= 1e-9 * eb { return max(eb, eu) }
            if eu >= eb {
                if u < b { (c, ec) = (b, eb) } else { (a, ea) = (b, eb) }
                (b, eb) = (u, eu)
            } else if u < b {
                (a, ea) = (u, eu)
            } else {
                (c, ec) = (u, eu)
            }
        }
        return max(eb, goldenMaximum(error, from: a, to: c))
    }

    /// The maximum of a unimodal `error` on [low, high] by golden-section search, one new
    /// evaluation per iteration, until the bracket is 1.5e-5 of a segment wide (from a sample's
    /// neighbours, 1/32, sixteen iterations), so that the maximum found is within about 1e-7 of
    /// the true one, relatively.
    static func goldenMaximum(_ error: (Double) -> Double, from low: Double, to high: Double) -> Double {
        var low = low, high = high
        let ratio = 0.6180339887498949
        var m1 = high - ratio * (high - low), m2 = low + ratio * (high - low)
        var e1 = error(m1), e2 = error(m2)
        while high - low > 1.5e-5 {
            if e1 > e2 {
                high = m2; m2 = m1; e2 = e1
                m1 = high - ratio * (high - low); e1 = error(m1)
            } else {
                low = m1; m1 = m2; e1 = e2
                m2 = low + ratio * (high - low); e2 = error(m2)
            }
        }
        return max(e1, e2)
    }

    /// Builds the animation from knots and segment functions and measures it against the source.
    static func finish(
        _ source: MotionSource, knots: [Double], functions: [CubicBezierTimingFunction],
        measured: [Measured?], keyPath: String, bound: Double? = nil
    ) throws -> KeyframeFit {
        let d = source.duration
        var keyTimes = knots.map { $0 / d }
        keyTimes[0] = 0
        keyTimes[keyTimes.count - 1] = 1
        let animation = try KeyframeAnimation(
            keyPath: keyPath, values: knots.map { [source.value(at: $0)] }, keyTimes: keyTimes,
            timingFunctions: functions, calculationMode: .linear, duration: d)
        let outside = functions.reduce(0) { $0 + $1.controlsOutsideUnitInterval }
        return KeyframeFit(
            animation: animation, maxError: maxError(animation, source, measured: measured),
            controlsOutsideUnitInterval: outside, bound: bound, endJumps: bound == nil ? (0, 0) : source.endJumps)
    }

    /// Max |animation(t) − source(t)|: 65 samples per segment, then a search around each sampled
    /// peak within 10 % of the largest (`largest`). Scalar linear-mode segments are sampled in their
    /// bezier parameter (no solve for it), other modes in time through `value(at:)`.
    public static func maxError(_ animation: KeyframeAnimation, _ source: MotionSource) -> Double {
        maxError(animation, source, measured: [])
    }

    /// The same, taking segment i's error from `measured[i]` where the baker measured it on the
    /// same [a, b] (keyTimes × duration can differ from the knots by a rounding: then it measures).
    /// A segment the baker did not refine is refined only when its ceiling is above the largest
    /// error found, highest ceilings first: the others cannot hold the max.
    static func maxError(_ animation: KeyframeAnimation, _ source: MotionSource, measured: [Measured?]) -> Double {
        let d = source.duration, keys = animation.keyTimes, values = animation.values
        let parametric = animation.calculationMode == .linear && values[0].count == 1
        func segmentError(_ i: Int) -> Double {
            let a = keys[i] * d, b = keys[i + 1] * d
            guard parametric else {
                return largest { u in
                    let t = a + (b - a) * u
                    return abs(animation.value(at: t / d)[0] - source.value(at: t))
                }
            }
            return segmentMaxError(
                source, a, b, from: values[i][0], to: values[i + 1][0], animation.timingFunctions[i]
            ).error
        }
        var worst = 0.0, unrefined: [(segment: Int, ceiling: Double)] = []
        unrefined.reserveCapacity(keys.count - 1)  // one allocation, not one per doubling
        func include(_ e: Double) { worst = worst.isNaN || e.isNaN ? .nan : max(worst, e) }
        for i in 0..<(keys.count - 1) where keys[i + 1] > keys[i] {
            let known = parametric && i < measured.count ? measured[i] : nil
            if let known, known.a == keys[i] * d, known.b == keys[i + 1] * d {
                include(known.measurement.error)
                if known.measurement.ceiling > known.measurement.error {
                    unrefined.append((i, known.measurement.ceiling))
                }
                continue
            }
            include(segmentError(i))
        }
        unrefined.sort { $0.ceiling > $1.ceiling }
        for (i, ceiling) in unrefined where ceiling > worst {
            include(segmentError(i))
        }
        return worst
    }
}

extension CubicBezierTimingFunction {
    /// How many of its y-controls lie outside [0, 1].
    var controlsOutsideUnitInterval: Int { (y1 < 0 || y1 > 1 ? 1 : 0) + (y2 < 0 || y2 > 1 ? 1 : 0) }
}
