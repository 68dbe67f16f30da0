/// Adams weights for orders 1…12 (row k − 1 holds order k) and the interpolant's polynomials,
/// computed once in exact rational arithmetic and rounded once each: in Double, the 12th-order
/// weights' sum carries 3e-14 of cancellation.
@usableFromInline
enum AdamsCoefficients {
    static let highestOrder = 12

    /// Bashforth (the predictor): y_{n+1} = y_n + h Σ_j bashforth[k−1][j] f_{n−j}.
    @usableFromInline static let bashforth = lagrangeWeights(explicit.map(integral))

    /// Moulton (the corrector): y_{n+1} = y_n + h Σ_j moulton[k−1][j] f_{n+1−j}.
    @usableFromInline static let moulton = lagrangeWeights(implicit.map(integral))

    /// Bashforth for the position (the predictor's): x_{n+1} = x_n + h v_n + h² Σ_j
    /// bashforthPosition[k−1][j] a_{n−j}, with a the acceleration (the velocity's derivative).
    @usableFromInline static let bashforthPosition = lagrangeWeights(explicit.map(doubleIntegral))

    /// Moulton for the position (the corrector's): x_{n+1} = x_n + h v_n + h² Σ_j
    /// moultonPosition[k−1][j] a_{n+1−j}.
    @usableFromInline static let moultonPosition = lagrangeWeights(implicit.map(doubleIntegral))

    /// The interpolant: row j holds the coefficients of θ¹ … θ^(j+1) of g_j(θ) = ∫₀^θ C(s + j − 2, j)
    /// ds, the weight of the backward difference ∇^j f_{n+1} in y(t_n + θh) = y_n + h Σ_j g_j(θ)
    /// ∇^j f_{n+1}. The integrators evaluate its Lagrange form, next; this form is the one the tests
    /// check against Newton's basis.
    static let interpolant = newtonInterpolant.map { $0.map(Double.init) }

    /// The interpolant in Lagrange form, y(t_n + θh) = y_n + h Σ_i w_i(θ) f_{n+1−i}, with
    /// w_i(θ) = (−1)^i Σ_{j=i}^{q−1} C(j, i) g_j(θ) at order q (`interpolationWeights(order:at:)`).
    /// Order q's block starts at `lagrangeOffset(order:)` and holds q + 1 rows of 12 lanes (i = 0 ..<
    /// 12, zero from q): row k the coefficients of θ^(k+1) of every w_i, row q the w_i(1).
    @usableFromInline static let lagrangeInterpolant: [Double] = {
        var rows = Array(repeating: Array(repeating: Fraction(0), count: highestOrder), count: highestOrder)
        var table: [Double] = []
        for (j, g) in newtonInterpolant.enumerated() {
            // Order j + 1 adds g_j to every w_i with i ≤ j; its w_i(1) are its Moulton weights.
            for i in 0...j {
                for (k, c) in g.enumerated() { rows[k][i] += Fraction(sign(i) * binomial(j, i)) * c }
            }
            table += rows[...j].joined().map(Double.init) + moulton[j]
            table += repeatElement(0, count: highestOrder - j - 1)
        }
        return table
    }()

    /// The step's weights at `order`: h·bashforth, h·moulton (the velocity's), h²·bashforthPosition,
    /// h²·moultonPosition (the position's).
    @inlinable
    static func scaled(order: Int, step h: Double) -> (
        predictor: InlineStorage12<Double>, corrector: InlineStorage12<Double>,
        positionPredictor: InlineStorage12<Double>, positionCorrector: InlineStorage12<Double>
    ) {
        var weights = (
            InlineStorage12<Double>(repeating: 0), InlineStorage12<Double>(repeating: 0),
            InlineStorage12<Double>(repeating: 0), InlineStorage12<Double>(repeating: 0)
        )
        // The rows read once: an inner array read per weight is a retain and a release each.
        let b = bashforth[order - 1], c = moulton[order - 1], bx = bashforthPosition[order - 1],
            cx = moultonPosition[order - 1]
        for j in 0..<order {
            weights.0[j] = h * b[j]
            weights.1[j] = h * c[j]
            weights.2[j] = h * h * bx[j]
            weights.3[j] = h * h * cx[j]
        }
        return weights
    }
}

extension AdamsCoefficients {
    /// Newton's backward basis C(u + j − 1 − shift, j) = Π_{i<j} (u + i − shift)/(i + 1) as
    /// polynomials in u (coefficients from u⁰ up), j = 0 ..< 12, from the node at u = shift: the
    /// interpolating polynomial is Σ_j basis_j(u) ∇^j f at that node.
    private static func newtonBasis(shift: Int) -> [[Fraction]] {
        var p = [Fraction(1)], rows = [p]
        for i in 1..<highestOrder {
            p = product(p, [Fraction(i - 1 - shift, i), Fraction(1, i)])
            rows.append(p)
        }
        return rows
    }

    /// From f_n back (Bashforth), and from f_{n+1} (Moulton, the interpolant).
    private static let explicit = newtonBasis(shift: 0), implicit = newtonBasis(shift: 1)

    /// g_j's coefficients of θ¹ … θ^(j+1): the implicit basis integrated from 0.
    private static let newtonInterpolant = implicit.map { p in p.enumerated().map { $1 / Fraction($0 + 1) } }

    /// ∫₀¹ p(u) du: a velocity's backward-difference weight.
    private static func integral(_ p: [Fraction]) -> Fraction {
        p.enumerated().reduce(Fraction(0)) { $0 + $1.element / Fraction($1.offset + 1) }
    }

    /// ∫₀¹ (1 − u) p(u) du, the acceleration integrated twice: a position's backward-difference weight.
    private static func doubleIntegral(_ p: [Fraction]) -> Fraction {
        p.enumerated().reduce(Fraction(0)) { $0 + $1.element / Fraction(($1.offset + 1) * ($1.offset + 2)) }
    }

    /// The Lagrange weights of orders 1…12 (row q − 1 holds order q) from backward-difference ones
    /// c_j: w_i = (−1)^i Σ_{j=i}^{q−1} C(j, i) c_j, each order the last one plus its term in c_{q−1}.
    private static func lagrangeWeights(_ c: [Fraction]) -> [[Double]] {
        var row: [Fraction] = []
        return c.indices.map { j in
            row.append(Fraction(0))
            for i in 0...j { row[i] += Fraction(sign(i) * binomial(j, i)) * c[j] }
            return row.map(Double.init)
        }
    }

    /// (−1)^i.
    private static func sign(_ i: Int) -> Int { i % 2 == 0 ? 1 : -1 }

    private static func binomial(_ n: Int, _ k: Int) -> Int { (0..<k).reduce(1) { $0 * (n - $1) / ($1 + 1) } }

    /// The product of two polynomials (coefficients from the constant term up).
    private static func product(_ a: [Fraction], _ b: [Fraction]) -> [Fraction] {
        var out = Array(repeating: Fraction(0), count: a.count + b.count - 1)
        for (i, x) in a.enumerated() { for (j, y) in b.enumerated() { out[i + j] += x * y } }
        return out
    }
}
