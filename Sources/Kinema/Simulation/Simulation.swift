/// Runs a scene: picks the vector type (packed SIMD or flat) and the integrator once, then hands
/// both to the one generic loop (`SceneStepper`) that samples, locates collisions and watches
/// stability; `PhysicsSimulator` steps the same loop a frame at a time.
public struct Simulation: Sendable {
    /// The scene to run.
    public let scene: PhysicsScene

    /// The most collision events one run may process before it stops with an error (a Newton's
    /// cradle of rigid spheres reaches it in about 2 s of compute).
    public static let maximumEvents = 200_000

    /// The most impacts a run of `bodies` bodies may process: `maximumEvents`, or 1,000 a body
    /// in larger scenes (an elastic box of 10,000 spheres has about 60,000 impacts a second).
    /// A front end's lower bound for this task (`kinema keyframes`: a bake holds at most
    /// `KeyframeBaker.keyframeLimit` knots, so more impacts are refused at the first past it).
    static func eventLimit(bodies: Int) -> Int { min(eventBudget ?? .max, max(maximumEvents, 1_000 * bodies)) }
    @TaskLocal package static var eventBudget: Int?
    /// The steps a run may take unless `stepBudget` says otherwise: 0.1–2 s of compute in a release build.
    public static let defaultStepBudget = 10_000_000
    /// Samples handed on at a time by the streamed runs (`each:`): enough that a call per chunk
    /// costs nothing, few enough that memory stays flat.
    @usableFromInline package static let defaultSamplesPerChunk = 4096

    /// The most integrator steps this run may take. A run whose estimate (`IntegrationMethod.estimatedSteps`)
    /// exceeds it is refused before it starts, naming a cheaper choice; a run that exceeds it anyway
    /// (an adaptive method whose accuracy needs more than its stability) stops when it does.
    public var stepBudget = Simulation.defaultStepBudget

    /// The longest step an adaptive method (dopri5, dop853, exact, GSL's) may take, in seconds;
    /// infinity (the default) leaves the step to the tolerance and the sample times. Fixed-step
    /// methods keep their own step. Runs throw `KinemaError` unless it is > 0.
    public var maximumStep = Double.infinity

    /// Scenes with more coordinates than this run in flat storage (`FlatVector`, stepped in place
    /// by every method); smaller ones in one SIMD vector, which is faster up to 16 lanes.
    /// Lower it to run a small scene in flat storage (tests compare the two).
    package var largestPackedScene = 16 {
        didSet { largestPackedScene = min(max(largestPackedScene, 0), 16) }
    }

    /// A simulation of `scene` from its state at time 0.
    public init(scene: PhysicsScene) {
        self.scene = scene
    }

    /// Simulates from 0 to `duration`, sampled at `sampleRate` per second; the last sample is at
    /// exactly `duration`.
    /// - Throws: `KinemaError` for invalid settings, `SimulationError` when the run fails.
    /// - Complexity: O(steps + samples + events).
    public func run(method: IntegrationMethod, duration: Double, sampleRate: Double = 60) throws -> Trajectory {
        try KinemaError.requirePositive(duration, "duration")
        try KinemaError.requirePositive(sampleRate, "sampleRate")
        // Adaptive methods in a scene without colliders sample their dense output (as scipy's
        // `t_eval` does), so a fine sample rate does not force thousands of short steps.
        return try run(
            method: method, sampleTimes: Self.sampleTimes(duration: duration, rate: sampleRate),
            landOnSamples: method.endsStepsOnSamples(hasColliders: scene.hasColliders))
    }

    /// Simulates as `run(method:duration:sampleRate:)` does (the same steps, samples and impacts),
    /// handing the samples to `each` in chunks of at most `samplesPerChunk` as they are reached and
    /// keeping none: memory stays flat however many samples there are. Returns the impacts and the
    /// integrator's work, without samples.
    public func run(
        method: IntegrationMethod, duration: Double, sampleRate: Double = 60,
        samplesPerChunk: Int = Simulation.defaultSamplesPerChunk,
        each: (Trajectory) throws -> Void
    ) throws -> Trajectory {
        try KinemaError.requirePositive(duration, "duration")
        try KinemaError.requirePositive(sampleRate, "sampleRate")
        let nextTimes = try Self.sampleTimeChunks(duration: duration, rate: sampleRate, chunk: samplesPerChunk)
        return try withoutActuallyEscaping(each) { each in
            try withStepper(
                method: method, landOnSamples: method.endsStepsOnSamples(hasColliders: scene.hasColliders),
                StreamedRun(scene: scene, duration: duration, chunk: samplesPerChunk, nextTimes: nextTimes, each: each))
        }
    }

    /// Simulates driven by display frames as `run(method:frameDurations:)` does, for frames given
    /// one at a time (`DisplayFrames.Jittered`) that add up to `duration`: the rows (t = 0, then
    /// one per frame) go to `each` in chunks of at most `samplesPerChunk` and none are kept, so
    /// memory stays flat however many frames there are. Returns the impacts and the work.
    /// - Throws: `KinemaError` for a frame duration that is not finite and > 0 or frames that do
    ///   not end at `duration`, `SimulationError` when the run fails.
    public func run<Frames: Sequence<Double>>(
        method: IntegrationMethod, frameDurations: Frames, duration: Double,
        samplesPerChunk: Int = Simulation.defaultSamplesPerChunk, each: (Trajectory) throws -> Void
    ) throws -> Trajectory {
        try KinemaError.requirePositive(duration, "duration")
        guard samplesPerChunk > 0 else {
            throw KinemaError(parameter: "samplesPerChunk", value: "\(samplesPerChunk)", rule: "at least 1")
        }
        var frames = frameDurations.makeIterator()
        var t = 0.0, started = false, failure: KinemaError?
        let nextTimes = { (times: inout [Double]) in
            times.removeAll(keepingCapacity: true)
            if !started {
                times.append(0)
                started = true
            }
            while times.count < samplesPerChunk, failure == nil, let frame = frames.next() {
                guard frame > 0, frame.isFinite else {
                    failure = KinemaError(parameter: "frame duration", value: "\(frame)", rule: "a finite number > 0")
                    return
                }
                t += frame
                guard t <= duration * (1 + ContactTolerances.timeRounding) else {
                    failure = KinemaError(
                        parameter: "frame durations", value: "a sum beyond \(duration)",
                        rule: "adding up to the duration")
                    return
                }
                times.append(min(t, duration))
            }
        }
        let summary = try withoutActuallyEscaping(each) { each in
            try withStepper(
                method: method, landOnSamples: false,
                StreamedRun(scene: scene, duration: duration, chunk: samplesPerChunk, nextTimes: nextTimes, each: each))
        }
        if let failure { throw failure }
        return summary
    }

    /// Simulates driven by display frames of the given durations: fixed internal steps, one output
    /// row per frame, interpolated within the step and never fed back into the state.
    public func run(method: IntegrationMethod, frameDurations: [Double]) throws -> Trajectory {
        var times: [Double] = [0]
        times.reserveCapacity(frameDurations.count + 1)
        var t = 0.0
        for duration in frameDurations {
            try KinemaError.requirePositive(duration, "frame duration")
            t += duration
            times.append(t)
        }
        return try run(method: method, sampleTimes: times, landOnSamples: false)
    }

    /// Runs the scene with an integrator built elsewhere (GSL's, in `KinemaReference`) through the
    /// same loop: samples, collisions, resting contact and stability checks.
    /// - Precondition: `integrator.system.scene == scene` and the integrator starts at t = 0.
    /// With `each`, the samples go to it in chunks of at most `samplesPerChunk` as they are reached
    /// and the trajectory returned holds the impacts and the work only (as the streamed `run`).
    @_spi(Engine) public func run<I: Integrator, V>(
        with integrator: inout I, named name: String, duration: Double,
        sampleRate: Double = 60, samplesPerChunk: Int = Simulation.defaultSamplesPerChunk,
        each: ((Trajectory) throws -> Void)? = nil
    ) throws -> Trajectory
    where I.System == SceneSystem<V> {
        try KinemaError.requirePositive(duration, "duration")
        try KinemaError.requirePositive(sampleRate, "sampleRate")
        try requireValidMaximumStep()
        var stepper = SceneStepper(
            integrator, methodName: name, timeStep: nil, stabilityLimit: nil, stepBudget: stepBudget,
            maximumStep: maximumStep, landOnSamples: true)
        defer { integrator = stepper.integrator }
        // The initial contacts, with the restart that follows any change of the system.
        try stepper.restart(at: stepper.integrator.time, state: stepper.integrator.state)
        guard let each else {
            return try SampledRun(scene: scene, times: Self.sampleTimes(duration: duration, rate: sampleRate)).record(
                &stepper)
        }
        let nextTimes = try Self.sampleTimeChunks(duration: duration, rate: sampleRate, chunk: samplesPerChunk)
        return try withoutActuallyEscaping(each) { each in
            try StreamedRun(scene: scene, duration: duration, chunk: samplesPerChunk, nextTimes: nextTimes, each: each)
                .record(&stepper)
        }
    }

    /// `sampleTimes(duration:rate:)` a chunk at a time: each call replaces the array's contents
    /// with the next (at most `chunk`) times, or empties it when none are left.
    /// - Throws: `KinemaError` for a chunk below 1 (named `samplesPerChunk`, the public parameter).
    package static func sampleTimeChunks(duration: Double, rate: Double, chunk: Int) throws -> (inout [Double]) -> Void
    {
        guard chunk > 0 else { throw KinemaError(parameter: "samplesPerChunk", value: "\(chunk)", rule: "at least 1") }
        let count = try sampleCount(duration: duration, rate: rate)
        var start = 0  // i/rate for i < count, then `duration`
        return { times in
            times.removeAll(keepingCapacity: true)
            guard start <= count else { return }
            let end = start + min(chunk, count - start)
            for i in start..<end { times.append(Double(i) / rate) }
            if end == count { times.append(duration) }
            start = end == count ? count + 1 : end
        }
    }

    /// `0, 1/rate, 2/rate, …` up to but excluding `duration`, then `duration` itself.
    package static func sampleTimes(duration: Double, rate: Double) throws -> [Double] {
        let count = try sampleCount(duration: duration, rate: rate)
        // One allocation written in place: the divisions vectorize, where appends (a capacity
        // check each) keep them one at a time.
        return [Double](unsafeUninitializedCapacity: count + 1) { times, initialized in
            for i in 0..<count { times[i] = Double(i) / rate }
            times[count] = duration
            initialized = count + 1
        }
    }

    /// How many of `i/rate` lie before `duration` (the samples before the last, at `duration`).
    static func sampleCount(duration: Double, rate: Double) throws -> Int {
        let count = (duration * rate * (1 - ContactTolerances.timeRounding)).rounded(.up)
        guard count <= 50_000_000 else {
            throw KinemaError(
                parameter: "duration × sampleRate", value: "\(duration * rate)", rule: "at most 50000000 samples")
        }
        return Int(count)
    }

    func run(method: IntegrationMethod, sampleTimes: [Double], landOnSamples: Bool) throws -> Trajectory {
        try withStepper(method: method, landOnSamples: landOnSamples, SampledRun(scene: scene, times: sampleTimes))
    }

    /// Builds the scene's system (packed up to `largestPackedScene` coordinates, flat beyond), the
    /// integrator for `method` and the stepper around it, and hands the stepper to `use`.
    func withStepper<Use: SceneStepperUse>(method: IntegrationMethod, landOnSamples: Bool, _ use: Use) throws
        -> Use.Result
    {
        try method.validate()
        try requireValidMaximumStep()
        if case .moreauJean(let h) = method {
            try refuseIfTooCostly(method, SceneSystem<FlatVector>(scene: scene), duration: use.duration)
            return try use.use(MoreauJeanScene(scene: scene, timeStep: h, stepBudget: stepBudget))
        }
        if case .exact = method, EventDrivenScene.applies(to: scene) {
            return try use.use(EventDrivenScene(scene: scene)) { resumed in
                try withSteppedRun(method: method, landOnSamples: landOnSamples, resumed)
            }
        }
        return try withSteppedRun(method: method, landOnSamples: landOnSamples, use)
    }

    /// `withStepper` on the stepper alone (no event queue).
    private func withSteppedRun<Use: SceneStepperUse>(method: IntegrationMethod, landOnSamples: Bool, _ use: Use)
        throws -> Use.Result
    {
        func packed<V: StateVector>(_: V.Type) throws -> Use.Result {
            try withStepper(SceneSystem<V>(scene: scene), method, landOnSamples, use, PackedIntegrators<V>.self)
        }
        if scene.coordinateCount > largestPackedScene {
            return try withStepper(
                SceneSystem<FlatVector>(scene: scene), method, landOnSamples, use, FlatIntegrators.self)
        }
        switch scene.coordinateCount {
        case 1: return try packed(Double.self)
        case 2: return try packed(SIMD2<Double>.self)
        case 3: return try packed(SIMD3<Double>.self)
        case 4: return try packed(SIMD4<Double>.self)
        case 5...8: return try packed(SIMD8<Double>.self)
        default: return try packed(SIMD16<Double>.self)
        }
    }

    func withStepper<Integrators: SceneIntegrators, Use: SceneStepperUse>(
        _ system: SceneSystem<Integrators.Vector>, _ method: IntegrationMethod,
        _ landOnSamples: Bool, _ use: Use, _: Integrators.Type
    ) throws -> Use.Result {
        var system = system
        let start = system.initialState
        system.resting = try Collisions.initialContacts(system, start)
        try refuseIfTooCostly(method, system, duration: use.duration)
        let stepping = SteppingUse<Integrators.Vector, Use>(
            method: method, stepBudget: stepBudget, maximumStep: maximumStep, landOnSamples: landOnSamples, use: use)
        return try Integrators.withIntegrator(method, system, start, stepping)
    }

    func requireValidMaximumStep() throws {
        guard maximumStep > 0 else {
            throw KinemaError(
                parameter: "maximumStep", value: "\(maximumStep)", rule: "a number of seconds > 0 (or infinity)")
        }
    }

    /// Refuses, before the first step, a run whose step estimate exceeds the budget, and a fixed
    /// step more than 4× above the method's stability limit on the scene's stiffest mode (it would
    /// blow up within a few steps; the driver catches milder cases as they happen).
    func refuseIfTooCostly<V>(_ method: IntegrationMethod, _ system: SceneSystem<V>, duration: Double) throws {
        let (omega, zeta) = system.stiffestMode
        let linear = system.isLinear && scene.bodies.count == 1 && !scene.hasColliders
        // Below 4× the step every spring is stable at, no step can be 4× beyond its limit; above,
        // a quarter of the step is checked first, and the limit (for Adams a scan of milliseconds,
        // 100× a whole 2-s run) computed only for the error that names it.
        let fastest = IntegrationMethod.fastestRate(omega: omega, dampingRatio: zeta)
        if let h = method.timeStep, h * fastest > 4 * method.stabilityCheckThreshold(dampingRatio: zeta),
            method.isWithinStabilityLimit(step: h / 4, omega: omega, dampingRatio: zeta) != true,
            let limit = method.largestStableStep(omega: omega, dampingRatio: zeta), limit > 0, h > 4 * limit
        {
            throw SimulationError.unstable(
                time: 0,
                reason: "refused before the first step: the step is \(h / limit)× "
                    + "the stability limit of the stiffest spring (ω = \(omega) rad/s)",
                timeStep: h, largestStableStep: limit, method: method.name)
        }
        // exact looks for impacts a quarter period of the stiffest spring at a time (ω, not the
        // fastest rate: an overdamped spring's steps are not shorter, and a refusal must not be wrong).
        let searched = scene.hasColliders ? duration * omega / (0.5 * .pi) : 0
        let estimate =
            method == .exact ? searched : method.estimatedSteps(duration: duration, omega: omega, dampingRatio: zeta)
        guard estimate > Double(stepBudget) else { return }
        let advice: String
        if method == .exact {
            advice =
                "exact looks for impacts a quarter period of the stiffest spring at a time (ω = \(omega) rad/s): "
                + "shorten the run or soften the spring"
        } else if linear {
            advice = "use exact (this scene is linear: no steps)"
        } else if method.timeStep != nil {
            advice = "use a larger step, or an adaptive method (dopri5, dop853)"
        } else {
            advice =
                "use a looser tolerance"
                + Self.stiffnessAdvice(omega: omega, dampingRatio: zeta, duration: duration, budget: stepBudget)
        }
        throw SimulationError.overBudget(estimatedSteps: estimate, budget: stepBudget, advice: advice)
    }

    /// ", or an implicit method …" when stability alone (an explicit pair's estimate at a loose
    /// tolerance) exceeds the budget: the scene is stiff, and no tolerance helps an explicit method.
    package static func stiffnessAdvice(omega: Double, dampingRatio: Double, duration: Double, budget: Int) -> String {
        let stabilityOnly = IntegrationMethod.dopri5(tolerance: 1).estimatedSteps(
            duration: duration, omega: omega, dampingRatio: dampingRatio)
        return stabilityOnly > Double(budget)
            ? ", or an implicit method: the scene is stiff (ω = \(omega) rad/s)" : ""
    }
}
