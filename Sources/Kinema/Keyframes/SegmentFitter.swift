/// Fits one keyframe segment's cubic-bezier timing function to a motion on [a, b].
///
/// The motion is normalized to run from (0, 0) to (1, 1) and sampled once, at fixed abscissae
/// x_j = j/16, j = 1…15. At fixed x the curve's value y(s(x)) is smooth in the four controls, with
/// derivatives ∂y/∂y1 = B1(s), ∂y/∂x1 = −(dy/dx)·B1(s) (B1 = 3(1−s)²s, likewise B2), so the fit
/// is Gauss–Newton on the controls; after a few plain steps the weights follow Lawson
/// (w ← w·|r|), which moves the least-squares fit towards the smallest max error. Controls are
/// kept in [0, 1]. The source is evaluated 17 times per segment (`load`), never inside the
/// iteration, and the lanes are reused from segment to segment. Every accepted segment is then
/// measured at 65 points (`KeyframeBaker.largest`), so the abscissae only steer the fit, and 15
/// of them are enough.
struct SegmentFitter {
    static let points = 16
    /// What the fit keeps per abscissa, a row of 16 lanes each: the fifteen abscissae
    /// x_j = j/16 and x = 1, a lane that takes part in nothing (weight and residual 0), so that a
    /// row is four `SIMD4` chunks, which compile to packed arithmetic on the x86-64 baseline.
    private enum Row: Int {
        case target, parameter, residual, weight
    }
    /// The rows one after another, 16 lanes each.
    private var lanes: [Double] = {
        var lanes = [Double](repeating: 0, count: 4 * points)
        for j in 0..<points {
            lanes[Row.target.rawValue * points + j] = Double(j + 1) / Double(points)
            lanes[Row.parameter.rawValue * points + j] = Double(j + 1) / Double(points)
        }
        return lanes
    }()

    /// The last segment's timing function, a starting point for the next.
    var accepted: CubicBezierTimingFunction?
    /// The segment's change in value, after `load`.
    private(set) var change = 0.0

    /// Samples the motion on [a, b] at the abscissae, normalized by its change in value.
    mutating func load(_ source: MotionSource, _ a: Double, _ b: Double) {
        if let sampled = source.sampled {
            load(sampled, a, b)
        } else {
            load(ClosureValues(closure: source.value), a, b)
        }
    }

    private mutating func load<Values: MotionValues>(_ values: Values, _ a: Double, _ b: Double) {
        let va = values.value(at: a), change = values.value(at: b) - va
        self.change = change
        lanes.withUnsafeMutableBufferPointer { buffer in
            let lanes = UnsafeMutableRawBufferPointer(buffer)
            for k in 0..<4 {
                // Four abscissae at a time; the last chunk's fourth lane (x = 1) is left as it is.
                var x = Self.abscissae(k)
                if k == 3 { x[3] = x[2] }
                let v = values.values(at: a + (b - a) * x)
                var target = change == 0 ? SIMD4<Double>.zero : (v - va) / change, weight = SIMD4<Double>.one
                if k == 3 {
                    (target[3], x[3]) = (Self.chunk(.target, k, in: lanes)[3], Self.chunk(.parameter, k, in: lanes)[3])
                    weight[3] = Self.chunk(.weight, k, in: lanes)[3]
                }
                Self.store(target, .target, k, in: lanes)
                Self.store(x, .parameter, k, in: lanes)
                Self.store(weight, .weight, k, in: lanes)
            }
        }
    }

    /// Chunk k (lanes 4k…4k+3) of a row.
    @inline(__always)
    private static func chunk(_ row: Row, _ k: Int, in lanes: UnsafeMutableRawBufferPointer) -> SIMD4<Double> {
        lanes.loadUnaligned(fromByteOffset: (row.rawValue * points + 4 * k) * 8, as: SIMD4<Double>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD4<Double>, _ row: Row, _ k: Int, in lanes: UnsafeMutableRawBufferPointer) {
        lanes.storeBytes(of: value, toByteOffset: (row.rawValue * points + 4 * k) * 8, as: SIMD4<Double>.self)
    }

    /// The abscissae x_j of chunk k.
    @inline(__always)
    static func abscissae(_ k: Int) -> SIMD4<Double> {
        (SIMD4(1, 2, 3, 4) + Double(4 * k)) * (1.0 / Double(points))
    }

    /// Max |segment − motion| (absolute) at the abscissae for the timing function `f`.
    mutating func error(of f: CubicBezierTimingFunction) -> Double {
        evaluate(SIMD4(f.x1, f.y1, f.x2, f.y2)).max * abs(change)
    }

    /// The controls that come closest to the loaded motion at the abscissae, starting from `start`,
    /// with their max error there (absolute); it stops once that is below `goal`, or when it stays
    /// above four times `goal` after three steps, or twice it after ten, or improves by less than 2 %
    /// in three steps (the segment needs splitting, not more iterations).
    mutating func fit(from start: CubicBezierTimingFunction, goal: Double) -> (
        function: CubicBezierTimingFunction, error: Double
    ) {
        guard abs(change) > 1e-300 else { return (.linear, 0) }
        let goal = goal / abs(change)
        var p = SIMD4(start.x1, start.y1, start.x2, start.y2).clamped(lowerBound: .zero, upperBound: .one)
        var worst = evaluate(p)
        var best = p, bestWorst = worst.max
        var checkpoint = Double.infinity
        for iteration in 0..<24 {
            if bestWorst <= goal || (iteration >= 3 && bestWorst > 4 * goal)
                || (iteration >= 10 && bestWorst > 2 * goal)
            {
                break
            }
            if iteration >= 4 && iteration % 3 == 1 {
                // Stalled: less than 2 % better than three iterations ago (such fits would run all
                // 24 iterations and fail).
                if bestWorst > 0.98 * checkpoint { break }
                checkpoint = bestWorst
            }
            if iteration >= 3 {
                // Lawson: weight each abscissa by how badly it is missed.
                worst.squares = reweight(worst: worst.max)
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
        return (
            CubicBezierTimingFunction(uncheckedX1: best[0], y1: best[1], x2: best[2], y2: best[3]),
            bestWorst * abs(change)
        )
    }

    /// Residuals y(s(x_j)) − target_j at controls p: their max and weighted sum of squares. The
    /// parameters s_j are kept as the next call's starting guesses.
    private mutating func evaluate(_ p: SIMD4<Double>) -> (max: Double, squares: Double) {
        lanes.withUnsafeMutableBufferPointer { buffer in
            Self.solveParameters(
                UnsafeMutableBufferPointer(rebasing: buffer[Self.points..<(2 * Self.points)]), p[0], p[2])
            let lanes = UnsafeMutableRawBufferPointer(buffer), y = CubicBezierTimingFunction.Polynomial(p[1], p[3])
            var worst = SIMD4<Double>.zero, squares = SIMD4<Double>.zero
            for k in 0..<4 {
                var r = y.value(at: Self.chunk(.parameter, k, in: lanes)) - Self.chunk(.target, k, in: lanes)
                if k == 3 { r[3] = 0 }  // the x = 1 lane
                Self.store(r, .residual, k, in: lanes)
                let magnitude = r.replacing(with: -r, where: r .< 0)
                worst.replace(with: magnitude, where: magnitude .> worst)
                squares += Self.chunk(.weight, k, in: lanes) * r * r
            }
            return (
                max(max(worst[0], worst[1]), max(worst[2], worst[3])),
                (squares[0] + squares[1]) + (squares[2] + squares[3])
            )
        }
    }

    /// Lawson's step: each weight times |residual|/`worst` + 1e-3, then all scaled to sum to 15.
    /// Returns the weighted sum of squares.
    private mutating func reweight(worst: Double) -> Double {
        lanes.withUnsafeMutableBufferPointer { buffer in
            let lanes = UnsafeMutableRawBufferPointer(buffer)
            var total = SIMD4<Double>.zero
            for k in 0..<4 {
                let r = Self.chunk(.residual, k, in: lanes)
                let w = Self.chunk(.weight, k, in: lanes) * (r.replacing(with: -r, where: r .< 0) / worst + 1e-3)
                Self.store(w, .weight, k, in: lanes)
                total += w
            }
            let scale = Double(Self.points - 1) / ((total[0] + total[1]) + (total[2] + total[3]))
            var squares = SIMD4<Double>.zero
            for k in 0..<4 {
                let r = Self.chunk(.residual, k, in: lanes), w = Self.chunk(.weight, k, in: lanes) * scale
                Self.store(w, .weight, k, in: lanes)
                squares += w * r * r
            }
            return (squares[0] + squares[1]) + (squares[2] + squares[3])
        }
    }

    /// s_j with x(s_j) = x_j for the x-controls (x1, x2), for the 16 lanes of `parameters`, from
    /// the guesses held there: Newton, a lane stepping while it is off by more than 1e-13 and its
    /// slope has not vanished, then the bracketed solve for a lane still off after eight passes
    /// (after fewer, many solves fall back to it; more gain nothing). The solves run in step, four lanes to a vector, one Newton step of each per pass: a
    /// lane that has stopped is evaluated again at the same s, so it stays stopped, and its steps
    /// are the ones it took alone.
    static func solveParameters(_ parameters: UnsafeMutableBufferPointer<Double>, _ x1: Double, _ x2: Double) {
        let x = CubicBezierTimingFunction.Polynomial(x1, x2), lanes = UnsafeMutableRawBufferPointer(parameters)
        // `off`: lanes off by more than 1e-13 in the last pass, where every lane was evaluated
        // at the s it holds now when no lane stepped.
        var pass = 0, stepped = SIMDMask<SIMD4<Int64>>(repeating: true), off = stepped
        while pass < 8 && any(stepped) {
            stepped = .init(repeating: false)
            off = stepped
            var target = abscissae(0)
            for k in 0..<4 {
                let s = lanes.loadUnaligned(fromByteOffset: 32 * k, as: SIMD4<Double>.self)
                let slope = x.derivative(at: s), error = x.value(at: s) - target
                let far = error .> 1e-13 .| error .< -1e-13, steps = slope .> 1e-9 .& far
                var next = s - error / slope
                next.replace(with: 0, where: next .< 0)
                next.replace(with: 1, where: next .> 1)
                lanes.storeBytes(
                    of: s.replacing(with: next, where: steps), toByteOffset: 32 * k, as: SIMD4<Double>.self)
                stepped .|= steps
                off .|= far
                target += 4.0 / Double(points)  // exact: multiples of 1/16
            }
            pass += 1
        }
        guard any(off) else { return }
        for j in 0..<points {
            let target = Double(j + 1) / Double(points)
            guard abs(x.value(at: parameters[j]) - target) > 1e-13 else { continue }
            parameters[j] = CubicBezierTimingFunction(uncheckedX1: x1, y1: 0, x2: x2, y2: 1).parameter(at: target)
        }
    }

    /// The Gauss–Newton step from the last `evaluate`, by LDLᵀ on the 4×4 normal equations;
    /// nil when they are singular.
    private mutating func gaussNewtonStep(_ p: SIMD4<Double>) -> SIMD4<Double>? {
        // The Jacobian's columns ∂y/∂(x1, y1, x2, y2) are (−σ·B1, B1, −σ·B2, B2), σ the curve's
        // slope dy/dx: the normal equations need the weighted sums of B_i·B_j times 1, σ and σ²
        // (`bb`, `sbb`, `ssbb`) and of r·B_i times 1 and σ (`rb`, `srb`), summed lane-wise.
        let x = CubicBezierTimingFunction.Polynomial(p[0], p[2]), y = CubicBezierTimingFunction.Polynomial(p[1], p[3])
        var bb11 = SIMD4<Double>.zero, bb12 = bb11, bb22 = bb11, sbb11 = bb11, sbb12 = bb11, sbb22 = bb11
        var ssbb11 = bb11, ssbb12 = bb11, ssbb22 = bb11, rb1 = bb11, rb2 = bb11, srb1 = bb11, srb2 = bb11
        lanes.withUnsafeMutableBufferPointer { buffer in
            let lanes = UnsafeMutableRawBufferPointer(buffer)
            for k in 0..<4 {
                let s = Self.chunk(.parameter, k, in: lanes), u = 1 - s
                let b1 = 3 * u * u * s, b2 = 3 * u * s * s
                let dx = x.derivative(at: s), dy = y.derivative(at: s)
                let slope = (dy / dx).replacing(with: 0, where: .!(dx .> 1e-9))
                let w = Self.chunk(.weight, k, in: lanes), wb1 = w * b1, wb2 = w * b2
                let w11 = wb1 * b1, w12 = wb1 * b2, w22 = wb2 * b2
                bb11 += w11; bb12 += w12; bb22 += w22
                sbb11 += slope * w11; sbb12 += slope * w12; sbb22 += slope * w22
                let slope2 = slope * slope
                ssbb11 += slope2 * w11; ssbb12 += slope2 * w12; ssbb22 += slope2 * w22
                let r = Self.chunk(.residual, k, in: lanes), r1 = r * wb1, r2 = r * wb2
                rb1 += r1; rb2 += r2; srb1 += slope * r1; srb2 += slope * r2
            }
        }
        func sum(_ v: SIMD4<Double>) -> Double { (v[0] + v[1]) + (v[2] + v[3]) }
        let a00 = sum(ssbb11), a10 = -sum(sbb11), a11 = sum(bb11), a20 = sum(ssbb12), a21 = -sum(sbb12)
        let a22 = sum(ssbb22), a30 = a21, a31 = sum(bb12), a32 = -sum(sbb22), a33 = sum(bb22)
        let g = SIMD4(-sum(srb1), sum(rb1), -sum(srb2), sum(rb2))
        // Levenberg's small diagonal load keeps the solve defined when a control has no effect.
        let load = 1e-10 * (a00 + a11 + a22 + a33) + 1e-300
        let matrix = (
            SIMD4(a00 + load, a10, a20, a30), SIMD4(a10, a11 + load, a21, a31),
            SIMD4(a20, a21, a22 + load, a32), SIMD4(a30, a31, a32, a33 + load)
        )
        // A control on a bound whose step points outwards stays there: its row and column drop out.
        var free = SIMD4<Double>.one
        guard var step = Self.solve(matrix, free: free, -g) else { return nil }
        for _ in 0..<2 {
            let held = (p .<= 0 .& step .< 0) .| (p .>= 1 .& step .> 0)
            guard any(held) else { break }
            free.replace(with: 0, where: held)
            guard let next = Self.solve(matrix, free: free, -g * free) else { break }
            step = next
        }
        return step
    }

    /// Solves `a x = b` (`a` symmetric, by rows) by LDLᵀ, written out, for the controls where `free` is 1; where it is 0
    /// the row and column are the identity's (x = b there, and b is 0); nil if the system is not
    /// positive definite. Four divisions and no square root, where Cholesky has four square roots
    /// and fourteen divisions, each waiting on the last.
    private static func solve(
        _ a: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>), free f: SIMD4<Double>,
        _ b: SIMD4<Double>
    ) -> SIMD4<Double>? {
        let held = 1 - f
        let r0 = a.0 * f * f[0], r1 = a.1 * f * f[1], r2 = a.2 * f * f[2], r3 = a.3 * f * f[3]
        // d_j, and e_ij = l_ij·d_j below the diagonal.
        let d0 = r0[0] + held[0]
        guard d0 > 0 else { return nil }
        let i0 = 1 / d0, l10 = r1[0] * i0, l20 = r2[0] * i0, l30 = r3[0] * i0
        let d1 = r1[1] + held[1] - l10 * r1[0]
        guard d1 > 0 else { return nil }
        let i1 = 1 / d1, e21 = r2[1] - l20 * r1[0], e31 = r3[1] - l30 * r1[0], l21 = e21 * i1, l31 = e31 * i1
        let d2 = r2[2] + held[2] - l20 * r2[0] - l21 * e21
        guard d2 > 0 else { return nil }
        let i2 = 1 / d2, e32 = r3[2] - l30 * r2[0] - l31 * e21, l32 = e32 * i2
        let d3 = r3[3] + held[3] - l30 * r3[0] - l31 * e31 - l32 * e32
        guard d3 > 0 else { return nil }
        let i3 = 1 / d3
        // L z = b, then D y = z, then Lᵀ x = y.
        let z0 = b[0], z1 = b[1] - l10 * z0, z2 = b[2] - l20 * z0 - l21 * z1, z3 = b[3] - l30 * z0 - l31 * z1 - l32 * z2
        let x3 = z3 * i3, x2 = z2 * i2 - l32 * x3
        let x1 = z1 * i1 - l21 * x2 - l31 * x3, x0 = z0 * i0 - l10 * x1 - l20 * x2 - l30 * x3
        let x = SIMD4(x0, x1, x2, x3)
        return x.x.isFinite && x.y.isFinite && x.z.isFinite && x.w.isFinite ? x : nil
    }
}
