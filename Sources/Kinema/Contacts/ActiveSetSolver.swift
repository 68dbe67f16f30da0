/// The normal complementarity problem of a set of contacts solved together, where sweeps converge
/// slowly (a packing wedged between walls, whose pushes travel a row per sweep): pushes μ ≥ 0
/// along the contacts' normals such that every contact's change (A μ)_c, A = J W Jᵀ, reaches at
/// least its need, exactly where it pushes: the minimum of ½ μᵀAμ − needsᵀμ over μ ≥ 0. Solved by
/// Dostál's MPRGP (conjugate gradients on the contacts that push, expanded by projected gradient
/// steps where a push would turn negative, and proportioned where a contact at 0 should push),
/// from a starting guess. The position projection's, where its sweeps run out.
struct ActiveSetSolver {
    private let contacts: [Contact]
    private let w: [Double]
    /// W Jᵀ μ of the last product: what the pushes do to each body.
    private(set) var moved: [SIMD3<Double>]

    init(contacts: [Contact], inverseMasses w: [Double]) {
        self.contacts = contacts
        self.w = w
        moved = Array(repeating: .zero, count: w.count)
    }

    /// Solves for `pushes` (changed in place, a starting guess on entry) until no contact's
    /// projected gradient exceeds `tolerance`; returns whether it got there within the cap. `moved`
    /// is then W Jᵀ μ.
    @discardableResult
    mutating func solve(needs: [Double], pushes x: inout [Double], tolerance: Double) -> Bool {
        let m = contacts.count
        guard m > 0 else { return true }
        // The expansion step: below 2 / ‖A‖, by Gershgorin's bound on the rows of A.
        var touching = [Int](repeating: 0, count: w.count)
        for contact in contacts {
            touching[contact.body] += 1
            if let o = contact.partner { touching[o] += 1 }
        }
        var norm = 0.0
        for contact in contacts {
            let row =
                w[contact.body] * Double(touching[contact.body])
                + (contact.partner.map { w[$0] * Double(touching[$0]) } ?? 0)
            norm = max(norm, row)
        }
        guard norm > 0 else { return true }
        let expansion = ContactTolerances.expansionStep / norm
        for c in 0..<m { x[c] = max(x[c], 0) }
        var g = [Double](repeating: 0, count: m), product = g, d = g
        func gradient() {
            multiply(x, into: &g)
            for c in 0..<m { g[c] -= needs[c] }
        }
        func free(_ c: Int) -> Double { x[c] > 0 ? g[c] : 0 }
        func chopped(_ c: Int) -> Double { x[c] > 0 ? 0 : min(g[c], 0) }
        func converged() -> Bool {
            for c in 0..<m where abs(free(c) + chopped(c)) > tolerance { return false }
            return true
        }
        // The exact line minimum along `d` (g·d / dᵀAd), with A d left in `product`; nil where A
        // does not curve along d.
        func lineMinimum(_ d: [Double]) -> (step: Double, curvature: Double)? {
            multiply(d, into: &product)
            var gd = 0.0, dAd = 0.0
            for c in 0..<m {
                gd += g[c] * d[c]
                dAd += d[c] * product[c]
            }
            return dAd > 0 ? (gd / dAd, dAd) : nil
        }
        gradient()
        var p = (0..<m).map(free)
        for _ in 0..<(ContactTolerances.togetherIterationsPerContact * m + ContactTolerances.togetherIterations) {
            if converged() {
                multiply(x, into: &product)
                return true
            }
            var choppedSquared = 0.0, freeSquared = 0.0
            for c in 0..<m {
                choppedSquared += chopped(c) * chopped(c)
                freeSquared += free(c) * free(c)
            }
            if choppedSquared <= freeSquared {
                guard let (step, pAp) = lineMinimum(p) else { break }
                var feasible = Double.infinity
                for c in 0..<m where p[c] > 0 { feasible = min(feasible, x[c] / p[c]) }
                if step <= feasible {
                    for c in 0..<m {
                        x[c] -= step * p[c]
                        g[c] -= step * product[c]
                    }
                    var fAp = 0.0
                    for c in 0..<m { fAp += free(c) * product[c] }
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
                for c in 0..<m { d[c] = chopped(c) }
                guard let (step, _) = lineMinimum(d) else { break }
                for c in 0..<m {
                    x[c] = max(x[c] - step * d[c], 0)
                    g[c] -= step * product[c]
                }
                for c in 0..<m { p[c] = free(c) }
            }
        }
        multiply(x, into: &product)
        return false
    }

    /// `moved` = W Jᵀ p, then J `moved` into `out`.
    private mutating func multiply(_ p: [Double], into out: inout [Double]) {
        for b in moved.indices { moved[b] = .zero }
        for c in contacts.indices {
            let contact = contacts[c]
            moved[contact.body] += (w[contact.body] * p[c]) * contact.normal
            if let o = contact.partner { moved[o] -= (w[o] * p[c]) * contact.normal }
        }
        for c in contacts.indices {
            let contact = contacts[c]
            out[c] = ((moved[contact.body] - (contact.partner.map { moved[$0] } ?? .zero)) * contact.normal).sum()
        }
    }
}
