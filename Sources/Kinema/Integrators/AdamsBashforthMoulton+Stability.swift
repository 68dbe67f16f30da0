import RealModule

extension AdamsBashforthMoulton {
    /// The largest step at which the PECE scheme of `order` is stable on a spring of angular frequency
    /// `omega` and damping ratio `dampingRatio`: the first ωh, scanning up from 0.001 by 5 % and then
    /// bisecting, at which the spectral radius of its step (`stepMatrix`) exceeds 1 + 1e-6. (Some
    /// orders grow by 1e-13 per step on an undamped spring at any step, which no run shows; 1e-6
    /// per step is 1 % in 10⁴ steps.)
    public static func largestStableStep(order: Int, omega: Double, dampingRatio zeta: Double) -> Double {
        guard omega > 0 else { return .infinity }
        func stable(_ x: Double) -> Bool { isStable(order: order, omegaH: x, dampingRatio: zeta) }
        var low = 1e-3, high = low
        while stable(high) {
            low = high
            high *= 1.05
            if high > 10 { return high / omega }  // stable as far as any explicit method goes
        }
        for _ in 0..<30 {
            let middle = 0.5 * (low + high)
            if stable(middle) { low = middle } else { high = middle }
        }
        return low / omega
    }

    /// Whether the scheme is stable at ωh on a spring of damping ratio ζ: the spectral radius of
    /// its step is at most 1 + 1e-6.
    static func isStable(order: Int, omegaH: Double, dampingRatio zeta: Double) -> Bool {
        !spectralRadiusExceeds(1 + 1e-6, stepMatrix(order: order, omegaH: omegaH, dampingRatio: zeta))
    }

    /// Whether the step `h` is within the limit: the scan `largestStableStep` makes, from
    /// `stepStableOnEverySpring` (every spring is stable below it) up to ωh, rather than the whole
    /// limit from 0.001 (a few evaluations where the scan takes 50–150: milliseconds a run).
    static func isWithinLimit(order: Int, step h: Double, omega: Double, dampingRatio zeta: Double) -> Bool {
        // The bound is on h·|λ| of the fastest mode, ω·(ζ + √(ζ² − 1)) when overdamped.
        var x = stepStableOnEverySpring(order: order) / (zeta <= 1 ? 1 : zeta + (zeta * zeta - 1).squareRoot())
        while x < omega * h {
            x = min(x * 1.05, omega * h)
            if !isStable(order: order, omegaH: x, dampingRatio: zeta) { return false }
        }
        return true
    }

    /// ωh below which the scheme of `order` is stable on a spring of any damping ratio: 90 % of the
    /// least `largestStableStep` × ω over ζ in 0…1 in steps of 0.01 (scaled by the fastest rate
    /// ω(ζ + √(ζ² − 1)), ζ > 1 allows more than ζ = 1). Below 4× this no step can be 4× past the
    /// limit, so a run need not pay the scan (milliseconds, 100× a 2-s run) to find out.
    /// `AdamsTests` scans again between the grid's points.
    public static func stepStableOnEverySpring(order: Int) -> Double {
        [0.404, 0.785, 0.0748, 0.187, 0.419, 0.311, 0.231, 0.171, 0.127, 0.0957, 0.0725, 0.0557][order - 1]
    }

    /// One step of the scheme on x'' = −x − 2ζx' (ω = 1, step ωh) as a matrix on (x_n, v_n, a_n,
    /// a_n−1, …, a_n−k+1), row-major: the predictor, the evaluation, the corrector and the final
    /// evaluation, applied to each unit vector (the step is linear).
    static func stepMatrix(order k: Int, omegaH h: Double, dampingRatio zeta: Double) -> [Double] {
        let (b, c, bx, cx) = AdamsCoefficients.scaled(order: k, step: h)
        var (predictor, corrector, positionPredictor, positionCorrector) = (b, c, bx, cx)
        let d = k + 2
        var matrix = [Double](repeating: 0, count: d * d)
        for column in 0..<d {
            var s = [Double](repeating: 0, count: d)
            s[column] = 1
            let x = s[0], v = s[1]
            var vp = v, xp = x + h * v
            for j in 0..<k {
                vp += predictor[j] * s[2 + j]
                xp += positionPredictor[j] * s[2 + j]
            }
            let ap = -xp - 2 * zeta * vp
            var v1 = v + corrector[0] * ap, x1 = x + h * v + positionCorrector[0] * ap
            for j in 1..<max(k, 1) {
                v1 += corrector[j] * s[2 + j - 1]
                x1 += positionCorrector[j] * s[2 + j - 1]
            }
            let next = [x1, v1, -x1 - 2 * zeta * v1] + s[2..<(d - 1)]
            for row in 0..<d { matrix[row * d + column] = next[row] }
        }
        return matrix
    }

    /// Whether the spectral radius of the square `matrix` exceeds `bound`: ‖M^N‖^(1/N) for N = 2²⁶
    /// by repeated squaring, rescaled each time (Gelfand's formula: a constant C in ‖M^N‖ ≤ C ρ^N
    /// shifts the estimate by C^(1/N), 1 + 2e-7 for C = 10⁶).
    static func spectralRadiusExceeds(_ bound: Double, _ matrix: [Double]) -> Bool {
        let d = Int(Double(matrix.count).squareRoot().rounded())
        var power = matrix, product = matrix
        var logScale = 0.0  // log of the factor divided out of M^(2^i)
        let squarings = 26
        for _ in 0..<squarings {
            power.withUnsafeBufferPointer { p in
                product.withUnsafeMutableBufferPointer { q in
                    for i in 0..<d {
                        for j in 0..<d {
                            var sum = 0.0
                            for m in 0..<d { sum += p[i * d + m] * p[m * d + j] }
                            q[i * d + j] = sum
                        }
                    }
                }
            }
            let largest = product.reduce(0) { max($0, abs($1)) }
            guard largest > 0 && largest.isFinite else { return !(largest == 0) }
            for i in product.indices { product[i] /= largest }
            logScale = 2 * logScale + Double.log(largest)
            swap(&power, &product)
        }
        return logScale / Double(1 << squarings) > Double.log(bound)
    }
}
