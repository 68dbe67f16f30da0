extension SceneLayout {
    /// The normal forces of resting contacts without friction, solved exactly and added to `a`:
    /// none pulls, and none leaves its contact accelerated into (Baraff's force-level linear
    /// complementarity problem of resting contact). With the velocities `v`, a pair of spheres is
    /// held touching as they slide over each other (`SceneLayout.bending`). Writes the
    /// acceleration each contact removes to `pressing[4c]` and returns true; false where the
    /// solve fails (`solveContacts`), `a` and `pressing` untouched.
    func pressContacts(
        _ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>, _ a: UnsafeMutablePointer<Double>,
        _ resting: [RestingContact], pressing: UnsafeMutablePointer<Double>
    ) -> Bool {
        solveContacts(x, v, a, resting, pressing: pressing, holding: 0, offsets: nil)
    }

    /// The same problem on the velocities `v` (impulses, Moreau's law at the velocity level),
    /// solved in place: no contact is left closing, the first `holding` contacts may pull too, so
    /// each ends neither closing nor parting, and contact c parts at `partingSpeeds[c]` at least
    /// where given (an impact's bounce). Returns each contact's change of its sides' relative
    /// normal velocity, or nil where the solve fails, `v` untouched.
    func contactImpulses(
        _ x: UnsafePointer<Double>, velocities v: UnsafeMutablePointer<Double>, _ contacts: [RestingContact],
        holding: Int = 0, partingSpeeds: [Double] = []
    ) -> [Double]? {
        var pressing = [Double](repeating: 0, count: 4 * contacts.count)
        let solved: Bool
        if partingSpeeds.isEmpty {
            solved = solveContacts(x, nil, v, contacts, pressing: &pressing, holding: holding, offsets: nil)
        } else {
            let offsets = contacts.indices.map { -partingSpeeds[$0] }
            solved = solveContacts(x, nil, v, contacts, pressing: &pressing, holding: holding, offsets: offsets)
        }
        return solved ? (0..<contacts.count).map { pressing[4 * $0] } : nil
    }

    /// The same problem on positions: the least correction (in the inverse masses' metric) added to
    /// `dx` that leaves every contact's gap (`gaps[c]` before, < 0 inside) at 0 at least, the
    /// position projection of an overlap. Returns false where the solve fails, `dx` untouched.
    func contactCorrection(
        _ x: UnsafePointer<Double>, _ dx: UnsafeMutablePointer<Double>, _ contacts: [RestingContact],
        gaps: [Double]
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * contacts.count) { pressing in
            solveContacts(x, nil, dx, contacts, pressing: pressing.baseAddress!, holding: 0, offsets: gaps)
        }
    }

    /// The complementarity problem behind `pressContacts`, `contactImpulses` and
    /// `contactCorrection`: pushes along the contacts' normals, added to `a` through the inverse
    /// masses, such that none pulls (but the first `holding`) and each contact's sides end moving
    /// apart by `-offsets[c]` (0 without) at least, exactly where it pushes. Which contacts push is
    /// guessed (all of them at first), those are solved together by conjugate gradients, and the
    /// guess is corrected (a contact that would pull lets go, one moved into pushes) until it holds.
    ///
    /// A chain of m touching spheres couples every contact to the next: Gauss–Seidel sweeps shrink
    /// its error by about cos²(π/2m) each (1,000 did not settle a column of twenty), where
    /// conjugate gradients are exact after m iterations, rounding aside.
    ///
    /// Writes what each contact removes to `pressing[4c]` and returns true. Where the guess is
    /// still changing after `ContactTolerances.forceRounds` rounds in which a contact let go, or
    /// that many + m rounds for m contacts (redundant contacts, whose pushes have no single
    /// solution, make it cycle, letting go and taking back), the pushes are those of the
    /// equivalent minimum (`pressTogether`); where that fails too, or `holding` contacts may pull,
    /// returns false, `a` and `pressing` untouched. A push can travel through a pile one contact a
    /// round (a ball moved out of one it sank into presses the next into the one below): ten or
    /// eleven rounds for the 21 or 22 contacts of a 12-ball pile, each but the first only taking
    /// contacts.
    private func solveContacts(
        _ x: UnsafePointer<Double>, _ v: UnsafePointer<Double>?, _ a: UnsafeMutablePointer<Double>,
        _ resting: [RestingContact], pressing: UnsafeMutablePointer<Double>, holding: Int,
        offsets: UnsafePointer<Double>?
    ) -> Bool {
        let m = resting.count, d = dimensions, lanes = inverseMasses.count * d
        // Per contact: its normal (3), force, residual, direction, product, acceleration along the
        // normal before (6 doubles in all beside the normal); then one vector of the scene's lanes.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 9 * m + lanes) { buffer in
            let base = buffer.baseAddress!
            let normals = base, f = base + 3 * m, r = base + 4 * m, p = base + 5 * m, q = base + 6 * m
            let free = base + 7 * m, active = base + 8 * m, u = base + 9 * m
            func normal(_ c: Int) -> SIMD3<Double> { SIMD3(normals[3 * c], normals[3 * c + 1], normals[3 * c + 2]) }
            // u = W Jᵀ v over the active contacts: the accelerations forces v give the bodies.
            func spread(_ v: UnsafePointer<Double>) {
                u.update(repeating: 0, count: lanes)
                for c in 0..<m where active[c] != 0 {
                    let n = normal(c), contact = resting[c]
                    add((v[c] * inverseMasses[contact.body]) * n, to: u, contact.body, d)
                    if case .body(let o) = contact.collider { add((-v[c] * inverseMasses[o]) * n, to: u, o, d) }
                }
            }
            // Contact c's acceleration along its normal under the body accelerations `lanes`.
            func along(_ c: Int, _ lanes: UnsafePointer<Double>) -> Double {
                let contact = resting[c]
                var relative = load(lanes, contact.body, d)
                if case .body(let o) = contact.collider { relative -= load(lanes, o, d) }
                return (relative * normal(c)).sum()
            }
            var scale = 0.0
            for (c, contact) in resting.enumerated() {
                let n: SIMD3<Double>
                free[c] = 0
                switch contact.collider {
                case .body(let o):
                    let separation = load(x, contact.body, d) - load(x, o, d)
                    let distance = (separation * separation).sum().squareRoot()
                    guard distance > 0, inverseMasses[contact.body] + inverseMasses[o] > 0 else { return false }
                    n = separation / distance
                    if let v { free[c] = Self.bending(separation, load(v, contact.body, d) - load(v, o, d)) }
                case .plane(let p):
                    n = planeNormals[p]
                }
                (normals[3 * c], normals[3 * c + 1], normals[3 * c + 2]) = (n.x, n.y, n.z)
                active[c] = 1
            }
            for c in 0..<m {
                free[c] += along(c, a)
                if let offsets { free[c] += offsets[c] }
                scale = max(scale, abs(free[c]))
            }
            let tolerance = ContactTolerances.rounding * (1 + scale)
            var letGo = 0  // rounds in which a contact let go: the guess can cycle only through them
            for _ in 0..<(ContactTolerances.forceRounds + m) {
                // Conjugate gradients on the active contacts: J W Jᵀ f = −(J a) there, f = 0 elsewhere.
                var rr = 0.0
                for c in 0..<m {
                    f[c] = 0
                    r[c] = active[c] != 0 ? -free[c] : 0
                    p[c] = r[c]
                    rr += r[c] * r[c]
                }
                let goal = ContactTolerances.forceResidual * ContactTolerances.forceResidual * (1 + rr)
                for _ in 0..<(2 * m + ContactTolerances.gradientIterations) where rr > goal {
                    spread(p)
                    var pq = 0.0
                    for c in 0..<m {
                        q[c] = active[c] != 0 ? along(c, u) : 0
                        pq += p[c] * q[c]
                    }
                    guard pq > 0 else { break }
                    let alpha = rr / pq
                    var next = 0.0
                    for c in 0..<m {
                        f[c] += alpha * p[c]
                        r[c] -= alpha * q[c]
                        next += r[c] * r[c]
                    }
                    for c in 0..<m { p[c] = r[c] + (next / rr) * p[c] }
                    rr = next
                }
                // Correct the guess: a pulling contact lets go, one accelerated into presses.
                spread(f)
                var changed = false, released = false
                for c in 0..<m {
                    if active[c] != 0 {
                        if f[c] < 0 && c >= holding { (active[c], changed, released) = (0, true, true) }
                    } else if free[c] + along(c, u) < -tolerance {
                        (active[c], changed) = (1, true)
                    }
                }
                guard changed else {
                    for i in 0..<lanes { a[i] += u[i] }
                    for (c, contact) in resting.enumerated() {
                        let w = inverseMasses[contact.body] + (contact.other.map { inverseMasses[$0] } ?? 0)
                        pressing[4 * c] = f[c] * w
                    }
                    return true
                }
                if released {
                    letGo += 1
                    if letGo == ContactTolerances.forceRounds { break }
                }
            }
            // Still changing: redundant contacts, whose forces have no single solution.
            return holding == 0 && pressTogether(resting, normals, free, tolerance, a, pressing)
        }
    }

    /// `solveContacts`' problem where its guess cycles, solved as the equivalent bound-constrained
    /// minimum (`ActiveSetSolver`): redundant contacts (a packing wedged in a box) have many sets of
    /// forces, all giving the same accelerations, and the minimum reaches one of them. `normals`
    /// and `free` as `solveContacts` computed them; whether it met `tolerance`.
    private func pressTogether(
        _ resting: [RestingContact], _ normals: UnsafePointer<Double>, _ free: UnsafePointer<Double>,
        _ tolerance: Double, _ a: UnsafeMutablePointer<Double>, _ pressing: UnsafeMutablePointer<Double>
    ) -> Bool {
        let w = Array(inverseMasses), d = dimensions
        let contacts = resting.enumerated().map { c, contact in
            Contact(
                body: contact.body, other: contact.collider,
                normal: SIMD3(normals[3 * c], normals[3 * c + 1], normals[3 * c + 2]), gap: 0, scale: 1,
                mass: 1, restitution: 0, friction: 0)
        }
        var solver = ActiveSetSolver(contacts: contacts, inverseMasses: w)
        var f = [Double](repeating: 0, count: resting.count)
        let needs = (0..<resting.count).map { -free[$0] }
        guard solver.solve(needs: needs, pushes: &f, tolerance: tolerance) else { return false }
        for b in w.indices { add(solver.moved[b], to: a, b, d) }
        for (c, contact) in resting.enumerated() {
            pressing[4 * c] = f[c] * (w[contact.body] + (contact.other.map { w[$0] } ?? 0))
        }
        return true
    }

    /// How fast two touching spheres' gap accelerates from their relative motion alone: the gap's
    /// second derivative is the relative acceleration along the line of centres plus this, the
    /// relative velocity across that line squared over the distance (`separation`, from the second
    /// to the first). A pair sliding over each other stays touching only where the forces
    /// accelerate it together by this much: a ball sliding over a sphere follows its curve.
    static func bending(_ separation: SIMD3<Double>, _ relativeVelocity: SIMD3<Double>) -> Double {
        let squaredDistance = (separation * separation).sum()
        guard squaredDistance > 0 else { return 0 }
        let along = (relativeVelocity * separation).sum()
        let across = (relativeVelocity * relativeVelocity).sum() - along * along / squaredDistance
        return max(across, 0) / squaredDistance.squareRoot()
    }
}
