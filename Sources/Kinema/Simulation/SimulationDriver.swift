import RealModule

/// The one generic loop every integrator runs in: step, check stability, locate the earliest
/// collision on the integrator's dense output, apply it, and emit the samples passed.
struct SimulationDriver {
    let sampleTimes: [Double]
    /// Fixed-step runs end steps on sample times; frame-driven, adaptive and Adams runs interpolate.
    let landOnSamples: Bool
    let method: IntegrationMethod
    /// The most steps the run may take.
    var stepBudget = Simulation.defaultStepBudget
    /// Whether the scene has anything to collide with (checked once, not every step).
    var hasColliders = true

    /// The energy a passive scene may gain, relative to its initial energy, before the run is
    /// declared unstable: wide enough for symplectic methods' bounded oscillation, narrow enough
    /// to stop an exponential blow-up within a few steps.
    static let energyGrowthLimit = 0.5

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
        let x = system.vector(position, body: body)
        return (x * system.planeNormals[plane]).sum() - system.scene.planes[plane].offset - system.scene.bodies[body].radius
    }

    static func gap<V>(_ system: SceneSystem<V>, _ position: V, bodies a: Int, _ b: Int) -> Double {
        let d = system.vector(position, body: a) - system.vector(position, body: b)
        return (d * d).sum().squareRoot() - system.scene.bodies[a].radius - system.scene.bodies[b].radius
    }

    enum Collider { case plane(Int), body(Int) }

    func run<I: Integrator, V>(_ integrator: inout I, stabilityLimit: ((Double, Double) -> Double)?,
                               methodName: String? = nil) throws -> Trajectory
    where I.System == SceneSystem<V> {
        let name = methodName ?? method.name
        var driver = self
        driver.hasColliders = integrator.system.scene.hasColliders
        return try driver.loop(&integrator, stabilityLimit: stabilityLimit, name: name)
    }

    func loop<I: Integrator, V>(_ integrator: inout I, stabilityLimit: ((Double, Double) -> Double)?, name: String) throws
        -> Trajectory where I.System == SceneSystem<V> {
        // Contacts change the system during a run, its forces and masses do not: one copy for the
        // energy checks (reading `integrator.system` each time copied it, retains and all).
        let forces = integrator.system
        let scene = forces.scene
        var trajectory = Trajectory(scene: scene)
        trajectory.reserveCapacity(samples: sampleTimes.count)
        let end = sampleTimes[sampleTimes.count - 1]
        let initialEnergy = forces.energy(of: integrator.state)
        let energyAllowance = Self.energyGrowthLimit * max(abs(initialEnergy), 1e-300) + 1e-12 * (1 + abs(initialEnergy))
        var next = 0
        while next < sampleTimes.count && sampleTimes[next] <= integrator.time {
            trajectory.append(time: sampleTimes[next], state: integrator.state)
            next += 1
        }
        var eventCount = 0
        var calls = 0
        while integrator.time < end {
            calls += 1
            if integrator.steps >= stepBudget {
                throw SimulationError.tooManySteps(time: integrator.time, limit: stepBudget)
            }
            let limit = landOnSamples ? sampleTimes[next] : end
            // With colliders every step is searched for impacts; without, the integrator may take
            // several steps up to the next sample.
            if hasColliders { try integrator.advance(toward: limit) } else {
                try integrator.advance(toward: limit, reaching: sampleTimes[next])
            }
            // Non-finite lanes after every call; the energy (loops over bodies and springs) every
            // 8th call and at the end, which still stops a blow-up within a few steps. Both checks,
            // and the impact search, are called only when they have work.
            let energyCheck = calls % 8 == 0 || integrator.time >= end
            if energyCheck || !integrator.state.allLanesFinite {
                try checkStability(&integrator, forces: forces, initialEnergy: initialEnergy, allowance: energyAllowance,
                                   limit: stabilityLimit, name: name, energy: energyCheck)
            }
            if hasColliders || (next < sampleTimes.count && sampleTimes[next] < integrator.time) {
                integrator.prepareInterpolation()
            }
            if hasColliders, let (time, body, collider) = earliestImpact(&integrator) {
                while next < sampleTimes.count && sampleTimes[next] <= time {
                    trajectory.append(time: sampleTimes[next], state: integrator.interpolate(at: sampleTimes[next]))
                    next += 1
                }
                var system = integrator.system
                let state = apply(&system, integrator.interpolate(at: time), body: body, collider: collider,
                                  time: time, events: &trajectory.events)
                integrator.system = system
                integrator.restart(at: time, state: state)
                eventCount += 1
                if eventCount > Simulation.maximumEvents {
                    throw SimulationError.tooManyEvents(time: time, limit: Simulation.maximumEvents)
                }
                continue
            }
            if hasColliders { releaseContacts(&integrator) }  // contacts are with planes
            while next < sampleTimes.count && sampleTimes[next] <= integrator.time {
                let t = sampleTimes[next]
                trajectory.append(time: t, state: t == integrator.time ? integrator.state : integrator.interpolate(at: t))
                next += 1
            }
        }
        trajectory.steps = integrator.steps
        trajectory.evaluations = integrator.evaluations
        return trajectory
    }

    func checkStability<I: Integrator, V>(_ integrator: inout I, forces: SceneSystem<V>, initialEnergy: Double, allowance: Double,
                                          limit: ((Double, Double) -> Double)?, name: String, energy: Bool) throws
    where I.System == SceneSystem<V> {
        let state = integrator.state
        let finite = state.allLanesFinite
        if finite && !energy { return }
        let gained = finite ? forces.energy(of: state) - initialEnergy : .nan
        guard !finite || gained > allowance else { return }
        let mode = integrator.system.stiffestMode
        let largest = limit.map { mode.omega > 0 ? $0(mode.omega, mode.dampingRatio) : 0 } ?? 0
        throw SimulationError.unstable(
            time: integrator.time,
            reason: finite ? "energy grew from \(initialEnergy) by \(gained) in a passive scene" : "the state is no longer finite",
            timeStep: method.timeStep ?? (integrator.time - integrator.previousTime),
            largestStableStep: largest, method: name)
    }

    /// The earliest impact in the last step: a gap that went from ≥ 0 to < 0.
    func earliestImpact<I: Integrator, V>(_ integrator: inout I) -> (Double, Int, Collider)? where I.System == SceneSystem<V> {
        let t0 = integrator.previousTime, t1 = integrator.time
        guard t1 > t0 else { return nil }
        let system = integrator.system, scene = system.scene
        let x1 = integrator.state.position
        var best: (Double, Int, Collider)?
        func consider(_ gapAt: (V) -> Double, body: Int, collider: Collider) {
            guard gapAt(x1) < 0 else { return }
            let g0 = gapAt(integrator.interpolatePosition(at: t0))
            guard g0 >= -1e-12 else { return }  // already in contact before this step
            let time = Self.lastNonNegative(t0, t1) { gapAt(integrator.interpolatePosition(at: $0)) }
            if best == nil || time < best!.0 { best = (time, body, collider) }
        }
        for b in scene.bodies.indices where system.inverseMasses[b] > 0 {  // static bodies meet no plane
            for p in scene.planes.indices where !system.resting.contains(.init(body: b, plane: p)) {
                consider({ Self.gap(system, $0, body: b, plane: p) }, body: b, collider: .plane(p))
            }
        }
        if scene.contacts != nil {
            for a in scene.bodies.indices where scene.bodies[a].radius > 0 {
                for b in scene.bodies.indices where b > a && scene.bodies[b].radius > 0
                    && system.inverseMasses[a] + system.inverseMasses[b] > 0 {
                    consider({ Self.gap(system, $0, bodies: a, b) }, body: a, collider: .body(b))
                }
            }
        }
        return best
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
    func apply<V>(_ system: inout SceneSystem<V>, _ state: PhaseState<V>, body b: Int, collider: Collider,
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
            v = tangential + speedOut * n
            system.set(&state.position, body: b, to: x)
            system.set(&state.velocity, body: b, to: v)
            events.append(ImpactEvent(time: time, body: scene.bodies[b].name, collider: plane.name,
                                      speedIn: speedIn, speedOut: speedOut))
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
                                      speedIn: speedIn, speedOut: speedOut))
        }
        return state
    }

    /// Ends resting contacts whose body is now pulled away from the plane.
    func releaseContacts<I: Integrator, V>(_ integrator: inout I) where I.System == SceneSystem<V> {
        guard !integrator.system.resting.isEmpty else { return }
        var free = integrator.system
        free.resting = []
        let state = integrator.state
        let a = free.acceleration(position: state.position, velocity: state.velocity, time: integrator.time)
        let kept = integrator.system.resting.filter { contact in
            (free.vector(a, body: contact.body) * free.planeNormals[contact.plane]).sum() <= 0
        }
        if kept.count != integrator.system.resting.count {
            var system = integrator.system
            system.resting = kept
            integrator.system = system
            integrator.restart(at: integrator.time, state: state)
        }
    }
}
