/// Fits one keyframe segment's cubic-bezier timing function to a motion on [a, b].
///
/// The motion is normalized to run from (0, 0) to (1, 1) and sampled once, at fixed abscissae
/// x_j = j/16, j = 1…15. At fixed x the curve's value y(s(x)) is smooth in the four controls, with
/// derivatives ∂y/∂y1 = B1(s), ∂y/∂x1 = −(dy/dx)·B1(s) (B1 = 3(1−s)²s, likewise B2), so the fit
/// is Gauss–Newton on the controls; after a few plain steps the weights follow Lawson
/// (w ← w·|r|), which moves the least-squares fit towards the smallest max error. Controls are
/// kept in [0, 1]. The source is evaluated 17 times per segment (`load`), never inside the
/// iteration, and the buffers are reused from segment to segment. Every accepted segment is then
/// measured at 65 points (`KeyframeBaker.largest`), so the abscissae only steer the fit: 15
/// of them cost 17 % fewer instructions per bake than 23 did, for 0.2 % more keyframes over 200
/// springs (11 cost another 10 %, for 1 % more).
struct SegmentFitter {
    static let points = 16
    /// What the fit keeps per abscissa x_j.
    struct Abscissa {
        var target = 0.0
        var residual = 0.0
        var weight = 1.0
    }
    private var abscissae = [Abscissa](repeating: Abscissa(), count: points - 1)
    /// The curve parameters s_j with x(s_j) = x_j, the next solve's first guesses (an array of
    /// their own: the solve reads and writes nothing else).
    private var parameters = [Double](repeating: 0, count: points - 1)

    /// The last segment's timing function, a starting point for the next.
    var accepted: CubicBezierTimingFunction?
    /// The segment's change in value, after `load`.
    private(set) var change = 0.0

    /// Samples the motion on [a, b] at the abscissae, normalized by its change in value.
    mutating func load(_ source: MotionSource, _ a: Double, _ b: Double) {
        if let sampled = source.sampled { load(sampled, a, b) } else { load(ClosureValues(closure: source.value), a, b) }
    }

    private mutating func load<Values: MotionValues>(_ values: Values, _ a: Double, _ b: Double) {
        let va = values.value(at: a)
        change = values.value(at: b) - va
        let n = Self.points
        for j in 1..<n {
            let x = Double(j) / Double(n)
            abscissae[j - 1].target = change == 0 ? 0 : (values.value(at: a + (b - a) * x) - va) / change
            parameters[j - 1] = x
            abscissae[j - 1].weight = 1
        }
    }

    /// Max |segment − motion| (absolute) at the abscissae for the timing function `f`.
    mutating func error(of f: CubicBezierTimingFunction) -> Double {
        evaluate(SIMD4(f.x1, f.y1, f.x2, f.y2)).max * abs(change)
    }

    /// The controls that come closest to the loaded motion at the abscissae, starting from `start`,
    /// with their max error there (absolute); it stops once that is below `goal`, or when it stays
    /// above four times `goal` after three steps, or twice it after ten, or improves by less than 2 %
    /// in three steps (the segment needs splitting, not more iterations).
    mutating func fit(from start: CubicBezierTimingFunction, goal: Double) -> (function: CubicBezierTimingFunction, error: Double) {
        guard abs(change) > 1e-300 else { return (.linear, 0) }
        let n = Self.points
        let goal = goal / abs(change)
        var p = SIMD4(start.x1, start.y1, start.x2, start.y2).clamped(lowerBound: .zero, upperBound: .one)
        var worst = evaluate(p)
        var best = p, bestWorst = worst.max
        var checkpoint = Double.infinity
        for iteration in 0..<24 {
            if bestWorst <= goal || (iteration >= 3 && bestWorst > 4 * goal) || (iteration >= 10 && bestWorst > 2 * goal) { break }
            if iteration >= 4 && iteration % 3 == 1 {
                // Stalled: less than 2 % better than three iterations ago (such fits ran all 24
                // iterations and failed, a third of the fitting time).
                if bestWorst > 0.98 * checkpoint { break }
                checkpoint = bestWorst
            }
            if iteration >= 3 {
                // Lawson: weight each abscissa by how badly it is missed.
                var total = 0.0
                for j in 0..<(n - 1) { abscissae[j].weight *= abs(abscissae[j].residual) / worst.max + 1e-3; total += abscissae[j].weight }
                for j in 0..<(n - 1) { abscissae[j].weight *= Double(n - 1) / total }
                worst.squares = weightedSquares()
            }
            guard let step = gaussNewtonStep(p) else { break }
            // Halve the step until the weighted squares go down.
            var scale = 1.0, accepted = false
            for _ in 0..<4 {
                let trial = (p + scale * step).clamped(lowerBound: .zero, upperBound: .one)
                let trialWorst = evaluate(trial)
                if trialWorst.squares < worst.squares {
                    (p, worst, accepted) = (trial, trialWorst, true)
                    break
                }
                scale *= 0.5
            }
            if !accepted { break }
            if worst.max < bestWorst { (best, bestWorst) = (p, worst.max) }
        }
        return (CubicBezierTimingFunction(uncheckedX1: best[0], y1: best[1], x2: best[2], y2: best[3]), bestWorst * abs(change))
    }

    /// Residuals y(s(x_j)) − target_j at controls p: their max and weighted sum of squares. The
    /// parameters s_j are kept as the next call's starting guesses.
    private mutating func evaluate(_ p: SIMD4<Double>) -> (max: Double, squares: Double) {
        parameters.withUnsafeMutableBufferPointer { parameters in
            Self.solveParameters(parameters, p[0], p[2])
            let y = CubicBezierTimingFunction.Polynomial(p[1], p[3])
            return abscissae.withUnsafeMutableBufferPointer { abscissae in
                var worst = 0.0, squares = 0.0
                for j in abscissae.indices {
                    let r = y.value(at: parameters[j]) - abscissae[j].target
                    abscissae[j].residual = r
                    worst = max(worst, abs(r))
                    squares += abscissae[j].weight * r * r
                }
                return (worst, squares)
            }
        }
    }

    /// s_j with x(s_j) = x_j for the x-controls (x1, x2), from the parameters held as guesses:
    /// Newton, a lane stepping while it is off by more than 1e-13 and its slope has not vanished,
    /// then the bracketed solve for a lane still off after eight passes (after four, a third of
    /// the solves fell back to it, 6 % of a bake; sixteen gain nothing more). The fifteen solves
    /// run in step, one Newton step of each per pass: a lane that has stopped is evaluated again
    /// at the same s, so it stays stopped: its steps are the ones it took alone, with no state kept
    /// per lane.
    static func solveParameters(_ parameters: UnsafeMutableBufferPointer<Double>, _ x1: Double, _ x2: Double) {
        let n = parameters.count, x = CubicBezierTimingFunction.Polynomial(x1, x2)
        var pass = 0, stepped = n
        while pass < 8 && stepped > 0 {
            stepped = 0
            for j in 0..<n {
                // (j + 1)/16 exactly, without a division.
                let s = parameters[j], target = Double(j + 1) * (1.0 / Double(points))
                let slope = x.derivative(at: s), error = x.value(at: s) - target
                let steps = slope > 1e-9 && abs(error) > 1e-13
                parameters[j] = steps ? min(max(s - error / slope, 0), 1) : s
                stepped &+= steps ? 1 : 0
            }
            pass += 1
        }
        for j in 0..<n {
            let target = Double(j + 1) / Double(points)
            guard abs(x.value(at: parameters[j]) - target) > 1e-13 else { continue }
            parameters[j] = CubicBezierTimingFunction(uncheckedX1: x1, y1: 0, x2: x2, y2: 1).parameter(at: target)
        }
    }

    private func weightedSquares() -> Double {
        var squares = 0.0
        for j in 0..<(Self.points - 1) { squares += abscissae[j].weight * abscissae[j].residual * abscissae[j].residual }
        return squares
    }

    /// The Gauss–Newton step from the last `evaluate`, by Cholesky on the 4×4 normal equations;
    /// nil when they are singular.
    private func gaussNewtonStep(_ p: SIMD4<Double>) -> SIMD4<Double>? {
        var m = (SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero)
        var g = SIMD4<Double>.zero
        let x = CubicBezierTimingFunction.Polynomial(p[0], p[2]), y = CubicBezierTimingFunction.Polynomial(p[1], p[3])
        abscissae.withUnsafeBufferPointer { abscissae in
            for (abscissa, s) in zip(abscissae, parameters) {
                let u = 1 - s
                let b1 = 3 * u * u * s, b2 = 3 * u * s * s
                let dx = x.derivative(at: s), dy = y.derivative(at: s)
                let slope = dx > 1e-9 ? dy / dx : 0
                let row = SIMD4(-slope * b1, b1, -slope * b2, b2), w = abscissa.weight
                m.0 += w * row[0] * row
                m.1 += w * row[1] * row
                m.2 += w * row[2] * row
                m.3 += w * row[3] * row
                g += w * abscissa.residual * row
            }
        }
        // Levenberg's small diagonal load keeps the solve defined when a control has no effect.
        let load = 1e-10 * (m.0[0] + m.1[1] + m.2[2] + m.3[3]) + 1e-300
        var a = SIMD16<Double>(lowHalf: SIMD8(lowHalf: m.0, highHalf: m.1), highHalf: SIMD8(lowHalf: m.2, highHalf: m.3))
        for i in 0..<4 { a[5 * i] += load }
        var rhs = -g
        // A control on a bound whose step points outwards stays there: its row and column drop out.
        guard var step = Self.solve(a, rhs) else { return nil }
        for _ in 0..<2 {
            var held = false
            for i in 0..<4 where (p[i] <= 0 && step[i] < 0) || (p[i] >= 1 && step[i] > 0) {
                for k in 0..<4 { a[4 * i + k] = 0; a[4 * k + i] = 0 }
                a[5 * i] = 1
                rhs[i] = 0
                held = true
            }
            guard held, let next = Self.solve(a, rhs) else { break }
            step = next
        }
        return step
    }

    /// Solves the symmetric positive definite 4×4 system `a` (row-major) by Cholesky, written out
    /// (indexing a SIMD16 by variables spills it); nil if it is not positive definite.
    private static func solve(_ a: SIMD16<Double>, _ b: SIMD4<Double>) -> SIMD4<Double>? {
        let l00 = a[0].squareRoot()
        let l10 = a[4] / l00, l20 = a[8] / l00, l30 = a[12] / l00
        let d1 = a[5] - l10 * l10
        guard l00 > 0, d1 > 0 else { return nil }
        let l11 = d1.squareRoot()
        let l21 = (a[9] - l20 * l10) / l11, l31 = (a[13] - l30 * l10) / l11
        let d2 = a[10] - l20 * l20 - l21 * l21
        guard d2 > 0 else { return nil }
        let l22 = d2.squareRoot()
        let l32 = (a[14] - l30 * l20 - l31 * l21) / l22
        let d3 = a[15] - l30 * l30 - l31 * l31 - l32 * l32
        guard d3 > 0 else { return nil }
        let l33 = d3.squareRoot()
        // L y = b, then Lᵀ x = y.
        let y0 = b[0] / l00, y1 = (b[1] - l10 * y0) / l11
        let y2 = (b[2] - l20 * y0 - l21 * y1) / l22, y3 = (b[3] - l30 * y0 - l31 * y1 - l32 * y2) / l33
        let x3 = y3 / l33, x2 = (y2 - l32 * x3) / l22
        let x1 = (y1 - l21 * x2 - l31 * x3) / l11, x0 = (y0 - l10 * x1 - l20 * x2 - l30 * x3) / l00
        let x = SIMD4(x0, x1, x2, x3)
        return x.x.isFinite && x.y.isFinite && x.z.isFinite && x.w.isFinite ? x : nil
    }
}
