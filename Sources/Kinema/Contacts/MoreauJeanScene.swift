/// A scene run by Moreau–Jean time stepping, the way real-time engines run piles: each step of
/// `h` kicks the velocities with the forces (semi-implicit Euler), then runs the contact
/// pipeline in a fixed order —
///
/// 1. broad phase (`BroadPhase`): the sphere pairs within what a step can cover, and the planes;
///    a contact reaching a sleeping island wakes it;
/// 2. contact set: each contact's target for the velocity solve (a bounce, a hold, or a gap that
///    may close), its impulses carried over from the last step where it held (warm start);
/// 3. velocity solve (`ContactSolver`): every contact's impulses together, with restitution and
///    Coulomb friction;
/// 4. positions moved by the new velocities;
/// 5. position projection (`PositionProjection`): no overlap beyond `ContactTolerances.overlap`;
/// 6. islands (`Islands`): islands at rest go to sleep.
///
/// Impacts are not located in time: they take effect at the step's end, so an isolated impact
/// is off by up to a step (the other methods find it to rounding). Steps end on the sample times.
struct MoreauJeanScene {
    let scene: PhysicsScene
    let timeStep: Double
    let d: Int
    var x: [SIMD3<Double>], v: [SIMD3<Double>]
    let inverseMass: [Double], radius: [Double]
    /// The forces other than gravity (springs, drag), nil where gravity is all.
    private let forces: SceneSystem<FlatVector>?
    private(set) var time = 0.0
    private(set) var steps = 0
    let stepBudget: Int, eventLimit: Int
    var eventCount = 0
    /// The steps taken before the current frame of a live scene (whose budget is per frame).
    private var budgetStart = 0
    var broadPhase: BroadPhase
    var islands: Islands
    /// Last step's contacts by key: their impulses (the warm start) and, for one that was
    /// closing, the speed it closed at (the speed of its impact, when it touches).
    var remembered: [Int: (normal: Double, tangent: SIMD3<Double>, closing: Double)] = [:]
    var pairs: [(Int, Int)] = []

    init(scene: PhysicsScene, timeStep: Double, stepBudget: Int) throws {
        self.scene = scene
        self.timeStep = timeStep
        d = scene.dimensions
        x = scene.bodies.map(\.position)
        v = scene.bodies.map(\.velocity)
        inverseMass = scene.bodies.map(\.inverseMass)
        radius = scene.bodies.map(\.radius)
        forces = scene.springs.isEmpty && scene.drag == 0 ? nil : SceneSystem<FlatVector>(scene: scene)
        self.stepBudget = stepBudget
        eventLimit = Simulation.eventLimit(bodies: scene.bodies.count)
        broadPhase = BroadPhase(radii: scene.contacts == nil ? [] : radius)
        islands = Islands(count: scene.bodies.count)
        try requireOutsidePlanes(rule: "outside every plane at the start")
    }

    /// The samples at `times` (increasing, none before `time`), each the end of a step.
    mutating func samples(at times: [Double], events: inout [ImpactEvent]) throws
        -> (times: [Double], positions: [Double], velocities: [Double])
    {
        var positions: [Double] = [], velocities: [Double] = []
        positions.reserveCapacity(times.count * x.count * d)
        velocities.reserveCapacity(times.count * x.count * d)
        for t in times {
            try step(to: t, events: &events)
            for b in x.indices {
                for axis in 0..<d {
                    positions.append(x[b][axis])
                    velocities.append(v[b][axis])
                }
            }
        }
        return (times, positions, velocities)
    }

    /// Steps until `t`, the last step shortened to end there.
    mutating func step(to t: Double, events: inout [ImpactEvent]) throws {
        while t - time > ContactTolerances.stepRounding * timeStep {
            guard steps - budgetStart < stepBudget else {
                throw SimulationError.tooManySteps(time: time, limit: stepBudget)
            }
            let h = t - time <= timeStep * (1 + ContactTolerances.stepRounding) ? t - time : timeStep
            try step(h, events: &events)
            time = t - time <= ContactTolerances.stepRounding * timeStep ? t : time
        }
        time = max(time, t)
    }

    /// Positions and velocities set anew at `t` (a gesture): every island wakes and the contacts'
    /// memory is dropped.
    mutating func restart(at t: Double, positions: [Double], velocities: [Double]) throws {
        for b in x.indices {
            for axis in 0..<d {
                x[b][axis] = positions[b * d + axis]
                v[b][axis] = velocities[b * d + axis]
            }
        }
        try requireOutsidePlanes(rule: "outside every plane")
        time = t
        islands.wakeAll()
        remembered = [:]
    }

    private mutating func step(_ h: Double, events: inout [ImpactEvent]) throws {
        let a = accelerations()
        // Sleeping and static bodies have inverse mass 0 to the solve: they do not move.
        var w = inverseMass
        for b in w.indices where !islands.awake[b] { w[b] = 0 }
        var free = v
        for b in free.indices where w[b] > 0 { free[b] += h * a[b] }
        let before = v
        var speeds = free.map { ($0 * $0).sum().squareRoot() }
        var contacts: [Contact] = []
        for _ in 0..<ContactTolerances.velocityRounds {
            contacts = gatherContacts(h, before: before, speeds: speeds, accelerations: a, w: &w, velocities: &free)
            v = free
            let solved = ContactSolver.solve(&contacts, velocities: &v, inverseMasses: w)
            let bounces = contacts.contains { $0.target > 0 }
            if bounces && (!solved || kineticEnergy(v, w) > kineticEnergy(free, w) * (1 + ContactTolerances.energyGain))
            {
                // Bounces that have no solution together (confined: the sweeps run out, and the
                // velocities they leave can carry energy) or that add energy together (Moreau's law
                // is not dissipative for every arrangement): these contacts then only stop. The
                // impulses found so far start the solve again.
                v = free
                for c in contacts.indices {
                    contacts[c].target = min(contacts[c].target, 0)
                    contacts[c].restitution = 0
                }
                ContactSolver.solve(&contacts, velocities: &v, inverseMasses: w)
            }
            var covered = true
            for b in v.indices where w[b] > 0 {
                let speed = (v[b] * v[b]).sum().squareRoot()
                if speed > speeds[b] {
                    // Twice as far: a body pushed once is likely pushed on.
                    speeds[b] = 2 * speed
                    covered = false
                }
            }
            if covered { break }
        }
        for b in x.indices where w[b] > 0 { x[b] += h * v[b] }
        let projected = try project(w: w)
        try record(contacts, projected: projected, free: free, h: h, events: &events)
        let pressing = contacts.filter { $0.normalImpulse > 0 }.map { (body: $0.body, other: $0.partner) }
        w.withUnsafeBufferPointer { w in
            islands.update(
                after: h, pressing: pressing, velocities: &v, inverseMasses: w, springs: scene.springs,
                isCalm: { scene.rests(movingAt: $0, pressed: $1) })
        }
        time += h
        steps += 1
        guard v.allSatisfy({ ($0 * $0).sum().isFinite }) else {
            throw SimulationError.unstable(
                time: time, reason: "the state is no longer finite", timeStep: h,
                largestStableStep: 0, method: "moreau-jean")
        }
    }

    /// Each body's acceleration from the forces (contacts aside).
    private func accelerations() -> [SIMD3<Double>] {
        guard let forces else { return inverseMass.map { $0 > 0 ? scene.gravity : .zero } }
        var position = FlatVector(zeros: x.count * d), velocity = position
        for b in x.indices {
            for axis in 0..<d {
                position.lanes[b * d + axis] = x[b][axis]
                velocity.lanes[b * d + axis] = v[b][axis]
            }
        }
        let a = forces.acceleration(position: position, velocity: velocity, time: time)
        return x.indices.map { b in
            var u = SIMD3<Double>.zero
            for axis in 0..<d { u[axis] = a.lanes[b * d + axis] }
            return inverseMass[b] > 0 ? u : .zero
        }
    }

    private func kineticEnergy(_ v: [SIMD3<Double>], _ w: [Double]) -> Double {
        var total = 0.0
        for b in v.indices where w[b] > 0 { total += 0.5 * (v[b] * v[b]).sum() / w[b] }
        return total
    }

    /// Throws, naming the body and the plane, where a moving body is inside a plane beyond rounding.
    private func requireOutsidePlanes(rule: String) throws {
        for (b, body) in scene.bodies.enumerated() where !body.isStatic {
            for plane in scene.planes {
                let gap = (x[b] * plane.normal).sum() - plane.offset - radius[b]
                guard gap >= -ContactTolerances.rounding * max(1, abs(plane.offset) + radius[b]) else {
                    throw KinemaError(
                        parameter: "body '\(body.name)'", value: "\(-gap) inside plane '\(plane.name)'", rule: rule)
                }
            }
        }
    }
}

extension MoreauJeanScene: LiveStepping {
    mutating func advance(to time: Double, events: inout [ImpactEvent]) throws -> (
        positions: [Double], velocities: [Double]
    ) {
        budgetStart = steps
        try step(to: time, events: &events)
        return (x.flatMap { $0.sceneComponents(d) }, v.flatMap { $0.sceneComponents(d) })
    }

    mutating func takeOver(_ handOff: HandOff, events: inout [ImpactEvent]) throws {
        try restart(at: handOff.time, positions: handOff.positions, velocities: handOff.velocities)
    }
}
