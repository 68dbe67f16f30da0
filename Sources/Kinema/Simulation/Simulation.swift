/// Runs a scene: picks the packed vector type and the integrator once, then hands both to one
/// generic loop (`SimulationDriver`) that samples, locates collisions and watches stability.
public struct Simulation: Sendable {
    public let scene: PhysicsScene

    /// The most collision events one run may process before it stops with an error.
    public static let maximumEvents = 1_000_000
    /// The most integrator steps one run may take, so no setting can make a run hang.
    public static let maximumSteps = 200_000_000

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
        return try run(method: method, sampleTimes: Self.sampleTimes(duration: duration, rate: sampleRate),
                       landOnSamples: method.endsStepsOnSamples(hasColliders: scene.hasColliders))
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
    public func run<I: Integrator, V>(with integrator: inout I, named name: String, duration: Double,
                                      sampleRate: Double = 60) throws -> Trajectory
    where I.System == SceneSystem<V> {
        try KinemaError.requirePositive(duration, "duration")
        try KinemaError.requirePositive(sampleRate, "sampleRate")
        let driver = SimulationDriver(sampleTimes: try Self.sampleTimes(duration: duration, rate: sampleRate),
                                      landOnSamples: true, method: .exact)
        var system = integrator.system
        system.resting = try SimulationDriver.initialContacts(system, integrator.state)
        integrator.system = system
        return try driver.run(&integrator, stabilityLimit: nil, methodName: name)
    }

    /// `0, 1/rate, 2/rate, …` up to but excluding `duration`, then `duration` itself.
    package static func sampleTimes(duration: Double, rate: Double) throws -> [Double] {
        let count = (duration * rate * (1 - 1e-12)).rounded(.up)
        guard count <= 50_000_000 else {
            throw KinemaError(parameter: "duration × sampleRate", value: "\(duration * rate)", rule: "at most 50000000 samples")
        }
        var times: [Double] = []
        times.reserveCapacity(Int(count) + 1)  // one allocation, not a map and a regrow for `duration`
        for i in 0..<Int(count) { times.append(Double(i) / rate) }
        times.append(duration)
        return times
    }

    func run(method: IntegrationMethod, sampleTimes: [Double], landOnSamples: Bool) throws -> Trajectory {
        try method.validate()
        switch scene.coordinateCount {
        case 1: return try run(SceneSystem<Double>(scene: scene), method, sampleTimes, landOnSamples)
        case 2: return try run(SceneSystem<SIMD2<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        case 3: return try run(SceneSystem<SIMD3<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        case 4: return try run(SceneSystem<SIMD4<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        case 5...8: return try run(SceneSystem<SIMD8<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        case 9...16: return try run(SceneSystem<SIMD16<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        case 17...32: return try run(SceneSystem<SIMD32<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        default: return try run(SceneSystem<SIMD64<Double>>(scene: scene), method, sampleTimes, landOnSamples)
        }
    }

    func run<V: StateVector>(_ system: SceneSystem<V>, _ method: IntegrationMethod, _ sampleTimes: [Double],
                             _ landOnSamples: Bool) throws -> Trajectory {
        var system = system
        let start = system.initialState
        system.resting = try SimulationDriver.initialContacts(system, start)
        let driver = SimulationDriver(sampleTimes: sampleTimes, landOnSamples: landOnSamples, method: method)
        switch method {
        case .euler(let h):
            var integrator = FixedStepIntegrator(system: system, method: ExplicitEuler.self, state: start, timeStep: h)
            return try driver.run(&integrator, stabilityLimit: ExplicitEuler.largestStableStep)
        case .semiImplicitEuler(let h):
            var integrator = FixedStepIntegrator(system: system, method: SemiImplicitEuler.self, state: start, timeStep: h)
            return try driver.run(&integrator, stabilityLimit: SemiImplicitEuler.largestStableStep)
        case .verlet(let h):
            var integrator = FixedStepIntegrator(system: system, method: VelocityVerlet.self, state: start, timeStep: h)
            return try driver.run(&integrator, stabilityLimit: VelocityVerlet.largestStableStep)
        case .rk4(let h):
            var integrator = FixedStepIntegrator(system: system, method: RK4.self, state: start, timeStep: h)
            return try driver.run(&integrator, stabilityLimit: RK4.largestStableStep)
        case .adams(let h, let order):
            var integrator = AdamsBashforthMoulton(system: system, state: start, timeStep: h, order: order)
            return try driver.run(&integrator) { omega, zeta in
                AdamsBashforthMoulton<SceneSystem<V>>.largestStableStep(order: order, omega: omega, dampingRatio: zeta)
            }
        case .dopri5(let tolerance):
            var integrator = DormandPrince54(system: system, state: start, absoluteTolerance: tolerance, relativeTolerance: tolerance)
            return try driver.run(&integrator, stabilityLimit: nil)
        case .dop853(let tolerance):
            var integrator = DOP853(system: system, state: start, absoluteTolerance: tolerance, relativeTolerance: tolerance)
            return try driver.run(&integrator, stabilityLimit: nil)
        case .exact:
            var integrator = try ExactIntegrator(system: system, state: start)
            return try driver.run(&integrator, stabilityLimit: nil)
        }
    }
}
