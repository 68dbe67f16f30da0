import RealModule

/// Collision geometry and response, shared by every scene stepper: contacts at rest at the start,
/// gaps, the root of a gap in a step, and the impulse of an impact.
enum Collisions {
    /// What a body hits: a plane, or another body (by index).
    enum Collider: Equatable { case plane(Int), body(Int) }

    /// Contacts at rest from the start: a body on a plane, not moving into or out of it faster than
    /// the rest velocity, and pushed into it.
    static func initialContacts<V>(_ system: SceneSystem<V>, _ state: PhaseState<V>) throws -> [SceneSystem<V>.RestingContact] {
        var contacts: [SceneSystem<V>.RestingContact] = []
        let a = system.acceleration(position: state.position, velocity: state.velocity, time: 0)
        for (b, body) in system.scene.bodies.enumerated() where !body.isStatic {
            for (p, plane) in system.scene.planes.enumerated() {
                let gap = Self.gap(system, state.position, body: b, plane: p)
                let scale = max(1, abs(plane.offset) + body.radius)
                guard gap >= -1e-12 * scale else {
                    throw KinemaError(parameter: "body '\(body.name)'", value: "\(-gap) inside plane '\(plane.name)'",
                                      rule: "outside every plane at the start")
                }
                let n = system.planeNormals[p]
                let vn = (system.vector(state.velocity, body: b) * n).sum()
                let an = (system.vector(a, body: b) * n).sum()
                if gap <= 1e-12 * scale && abs(vn) <= system.scene.restVelocity && an <= 0 {
                    contacts.append(.init(body: b, plane: p))
                }
            }
        }
        return contacts
    }

    static func gap<V>(_ system: SceneSystem<V>, _ position: V, body: Int, plane: Int) -> Double {
        gap(system.layout, system.vector(position, body: body), body: body, plane: plane)
    }

    /// The distance from body `body` at `x` to plane `plane`, less its radius.
    static func gap(_ layout: SceneLayout, _ x: SIMD3<Double>, body: Int, plane: Int) -> Double {
        (x * layout.planeNormals[plane]).sum() - layout.planeOffsets[plane] - layout.radii[body]
    }

    static func gap<V>(_ system: SceneSystem<V>, _ position: V, bodies a: Int, _ b: Int) -> Double {
        gap(system.layout, system.vector(position, body: a), system.vector(position, body: b), bodies: a, b)
    }

    /// The distance between bodies `a` at `xa` and `b` at `xb`, less their radii.
    static func gap(_ layout: SceneLayout, _ xa: SIMD3<Double>, _ xb: SIMD3<Double>, bodies a: Int, _ b: Int) -> Double {
        let d = xa - xb
        return (d * d).sum().squareRoot() - layout.radii[a] - layout.radii[b]
    }

    /// The root of `f` in [a, b] with f(a) ≥ 0 > f(b), to the last bit: Illinois steps, with a
    /// bisection whenever they stall. Returns the side where f ≥ 0, so nothing starts inside.
    static func lastNonNegative(_ a: Double, _ b: Double, _ f: (Double) -> Double) -> Double {
        var a = a, b = b, fa = max(f(a), 0), fb = f(b)
        var side = 0
        for iteration in 0..<200 {
            if b - a <= 2 * b.ulp { break }
            var t = iteration % 3 == 2 ? 0.5 * (a + b) : b - fb * (b - a) / (fb - fa)
            if !(t > a && t < b) { t = 0.5 * (a + b) }
            let ft = f(t)
            if ft >= 0 {
                a = t; fa = ft
                if side == 1 { fb *= 0.5 }
                side = 1
            } else {
                b = t; fb = ft
                if side == -1 { fa *= 0.5 }
                side = -1
            }
        }
        return a
    }

    /// Applies the impulse of an impact and returns the new state; records the event.
    static func apply<V>(_ system: inout SceneSystem<V>, _ state: PhaseState<V>, body b: Int, collider: Collider,
                  time: Double, events: inout [ImpactEvent]) -> PhaseState<V> {
        var state = state
        let scene = system.scene
        switch collider {
        case .plane(let p):
            let plane = scene.planes[p], n = system.planeNormals[p]
            var x = system.vector(state.position, body: b), v = system.vector(state.velocity, body: b)
            x -= Self.gap(system, state.position, body: b, plane: p) * n  // exactly on the surface
            let vn = (v * n).sum()
            var tangential = v - vn * n
            let speedIn = max(-vn, 0)
            var speedOut = plane.restitution * speedIn
            let tangentialSpeed = (tangential * tangential).sum().squareRoot()
            if plane.friction > 0 && tangentialSpeed > 0 {
                let reduced = max(0, tangentialSpeed - plane.friction * (1 + plane.restitution) * speedIn)
                tangential *= reduced / tangentialSpeed
            }
            if speedOut < max(scene.restVelocity, 1e-9) {
                speedOut = 0
                system.resting.append(.init(body: b, plane: p))
            }
            let before = v
            v = tangential + speedOut * n
            system.set(&state.position, body: b, to: x)
            system.set(&state.velocity, body: b, to: v)
            events.append(ImpactEvent(time: time, body: scene.bodies[b].name, collider: plane.name,
                                      speedIn: speedIn, speedOut: speedOut,
                                      jumps: [.init(body: b, position: x, before: before, after: v)]))
        case .body(let o):
            let contact = scene.contacts!
            let wa = system.inverseMasses[b], wo = system.inverseMasses[o]
            var xa = system.vector(state.position, body: b), xo = system.vector(state.position, body: o)
            var va = system.vector(state.velocity, body: b), vo = system.vector(state.velocity, body: o)
            let d = xa - xo
            let distance = (d * d).sum().squareRoot()
            let n = distance > 0 ? d / distance : SIMD3<Double>(0, 0, 1)
            let overlap = -Self.gap(system, state.position, bodies: b, o)
            if overlap > 0 {
                xa += (overlap * wa / (wa + wo)) * n
                xo -= (overlap * wo / (wa + wo)) * n
            }
            let (beforeA, beforeO) = (va, vo)
            let relative = va - vo
            let un = (relative * n).sum()
            let speedIn = max(-un, 0)
            var speedOut = contact.restitution * speedIn
            if speedOut < max(scene.restVelocity, 1e-9) { speedOut = 0 }
            let impulse = (speedIn + speedOut) / (wa + wo)
            va += (impulse * wa) * n
            vo -= (impulse * wo) * n
            let tangential = relative - un * n
            let tangentialSpeed = (tangential * tangential).sum().squareRoot()
            if contact.friction > 0 && tangentialSpeed > 0 {
                let frictionImpulse = min(contact.friction * impulse, tangentialSpeed / (wa + wo))
                va -= (frictionImpulse * wa / tangentialSpeed) * tangential
                vo += (frictionImpulse * wo / tangentialSpeed) * tangential
            }
            system.set(&state.position, body: b, to: xa)
            system.set(&state.position, body: o, to: xo)
            system.set(&state.velocity, body: b, to: va)
            system.set(&state.velocity, body: o, to: vo)
            events.append(ImpactEvent(time: time, body: scene.bodies[b].name, collider: scene.bodies[o].name,
                                      speedIn: speedIn, speedOut: speedOut,
                                      jumps: [.init(body: b, position: xa, before: beforeA, after: va),
                                              .init(body: o, position: xo, before: beforeO, after: vo)]))
        }
        return state
    }
}
