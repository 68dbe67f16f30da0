/// The normal complementarity problem of a set of contacts solved together, where sweeps converge
/// slowly (a packing wedged between walls, whose pushes travel a row per sweep): pushes μ ≥ 0
/// along the contacts' normals such that every contact's change (A μ)_c, A = J W Jᵀ, reaches at
/// least its need, exactly where it pushes: the minimum of ½ μᵀAμ − needsᵀμ over μ ≥ 0. Solved by
/// Dostál's MPRGP (conjugate gradients on the contacts that push, expanded by projected gradient
/// steps where a push would turn negative, and proportioned where a contact at 0 should push),
/// from a starting guess. The position projection's, where its sweeps run out.
struct ActiveSetSolver {
    /// Each contact's two sides as flat arrays (a plane is the body past the last, which never
    /// moves), so a product is two passes over plain numbers.
    private let body: [Int], other: [Int]
    private let normal: [SIMD3<Double>]
    private let bodyShare: [Double], otherShare: [Double]
    /// W Jᵀ μ of the last product: what the pushes do to each body (and, last, to the planes: 0).
    private(set) var moved: [SIMD3<Double>]

    init(contacts: [Contact], inverseMasses w: [Double]) {
        let still = w.count
        body = contacts.map(\.body)
        other = contacts.map { $0.partner ?? still }
        normal = contacts.map(\.normal)
        bodyShare = contacts.map { w[$0.body] }
        otherShare = contacts.map { $0.partner.map { w[$0] } ?? 0 }
        moved = Array(repeating: .zero, count: still + 1)
    }

    /// Solves for `pushes` (changed in place, a starting guess on entry) until no contact's
    /// projected gradient exceeds `tolerance`; returns whether it got there within the cap. `moved`
    /// is then W Jᵀ μ (its last entry, the planes', 0).
    @discardableResult
    mutating func solve(needs: [Double], pushes x: inout [Double], tolerance: Double) -> Bool {
        let m = body.count
        guard m > 0 else { return true }
        // The expansion step: below 2 / ‖A‖, by Gershgorin's bound on the rows of A.
        var touching = [Double](repeating: 0, count: moved.count)
        for c in 0..<m {
            touching[body[c]] += 1
            touching[other[c]] += 1
        }
        var norm = 0.0
        for c in 0..<m { norm = max(norm, bodyShare[c] * touching[body[c]] + otherShare[c] * touching[other[c]]) }
        guard norm > 0 else { return true }
        let expansion = ContactTolerances.expansionStep / norm
        for c in 0..<m { x[c] = max(x[c], 0) }
        var g = [Double](repeating: 0, count: m), product = g, d = g, p = g
        // The free gradient (on the contacts that push) and the chopped one (at 0, where pushing
        // would lower the objective); their squares and whether both are within the tolerance.
        func free(_ c: Int) -> Double { x[c] > 0 ? g[c] : 0 }
        func chopped(_ c: Int) -> Double { x[c] > 0 ? 0 : min(g[c], 0) }
        func gradients() -> (free: Double, chopped: Double, converged: Bool) {
            var freeSquared = 0.0, choppedSquared = 0.0, worst = 0.0
            for c in 0..<m {
                let f = free(c), h = chopped(c)
                freeSquared += f * f
                choppedSquared += h * h
                worst = max(worst, abs(f + h))
            }
            return (freeSquared, choppedSquared, worst <= tolerance)
        }
        func gradient() {
            multiply(x, into: &g)
            for c in 0..<m { g[c] -= needs[c] }
        }
        gradient()
        for c in 0..<m { p[c] = free(c) }
        var state = gradients()
        for _ in 0..<(ContactTolerances.togetherIterationsPerContact * m + ContactTolerances.togetherIterations) {
            if state.converged {
                multiply(x, into: &product)
                return true
            }
            if state.chopped <= state.free {
                // A conjugate gradient step on the pushing contacts, as far as the line minimum
                // or the first push that reaches 0.
                multiply(p, into: &product)
                var gp = 0.0, pAp = 0.0, feasible = Double.infinity
                for c in 0..<m {
                    gp += g[c] * p[c]
                    pAp += p[c] * product[c]
                    if p[c] > 0 { feasible = min(feasible, x[c] / p[c]) }
                }
                guard pAp > 0 else { break }
                let step = gp / pAp
                if step <= feasible {
                    var fAp = 0.0
                    for c in 0..<m {
                        x[c] -= step * p[c]
                        g[c] -= step * product[c]
                        fAp += free(c) * product[c]
                    }
                    let beta = fAp / pAp
                    for c in 0..<m { p[c] = free(c) - beta * p[c] }
                } else {
                    for c in 0..<m {
                        x[c] = max(x[c] - feasible * p[c], 0)
                        g[c] -= feasible * product[c]
                    }
                    for c in 0..<m { x[c] = max(x[c] - expansion * free(c), 0) }
                    gradient()
                    for c in 0..<m { p[c] = free(c) }
                }
            } else {
                // Proportioning: the contacts at 0 that should push start to.
                for c in 0..<m { d[c] = chopped(c) }
                multiply(d, into: &product)
                var gd = 0.0, dAd = 0.0
                for c in 0..<m {
                    gd += g[c] * d[c]
                    dAd += d[c] * product[c]
                }
                guard dAd > 0 else { break }
                let step = gd / dAd
                for c in 0..<m {
                    x[c] = max(x[c] - step * d[c], 0)
                    g[c] -= step * product[c]
                }
                for c in 0..<m { p[c] = free(c) }
            }
            state = gradients()
        }
        multiply(x, into: &product)
        return false
    }

    /// `moved` = W Jᵀ p, then J `moved` into `out`.
    private mutating func multiply(_ p: [Double], into out: inout [Double]) {
        for b in moved.indices { moved[b] = .zero }
        for c in body.indices {
            moved[body[c]] += (bodyShare[c] * p[c]) * normal[c]
            moved[other[c]] -= (otherShare[c] * p[c]) * normal[c]
        }
        for c in body.indices { out[c] = ((moved[body[c]] - moved[other[c]]) * normal[c]).sum() }
    }
}
