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
    /// The pairs each step searches for impacts, kept local to what impacts changed.
    private var neighbourhood: ImpactNeighbourhood
    /// Sphere pairs tested exactly (the broad phase's output), over the whole run.
    var pairTests: Int { neighbourhood.tests }
    /// Whether the last step ended with resting contacts overlapping beyond rounding (`Collisions.closeGaps`).
    private var contactsDrifted = false
    private var sleeping: SleepingIslands
    typealias Impact = ImpactSearch.Impact

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
        neighbourhood = ImpactNeighbourhood(scene)
        sleeping = SleepingIslands(bodies: scene.bodies.count)
        self.integrator = integrator
        resetEnergy()
    }

    private mutating func resetEnergy() {
        initialEnergy = forces.energy(of: integrator.state)
        energyAllowance =
            Self.energyGrowthLimit * max(abs(initialEnergy), .leastNormalMagnitude)
            + ContactTolerances.rounding * (1 + abs(initialEnergy))
    }

    /// The state at `t` in the step just taken, resting contacts' overlaps closed as at its end (a
    /// pair let go there, a ball rolling off another, can dip inside on the way by the step's
    /// error). Mutating: it reads the integrator in place, not a copy of the stepper per sample.
    private mutating func state(at t: Double) -> PhaseState<V> {
        guard t != integrator.time else { return integrator.state }
        var state = integrator.interpolateInPlace(at: t)
        if !integrator.system.resting.isEmpty { Collisions.closeGaps(integrator.system, &state) }
        return state
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
                report(times[next], state(at: times[next]))
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
            let limit = min(
                landOnSamples ? times[next] : stepLimit, integrator.time + maximumStep,
                neighbourhood.stepLimit(after: integrator.time))
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
            if hasColliders,
                let impact = ImpactSearch.earlier(
                    try earliestImpact(), ImpactSearch.earliestStop(in: &integrator, fixedStep: timeStep != nil))
            {
                while next < times.count && times[next] <= impact.time {
                    report(times[next], state(at: times[next]))
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
            if hasColliders && Collisions.releaseParting(in: &integrator) { neighbourhood.sweepAgain() }
            if sleeping.settle(&integrator, scene: forces.scene) { neighbourhood.sweepAgain() }
        }
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
        sleeping.wakeAll(&integrator, system: forces)
        var system = integrator.system
        system.resting = try Collisions.initialContacts(system, state)
        integrator.system = system
        integrator.restart(at: time, state: state)
        pendingImpact = nil
        neighbourhood.sweepAgain()
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
        let before = arrived ?? integrator.interpolateInPlace(at: impact.time)
        sleeping.wake(for: impact.body, impact.collider, in: &integrator, scene: forces.scene)
        var system = integrator.system
        let contactsBefore = system.resting
        neighbourhood.impact(
            at: impact.time, stepEnd: integrator.time, step: integrator.time - integrator.previousTime,
            x: integrator.state.position, v: integrator.state.velocity, layout: system.layout,
            resting: system.resting)
        defer {
            neighbourhood.noteChanges(
                from: before, to: integrator.state, contacts: contactsBefore, resting: integrator.system.resting,
                dimensions: system.dimensions)
        }
        if impact.stops {
            let contact = RestingContact(body: impact.body, collider: impact.collider)
            integrator.restart(at: impact.time, state: Collisions.stopSliding(system, before, contact))
            return
        }
        let recorded = events.count
        let state = Collisions.apply(
            &system, before, body: impact.body, collider: impact.collider, time: impact.time, events: &events)
        integrator.system = system
        integrator.restart(at: impact.time, state: state)
        eventCount += events.count - recorded
        if eventCount > eventLimit {
            throw SimulationError.tooManyEvents(time: impact.time, limit: eventLimit)
        }
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
    /// wrong, so the run stops instead. A resting contact's overlap up to `ContactTolerances.drift` is the
    /// steps' drift, not a lost contact: the gap is closed after the step (`contactsDrifted`).
    @inline(__always)
    private mutating func earliestImpact() throws -> Impact? {
        guard integrator.time > integrator.previousTime else { return nil }
        let h = integrator.time - integrator.previousTime
        neighbourhood.find(
            at: integrator.time, step: h, x: integrator.state.position, v: integrator.state.velocity,
            layout: integrator.system.layout)
        var breach: ImpactSearch.Breach?
        let impact = ImpactSearch.earliestImpact(
            in: &integrator, pairs: neighbourhood.pairs, planePairs: neighbourhood.planePairs,
            breach: &breach, drifted: &contactsDrifted)
        if let breach { throw breach.error(in: integrator.system.scene, at: integrator.time) }
        return impact
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
        neighbourhood.sweepAgain()
    }
}
