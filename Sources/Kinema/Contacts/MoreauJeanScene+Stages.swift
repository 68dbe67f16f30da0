extension MoreauJeanScene {
    /// Stages 1 and 2: the contacts of a step of `h` from the velocities `free` (the forces'
    /// kick applied), waking the sleeping islands an awake body reaches (their bodies get their
    /// inverse mass in `w` and their kick in `free`).
    /// - Parameters:
    ///   - before: the velocities at the step's start.
    ///   - speeds: how fast each body may move in the step (at least its kicked speed).
    mutating func gatherContacts(
        _ h: Double, before: [SIMD3<Double>], speeds: [Double], accelerations a: [SIMD3<Double>], w: inout [Double],
        velocities free: inout [SIMD3<Double>]
    ) -> [Contact] {
        let count = x.count
        var reach = [Double](repeating: 0, count: count)
        for b in 0..<count { reach[b] = radius[b] + h * speeds[b] + ContactTolerances.margin * max(1, radius[b]) }
        broadPhase.pairs(positions: x, reach: reach, dimensions: d, into: &pairs)
        func pairGap(_ i: Int, _ j: Int) -> (gap: Double, normal: SIMD3<Double>, scale: Double) {
            let separation = x[i] - x[j], distance = (separation * separation).sum().squareRoot()
            let normal = distance > 0 ? separation / distance : SIMD3(1, 0, 0)
            return (distance - radius[i] - radius[j], normal, max(1, radius[i] + radius[j]))
        }
        func active(_ gap: Double, _ approach: Double, _ scale: Double) -> Bool {
            gap + h * min(approach, 0) <= (ContactTolerances.touching + ContactTolerances.margin) * scale
        }
        // A pair reaching from an awake body to a sleeping one wakes the sleeper's island, and the
        // island may reach another: until none is woken.
        var woke = islands.anyAsleep
        while woke {
            woke = false
            for (i, j) in pairs where islands.awake[i] != islands.awake[j] {
                let (gap, n, scale) = pairGap(i, j)
                guard w[i] + w[j] > 0, active(gap, ((free[i] - free[j]) * n).sum(), scale) else { continue }
                let sleeper = islands.awake[i] ? j : i
                guard islands.wake(sleeper) else { continue }
                woke = true
                for b in 0..<count where islands.awake[b] && w[b] == 0 && inverseMass[b] > 0 {
                    w[b] = inverseMass[b]
                    free[b] = before[b] + h * a[b]
                }
            }
        }
        // Every pair within reach is a contact of the step, approaching or not: the solve can push
        // a body into a neighbour it was not moving towards (a ball landing on a pile).
        var contacts: [Contact] = []
        func offer(_ body: Int, _ other: Contact.Other, gap: Double, normal n: SIMD3<Double>, scale: Double) {
            let partner: Int? = if case .body(let o) = other { o } else { nil }
            let wo = partner.map { w[$0] } ?? 0
            let relativeFree = free[body] - (partner.map { free[$0] } ?? .zero)
            guard w[body] + wo > 0 else { return }
            let (restitution, friction): (Double, Double)
            switch other {
            case .plane(let p): (restitution, friction) = (scene.planes[p].restitution, scene.planes[p].friction)
            case .body: (restitution, friction) = (scene.contacts?.restitution ?? 0, scene.contacts?.friction ?? 0)
            }
            var contact = Contact(
                body: body, other: other, normal: n, gap: gap, scale: scale, mass: 1 / (w[body] + wo),
                restitution: restitution, friction: friction)
            let memory = remembered[contact.key(bodies: count)]
            let relative = before[body] - (partner.map { before[$0] } ?? .zero)
            guard gap <= ContactTolerances.touching * scale else {
                // Its speed at the step's start, not the kicked one: a ball resting a rounding's
                // width above the floor would otherwise meet it at a step's worth of gravity, and
                // bounce for ever.
                contact.target = -gap / h
                contact.closingSpeed = max(0, -(relative * n).sum())
                contacts.append(contact)
                return
            }
            let approach = max(0, -(relative * n).sum(), memory?.closing ?? 0)
            let accelerated = ((a[body] - (partner.map { a[$0] } ?? .zero)) * n).sum()
            // Pressed by the forces, or held by the contact's impulse last step (a ball on a ball
            // on the floor: the forces alone accelerate both alike).
            let pressed = accelerated < 0 || (memory?.normal ?? 0) > 0
            let bounce = restitution * approach
            contact.impactSpeed = approach
            if approach > 0 && !scene.rests(movingAt: bounce, pressed: pressed) {
                // The bounce leaves at the step's start and the forces act after it, over the
                // step: moved at the bounce's speed for the whole step, a ball would gain g·h·e·U
                // of height each bounce (energy, for e near 1).
                contact.target = max(0, bounce + ((relativeFree - relative) * n).sum())
            } else if let memory, memory.closing == 0 {
                (contact.normalImpulse, contact.tangentImpulse) = (memory.normal, memory.tangent)
            }
            contacts.append(contact)
        }
        for b in 0..<count where w[b] > 0 {
            for (p, plane) in scene.planes.enumerated() {
                let gap = (x[b] * plane.normal).sum() - plane.offset - radius[b]
                guard gap <= reach[b] - radius[b] else { continue }
                offer(b, .plane(p), gap: gap, normal: plane.normal, scale: max(1, abs(plane.offset) + radius[b]))
            }
        }
        for (i, j) in pairs {
            let (gap, n, scale) = pairGap(i, j)
            offer(i, .body(j), gap: gap, normal: n, scale: scale)
        }
        return bottomUp(contacts)
    }

    /// `contacts` from the lowest up (along gravity): Gauss–Seidel then carries a pile's weight
    /// down and its support up in a sweep or two, where an arbitrary order needs about as many
    /// sweeps as the pile has rows, squared.
    func bottomUp(_ contacts: [Contact]) -> [Contact] {
        let g = scene.gravity
        guard g != .zero else { return contacts }
        func height(_ c: Contact) -> Double {
            -((x[c.body] + (c.partner.map { x[$0] } ?? x[c.body])) * g).sum()
        }
        return contacts.map { (height($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Stage 5: every overlap at the step's end closed to `ContactTolerances.overlap`, with the
    /// contacts a push may close (within twice the deepest overlap); sweeps first, then, where
    /// they run out, every contact at once (`PositionProjection.closeTogether`). A push can still
    /// make an overlap out of reach, so the overlaps are looked for again until none is left.
    /// Returns each contact's pushes by key (mass × length).
    /// - Throws: `SimulationError.contactLost` where an overlap beyond
    ///   `ContactTolerances.deepestOverlap` is left after `ContactTolerances.projectionRounds`.
    mutating func project(w: [Double]) throws -> [Int: Double] {
        var projected: [Int: Double] = [:]
        for round in 0...ContactTolerances.projectionRounds {
            let found = contacts(closerThan: 0, w: w)
            var deepest: (depth: Double, contact: Int?) = (0, nil)
            for (c, contact) in found.enumerated() where -contact.gap / contact.scale > deepest.depth {
                deepest = (-contact.gap / contact.scale, c)
            }
            guard deepest.depth > ContactTolerances.overlap, let c = deepest.contact else { return projected }
            guard round < ContactTolerances.projectionRounds else {
                guard deepest.depth > ContactTolerances.deepestOverlap else { return projected }
                throw SimulationError.contactLost(
                    time: time, body: found[c].body, collider: found[c].other, depth: deepest.depth * found[c].scale,
                    in: scene)
            }
            // With every contact a push out of the deepest overlap may close.
            var overlapping = bottomUp(contacts(closerThan: 2 * deepest.depth * found[c].scale, w: w))
            var pushes = [Double](repeating: 0, count: overlapping.count)
            let left = PositionProjection.project(
                &overlapping, positions: &x, inverseMasses: w, radii: radius, planes: scene.planes, pushes: &pushes)
            if left.depth > ContactTolerances.overlap {
                PositionProjection.closeTogether(
                    &overlapping, positions: &x, inverseMasses: w, radii: radius, planes: scene.planes, pushes: &pushes)
            }
            for (c, push) in zip(overlapping, pushes) where push != 0 {
                projected[c.key(bodies: x.count), default: 0] += push
            }
        }
        return projected
    }

    /// The contacts (gaps taken) of every awake body whose gap is below `distance` beyond the
    /// broad phase's margin.
    private mutating func contacts(closerThan distance: Double, w: [Double]) -> [Contact] {
        let count = x.count
        var reach = [Double](repeating: 0, count: count)
        for b in 0..<count { reach[b] = radius[b] + ContactTolerances.margin * max(1, radius[b]) + distance / 2 }
        broadPhase.pairs(positions: x, reach: reach, dimensions: d, into: &pairs)
        var found: [Contact] = []
        func offer(_ body: Int, _ other: Contact.Other, wo: Double, scale: Double) {
            guard w[body] + wo > 0 else { return }
            var contact = Contact(
                body: body, other: other, normal: SIMD3(1, 0, 0), gap: 0, scale: scale, mass: 1 / (w[body] + wo),
                restitution: 0, friction: 0)
            contact.gap = PositionProjection.gap(contact, x, radius, scene.planes).gap
            if contact.gap < ContactTolerances.margin * scale + distance { found.append(contact) }
        }
        for b in 0..<count where w[b] > 0 {
            for (p, plane) in scene.planes.enumerated() {
                offer(b, .plane(p), wo: 0, scale: max(1, abs(plane.offset) + radius[b]))
            }
        }
        for (i, j) in pairs { offer(i, .body(j), wo: w[j], scale: max(1, radius[i] + radius[j])) }
        return found
    }

    /// The contacts' memory for the next step, and an `ImpactEvent` for each impact: a contact
    /// met at a speed (not one resting on), bouncing or coming to rest. `projected`: the position
    /// stage's pushes by contact key.
    mutating func record(
        _ contacts: [Contact], projected: [Int: Double], free: [SIMD3<Double>], h: Double,
        events: inout [ImpactEvent]
    ) throws {
        let count = x.count
        var memory: [Int: (normal: Double, tangent: SIMD3<Double>, closing: Double)] = [:]
        memory.reserveCapacity(contacts.count)
        for contact in contacts {
            let key = contact.key(bodies: count)
            let closed = contact.closingSpeed > 0 && contact.normalImpulse > 0
            let earlier = remembered[key]
            memory[key] = (contact.normalImpulse, contact.tangentImpulse, closed ? contact.closingSpeed : 0)
            guard contact.impactSpeed > 0,
                !scene.rests(movingAt: contact.impactSpeed, pressed: true) || (earlier?.closing ?? 0) > 0
                    || earlier == nil
            else { continue }
            let partner = contact.partner
            let separating = ((v[contact.body] - (partner.map { v[$0] } ?? .zero)) * contact.normal).sum()
            var jumps = [
                ImpactEvent.VelocityJump(
                    body: contact.body, position: x[contact.body], before: free[contact.body], after: v[contact.body])
            ]
            if let o = partner, inverseMass[o] > 0 {
                jumps.append(.init(body: o, position: x[o], before: free[o], after: v[o]))
            }
            events.append(
                ImpactEvent(
                    time: time + h, body: contact.body, hit: contact.other, in: scene,
                    speedIn: contact.impactSpeed, speedOut: contact.target > 0 ? max(0, separating) : 0, jumps: jumps))
            eventCount += 1
            if eventCount > eventLimit { throw SimulationError.tooManyEvents(time: time + h, limit: eventLimit) }
        }
        // What the position stage pushed is impulse (over the step) the velocity solve fell short
        // of: added to the warm start, the next solve starts nearer where this one should have
        // ended, and a pile's overlaps shrink step by step instead of coming back each step.
        for (key, push) in projected where push > 0 && memory[key]?.closing == 0 { memory[key]?.normal += push / h }
        remembered = memory
    }
}
