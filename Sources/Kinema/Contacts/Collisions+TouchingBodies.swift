extension Collisions {
    /// Ends an impact whose passed impulses have not died down: the bodies touching `bodies`, and
    /// those touching them, meet as one, perfectly inelastically, their impulses solved together
    /// (`SceneLayout.contactImpulses`: none pulls, no contact left approaching).
    /// Impulses passed one pair at a time shrink the approach along a chain of m contacts by only
    /// about cos²(π/2m) a round: a ball dropped on a column of eight left the lowest moving into
    /// the floor after 2,000 of them.
    ///
    /// Adds the bodies reached to `bodies`, an event for each contact that was approaching, and
    /// the contacts left at rest and pressed to the resting ones. Returns false, changing nothing,
    /// where the impulses have no single solution.
    static func meetTogether<V>(
        _ system: inout SceneSystem<V>, _ state: inout PhaseState<V>, bodies: inout [Int], time: Double,
        events: inout [ImpactEvent]
    ) -> Bool {
        let layout = system.layout, scene = system.scene
        var contacts: [RestingContact] = []
        var reached = bodies
        var i = 0
        while i < reached.count {
            let b = reached[i]
            i += 1
            forEachTouching(system, state.position, of: b) { contact in
                if !contacts.contains(contact) { contacts.append(contact) }
                // A static body passes nothing on.
                if let o = contact.partner(of: b), layout.inverseMasses[o] > 0, !reached.contains(o) {
                    reached.append(o)
                }
            }
        }
        let before = state
        let solved = V.withLanes(of: state.position) { x in
            V.withMutableLanes(of: &state.velocity) { v in layout.contactImpulses(x, velocities: v, contacts) != nil }
        }
        guard solved else { return false }
        bodies = reached
        for contact in contacts {
            let speedIn = -separationSpeed(system, before, contact)
            guard speedIn > ContactTolerances.rounding else { continue }
            let sides = contact.bodies
            events.append(
                ImpactEvent(
                    time: time, body: contact.body,
                    hit: contact.collider, in: scene,
                    speedIn: speedIn, speedOut: max(separationSpeed(system, state, contact), 0),
                    jumps: sides.map {
                        .init(
                            body: $0, position: system.vector(state.position, body: $0),
                            before: system.vector(before.velocity, body: $0),
                            after: system.vector(state.velocity, body: $0))
                    }))
        }
        // At rest where pressed, found from the bottom up as at the start (a pair is pressed only
        // through the contacts held below it).
        var found = true
        while found {
            found = false
            for contact in contacts
            where !system.resting.contains(contact)
                && scene.rests(
                    movingAt: abs(separationSpeed(system, state, contact)), pressed: isPressed(system, state, contact))
            {
                system.resting.append(contact)
                found = true
            }
        }
        return true
    }
}
