/// The integrator of each method for a scene in one kind of storage: the generic integrators on
/// packed vectors (`PackedIntegrators<Double>` … `<SIMD16<Double>>`), the in-place ones on
/// `FlatVector` (`FlatIntegrators`). The storage picks them as a generic parameter, so no cast does.
protocol SceneIntegrators {
    associatedtype Vector: StateVector
    static func withIntegrator<Use: IntegratorUse>(
        _ method: IntegrationMethod, _ system: SceneSystem<Vector>, _ start: PhaseState<Vector>, _ use: Use
    ) throws -> Use.Result where Use.Vector == Vector
}

/// What is done with the integrator a `SceneStorage` makes (a generic closure).
protocol IntegratorUse {
    associatedtype Vector: StateVector
    associatedtype Result
    func use<J: Integrator>(_ integrator: consuming J) throws -> Result where J.System == SceneSystem<Vector>
}

/// Scenes of up to 16 coordinates, in a `Double` or a SIMD vector.
enum PackedIntegrators<Vector: StateVector>: SceneIntegrators {
    static func withIntegrator<Use: IntegratorUse>(
        _ method: IntegrationMethod, _ system: SceneSystem<Vector>, _ start: PhaseState<Vector>, _ use: Use
    ) throws -> Use.Result where Use.Vector == Vector {
        func fixed<M: FixedStepMethod>(_ type: M.Type, _ h: Double) throws -> Use.Result {
            try use.use(FixedStepIntegrator(system: system, method: type, state: start, timeStep: h))
        }
        switch method {
        case .euler(let h): return try fixed(ExplicitEuler.self, h)
        case .semiImplicitEuler(let h): return try fixed(SemiImplicitEuler.self, h)
        case .verlet(let h): return try fixed(VelocityVerlet.self, h)
        case .rk4(let h): return try fixed(RK4.self, h)
        case .adams(let h, let order):
            return try use.use(AdamsBashforthMoulton(system: system, state: start, timeStep: h, order: order))
        case .dopri5(let tolerance):
            return try use.use(
                AdaptiveIntegrator(
                    system: system, method: DormandPrince54.self, state: start, absoluteTolerance: tolerance,
                    relativeTolerance: tolerance))
        case .dop853(let tolerance):
            return try use.use(
                AdaptiveIntegrator(
                    system: system, method: DOP853.self, state: start, absoluteTolerance: tolerance,
                    relativeTolerance: tolerance))
        case .exact:
            return try use.use(try ExactIntegrator(system: system, state: start))
        }
    }
}

/// Scenes past 16 coordinates, stepped in place.
enum FlatIntegrators: SceneIntegrators {
    typealias Vector = FlatVector

    static func withIntegrator<Use: IntegratorUse>(
        _ method: IntegrationMethod, _ system: SceneSystem<FlatVector>, _ start: PhaseState<FlatVector>, _ use: Use
    ) throws -> Use.Result where Use.Vector == FlatVector {
        func fixed<M: FixedStepMethod>(_ type: M.Type, _ h: Double) throws -> Use.Result {
            try use.use(
                FixedStepIntegrator(
                    system: system, storage: FlatStepStorage.self, method: type, state: start, timeStep: h))
        }
        switch method {
        case .euler(let h): return try fixed(ExplicitEuler.self, h)
        case .semiImplicitEuler(let h): return try fixed(SemiImplicitEuler.self, h)
        case .verlet(let h): return try fixed(VelocityVerlet.self, h)
        case .rk4(let h): return try fixed(RK4.self, h)
        case .adams(let h, let order):
            return try use.use(
                AdamsBashforthMoulton(
                    system: system, storage: FlatAdamsStorage.self, state: start, timeStep: h, order: order))
        case .dopri5(let tolerance):
            return try use.use(
                AdaptiveIntegrator(
                    system: system, storage: FlatAdaptiveStorage.self, method: DormandPrince54.self, state: start,
                    absoluteTolerance: tolerance, relativeTolerance: tolerance))
        case .dop853(let tolerance):
            return try use.use(
                AdaptiveIntegrator(
                    system: system, storage: FlatAdaptiveStorage.self, method: DOP853.self, state: start,
                    absoluteTolerance: tolerance, relativeTolerance: tolerance))
        case .exact:
            return try use.use(try ExactIntegrator(system: system, state: start))
        }
    }
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
