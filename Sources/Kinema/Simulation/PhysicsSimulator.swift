/// A scene stepped live, one display frame at a time: for an app's or a game's loop.
///
/// It runs the loop `Simulation.run` runs (the same collision location, resting contact and
/// stability checks): stepping frame by frame gives the batch run's trajectory. Between frames a
/// gesture may set a body's velocity or position, or move a spring's anchor; the change takes
/// effect at the current `time`.
///
/// ```swift
/// var simulator = try PhysicsSimulator(scene: .drop(height: 2), method: .rk4(timeStep: 1.0 / 240))
/// simulator.advance(by: 1.0 / 60)            // each frame
/// let height = simulator.position(ofBody: 0).x
/// try simulator.setVelocity(SIMD3(4, 0, 0), ofBody: 0)  // a flick
/// ```
///
/// Fixed-step methods take their own steps and interpolate the frames (frame-rate independent);
/// `exact` ends its steps on the frames. Each `advance` may take `stepBudget` steps.
public struct PhysicsSimulator {
    /// The scene as the gestures left it (velocities and positions as set, spring anchors as moved).
    public private(set) var scene: PhysicsScene
    /// The integrator.
    public let method: IntegrationMethod
    /// The most integrator steps one `advance` may take.
    public let stepBudget: Int
    /// The time reached: the last frame's.
    public private(set) var time = 0.0
    /// Positions at `time`, body by body (body i's axis a at `i·dimensions + a`).
    package private(set) var positions: [Double]
    /// Velocities at `time`, laid out as `positions`.
    package private(set) var velocities: [Double]
    /// The impacts of the last `advance` alone, in order (each `advance` returns its own too);
    /// an app that wants them all collects them.
    public private(set) var lastFrameEvents: [ImpactEvent] = []
    /// Why the simulation stopped, if it has: the scene went unstable, or a frame needed more than
    /// `stepBudget` steps (or events). `advance` then leaves the state where it was; setting a
    /// body's state or a spring's anchor starts it again from there.
    public private(set) var failure: SimulationError?
    /// Integrator steps since the start, or since the last spring move (which starts a new integrator).
    public var steps: Int { engine.steps }

    private var engine: any LiveStepping

    /// - Parameters:
    ///   - scene: the scene, at time 0.
    ///   - method: the integrator (fixed-step methods are frame-rate independent: they take their own steps).
    ///   - stepBudget: the most steps one `advance` may take.
    /// - Throws: `KinemaError` for an invalid method, a body inside a plane at the start;
    ///   `SimulationError` for a fixed step far beyond the scene's stability limit.
    public init(
        scene: PhysicsScene, method: IntegrationMethod, stepBudget: Int = Simulation.defaultStepBudget
    ) throws {
        guard stepBudget > 0 else {
            throw KinemaError(parameter: "stepBudget", value: "\(stepBudget)", rule: "at least 1")
        }
        self.scene = scene
        self.method = method
        self.stepBudget = stepBudget
        positions = scene.bodies.flatMap { $0.position.sceneComponents(scene.dimensions) }
        velocities = scene.bodies.flatMap { $0.velocity.sceneComponents(scene.dimensions) }
        engine = try Self.engine(scene, method, stepBudget)
    }

    private static func engine(_ scene: PhysicsScene, _ method: IntegrationMethod, _ budget: Int) throws
        -> any LiveStepping
    {
        var simulation = Simulation(scene: scene)
        simulation.stepBudget = budget
        if case .exact = method { return try simulation.withStepper(method: method, landOnSamples: true, LiveUse()) }
        return try simulation.withStepper(method: method, landOnSamples: false, LiveUse())
    }

    /// Advances to `time` (≥ the time reached) and returns the impacts on the way, in order (also
    /// `lastFrameEvents`). When the scene goes unstable or a frame needs more than `stepBudget`
    /// steps, the simulator stops where it was: `failure` says why, and later advances leave the
    /// state as it is and return no impacts.
    /// - Precondition: `time` is finite and not before the time reached (see `SpringAnimator.advance(by:)`).
    @discardableResult
    public mutating func advance(to time: Double) -> [ImpactEvent] {
        FrameRule.requireTime(time, from: self.time)
        lastFrameEvents = []
        guard failure == nil else { return [] }
        do {
            (positions, velocities) = try engine.advance(to: time, events: &lastFrameEvents)
            self.time = time
        } catch {
            lastFrameEvents = []
            failure =
                error as? SimulationError
                ?? .unstable(
                    time: self.time, reason: "\(error)", timeStep: 0, largestStableStep: 0, method: method.name)
        }
        return lastFrameEvents
    }

    /// Advances by one frame of `frameDuration` seconds (zero leaves the scene where it is) and
    /// returns the impacts on the way, as `advance(to:)`.
    /// - Precondition: `frameDuration` is finite and ≥ 0.
    @discardableResult
    public mutating func advance(by frameDuration: Double) -> [ImpactEvent] {
        FrameRule.requireDuration(frameDuration)
        return advance(to: time + frameDuration)
    }

    /// Body `index`'s position at `time` (zero past the scene's dimensions).
    /// - Precondition: `index` is a body's index.
    public func position(ofBody index: Int) -> SIMD3<Double> { SIMD3(lanes: positions[lanes(of: index)]) }

    /// Body `index`'s velocity at `time` (zero past the scene's dimensions).
    /// - Precondition: `index` is a body's index.
    public func velocity(ofBody index: Int) -> SIMD3<Double> { SIMD3(lanes: velocities[lanes(of: index)]) }

    private func lanes(of body: Int) -> Range<Int> { body * scene.dimensions..<(body + 1) * scene.dimensions }

    /// Sets body `index`'s velocity from now on (a flick or a drag released).
    public mutating func setVelocity(_ velocity: SIMD3<Double>, ofBody index: Int) throws {
        try setState(ofBody: index, position: nil, velocity: velocity)
    }

    /// Moves body `index` to `position`, and sets its velocity when given (a drag).
    /// - Throws: `KinemaError` for a wrong index, a non-finite component or one past the scene's
    ///   dimensions that is not zero, a static body given a velocity, or a position inside a plane.
    public mutating func setState(ofBody index: Int, position: SIMD3<Double>?, velocity: SIMD3<Double>?) throws {
        guard scene.bodies.indices.contains(index) else {
            throw KinemaError(parameter: "body", value: "\(index)", rule: "a body index in 0..<\(scene.bodies.count)")
        }
        let body = scene.bodies[index]
        for (name, vector) in [("position", position), ("velocity", velocity)] {
            guard let vector else { continue }
            try KinemaError.requireFinite(vector, "body '\(body.name)' \(name)")
            try KinemaError.requireWithin(dimensions: scene.dimensions, vector, "body '\(body.name)' \(name)")
        }
        if body.isStatic, let velocity, velocity != .zero {
            throw KinemaError(
                parameter: "static body '\(body.name)' velocity", value: velocity.sceneText(), rule: "zero")
        }
        var x = positions, v = velocities
        if let position { x.replaceSubrange(lanes(of: index), with: position.sceneComponents(scene.dimensions)) }
        if let velocity { v.replaceSubrange(lanes(of: index), with: velocity.sceneComponents(scene.dimensions)) }
        try engine.restart(at: time, positions: x, velocities: v)
        (positions, velocities) = (x, v)
        failure = nil
    }

    /// Moves the anchor of spring `index` (one tied to an anchor, not between bodies) to `anchor`:
    /// a spring's target changed mid-motion, the bodies keep their state.
    public mutating func setAnchor(_ anchor: SIMD3<Double>, ofSpring index: Int) throws {
        guard scene.springs.indices.contains(index), case let .anchor(body, _) = scene.springs[index].ends else {
            throw KinemaError(parameter: "spring", value: "\(index)", rule: "the index of a spring tied to an anchor")
        }
        try KinemaError.requireFinite(anchor, "anchor")
        try KinemaError.requireWithin(dimensions: scene.dimensions, anchor, "anchor")
        var springs = scene.springs
        let old = springs[index]
        springs[index] = try SpringForce(
            .anchor(body: body, at: anchor), stiffness: old.stiffness, damping: old.damping,
            restLength: old.restLength)
        let moved = try PhysicsScene(
            dimensions: scene.dimensions, bodies: scene.bodies, springs: springs, gravity: scene.gravity,
            drag: scene.drag, planes: scene.planes, contacts: scene.contacts, restVelocity: scene.restVelocity)
        var engine = try Self.engine(moved, method, stepBudget)
        try engine.restart(at: time, positions: positions, velocities: velocities)
        self.engine = engine
        scene = moved
        failure = nil
    }
}

/// A scene stepper seen from `PhysicsSimulator`: one dynamic call per frame, the steps inside
/// specialized as in a batch run.
protocol LiveStepping {
    var steps: Int { get }
    mutating func advance(to time: Double, events: inout [ImpactEvent]) throws -> (
        positions: [Double], velocities: [Double]
    )
    mutating func restart(at time: Double, positions: [Double], velocities: [Double]) throws
    /// Goes on from where an event queue handed off (a stepper's; nothing else is handed one).
    mutating func takeOver(_ handOff: HandOff, events: inout [ImpactEvent]) throws
}

/// Hands the stepper `Simulation` builds to a `PhysicsSimulator`.
struct LiveUse: SceneStepperUse {
    var duration: Double { 0 }
    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> any LiveStepping
    where I.System == SceneSystem<V> {
        stepper
    }

    func use(_ run: consuming EventDrivenScene, stepping: @escaping (LiveUse) throws -> any LiveStepping) throws
        -> any LiveStepping
    {
        LiveEventScene(queue: run, makeStepper: { try stepping(LiveUse()) })
    }

    func use(_ run: consuming MoreauJeanScene) throws -> any LiveStepping { run }
}

/// A scene stepped live on its event queue until the queue hands off, then on a stepper from the
/// state there; a gesture goes back to the queue.
struct LiveEventScene: LiveStepping {
    var queue: EventDrivenScene
    var stepper: (any LiveStepping)?
    let makeStepper: () throws -> any LiveStepping

    var steps: Int { queue.processed + (stepper?.steps ?? 0) }

    mutating func advance(to time: Double, events: inout [ImpactEvent]) throws -> (
        positions: [Double], velocities: [Double]
    ) {
        guard var stepper else {
            try queue.process(until: time, events: &events)
            guard queue.handedOff else { return queue.state(at: time) }
            var stepper = try makeStepper()
            try stepper.takeOver(HandOff(queue), events: &events)
            defer { self.stepper = stepper }
            return try stepper.advance(to: time, events: &events)
        }
        defer { self.stepper = stepper }
        return try stepper.advance(to: time, events: &events)
    }

    mutating func restart(at time: Double, positions: [Double], velocities: [Double]) throws {
        try queue.restart(at: time, positions: positions, velocities: velocities)
        stepper = nil
    }

    mutating func takeOver(_ handOff: HandOff, events: inout [ImpactEvent]) throws {
        try restart(at: handOff.time, positions: handOff.positions, velocities: handOff.velocities)
    }
}

extension SceneStepper: LiveStepping {
    var steps: Int { integrator.steps }

    mutating func advance(to time: Double, events: inout [ImpactEvent]) throws -> (
        positions: [Double], velocities: [Double]
    ) {
        startBudget()
        var reached = integrator.state
        try advance(through: [time], stepLimit: landOnSamples ? time : .infinity, events: &events) { reached = $1 }
        let n = integrator.system.scene.coordinateCount
        return ((0..<n).map { reached.position[lane: $0] }, (0..<n).map { reached.velocity[lane: $0] })
    }

    mutating func restart(at time: Double, positions: [Double], velocities: [Double]) throws {
        var state = PhaseState<V>.zero(like: integrator.state)
        for (lane, x) in positions.enumerated() { state.position[lane: lane] = x }
        for (lane, v) in velocities.enumerated() { state.velocity[lane: lane] = v }
        try restart(at: time, state: state)
    }
}
