extension Collisions {
    /// Stage 4 of the located contacts, the update of the contact set after a step:
    /// ends resting contacts whose two sides now accelerate apart (with spheres sliding over each
    /// other, by more than their `SceneLayout.bending`). Without the contacts' forces first; where
    /// that parts a contact in a scene with spheres resting on spheres, with every other contact's
    /// force, and the contact is kept where its own still presses: a ball on the floor, pulled
    /// sideways under one it carries, looked pulled away from it without the floor's support, let
    /// go and met it again in a zero-speed impact at every step.
    /// Returns whether it let any go.
    @discardableResult
    static func releaseParting<I: Integrator, V>(in integrator: inout I) -> Bool where I.System == SceneSystem<V> {
        // The contacts first: reading the system copies it through its value witness, at every
        // step, where usually nothing rests.
        guard !integrator.system.resting.isEmpty else { return false }
        let system = integrator.system, resting = system.resting
        let state = integrator.state
        func held(_ contact: RestingContact, _ a: V) -> Bool {
            let o: Int
            switch contact.collider {
            case .plane(let p): return (system.vector(a, body: contact.body) * system.planeNormals[p]).sum() <= 0
            case .body(let other): o = other
            }
            let d = system.vector(state.position, body: contact.body) - system.vector(state.position, body: o)
            let relative = system.vector(state.velocity, body: contact.body) - system.vector(state.velocity, body: o)
            let n = d / (d * d).sum().squareRoot(), ab = system.vector(a, body: contact.body)
            // Apart beyond rounding (the solver's tolerance): bending from a velocity of rounding's
            // size is no parting.
            let apart = ((ab - system.vector(a, body: o)) * n).sum() + SceneLayout.bending(d, relative)
            return apart <= ContactTolerances.rounding * (1 + abs((ab * n).sum()))
        }
        var free = system
        free.resting = []
        let a = free.acceleration(position: state.position, velocity: state.velocity, time: integrator.time)
        var kept = resting.filter { held($0, a) }
        if kept.count != resting.count && resting.contains(where: { $0.other != nil }) {
            kept = system.withPressing(position: state.position, velocity: state.velocity) { a, pressing in
                var c = -1
                return resting.filter { contact in
                    c += 1
                    return pressing[c] > 0 || held(contact, a)
                }
            }
        }
        if kept.count != resting.count {
            var system = system
            system.resting = kept
            integrator.system = system
            integrator.restart(at: integrator.time, state: state)
        }
        return kept.count != resting.count
    }
}
