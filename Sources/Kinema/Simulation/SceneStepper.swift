import RealModule

/// The one loop every scene runs in, batch or live: it steps the integrator, checks stability,
/// finds the earliest collision in each step on the integrator's dense output, applies it, and
/// reports the state at the times asked for. `Simulation.run` asks for every sample at once,
/// `PhysicsSimulator` for one frame at a time; both get the same steps and the same impacts.
struct SceneStepper<I: Integrator, V: StateVector> where I.System == SceneSystem<V> {
    private(set) var integrator: I
    let methodName: String
    /// The fixed step, named in an `unstable` error (nil: the last step's length is named).
    let timeStep: Double?
    /// The fixed-step methods' stability limit for (ω, ζ), named in an `unstable` error.
    let stabilityLimit: ((Double, Double) -> Double)?
    let stepBudget: Int
    /// The most impacts the run may process (`Simulation.eventLimit`, read once: not per impact).
    let eventLimit: Int
    /// The longest step (infinity: no bound beyond the times asked for).
    let maximumStep: Double
    /// Whether steps end on the times asked for (fixed-step batch runs); otherwise steps run on
    /// and the times are interpolated, as display frames are.
    let landOnSamples: Bool
    /// Whether the scene has anything to collide with (checked once, not every step).
    let hasColliders: Bool
    /// Forces and masses for the energy check (contacts change the integrator's system, not these).
    private var forces: SceneSystem<V>
    private var initialEnergy = 0.0
    private var energyAllowance = 0.0
    private var calls = 0
    /// Steps and impacts counted against the budget since `startBudget()`.
    private var stepsAtBudgetStart = 0
    private(set) var eventCount = 0
    /// An impact found in the last step after the last time asked for: applied once a later time is.
    private var pendingImpact: Impact?
    /// The broad phase's order of the colliding spheres by their lower bound on axis 0, kept from
    /// step to step (nearly sorted already, so re-sorting is linear).
    private var sweepOrder: [Int]
    /// Sphere pairs tested exactly (the broad phase's output), over the whole run.
    private(set) var pairTests = 0
    /// Each sphere's radius plus the way it may move in a step, for the broad phase (kept, so
    /// each step reuses its storage).
    private var reaches: [Double] = []
    /// Whether the last step ended with resting contacts overlapping beyond rounding (`Collisions.closeGaps`).
    private var contactsDrifted = false

    struct Impact {
        var time: Double
        var body: Int
        var collider: Collisions.Collider
        /// Not an impact: the body, sliding on the plane `collider`, stops there (its velocity
        /// along the plane is set to 0, and friction holds it from then on while it can).
        var stops = false
    }

    /// The energy a passive scene may gain, relative to its initial energy, before the run is
    /// declared unstable: wide enough for symplectic methods' bounded oscillation, narrow enough
    /// to stop an exponential blow-up within a few steps.
    static var energyGrowthLimit: Double { 0.5 }

    /// The integrator is read first and moved in last: read after the move, it was copied
    /// (through its generic value witness, field by field, twice a run).
    init(
        _ integrator: consuming I, methodName: String, timeStep: Double?, stabilityLimit: ((Double, Double) -> Double)?,
        stepBudget: Int, maximumStep: Double = .infinity, landOnSamples: Bool
    ) {
        self.methodName = methodName
        self.timeStep = timeStep
        self.stabilityLimit = stabilityLimit
        self.stepBudget = stepBudget
        self.maximumStep = maximumStep
        eventLimit = Simulation.eventLimit(bodies: integrator.system.scene.bodies.count)
        self.landOnSamples = landOnSamples
        forces = integrator.system
        let scene = forces.scene
        hasColliders = scene.hasColliders
        sweepOrder = scene.contacts == nil ? [] : scene.bodies.indices.filter { scene.bodies[$0].radius > 0 }
        self.integrator = integrator
        resetEnergy()
    }

    private mutating func resetEnergy() {
        initialEnergy = forces.energy(of: integrator.state)
        energyAllowance = Self.energyGrowthLimit * max(abs(initialEnergy), 1e-300) + 1e-12 * (1 + abs(initialEnergy))
    }

    /// The state at `t`, within the step just taken. Mutating, so that it reads the integrator in
    /// place: a non-mutating call from `advance` was handed a copy of the whole stepper, and
    /// `interpolate(at:)` one of the integrator (for Adams, a `memcpy` for each sample off the
    /// step's end, a few ulps off included).
    private mutating func state(at t: Double) -> PhaseState<V> {
        t == integrator.time ? integrator.state : integrator.interpolateInPlace(at: t)
    }

    /// Steps until every time in `times` (ascending, none before the last one reported) is passed,
    /// calling `report` with each time and the state there, in order, and appending impacts to `events`.
    /// - Parameter stepLimit: where steps end at the latest, unless they land on the times asked
    ///   for: the run's end, or infinity for a live scene whose end is not known.
    mutating func advance(
        through times: [Double], stepLimit: Double, events: inout [ImpactEvent],
        report: (Double, PhaseState<V>) -> Void
    ) throws {
        guard let last = times.last else { return }
        var next = 0
        if let impact = pendingImpact {
            while next < times.count && times[next] <= impact.time {
                report(times[next], integrator.interpolateInPlace(at: times[next]))
                next += 1
            }
            if next == times.count && impact.time > last { return }
            pendingImpact = nil
            try apply(impact, events: &events)
        }
        while next < times.count && times[next] <= integrator.time {
            report(times[next], state(at: times[next]))
            next += 1
        }
        while next < times.count {
            calls += 1
            if integrator.steps - stepsAtBudgetStart >= stepBudget {
                throw SimulationError.tooManySteps(time: integrator.time, limit: stepBudget)
            }
            let limit = min(landOnSamples ? times[next] : stepLimit, integrator.time + maximumStep)
            // With colliders every step is searched for impacts; without, the integrator may take
            // several steps up to the next time asked for.
            if hasColliders || limit < times[next] {
                try integrator.advance(toward: limit)
            } else {
                try integrator.advance(toward: limit, reaching: times[next])
            }
            // Non-finite lanes after every call; the energy (loops over bodies and springs) every
            // 8th call and at the last time, which still stops a blow-up within a few steps.
            let energyCheck = calls % 8 == 0 || integrator.time >= last
            if energyCheck || !integrator.state.allLanesFinite {
                try checkStability(energy: energyCheck)
            }
            if hasColliders || times[next] < integrator.time {
                integrator.prepareInterpolation()
            }
            if hasColliders, let impact = earliest(try earliestImpact(), earliestStop()) {
                while next < times.count && times[next] <= impact.time {
                    report(times[next], integrator.interpolateInPlace(at: times[next]))
                    next += 1
                }
                if next == times.count && impact.time > last {
                    pendingImpact = impact
                    return
                }
                try apply(impact, events: &events)
                continue
            }
            if hasColliders && contactsDrifted { closeGaps(reporting: times, from: &next, report) }
            while next < times.count && times[next] <= integrator.time {
                report(times[next], state(at: times[next]))
                next += 1
            }
            if hasColliders { releaseContacts() }
        }
    }

    /// Steps through `times` (as `advance(through:)`), the states reported there recorded as a
    /// trajectory of `scene`. Each time is reported once, in order, so the states go straight into
    /// storage of that size (no append per value, each checking uniqueness and capacity), and the
    /// times are the ones asked for.
    mutating func samples(
        at times: [Double], stepLimit: Double, scene: PhysicsScene,
        events: inout [ImpactEvent]
    ) throws -> (times: [Double], positions: [Double], velocities: [Double]) {
        let lanes = scene.coordinateCount, size = times.count * lanes
        var samples = 0
        var velocities: [Double] = []
        let positions = try [Double](unsafeUninitializedCapacity: size) { positions, positionCount in
            velocities = try [Double](unsafeUninitializedCapacity: size) { velocities, velocityCount in
                try advance(through: times, stepLimit: stepLimit, events: &events) { _, state in
                    let row = samples * lanes
                    guard row + lanes <= size else { return }
                    for j in 0..<lanes {
                        positions[row + j] = state.position[lane: j]
                        velocities[row + j] = state.velocity[lane: j]
                    }
                    samples += 1
                    (positionCount, velocityCount) = (row + lanes, row + lanes)
                }
            }
        }
        return (samples == times.count ? times : Array(times.prefix(samples)), positions, velocities)
    }

    /// Counts steps and impacts from now on (a live scene's budget is per frame, not for ever).
    mutating func startBudget() {
        stepsAtBudgetStart = integrator.steps
        eventCount = 0
    }

    /// Replaces the state at `time`, the last time reported (an app moving a body): the step
    /// beyond it and any impact found there are dropped, contacts are found again and the energy
    /// check starts from the new state.
    mutating func restart(at time: Double, state: PhaseState<V>) throws {
        var system = integrator.system
        system.resting = try Collisions.initialContacts(system, state)
        integrator.system = system
        integrator.restart(at: time, state: state)
        pendingImpact = nil
        resetEnergy()
    }

    /// Goes on from where an event queue handed off: its state, then the impact it left there
    /// (a bounce that ends at rest on a sphere, or on a second plane), resolved as every impact is.
    mutating func takeOver(_ handOff: HandOff, events: inout [ImpactEvent]) throws {
        try restart(at: handOff.time, positions: handOff.positions, velocities: handOff.velocities)
        guard let (body, collider) = handOff.impact else { return }
        let impact = Impact(time: handOff.time, body: body, collider: collider)
        try apply(impact, arriving: integrator.state, events: &events)
    }

    /// Applies `impact` to the state the bodies `arrived` in (the step's, interpolated, unless given).
    private mutating func apply(_ impact: Impact, arriving arrived: PhaseState<V>? = nil, events: inout [ImpactEvent])
        throws
    {
        var system = integrator.system
        if impact.stops, case .plane(let p) = impact.collider {
            var state = arrived ?? integrator.interpolateInPlace(at: impact.time)
            let v = system.vector(state.velocity, body: impact.body), n = system.planeNormals[p]
            system.set(&state.velocity, body: impact.body, to: (v * n).sum() * n)
            Collisions.holdResting(system, &state, around: [impact.body])
            Collisions.closeGaps(system, &state)
            integrator.restart(at: impact.time, state: state)
            return
        }
        let recorded = events.count
        let state = Collisions.apply(
            &system, arrived ?? integrator.interpolateInPlace(at: impact.time), body: impact.body,
            collider: impact.collider, time: impact.time, events: &events)
        integrator.system = system
        integrator.restart(at: impact.time, state: state)
        eventCount += events.count - recorded
        if eventCount > eventLimit {
            throw SimulationError.tooManyEvents(time: impact.time, limit: eventLimit)
        }
    }

    /// The earlier of an impact and a stop (an impact at the same time first).
    private func earliest(_ impact: Impact?, _ stop: Impact?) -> Impact? {
        guard let stop else { return impact }
        return impact.map { $0.time <= stop.time ? $0 : stop } ?? stop
    }

    /// The first time in the last step where a body sliding on a plane with friction stops: its
    /// velocity along the plane, in its direction at the step's start, falls to the stopping
    /// speed, below which friction ramps down to the sticking law. Without it, a method's steps
    /// carry the velocity past 0 and friction then pushes it back: the body jitters on instead of
    /// stopping; and a body pulled along (less than friction holds) would creep on at the speed
    /// where the ramp's partial friction balances the pull (1.6e-6 m/s under a 3 N spring).
    private mutating func earliestStop() -> Impact? {
        let t0 = integrator.previousTime, t1 = integrator.time, layout = integrator.system.layout
        let resting = integrator.system.resting, planes = layout.scene.planes
        guard t1 > t0, resting.contains(where: { $0.other < 0 && planes[$0.plane].friction > 0 }) else { return nil }
        let start = integrator.interpolateInPlace(at: t0), end = integrator.state.velocity
        var free: V?  // the acceleration at the start without the contacts, where needed
        var first: Impact?
        for contact in resting where contact.other < 0 && planes[contact.plane].friction > 0 {
            let n = layout.planeNormals[contact.plane], d = layout.dimensions
            func along(_ v: V) -> SIMD3<Double> {
                let u = Self.vector(v, body: contact.body, dimensions: d)
                return u - (u * n).sum() * n
            }
            let v0 = along(start.velocity), speed = (v0 * v0).sum().squareRoot()
            let stopping = SceneLayout.stoppingSpeed
            guard speed > stopping else { continue }
            let time: Double
            if (along(end) * v0).sum() <= stopping * speed {
                time = Collisions.lastNonNegative(t0, t1) { t in
                    (along(integrator.interpolateInPlace(at: t).velocity) * v0).sum() - stopping * speed
                }
            } else {
                // A fixed step can carry a slow body past 0 and back for ever (its stages see
                // friction reverse): it stops where friction alone would stop it in the step,
                // if friction can hold what pulls it.
                guard timeStep != nil else { continue }
                let acceleration: V
                if let free {
                    acceleration = free
                } else {
                    var system = integrator.system
                    system.resting = []
                    acceleration = system.acceleration(position: start.position, velocity: start.velocity, time: t0)
                    free = acceleration
                }
                let a = Self.vector(acceleration, body: contact.body, dimensions: d), pressing = -(a * n).sum()
                let pull = a + pressing * n, limit = planes[contact.plane].friction * pressing
                guard pressing > 0, speed <= limit * (t1 - t0), (pull * pull).sum() <= limit * limit else { continue }
                time = t0 + speed / limit
            }
            if first.map({ time < $0.time }) ?? true {
                first = Impact(time: time, body: contact.body, collider: .plane(contact.plane), stops: true)
            }
        }
        return first
    }

    /// Mutating for the same reason as `state(at:)`: it reads the integrator in place.
    private mutating func checkStability(energy: Bool) throws {
        let state = integrator.state
        let finite = state.allLanesFinite
        if finite && !energy { return }
        let gained = finite ? forces.energy(of: state) - initialEnergy : .nan
        guard !finite || gained > energyAllowance else { return }
        let mode = integrator.system.stiffestMode
        let largest = stabilityLimit.map { mode.omega > 0 ? $0(mode.omega, mode.dampingRatio) : 0 } ?? 0
        throw SimulationError.unstable(
            time: integrator.time,
            reason: finite
                ? "energy grew from \(initialEnergy) by \(gained) in a passive scene" : "the state is no longer finite",
            timeStep: timeStep ?? (integrator.time - integrator.previousTime),
            largestStableStep: largest, method: methodName)
    }

    /// The earliest impact in the last step: a gap that went from ≥ 0 to < 0, or that went below 0
    /// and back inside the step (a long step over a whole arc). Planes are checked body by body;
    /// sphere pairs only where the broad phase finds them within reach at the step's end.
    /// Throws `SimulationError.contactLost` where a body ended a step inside a plane or another
    /// sphere beyond rounding without an impact to resolve it: output past such a step would be
    /// wrong, so the run stops instead. A resting contact's overlap up to 1e-4 of its scale is the
    /// steps' drift, not a lost contact: the gap is closed after the step (`contactsDrifted`).
    @inline(__always)
    private mutating func earliestImpact() throws -> Impact? {
        guard integrator.time > integrator.previousTime else { return nil }
        let pairs =
            sweepOrder.count > 1
            ? nearbySpheres(
                at: integrator.state.position, velocity: integrator.state.velocity,
                within: integrator.time - integrator.previousTime, integrator.system) : []
        var breach: (body: Int, collider: Collisions.Collider, depth: Double)?
        let impact = Self.earliestImpact(in: &integrator, pairs: pairs, breach: &breach, drifted: &contactsDrifted)
        if let breach {
            let scene = integrator.system.scene
            let collider: String
            switch breach.collider {
            case .plane(let p): collider = "plane '\(scene.planes[p].name)'"
            case .body(let o): collider = "body '\(scene.bodies[o].name)'"
            }
            throw SimulationError.contactLost(
                time: integrator.time, body: scene.bodies[breach.body].name, collider: collider,
                depth: breach.depth)
        }
        return impact
    }

    /// Whether an impact of `body` on `collider` found where the step starts would change nothing
    /// there: the sides touch without approaching, nothing presses them together (no impulse, no
    /// contact at rest), and the step leaves them apart or overlapping by rounding. Applied, it
    /// would restart the same step at the same instant, which would find it again.
    private static func changesNothing(_ integrator: inout I, body: Int, collider: Collisions.Collider) -> Bool {
        let system = integrator.system, contact = RestingContact(body: body, collider: collider)
        let (gap, scale) = Collisions.gap(system, integrator.state.position, contact)
        guard Collisions.touching(-gap, scale: scale) else { return false }
        let start = integrator.interpolateInPlace(at: integrator.previousTime)
        return Collisions.separationSpeed(system, start, contact) >= -1e-12
            && !Collisions.isPressed(system, start, contact)
    }

    /// Static, with the integrator `inout` so the closures capture its address: a copy (a local,
    /// or a borrowed parameter captured) went through its generic value witness on every step and
    /// doubled the cost of a bouncing drop.
    @inline(__always)
    private static func earliestImpact(
        in integrator: inout I, pairs: [(Int, Int)],
        breach: inout (body: Int, collider: Collisions.Collider, depth: Double)?, drifted: inout Bool
    ) -> Impact? {
        let t0 = integrator.previousTime, t1 = integrator.time
        // The layout and the contacts, not the system: a copy of the system went through its
        // generic value witness on every step.
        let layout = integrator.system.layout, resting = integrator.system.resting, d = layout.dimensions
        let x1 = integrator.state.position, v1 = integrator.state.velocity
        // Whether a body's gap to a plane may fall and rise again inside a step (curve away from
        // the plane): under springs, drag or sphere contacts; under gravity alone, only where it
        // pulls away from the plane (a ceiling).
        let curving = !layout.springs.isEmpty || layout.drag != 0 || resting.contains { $0.other >= 0 }
        let dips = curving || layout.planeNormals.contains { ($0 * layout.gravity).sum() > 0 }
        var best: Impact?
        drifted = false
        // The earliest impact, but none at the step's start that would change nothing there.
        // Out of line: inlined, it slows the pair loop.
        @inline(never)
        func offer(_ time: Double, _ body: Int, _ collider: Collisions.Collider) {
            guard best.map({ time < $0.time }) ?? true,
                time > t0 || !Self.changesNothing(&integrator, body: body, collider: collider)
            else { return }
            best = Impact(time: time, body: body, collider: collider)
        }
        // A resting contact that ends `depth` inside: drift to close, or a contact lost.
        func overlap(_ body: Int, _ collider: Collisions.Collider, depth: Double, scale: Double) {
            if depth <= 1e-4 * scale { drifted = true } else { breach = (body, collider, depth) }
        }
        func consider(
            _ gapAt: (Double) -> Double, body: Int, collider: Collisions.Collider, scale: Double,
            closing: () -> Bool = { true }
        ) {
            // Not in contact before this step; and, when the step began touching (a gap within
            // rounding of 0, like spheres laid side by side), closing or ending inside beyond
            // rounding: touching spheres at rest or moving together would meet a zero-speed
            // "impact" after every restart, and those pressed together by the step but not
            // closing at its end would sink into each other unchecked.
            let start = gapAt(t0), end = gapAt(t1), rounding = 1e-9 * max(1, scale)
            if start < -rounding && end < -rounding { breach = (body, collider, -end) }
            guard end < 0, start >= -rounding, start > 1e-12 || end < -rounding || closing() else { return }
            let time = Collisions.lastNonNegative(t0, t1, gapAt)
            offer(time, body, collider)
        }
        func position(_ body: Int, _ t: Double) -> SIMD3<Double> {
            Self.position(of: body, at: t, dimensions: d, in: &integrator)
        }
        func vector(_ packed: V, _ body: Int) -> SIMD3<Double> { Self.vector(packed, body: body, dimensions: d) }
        for b in 0..<layout.inverseMasses.count where layout.inverseMasses[b] > 0 {  // static bodies meet no plane
            let xb = vector(x1, b)
            for p in layout.planeOffsets.indices {
                let end = Collisions.gap(layout, xb, body: b, plane: p)
                let scale = max(1, abs(layout.planeOffsets[p]) + layout.radii[b])
                guard end < 0 else {
                    // Outside at the step's end, but it may have met the plane inside the step and
                    // left it (a ball's arc through a ceiling).
                    let n = layout.planeNormals[p]
                    guard dips, curving || (layout.gravity * n).sum() > 0,
                        !resting.contains(.init(body: b, plane: p)),
                        let time = Collisions.dip(
                            t0, t1, end: end, endRate: (vector(v1, b) * n).sum() * (t1 - t0), depth: 1e-12 * scale,
                            { Collisions.gap(layout, position(b, $0), body: b, plane: p) })
                    else { continue }
                    offer(time, b, .plane(p))
                    continue
                }
                if resting.contains(.init(body: b, plane: p)) {
                    if end < -1e-9 * scale { overlap(b, .plane(p), depth: -end, scale: scale) }
                    continue
                }
                // A step that begins on the surface (an impact just applied there) meets it again
                // only if the body moves into it or ends inside it beyond rounding: a ball leaving
                // an elastic wall was found "hitting" it at zero speed and put at rest.
                func closing() -> Bool {
                    end < -1e-12 || (vector(v1, b) * layout.planeNormals[p]).sum() < 0
                }
                consider(
                    { Collisions.gap(layout, position(b, $0), body: b, plane: p) }, body: b, collider: .plane(p),
                    scale: scale, closing: closing)
            }
        }
        for (a, b) in pairs where layout.inverseMasses[a] + layout.inverseMasses[b] > 0 {
            // Closing: approaching along the line between the centres faster than 1e-9 at the step's end.
            func closing() -> Bool {
                let separation = vector(x1, a) - vector(x1, b), approach = vector(v1, a) - vector(v1, b)
                return (separation * approach).sum() < -1e-9 * (separation * separation).sum().squareRoot()
            }
            func gapAt(_ t: Double) -> Double { Collisions.gap(layout, position(a, t), position(b, t), bodies: a, b) }
            let scale = layout.radii[a] + layout.radii[b]
            // A resting pair stays touching by its force, as a body resting on a plane does: a
            // step's error in its gap (where its force ends inside the step, as the sides part)
            // is no impact, unless they close faster than the rest velocity or had drifted apart.
            if resting.contains(.init(body: a, on: b)) {
                let n = vector(x1, a) - vector(x1, b), approach = vector(v1, a) - vector(v1, b)
                let closing = -(n * approach).sum() / (n * n).sum().squareRoot()
                if closing <= layout.scene.restVelocity && gapAt(t0) <= 1e-9 * max(1, scale) {
                    let end = gapAt(t1)
                    if end < -1e-9 * max(1, scale) { overlap(a, .body(b), depth: -end, scale: max(1, scale)) }
                    continue
                }
            }
            let separation = vector(x1, a) - vector(x1, b)
            if (separation * separation).sum().squareRoot() - scale >= 0 {
                // Apart at the step's end: a grazing pair, or one that passed through in a long
                // step, came closest inside it, where the relative motion's parabola through
                // both ends (with the end's velocity) puts it.
                let start = position(a, t0) - position(b, t0), moved = separation - start
                let slack = 0.1 * (moved * moved).sum().squareRoot()
                guard
                    let (s, distance) = Collisions.closestApproach(
                        start, separation, endRate: (t1 - t0) * (vector(v1, a) - vector(v1, b)), within: scale + slack),
                    s > 0, s < 1, distance - scale < slack,
                    (start * start).sum().squareRoot() - scale >= -1e-9 * max(1, scale),
                    let time = Collisions.dip(
                        t0, t1, guess: t0 + s * (t1 - t0), likely: distance < scale, depth: 0, gapAt)
                else { continue }
                offer(time, a, .body(b))
                continue
            }
            consider(gapAt, body: a, collider: .body(b), scale: scale, closing: closing)
        }
        return best
    }

    /// Body `body`'s 3-vector from packed lanes (unused axes 0); not the system's, which a read
    /// of `integrator.system` would copy first.
    @inline(__always)
    private static func vector(_ packed: V, body: Int, dimensions d: Int) -> SIMD3<Double> {
        var v = SIMD3<Double>.zero
        for axis in 0..<d { v[axis] = packed[lane: body * d + axis] }
        return v
    }

    /// Body `body`'s interpolated position. Through `inout`: called on the integrator captured by
    /// a closure, the call copied the whole integrator first (DOP853's, on every root iteration).
    @inline(__always)
    private static func position(of body: Int, at t: Double, dimensions d: Int, in integrator: inout I) -> SIMD3<Double>
    {
        integrator.interpolatePosition(at: t, lanes: body * d..<body * d + d)
    }

    /// Sweep and prune on axis 0: the sphere pairs (lower index first) that overlap at `x`, or
    /// come within the distance their velocities `v` cover in a step of `h` (with a margin of
    /// half again): those that may have touched during the step. Found by sorting the spheres'
    /// intervals on the axis and testing only pairs whose intervals overlap there (and, cheaply
    /// first, on the other axes).
    private mutating func nearbySpheres(at x: V, velocity v: V, within h: Double, _ system: SceneSystem<V>) -> [(
        Int, Int
    )] {
        let radii = system.layout.radii, d = system.dimensions
        var pairs: [(Int, Int)] = []
        var tests = 0
        if reaches.count != radii.count { reaches = [Double](repeating: 0, count: radii.count) }
        V.withLanes(of: v) { v in
            for b in sweepOrder {
                var speed = 0.0
                for axis in 0..<d { speed += abs(v[b * d + axis]) }
                reaches[b] = radii[b] + 1.5 * h * speed
            }
        }
        V.withLanes(of: x) { x in
            let reaches = self.reaches
            func reach(_ b: Int) -> Double { reaches[b] }
            func low(_ b: Int) -> Double { x[b * d] - reaches[b] }
            // Insertion sort: the order changes little from one step to the next.
            for i in 1..<sweepOrder.count {
                let body = sweepOrder[i], key = low(body)
                var j = i
                while j > 0 && low(sweepOrder[j - 1]) > key {
                    sweepOrder[j] = sweepOrder[j - 1]
                    j -= 1
                }
                sweepOrder[j] = body
            }
            for i in sweepOrder.indices {
                let a = sweepOrder[i], high = x[a * d] + reach(a)
                var j = i + 1
                while j < sweepOrder.count && low(sweepOrder[j]) <= high {
                    let b = sweepOrder[j], reach = reach(a) + reach(b)
                    j += 1
                    tests += 1
                    var distanceSquared = 0.0, apart = false
                    for axis in 0..<d {
                        let gap = x[a * d + axis] - x[b * d + axis]
                        if abs(gap) > reach { apart = true; break }
                        distanceSquared += gap * gap
                    }
                    if !apart && distanceSquared.squareRoot() - reach < 0 { pairs.append((min(a, b), max(a, b))) }
                }
            }
        }
        pairTests += tests
        return pairs
    }

    /// Closes the overlaps of resting contacts (`Collisions.closeGaps`) and restarts there, after
    /// reporting the times from `next` inside the step (a restart ends interpolation there), so
    /// that a time at the step's end sees the gaps closed. Out of line, so that it does not take
    /// registers from the steps inlined in `advance`.
    @inline(never)
    private mutating func closeGaps(
        reporting times: [Double], from next: inout Int, _ report: (Double, PhaseState<V>) -> Void
    ) {
        while next < times.count && times[next] < integrator.time {
            report(times[next], state(at: times[next]))
            next += 1
        }
        var state = integrator.state
        Collisions.closeGaps(integrator.system, &state)
        integrator.restart(at: integrator.time, state: state)
        contactsDrifted = false
    }

    /// Ends resting contacts whose two sides now accelerate apart (with spheres sliding over each
    /// other, by more than their `SceneLayout.bending`). Without the contacts' forces first; where
    /// that parts a contact in a scene with spheres resting on spheres, with every other contact's
    /// force, and the contact is kept where its own still presses: a ball on the floor, pulled
    /// sideways under one it carries, looked pulled away from it without the floor's support, let
    /// go and met it again in a zero-speed impact at every step.
    private mutating func releaseContacts() {
        // The contacts first: reading the system copies it through its value witness, at every
        // step, where usually nothing rests.
        guard !integrator.system.resting.isEmpty else { return }
        let system = integrator.system, resting = system.resting
        let state = integrator.state
        func held(_ contact: RestingContact, _ a: V) -> Bool {
            guard contact.other >= 0 else {
                return (system.vector(a, body: contact.body) * system.planeNormals[contact.plane]).sum() <= 0
            }
            let d =
                system.vector(state.position, body: contact.body) - system.vector(state.position, body: contact.other)
            let relative =
                system.vector(state.velocity, body: contact.body) - system.vector(state.velocity, body: contact.other)
            let n = d / (d * d).sum().squareRoot(), ab = system.vector(a, body: contact.body)
            // Apart beyond rounding (the solver's tolerance): bending from a velocity of rounding's
            // size is no parting.
            let apart = ((ab - system.vector(a, body: contact.other)) * n).sum() + SceneLayout.bending(d, relative)
            return apart <= 1e-12 * (1 + abs((ab * n).sum()))
        }
        var free = system
        free.resting = []
        let a = free.acceleration(position: state.position, velocity: state.velocity, time: integrator.time)
        var kept = resting.filter { held($0, a) }
        if kept.count != resting.count && resting.contains(where: { $0.other >= 0 }) {
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
    }
}

/// What to do with a scene's stepper once `Simulation` has built it: one switch over the methods
/// serves batch runs (`SampledRun`) and live simulators.
protocol SceneStepperUse {
    associatedtype Result
    /// The run's end where it is known up front, for the cost estimate (0 for a live scene: only
    /// a step far beyond the stability limit is refused up front).
    var duration: Double { get }
    /// Consuming, so that the stepper is moved in, not copied (through its generic value
    /// witnesses, a microsecond of a 2-s Adams run).
    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> Result
    where I.System == SceneSystem<V>
    /// The result of an event-driven run. Where the queue hands off, `stepping` runs a use
    /// `resumed` from the queue's state on a stepper.
    func use(_ run: consuming EventDrivenScene, stepping: @escaping (Self) throws -> Result) throws -> Result
    /// The result of a run by Moreau–Jean time stepping.
    func use(_ run: consuming MoreauJeanScene) throws -> Result
}

/// The state an event queue handed off at, for a stepper to go on from, and the impact it left
/// unresolved there.
struct HandOff {
    let time: Double
    let positions: [Double], velocities: [Double]
    let impact: (body: Int, collider: Collisions.Collider)?

    init(_ run: EventDrivenScene) {
        time = run.time
        (positions, velocities) = run.state(at: run.time)
        impact = run.pendingImpact
    }
}

/// A batch run: every sample time at once, recorded into a trajectory.
struct SampledRun: SceneStepperUse {
    let scene: PhysicsScene
    let times: [Double]
    /// Where a stepper takes over from an event queue; nil from the start.
    var resumed: HandOff? = nil
    var duration: Double { times.last ?? 0 }

    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        try record(&stepper)
    }

    func record<I: Integrator, V>(_ stepper: inout SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        var events: [ImpactEvent] = []
        if let resumed { try stepper.takeOver(resumed, events: &events) }
        let samples = try stepper.samples(at: times, stepLimit: times.last ?? 0, scene: scene, events: &events)
        return Trajectory(
            scene: scene, samples: samples, events: events, steps: stepper.integrator.steps,
            evaluations: stepper.integrator.evaluations, pairTests: stepper.pairTests)
    }

    func use(_ run: consuming EventDrivenScene, stepping: @escaping (SampledRun) throws -> Trajectory) throws
        -> Trajectory
    {
        var run = run
        var events: [ImpactEvent] = []
        let samples = try run.samples(at: times, events: &events)
        let head = Trajectory(scene: scene, samples: samples, events: events, steps: run.processed)
        guard run.handedOff else { return head }
        let rest = SampledRun(scene: scene, times: Array(times[samples.times.count...]), resumed: HandOff(run))
        return head.followed(by: try stepping(rest))
    }

    func use(_ run: consuming MoreauJeanScene) throws -> Trajectory {
        var run = run
        var events: [ImpactEvent] = []
        let samples = try run.samples(at: times, events: &events)
        return Trajectory(scene: scene, samples: samples, events: events, steps: run.steps)
    }
}

/// A batch run streamed: the sample times made a chunk at a time and each chunk's samples handed
/// on before the next is computed, so neither times nor samples are held for the whole run.
struct StreamedRun: SceneStepperUse {
    let scene: PhysicsScene
    /// The last sample time (the end of the run).
    let duration: Double
    let chunk: Int
    /// Replaces the array's contents with the next sample times, at most `chunk` of them, in
    /// order; leaves it empty when none are left.
    let nextTimes: (inout [Double]) -> Void
    let each: (Trajectory) throws -> Void
    /// Where a stepper takes over from an event queue, with the times of its chunk still to
    /// sample; nil from the start.
    var resumed: (state: HandOff, times: [Double])? = nil

    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        try record(&stepper)
    }

    func record<I: Integrator, V>(_ stepper: inout SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        var events: [ImpactEvent] = []
        var times: [Double] = []
        times.reserveCapacity(chunk + 1)
        if let resumed {
            try stepper.takeOver(resumed.state, events: &events)
            times = resumed.times
        }
        while true {
            if times.isEmpty { nextTimes(&times) }
            if times.isEmpty { break }
            try each(
                Trajectory(
                    scene: scene,
                    samples: try stepper.samples(at: times, stepLimit: duration, scene: scene, events: &events)))
            times.removeAll(keepingCapacity: true)
        }
        return Trajectory(
            scene: scene, samples: ([], [], []), events: events, steps: stepper.integrator.steps,
            evaluations: stepper.integrator.evaluations, pairTests: stepper.pairTests)
    }

    func use(_ run: consuming EventDrivenScene, stepping: @escaping (StreamedRun) throws -> Trajectory) throws
        -> Trajectory
    {
        var run = run
        var events: [ImpactEvent] = []
        var times: [Double] = []
        while true {
            nextTimes(&times)
            if times.isEmpty { break }
            let samples = try run.samples(at: times, events: &events)
            if !samples.times.isEmpty { try each(Trajectory(scene: scene, samples: samples)) }
            guard run.handedOff else { continue }
            var rest = self
            rest.resumed = (HandOff(run), Array(times[samples.times.count...]))
            let tail = try stepping(rest)
            return Trajectory(
                scene: scene, samples: ([], [], []), events: events + tail.events, steps: run.processed + tail.steps,
                evaluations: tail.evaluations, pairTests: tail.pairTests)
        }
        return Trajectory(scene: scene, samples: ([], [], []), events: events, steps: run.processed)
    }

    func use(_ run: consuming MoreauJeanScene) throws -> Trajectory {
        var run = run
        var events: [ImpactEvent] = []
        var times: [Double] = []
        while true {
            nextTimes(&times)
            if times.isEmpty { break }
            try each(Trajectory(scene: scene, samples: try run.samples(at: times, events: &events)))
        }
        return Trajectory(scene: scene, samples: ([], [], []), events: events, steps: run.steps)
    }
}

extension Trajectory {
    /// This run's samples, impacts and work, then `tail`'s (a stepper's, going on from where an
    /// event queue handed off).
    func followed(by tail: Trajectory) -> Trajectory {
        var joined = self
        joined.times += tail.times
        joined.positions += tail.positions
        joined.velocities += tail.velocities
        joined.events += tail.events
        joined.steps += tail.steps
        joined.evaluations += tail.evaluations
        joined.pairTests += tail.pairTests
        return joined
    }
}
