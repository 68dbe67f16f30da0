/// The storage of each integrator family for a scene in one kind of vector: values of a packed
/// vector (`PackedIntegrators<Double>` … `<SIMD16<Double>>`), or buffers stepped in place for
/// `FlatVector` (`FlatIntegrators`). The storage is a generic parameter of each integrator, so no
/// cast picks the code.
protocol SceneIntegrators {
    associatedtype Vector: StateVector
    associatedtype FixedStore: FixedStepStorage where FixedStore.System == SceneSystem<Vector>
    associatedtype AdaptiveStore: AdaptiveStorage where AdaptiveStore.System == SceneSystem<Vector>
    associatedtype AdamsStore: AdamsStorage where AdamsStore.System == SceneSystem<Vector>
}

/// What is done with the integrator a `SceneStorage` makes (a generic closure).
protocol IntegratorUse {
    associatedtype Vector: StateVector
    associatedtype Result
    func use<J: Integrator>(_ integrator: consuming J) throws -> Result where J.System == SceneSystem<Vector>
}

extension SceneIntegrators {
    /// `use` applied to the integrator of `method` on `system` from `start`.
    static func withIntegrator<Use: IntegratorUse>(
        _ method: IntegrationMethod, _ system: SceneSystem<Vector>, _ start: PhaseState<Vector>, _ use: Use
    ) throws -> Use.Result where Use.Vector == Vector {
        func fixed<M: FixedStepMethod>(_ type: M.Type, _ h: Double) throws -> Use.Result {
            try use.use(
                FixedStepIntegrator(system: system, storage: FixedStore.self, method: type, state: start, timeStep: h)
            )
        }
        func adaptive<M: AdaptiveMethod>(_ type: M.Type, _ tolerance: Double) throws -> Use.Result {
            try use.use(
                AdaptiveIntegrator(
                    system: system, storage: AdaptiveStore.self, method: type, state: start,
                    absoluteTolerance: tolerance, relativeTolerance: tolerance))
        }
        switch method {
        case .euler(let h): return try fixed(ExplicitEuler.self, h)
        // Moreau–Jean runs as its own scene (`Simulation.withStepper`), never through a stepper;
        // semi-implicit Euler is what it steps between its contact solves.
        case .semiImplicitEuler(let h), .moreauJean(let h): return try fixed(SemiImplicitEuler.self, h)
        case .verlet(let h): return try fixed(VelocityVerlet.self, h)
        case .rk4(let h): return try fixed(RK4.self, h)
        case .adams(let h, let order):
            return try use.use(
                AdamsBashforthMoulton(system: system, storage: AdamsStore.self, state: start, timeStep: h, order: order)
            )
        case .dopri5(let tolerance): return try adaptive(DormandPrince54.self, tolerance)
        case .dop853(let tolerance): return try adaptive(DOP853.self, tolerance)
        case .exact: return try use.use(try ExactIntegrator(system: system, state: start))
        }
    }
}

/// Scenes of up to 16 coordinates, in a `Double` or a SIMD vector.
enum PackedIntegrators<Vector: StateVector>: SceneIntegrators {
    typealias FixedStore = PackedStepStorage<SceneSystem<Vector>>
    typealias AdaptiveStore = PackedAdaptiveStorage<SceneSystem<Vector>>
    typealias AdamsStore = PackedAdamsStorage<SceneSystem<Vector>>
}

/// Scenes past 16 coordinates, stepped in place.
enum FlatIntegrators: SceneIntegrators {
    typealias Vector = FlatVector
    typealias FixedStore = FlatStepStorage<SceneSystem<FlatVector>>
    typealias AdaptiveStore = FlatAdaptiveStorage<SceneSystem<FlatVector>>
    typealias AdamsStore = FlatAdamsStorage<SceneSystem<FlatVector>>
}

/// The stepper around an integrator, handed to the run's `SceneStepperUse`.
struct SteppingUse<Vector: StateVector, Use: SceneStepperUse>: IntegratorUse {
    let method: IntegrationMethod
    let stepBudget: Int
    let maximumStep: Double
    let landOnSamples: Bool
    let use: Use

    func use<J: Integrator>(_ integrator: consuming J) throws -> Use.Result where J.System == SceneSystem<Vector> {
        let method = self.method
        // The fixed-step methods' limit, named in an `unstable` error; nil for the others.
        let limit: ((Double, Double) -> Double)? =
            method.timeStep == nil ? nil : { method.largestStableStep(omega: $0, dampingRatio: $1) ?? 0 }
        return try use.use(
            SceneStepper(
                integrator, methodName: method.name, timeStep: method.timeStep, stabilityLimit: limit,
                stepBudget: stepBudget, maximumStep: method.timeStep == nil ? maximumStep : .infinity,
                landOnSamples: landOnSamples))
    }
}
