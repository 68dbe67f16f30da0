extension Collisions {
    /// An impact on bodies held by resting contacts (a ball landing on a pile, a ball on the floor
    /// hit from above), resolved with those contacts as one impulse problem: Moreau's impact law,
    /// v⁺ ≥ −e·v⁻ along every contact's normal with the impulse ≥ 0 and 0 where the sides part
    /// faster. Only the impact approaches (v⁻ = 0 at a resting contact), so the impact parts at
    /// e times its speed and every resting contact it reaches, through the bodies that rest on one
    /// another, is held or let part, in one solve (`SceneLayout.contactImpulses`). One impulse at a
    /// time, the ball below would bounce off the floor into the ball above, and so on down the
    /// pile: dozens of impacts at one instant, each leaving a contact that was at rest moving.
    ///
    /// Contacts that touch without resting (a row of balls in free fall, Newton's cradle) are not
    /// part of the problem: the impacts they pass on stay one at a time, as the sequence a row with
    /// the thinnest gaps goes through.
    ///
    /// Changes nothing and returns false where the impact reaches no resting contact, or the
    /// impulses have no single solution; the caller applies the impact alone (`impulse`).
    /// Otherwise records the impact's event and adds the bodies whose velocities changed to
    /// `changed`.
    static func impactOnRestingBodies<V>(
        _ system: inout SceneSystem<V>, _ state: inout PhaseState<V>, body b: Int, collider: Collider,
        time: Double, events: inout [ImpactEvent], restitutionScale: Double, changed: inout [Int]
    ) -> Bool {
        guard !system.resting.isEmpty else { return false }
        let layout = system.layout, scene = system.scene
        let impact = RestingContact(body: b, collider: collider)
        var contacts = [impact]
        var reached = [b]
        if case .body(let o) = collider, layout.inverseMasses[o] > 0 { reached.append(o) }
        var i = 0
        while i < reached.count {
            let body = reached[i]
            i += 1
            for contact in system.resting where contact.involves(body) && !contacts.contains(contact) {
                contacts.append(contact)
                if let o = contact.partner(of: body), layout.inverseMasses[o] > 0, !reached.contains(o) {
                    reached.append(o)
                }
            }
        }
        guard contacts.count > 1 else { return false }

        let before = state
        touchExactly(system, &state, body: b, collider: collider)
        let speedIn = max(-separationSpeed(system, state, impact), 0)
        let restitution: Double, friction: Double
        switch collider {
        case .plane(let p): (restitution, friction) = (scene.planes[p].restitution, scene.planes[p].friction)
        case .body: (restitution, friction) = (scene.contacts!.restitution, scene.contacts!.friction)
        }
        var speedOut = restitution * restitutionScale * speedIn
        let rests = scene.rests(movingAt: speedOut, pressed: isPressed(system, state, impact))
        if rests { speedOut = 0 }
        // The impact's sides part at speedOut at least, or, coming to rest, neither close nor part
        // (met again while parting by rounding, they would be let go and met again at once); the
        // resting contacts' part at 0 at least.
        var partingSpeeds = [Double](repeating: 0, count: contacts.count)
        partingSpeeds[0] = speedOut
        let impulses = V.withLanes(of: state.position) { x in
            V.withMutableLanes(of: &state.velocity) { v in
                layout.contactImpulses(x, velocities: v, contacts, holding: rests ? 1 : 0, partingSpeeds: partingSpeeds)
            }
        }
        guard let impulses else {
            state = before
            return false
        }
        if friction > 0 {
            // Coulomb's limit on the impact's own tangential impulse, as for an impact alone:
            // μ times its normal impulse (the change it makes to its sides' relative velocity).
            slowSliding(system, &state, impact, by: friction * impulses[0])
        }
        if rests {
            if !system.resting.contains(impact) { system.resting.append(impact) }
        } else {
            system.resting.removeAll { $0 == impact }
        }
        let jumps = reached.compactMap { body -> ImpactEvent.VelocityJump? in
            let old = system.vector(before.velocity, body: body), new = system.vector(state.velocity, body: body)
            guard old != new else { return nil }
            return .init(body: body, position: system.vector(state.position, body: body), before: old, after: new)
        }
        events.append(
            ImpactEvent(
                time: time, body: impact.body, hit: impact.collider, in: scene,
                speedIn: speedIn, speedOut: rests ? 0 : max(separationSpeed(system, state, impact), 0),
                jumps: jumps))
        for jump in jumps where !changed.contains(jump.body) { changed.append(jump.body) }
        return true
    }

    /// Moves the sides of an impact exactly onto touching (the root that located it is within
    /// rounding of it): onto the plane, or apart along the line of centres in proportion to their
    /// inverse masses.
    static func touchExactly<V>(_ system: SceneSystem<V>, _ state: inout PhaseState<V>, body b: Int, collider: Collider)
    {
        switch collider {
        case .plane(let p):
            let x = system.vector(state.position, body: b)
            system.set(
                &state.position, body: b,
                to: x - gap(system, state.position, body: b, plane: p) * system.planeNormals[p])
        case .body(let o):
            let xa = system.vector(state.position, body: b), xo = system.vector(state.position, body: o)
            let d = xa - xo, distance = (d * d).sum().squareRoot()
            let n = distance > 0 ? d / distance : SIMD3<Double>(0, 0, 1)
            let (a, other) = separated(
                xa, xo, overlap: -gap(system, state.position, bodies: b, o), system.inverseMasses[b],
                system.inverseMasses[o], normal: n)
            system.set(&state.position, body: b, to: a)
            system.set(&state.position, body: o, to: other)
        }
    }

    /// Takes up to `change` off the tangential relative velocity of `contact`'s sides, each side in
    /// proportion to its inverse mass.
    private static func slowSliding<V>(
        _ system: SceneSystem<V>, _ state: inout PhaseState<V>, _ contact: RestingContact, by change: Double
    ) {
        let va = system.vector(state.velocity, body: contact.body)
        let n: SIMD3<Double>, vo: SIMD3<Double>, wa = system.inverseMasses[contact.body], wo: Double
        switch contact.collider {
        case .body(let o):
            let d = system.vector(state.position, body: contact.body) - system.vector(state.position, body: o)
            n = d / (d * d).sum().squareRoot()
            vo = system.vector(state.velocity, body: o)
            wo = system.inverseMasses[o]
        case .plane(let p):
            (n, vo, wo) = (system.planeNormals[p], .zero, 0)
        }
        let relative = va - vo, tangential = relative - (relative * n).sum() * n
        let speed = (tangential * tangential).sum().squareRoot()
        guard speed > 0, wa + wo > 0 else { return }
        let taken = min(change, speed) / (speed * (wa + wo))
        system.set(&state.velocity, body: contact.body, to: va - (taken * wa) * tangential)
        if let o = contact.other { system.set(&state.velocity, body: o, to: vo + (taken * wo) * tangential) }
    }
}
