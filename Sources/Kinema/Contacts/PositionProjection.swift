/// The position stage of a time step: moves the sides of every overlapping contact apart along
/// its normal, each side by its share of the inverse masses, sweep after sweep (nonlinear
/// Gauss–Seidel on the gaps) until none overlaps by more than `ContactTolerances.overlap`.
/// Velocities are left alone: the velocity stage already stopped every approach, and what it
/// leaves is the step's curvature (spheres sliding over each other), a depth of order
/// (step × speed)² / radius.
enum PositionProjection {
    /// Returns the deepest overlap left (relative to its contact's scale; above the tolerance
    /// only where the sweeps ran out) and whether any body moved; adds each contact's pushes
    /// (mass × length) to `pushes`.
    static func project(
        _ contacts: inout [Contact], positions x: inout [SIMD3<Double>], inverseMasses w: [Double],
        radii r: [Double], planes: [Plane], pushes: inout [Double]
    ) -> (depth: Double, contact: Int?, moved: Bool) {
        var deepest: (depth: Double, contact: Int?) = (0, nil)
        var moved = false
        for sweep in 0..<ContactTolerances.projectionSweeps {
            deepest = (0, nil)
            for i in contacts.indices {  // forward, then backward, as the velocity solve
                let c = sweep % 2 == 0 ? i : contacts.count - 1 - i
                let gap = Self.gap(contacts[c], x, r, planes)
                contacts[c].gap = gap.gap
                if gap.gap < 0 { contacts[c].normal = gap.normal }
                let depth = -gap.gap / contacts[c].scale
                if depth > deepest.depth { deepest = (depth, c) }
                guard depth > ContactTolerances.overlap else { continue }
                moved = true
                let contact = contacts[c], push = -gap.gap * contact.mass
                pushes[c] += push
                x[contact.body] += (w[contact.body] * push) * gap.normal
                if let o = contact.partner { x[o] -= (w[o] * push) * gap.normal }
            }
            if deepest.depth <= ContactTolerances.overlap { break }
        }
        return (deepest.depth, deepest.contact, moved)
    }

    /// The gap of `contact` at `x` and its normal there.
    @inline(__always)
    static func gap(_ contact: Contact, _ x: [SIMD3<Double>], _ r: [Double], _ planes: [Plane]) -> (
        gap: Double, normal: SIMD3<Double>
    ) {
        switch contact.other {
        case .plane(let p):
            let n = planes[p].normal
            return ((x[contact.body] * n).sum() - planes[p].offset - r[contact.body], n)
        case .body(let o):
            let d = x[contact.body] - x[o], distance = (d * d).sum().squareRoot()
            let n = distance > 0 ? d / distance : contact.normal
            return (distance - r[contact.body] - r[o], n)
        }
    }

    /// The overlaps closed together (`ActiveSetSolver`), where the sweeps ran out: the gaps
    /// linearized at `x`, every overlap closed at once, the gaps taken again, up to
    /// `ContactTolerances.projectionRounds` times. Returns the deepest overlap left, relative,
    /// and its contact; adds each contact's pushes to `total`.
    @discardableResult
    static func closeTogether(
        _ contacts: inout [Contact], positions x: inout [SIMD3<Double>], inverseMasses w: [Double],
        radii r: [Double], planes: [Plane], pushes total: inout [Double]
    ) -> (depth: Double, contact: Int?) {
        var deepest: (depth: Double, contact: Int?) = (0, nil)
        for round in 0...ContactTolerances.projectionRounds {
            deepest = (0, nil)
            for c in contacts.indices {
                let gap = Self.gap(contacts[c], x, r, planes)
                (contacts[c].gap, contacts[c].normal) = (gap.gap, gap.normal)
                let depth = -gap.gap / contacts[c].scale
                if depth > deepest.depth { deepest = (depth, c) }
            }
            if deepest.depth <= ContactTolerances.overlap || round == ContactTolerances.projectionRounds { break }
            var solver = ActiveSetSolver(contacts: contacts, inverseMasses: w)
            var pushes = [Double](repeating: 0, count: contacts.count)
            solver.solve(
                needs: contacts.map { -$0.gap }, pushes: &pushes, tolerance: ContactTolerances.togetherResidual)
            for c in contacts.indices { total[c] += pushes[c] }
            for b in x.indices { x[b] += solver.moved[b] }
        }
        return deepest
    }
}
