/// The velocity stage of a time step: the impulses of every contact at once, by projected
/// Gauss–Seidel over the contacts (Moreau's sweeps). Each contact's normal impulse is ≥ 0 and
/// brings its normal relative velocity to at least its target (Newton's restitution at the
/// velocity level: a bounce's speed, 0 to hold it, a closing speed for a gap that may close);
/// its friction impulse opposes the tangential relative velocity within Coulomb's cone,
/// |tangent| ≤ μ·normal, for spheres as for planes. The impulses of all contacts are found
/// together, so an impact passed through a pile or a row of balls is one problem, not a chain
/// of single impacts (Moreau's law: v⁺ ≥ −e·v⁻ at every contact, v⁻ the approach at the step's
/// start; a row of touching balls struck at one end moves off as that law's one solution, not
/// as the sequence of pairwise impacts a row with gaps goes through).
enum ContactSolver {
    /// Solves `contacts` on the velocities `v` (changed in place), starting from the impulses the
    /// contacts carry (a warm start: last step's, where the contact held). Returns whether the
    /// sweeps converged before `ContactTolerances.velocitySweeps`.
    @discardableResult
    static func solve(
        _ contacts: inout [Contact], velocities v: inout [SIMD3<Double>], inverseMasses w: [Double]
    ) -> Bool {
        for c in contacts.indices where contacts[c].normalImpulse != 0 || contacts[c].tangentImpulse != .zero {
            apply(contacts[c].normalImpulse * contacts[c].normal + contacts[c].tangentImpulse, contacts[c], &v, w)
        }
        var sweeps = 0
        while sweeps < ContactTolerances.velocitySweeps {
            sweeps += 1
            var largest = 0.0
            // Forward, then backward: what one sweep carries along a row, the next carries back.
            for i in contacts.indices {
                let c = sweeps % 2 == 1 ? i : contacts.count - 1 - i
                largest = max(largest, relax(&contacts[c], &v, w))
            }
            if largest <= ContactTolerances.velocityResidual { return true }
        }
        return false
    }

    /// One contact's update; returns how much it changed the relative velocity.
    @inline(__always)
    private static func relax(_ contact: inout Contact, _ v: inout [SIMD3<Double>], _ w: [Double]) -> Double {
        let n = contact.normal
        var relative = relativeVelocity(contact, v)

        let normal = max(0, contact.normalImpulse + contact.mass * (contact.target - (relative * n).sum()))
        let pushed = normal - contact.normalImpulse
        contact.normalImpulse = normal
        var change = abs(pushed)
        if pushed != 0 {
            apply(pushed * n, contact, &v, w)
            relative += (pushed / contact.mass) * n
        }
        guard contact.friction > 0 else { return change / contact.mass }
        let sliding = relative - (relative * n).sum() * n
        var tangent = contact.tangentImpulse - contact.mass * sliding
        let limit = contact.friction * normal, size = (tangent * tangent).sum().squareRoot()
        if size > limit { tangent *= limit / size }
        let turned = tangent - contact.tangentImpulse
        contact.tangentImpulse = tangent
        if turned != .zero {
            apply(turned, contact, &v, w)
            change = max(change, (turned * turned).sum().squareRoot())
        }
        return change / contact.mass
    }

    /// The velocity of `contact`'s body relative to the other side.
    @inline(__always)
    static func relativeVelocity(_ contact: Contact, _ v: [SIMD3<Double>]) -> SIMD3<Double> {
        guard let o = contact.partner else { return v[contact.body] }
        return v[contact.body] - v[o]
    }

    /// Adds the impulse `p` (on the body, its opposite on the other side).
    @inline(__always)
    private static func apply(_ p: SIMD3<Double>, _ contact: Contact, _ v: inout [SIMD3<Double>], _ w: [Double]) {
        v[contact.body] += w[contact.body] * p
        if let o = contact.partner { v[o] -= w[o] * p }
    }
}
