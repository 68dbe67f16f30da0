@_spi(Engine) import Kinema

/// Runs Kinema scenes through GSL: the reference every Kinema integrator is checked against.
public enum GSLReference {
    /// Simulates `scene` with GSL's `method` from 0 to `duration`, sampled at `sampleRate`. With
    /// `each`, the samples go to it in chunks of at most `Simulation.defaultSamplesPerChunk` as
    /// they are reached and none are kept (the trajectory returned holds the impacts and the work).
    /// - Throws: `KinemaError` for invalid settings, `GSLError` when GSL fails,
    ///   `SimulationError` for instability or too many events.
    public static func simulate(
        _ scene: PhysicsScene, method: GSLMethod, stepping: GSLStepping,
        duration: Double, sampleRate: Double = 60,
        stepBudget: Int = Simulation.defaultStepBudget,
        each: ((Trajectory) throws -> Void)? = nil
    ) throws -> Trajectory {
        func run<V: StateVector>(_: V.Type) throws -> Trajectory {
            let system = SceneSystem<V>(scene: scene)
            var integrator = try GSLIntegrator(
                system: system, method: method, stepping: stepping, state: system.initialState)
            // After the integrator has checked the step or tolerance, so the estimate has valid inputs.
            let (omega, zeta) = system.stiffestMode
            if !method.needsJacobian || zeta < 1 {
                let estimate = method.estimateProxy(stepping).estimatedSteps(
                    duration: duration, omega: omega, dampingRatio: zeta)
                if estimate > Double(stepBudget) {
                    throw SimulationError.overBudget(
                        estimatedSteps: estimate, budget: stepBudget,
                        advice: "use a looser tolerance"
                            + (method.needsJacobian
                                ? ", or exact where the scene is one linear spring"
                                : Simulation.stiffnessAdvice(
                                    omega: omega, dampingRatio: zeta, duration: duration, budget: stepBudget)))
                }
            }
            if !scene.hasColliders {
                return try sampleWithoutEvents(
                    &integrator, duration: duration, sampleRate: sampleRate, stepBudget: stepBudget,
                    each: each)
            }
            var simulation = Simulation(scene: scene)
            simulation.stepBudget = stepBudget
            return try simulation.run(
                with: &integrator, named: "gsl-\(method.rawValue)", duration: duration, sampleRate: sampleRate,
                each: each)
        }
        switch scene.coordinateCount {
        case 1: return try run(Double.self)
        case 2: return try run(SIMD2<Double>.self)
        case 3: return try run(SIMD3<Double>.self)
        case 4: return try run(SIMD4<Double>.self)
        case 5...8: return try run(SIMD8<Double>.self)
        case 9...16: return try run(SIMD16<Double>.self)
        default: return try run(FlatVector.self)
        }
    }

    /// Without colliders nothing can happen between steps, so GSL runs in a plain loop specialized
    /// here (Kinema's event loop, reached across modules, would run unspecialized and make GSL look
    /// slower than it is): steps end on the sample times, which are then recorded as they are.
    static func sampleWithoutEvents<V>(
        _ integrator: inout GSLIntegrator<V>, duration: Double, sampleRate: Double,
        stepBudget: Int = Simulation.defaultStepBudget,
        each: ((Trajectory) throws -> Void)? = nil
    ) throws
        -> Trajectory
    {
        try KinemaError.requirePositive(duration, "duration")
        try KinemaError.requirePositive(sampleRate, "sampleRate")
        integrator.storage.captureSystem()
        let scene = integrator.system.scene
        // With `each`, a chunk of samples at a time handed on and dropped; else all of them kept.
        let chunk = each == nil ? Int.max : Simulation.defaultSamplesPerChunk
        let nextTimes = try Simulation.sampleTimeChunks(duration: duration, rate: sampleRate, chunk: chunk)
        var trajectory = Trajectory(scene: scene), times: [Double] = []
        var stepCount = 0
        while true {
            nextTimes(&times)
            if times.isEmpty { break }
            trajectory.reserveCapacity(samples: times.count)
            for t in times {
                while integrator.time < t {
                    try integrator.advance(toward: t)
                    stepCount += 1
                    if stepCount > stepBudget {
                        throw SimulationError.tooManySteps(time: integrator.time, limit: stepBudget)
                    }
                }
                let state = integrator.state
                for lane in 0..<PhaseState<V>.laneCount(of: state) where !state[lane: lane].isFinite {
                    throw SimulationError.unstable(
                        time: t, reason: "the state is no longer finite",
                        timeStep: integrator.time - integrator.previousTime,
                        largestStableStep: 0, method: "gsl-\(integrator.method.rawValue)")
                }
                trajectory.append(time: t, state: state)
            }
            if let each {
                try each(trajectory)
                trajectory = Trajectory(scene: scene)
            }
        }
        trajectory.steps = integrator.steps
        trajectory.evaluations = integrator.evaluations
        return trajectory
    }
}
