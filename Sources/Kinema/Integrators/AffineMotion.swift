/// The exact motion of an affine system `x'' = A·x + B·v + f` (springs, gravity and drag on bodies
/// joined by springs) from a state z₀ = (x₀, v₀): z(s) = z₀ + u(s), where u(s), the integral of
/// `e^{(s−r)L}·z₀'` over [0, s] with L = [[0, I], [A, B]], is the last column of `exp(s·M)` for
/// M = [[L, z₀'], [0, 0]] (Van Loan's block form). z₀' = (v₀, a₀) carries f, so f is never formed,
/// and u(s) is small where s is, so the state near the start is as exact as z₀.
struct AffineMotion {
    /// Coordinates; the state has 2n lanes, M is (2n + 1)².
    let n: Int
    let start: [Double]
    let generator: [Double]
    /// A bound on every |eigenvalue| λ of L (at least 1): no mode turns faster than this many radians a second.
    /// λ's eigenvector is (x, λx) with (A + λB)x = λ²x, so |λ|² ≤ ‖A‖ + |λ|‖B‖ (∞-norms): a
    /// spring's ω, where ‖L‖∞ would be ω² (10¹⁴ for k = 10⁸ on 10⁻⁶ kg).
    let rateBound: Double

    /// - Parameters: `positionPartials` and `velocityPartials` are A and B, n × n row-major.
    init(
        positionPartials: [Double], velocityPartials: [Double], position: [Double], velocity: [Double],
        acceleration: [Double]
    ) {
        n = position.count
        let size = 2 * n + 1
        start = position + velocity
        var m = [Double](repeating: 0, count: size * size)
        var (normA, normB) = (0.0, 0.0)
        for i in 0..<n {
            m[i * size + n + i] = 1
            m[i * size + 2 * n] = velocity[i]
            var (rowA, rowB) = (0.0, 0.0)
            for j in 0..<n {
                m[(n + i) * size + j] = positionPartials[i * n + j]
                m[(n + i) * size + n + j] = velocityPartials[i * n + j]
                rowA += abs(positionPartials[i * n + j])
                rowB += abs(velocityPartials[i * n + j])
            }
            m[(n + i) * size + 2 * n] = acceleration[i]
            (normA, normB) = (max(normA, rowA), max(normB, rowB))
        }
        let bound = max(1, 0.5 * (normB + (normB * normB + 4 * normA).squareRoot()))
        generator = m
        rateBound = bound
    }

    /// The state s seconds after the start: positions, then velocities.
    func state(after s: Double) -> [Double] {
        let size = 2 * n + 1
        let exponential = MatrixExponential.exp(generator.map { s * $0 }, size: size)
        return (0..<2 * n).map { start[$0] + exponential[$0 * size + 2 * n] }
    }
}

/// `exp(X)` for a small dense matrix: Higham's scaling and squaring with the [13/13] Padé
/// approximant (Higham 2005, "The scaling and squaring method for the matrix exponential
/// revisited"), backward error about one rounding for any ‖X‖.
enum MatrixExponential {
    static let theta13 = 5.371920351148152
    static let padé13: [Double] = [
        64_764_752_532_480_000, 32_382_376_266_240_000, 7_771_770_303_897_600, 1_187_353_796_428_800,
        129_060_195_264_000, 10_559_470_521_600, 670_442_572_800, 33_522_128_640, 1_323_241_920, 40_840_800,
        960_960, 16380, 182, 1
    ]

    /// exp(`x`), `x` size × size row-major. A non-finite `x` gives NaNs.
    static func exp(_ x: [Double], size: Int) -> [Double] {
        var norm = 0.0  // the 1-norm: the largest column sum
        for j in 0..<size {
            var column = 0.0
            for i in 0..<size { column += abs(x[i * size + j]) }
            norm = max(norm, column)
        }
        guard norm.isFinite else { return [Double](repeating: .nan, count: size * size) }
        let squarings = norm > theta13 ? Int((norm / theta13).exponent) + 1 : 0
        let scale = Double(sign: .plus, exponent: -squarings, significand: 1)
        let a = x.map { scale * $0 }
        let b = padé13
        let a2 = multiply(a, a, size), a4 = multiply(a2, a2, size), a6 = multiply(a4, a2, size)
        var inner = [Double](repeating: 0, count: size * size)
        var u = inner, v = inner
        for k in 0..<size * size { inner[k] = b[13] * a6[k] + b[11] * a4[k] + b[9] * a2[k] }
        inner = multiply(a6, inner, size)
        for k in 0..<size * size { inner[k] += b[7] * a6[k] + b[5] * a4[k] + b[3] * a2[k] }
        for i in 0..<size { inner[i * size + i] += b[1] }
        u = multiply(a, inner, size)
        for k in 0..<size * size { inner[k] = b[12] * a6[k] + b[10] * a4[k] + b[8] * a2[k] }
        v = multiply(a6, inner, size)
        for k in 0..<size * size { v[k] += b[6] * a6[k] + b[4] * a4[k] + b[2] * a2[k] }
        for i in 0..<size { v[i * size + i] += b[0] }
        // (V − U)·R = V + U
        var result = solve(zip(v, u).map { $0 - $1 }, zip(v, u).map { $0 + $1 }, size)
        for _ in 0..<squarings { result = multiply(result, result, size) }
        return result
    }

    static func multiply(_ a: [Double], _ b: [Double], _ size: Int) -> [Double] {
        var c = [Double](repeating: 0, count: size * size)
        for i in 0..<size {
            for k in 0..<size {
                let aik = a[i * size + k]
                if aik == 0 { continue }
                for j in 0..<size { c[i * size + j] += aik * b[k * size + j] }
            }
        }
        return c
    }

    /// `X` with `a·X = b`, by Gaussian elimination with partial pivoting (`a` is near the identity
    /// for the Padé denominator: well conditioned).
    static func solve(_ a: [Double], _ b: [Double], _ size: Int) -> [Double] {
        var a = a, b = b
        for column in 0..<size {
            var pivot = column
            for row in column + 1..<size where abs(a[row * size + column]) > abs(a[pivot * size + column]) {
                pivot = row
            }
            if pivot != column {
                for j in 0..<size {
                    a.swapAt(column * size + j, pivot * size + j)
                    b.swapAt(column * size + j, pivot * size + j)
                }
            }
            let diagonal = a[column * size + column]
            for row in column + 1..<size {
                let factor = a[row * size + column] / diagonal
                if factor == 0 { continue }
                for j in column..<size { a[row * size + j] -= factor * a[column * size + j] }
                for j in 0..<size { b[row * size + j] -= factor * b[column * size + j] }
            }
        }
        for column in (0..<size).reversed() {
            let diagonal = a[column * size + column]
            for j in 0..<size { b[column * size + j] /= diagonal }
            for row in 0..<column {
                let factor = a[row * size + column]
                if factor == 0 { continue }
                for j in 0..<size { b[row * size + j] -= factor * b[column * size + j] }
            }
        }
        return b
    }
}
