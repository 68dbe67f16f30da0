import ArgumentParser
@_spi(Engine) import Kinema
import KinemaReference

/// How to integrate and sample: shared by `simulate`, `keyframes` and `sweep`.
struct SimulationOptions: ParsableArguments {
    enum Integrator: String, CaseIterable {
        case euler, semiImplicitEuler = "semi-implicit-euler", verlet, rk4, adams, dopri5, dop853, exact
        case moreauJean = "moreau-jean"
        case gslRK2 = "gsl-rk2", gslRK4 = "gsl-rk4", gslRKF45 = "gsl-rkf45", gslRKCK = "gsl-rkck", gslRK8PD =
            "gsl-rk8pd"
        case gslRK4Imp = "gsl-rk4imp", gslBSImp = "gsl-bsimp", gslMSAdams = "gsl-msadams", gslMSBDF = "gsl-msbdf"
        var isFixedStep: Bool { [.euler, .semiImplicitEuler, .verlet, .rk4, .adams, .moreauJean].contains(self) }
        /// GSL's step type, for the `gsl-` integrators.
        var gslMethod: GSLMethod? {
            rawValue.hasPrefix("gsl-") ? GSLMethod(rawValue: String(rawValue.dropFirst(4))) : nil
        }
    }

    /// Kinema's integrator with its setting, or GSL's.
    enum Choice {
        case kinema(IntegrationMethod)
        case gsl(GSLMethod, GSLStepping)
    }

    @Option(
        parsing: .unconditional,
        help: "Simulated seconds (default: the spring's settling duration / the drop's time to rest).")
    var duration: Double?
    @Option(
        help:
            "The integrator: euler, semi-implicit-euler, verlet, rk4, adams, dopri5 (default), dop853, exact, moreau-jean (piles: contacts solved together each step), or GSL's gsl-rk2, gsl-rk4, gsl-rkf45, gsl-rkck, gsl-rk8pd, gsl-rk4imp, gsl-bsimp, gsl-msadams, gsl-msbdf (fixed with --dt, else adaptive)."
    )
    var integrator: String = "dopri5"
    @Option(
        parsing: .unconditional,
        help:
            "Fixed step in seconds, for euler, semi-implicit-euler, verlet, rk4, adams and moreau-jean (default 0.001)."
    )
    var dt: Double?
    @Option(parsing: .unconditional, help: "Order of adams (Adams–Bashforth–Moulton), 1 to 12 (default 8).")
    var order: Int?
    @Option(parsing: .unconditional, help: "Absolute = relative tolerance for dopri5 and dop853 (default 1e-9).")
    var tolerance: Double?
    @Option(
        name: .customLong("sample-rate"), parsing: .unconditional,
        help: "Output samples per second (default 60); the last sample is at exactly --duration.")
    var sampleRate: Double?
    @Option(
        name: .customLong("frame-rate"), parsing: .unconditional,
        help: "Drive the simulation by display frames at this rate instead; one row per frame.")
    var frameRate: Double?
    @Option(
        name: .customLong("frame-jitter"), parsing: .unconditional,
        help: "Frame duration jitter, a fraction in [0, 1) (default 0).")
    var frameJitter: Double?
    @Option(parsing: .unconditional, help: "Seed of the frame jitter (default 0).")
    var seed: UInt64?
    @Option(
        name: .customLong("max-steps"), parsing: .unconditional,
        help:
            "The most steps a run may take (default \(Simulation.defaultStepBudget)); a run estimated to need more is refused before it starts."
    )
    var maxSteps: Int?
    @Option(
        name: .customLong("max-step"), parsing: .unconditional,
        help:
            "The longest step dopri5, dop853 or exact may take, in seconds (default: no bound but the sample times); collisions are found within each step whatever its length."
    )
    var maxStep: Double?

    /// The flags as plain values, which hold the logic (`choice`, `run`, …).
    var values: SimulationValues { SimulationValues(reading: self) }
}

/// The simulation flags (the options are `SimulationOptions`' properties of the same names; see
/// `DeclaredFlag`).
enum SimulationFlag: Int, DeclaredFlag {
    case duration, dt, tolerance, sampleRate, frameRate, frameJitter, maxStep, integrator, order, seed, maxSteps
    static let propertyNames = allCases.map { "\($0)" }

    var kind: FlagKind {
        switch self {
        case .duration, .dt, .tolerance, .sampleRate, .frameRate, .maxStep: return .number(.positive)
        case .frameJitter:
            return .number(.interval(0, 1, includesLower: true, includesUpper: false, text: "a fraction in [0, 1)"))
        case .integrator: return .text
        case .order:
            let orders = IntegrationMethod.adamsOrders
            return .integer(
                .interval(
                    Double(orders.lowerBound), Double(orders.upperBound), includesLower: true, includesUpper: true,
                    text: IntegrationMethod.adamsOrderRule))
        case .seed: return .unsigned
        case .maxSteps:
            return .integer(.interval(1, .infinity, includesLower: true, includesUpper: true, text: "an integer > 0"))
        }
    }
}

/// The simulation flags as plain values, and the runs they describe (`choice`, `run`).
typealias SimulationValues = FlagValues<SimulationFlag>

extension SimulationValues {
    /// The integrator with its setting, checked against the integrator's kind.
    func choice() throws -> SimulationOptions.Choice {
        let integrator = try choose(self[text: .integrator] ?? "", "--integrator", SimulationOptions.Integrator.self)
        try check(Self.stepping)
        let dt = self[.dt], tolerance = self[.tolerance]
        if isGiven(.order) {
            guard integrator == .adams else {
                throw CLIError("'--order' applies to adams only (--integrator is \(integrator.rawValue)).")
            }
            try check(Self.orderBit)
        }
        if let gsl = integrator.gslMethod {
            if let dt {
                if tolerance != nil {
                    throw CLIError(
                        "'--dt' and '--tolerance' exclude each other: --dt makes \(integrator.rawValue) fixed-step.")
                }
                if gsl.isMultistep {
                    throw CLIError(
                        "'--dt' does not apply to \(integrator.rawValue): multistep methods run adaptively; give '--tolerance'."
                    )
                }
                return .gsl(gsl, .fixed(timeStep: dt))
            }
            return .gsl(gsl, .adaptive(tolerance: tolerance ?? 1e-9))
        }
        return .kinema(try method(integrator))
    }

    // The flags each step checks, as masks made once (a sweep checks every row).
    private static let stepping = SimulationFlag.mask(.dt, .tolerance)
    private static let sampling = SimulationFlag.mask(.sampleRate, .frameRate, .frameJitter)
    private static let durationBit = SimulationFlag.mask(.duration), maxStepBit = SimulationFlag.mask(.maxStep)
    private static let orderBit = SimulationFlag.mask(.order), maxStepsBit = SimulationFlag.mask(.maxSteps)

    func method(_ integrator: SimulationOptions.Integrator) throws -> IntegrationMethod {
        let dt = self[.dt], tolerance = self[.tolerance]
        if integrator.isFixedStep, tolerance != nil {
            throw CLIError("'--tolerance' applies to dopri5 and dop853; \(integrator.rawValue) takes '--dt'.")
        }
        if !integrator.isFixedStep, dt != nil {
            throw CLIError(
                "'--dt' applies to fixed-step integrators; \(integrator.rawValue) "
                    + (integrator == .exact ? "needs no step." : "takes '--tolerance'."))
        }
        let h = dt ?? 0.001, tol = tolerance ?? 1e-9
        switch integrator {
        case .euler: return .euler(timeStep: h)
        case .semiImplicitEuler: return .semiImplicitEuler(timeStep: h)
        case .verlet: return .verlet(timeStep: h)
        case .rk4: return .rk4(timeStep: h)
        case .adams: return .adams(timeStep: h, order: whole(.order) ?? 8)
        case .dopri5: return .dopri5(tolerance: tol)
        case .dop853: return .dop853(tolerance: tol)
        case .exact: return .exact
        case .moreauJean: return .moreauJean(timeStep: h)
        default: preconditionFailure("GSL integrators are handled by choice()")
        }
    }

    /// The duration to simulate.
    func resolvedDuration(default suggested: Double?) throws -> Double {
        try check(Self.durationBit)
        if let duration = self[.duration] { return duration }
        guard let suggested else {
            throw CLIError("'--duration' is needed: this scene has no settling time of its own.")
        }
        return suggested
    }

    /// `--max-steps`, checked.
    func stepBudget() throws -> Int {
        try check(Self.maxStepsBit)
        return whole(.maxSteps) ?? Simulation.defaultStepBudget
    }

    /// The scene's simulation with the step budget of `--max-steps`.
    func simulation(_ scene: PhysicsScene) throws -> Simulation {
        var simulation = Simulation(scene: scene)
        simulation.stepBudget = try stepBudget()
        try check(Self.maxStepBit)
        simulation.maximumStep = self[.maxStep] ?? .infinity
        return simulation
    }

    /// Runs the scene as the flags say: sampled, or driven by display frames. A Kinema run sampled
    /// at `--sample-rate` hands its samples to `each` in chunks as they are reached and returns
    /// only its impacts and work (memory flat in the samples); frame-driven and GSL runs, and any
    /// run without `each`, return the whole trajectory.
    func run(_ scene: PhysicsScene, duration: Double, each: ((Trajectory) throws -> Void)? = nil) throws -> Trajectory {
        let choice = try self.choice(), integrator = self[text: .integrator] ?? ""
        try check(Self.sampling)
        let sampleRate = self[.sampleRate], frameRate = self[.frameRate], frameJitter = self[.frameJitter]
        if frameRate == nil, frameJitter != nil || isGiven(.seed) {
            throw CLIError("'--frame-jitter' and '--seed' apply with '--frame-rate' only.")
        }
        if self[.maxStep] != nil {
            guard case .kinema(let method) = choice, method.timeStep == nil else {
                throw CLIError(
                    "'--max-step' bounds the steps of dopri5, dop853 and exact; \(integrator) steps otherwise.")
            }
        }
        switch choice {
        case .kinema(let method):
            if let frameRate {
                if sampleRate != nil {
                    throw CLIError("'--sample-rate' and '--frame-rate' exclude each other: give one.")
                }
                let frames = try DisplayFrames.Jittered(
                    rate: frameRate, jitter: frameJitter ?? 0, duration: duration, seed: whole(.seed) ?? 0)
                if let each {
                    return try simulation(scene).run(
                        method: method, frameDurations: frames, duration: duration, each: each)
                }
                return try simulation(scene).run(method: method, frameDurations: Array(frames))
            }
            if let each {
                return try simulation(scene).run(
                    method: method, duration: duration, sampleRate: sampleRate ?? 60, each: each)
            }
            return try simulation(scene).run(method: method, duration: duration, sampleRate: sampleRate ?? 60)
        case let .gsl(method, stepping):
            if frameRate != nil {
                throw CLIError("'--frame-rate' drives Kinema's integrators only, not \(integrator).")
            }
            return try GSLReference.simulate(
                scene, method: method, stepping: stepping, duration: duration,
                sampleRate: sampleRate ?? 60, stepBudget: try stepBudget(), each: each)
        }
    }
}
