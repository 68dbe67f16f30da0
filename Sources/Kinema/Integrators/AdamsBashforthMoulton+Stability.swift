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
        // The bound is on h·|λ| of the fastest mode; x is ωh.
        var x =
            stepStableOnEverySpring(order: order, dampingRatio: zeta) * omega
            / IntegrationMethod.fastestRate(omega: omega, dampingRatio: zeta)
        while x < omega * h {
            x = min(x * 1.05, omega * h)
            if !isStable(order: order, omegaH: x, dampingRatio: zeta) { return false }
        }
        return true
    }

    /// ωh below which the scheme of `order` is stable on every spring whose damping ratio is in
    /// the same tenth as `dampingRatio` (ζ ≥ 1: the last, in units of the fastest rate
    /// ω(ζ + √(ζ² − 1)), where ζ > 1 allows more than ζ = 1): 90 % of the least
    /// `largestStableStep` × ω over that tenth's points on a 0.01 grid. Below 4× this no step can
    /// be 4× past the limit, so a run need not pay the scan (milliseconds, 100× a 2-s run) to find
    /// out. `AdamsTests` scans again between the grid's points.
    public static func stepStableOnEverySpring(order: Int, dampingRatio zeta: Double) -> Double {
        let tenth = zeta >= 1 ? 9 : zeta > 0 ? min(Int(zeta * 10), 9) : 0
        return AdamsStableSteps.bounds[order - 1][tenth]
    }

    /// One step of the scheme on x'' = −x − 2ζx' (ω = 1, step ωh) as a matrix on (x_n, v_n, a_n,
    /// a_n−1, …, a_n−k+1), row-major: the predictor, the evaluation, the corrector and the final
    /// evaluation, applied to each unit vector (the step is linear).
    static func stepMatrix(order k: Int, omegaH h: Double, dampingRatio zeta: Double) -> [Double] {
        var (predictor, corrector, positionPredictor, positionCorrector) = AdamsCoefficients.scaled(order: k, step: h)
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
            for j in 1..<k {
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
            if largest == 0 { return false }  // nilpotent: every eigenvalue is 0
            guard largest.isFinite else { return true }
            for i in product.indices { product[i] /= largest }
            logScale = 2 * logScale + Double.log(largest)
            swap(&power, &product)
        }
        return logScale / Double(1 << squarings) > Double.log(bound)
    }
}

/// `AdamsBashforthMoulton.stepStableOnEverySpring`'s table (a generic type holds no stored statics).
private enum AdamsStableSteps {
    /// Rows: orders 1…12; columns: ζ in [0, 0.1], [0.1, 0.2], …, [0.9, 1] (and beyond).
    static let bounds: [[Double]] = [
        [1.1, 0.962, 0.842, 0.742, 0.658, 0.589, 0.53, 0.481, 0.44, 0.404],
        [1.64, 1.68, 1.53, 1.37, 1.23, 1.11, 1.01, 0.926, 0.85, 0.785],
        [0.0747, 1.31, 1.23, 1.15, 1.06, 0.984, 0.904, 0.831, 0.764, 0.705],
        [0.187, 1.07, 1.11, 1.04, 0.949, 0.849, 0.756, 0.677, 0.61, 0.555],
        [0.763, 1.09, 1.04, 0.931, 0.794, 0.678, 0.589, 0.519, 0.463, 0.419],
        [1.05, 1.06, 0.94, 0.758, 0.614, 0.515, 0.443, 0.388, 0.346, 0.311],
        [0.314, 0.975, 0.768, 0.576, 0.46, 0.384, 0.329, 0.288, 0.256, 0.231],
        [0.345, 0.846, 0.581, 0.429, 0.342, 0.285, 0.244, 0.214, 0.19, 0.171],
        [0.441, 0.684, 0.431, 0.32, 0.255, 0.212, 0.182, 0.159, 0.141, 0.127],
        [0.648, 0.51, 0.322, 0.239, 0.191, 0.159, 0.136, 0.119, 0.106, 0.0957],
        [0.597, 0.376, 0.242, 0.181, 0.145, 0.12, 0.103, 0.0906, 0.0805, 0.0725],
        [0.505, 0.284, 0.185, 0.139, 0.111, 0.0927, 0.0795, 0.0696, 0.0618, 0.0556]
    ]
}
