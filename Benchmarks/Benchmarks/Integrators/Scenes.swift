import Benchmark
@_spi(Engine) import Kinema

/// One body on a 2-D spring (k = 100, c = 2), the fixed- and adaptive-step benchmarks' spring.
func simd2Spring() -> SceneSystem<SIMD2<Double>> {
    let body = try! PhysicsBody(name: "b", position: SIMD3(1, 0, 0), velocity: SIMD3(0, 1, 0))
    return SceneSystem(
        scene: try! PhysicsScene(
            dimensions: 2, bodies: [body],
            springs: [SpringForce(.anchor(body: 0, at: SIMD3(0, 0, 0)), stiffness: 100, damping: 2)]))
}

/// 12 bodies in 3-D joined by springs of rest length 0.25, under gravity (36 coordinates, flat storage).
func chain() -> SceneSystem<FlatVector> {
    var bodies: [PhysicsBody] = [], springs: [SpringForce] = []
    for i in 0..<12 {
        bodies.append(
            try! PhysicsBody(name: "b\(i)", mass: 0.2, position: SIMD3(0.3 * Double(i + 1), 0, 0.05 * Double(i))))
        springs.append(
            try! SpringForce(
                i == 0 ? .anchor(body: 0, at: SIMD3(0, 0, 0)) : .bodies(i - 1, i),
                stiffness: 80, damping: 0.3, restLength: 0.25))
    }
    return SceneSystem(
        scene: try! PhysicsScene(dimensions: 3, bodies: bodies, springs: springs, gravity: SIMD3(0, 0, -9.81)))
}

/// A benchmark of one integrator's steps (accepted steps for the adaptive ones), 1,000 per scaled
/// iteration, so the reported time is per step; allocations must be 0.
func measureSteps<I: Integrator>(_ name: String, _ make: @escaping () -> I) {
    Benchmark(
        name,
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark in
        var integrator = make()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try! integrator.advance(toward: .infinity) }
        benchmark.stopMeasurement()
        blackHole(integrator.time)
    }
}

/// Explicit Euler, semi-implicit Euler and Verlet on one system, named "<method>.<label>".
func measureLowOrderSteps<V: StateVector>(_ system: SceneSystem<V>, timeStep h: Double, label: String) {
    let start = system.initialState
    measureSteps("Euler.\(label)") {
        FixedStepIntegrator(system: system, method: ExplicitEuler.self, state: start, timeStep: h)
    }
    measureSteps("SemiImplicitEuler.\(label)") {
        FixedStepIntegrator(system: system, method: SemiImplicitEuler.self, state: start, timeStep: h)
    }
    measureSteps("Verlet.\(label)") {
        FixedStepIntegrator(system: system, method: VelocityVerlet.self, state: start, timeStep: h)
    }
}

/// Dormand–Prince 5(4) and DOP853 on one system at their tolerances, named "<method>.<label>".
func measureAdaptiveSteps<V: StateVector>(_ system: SceneSystem<V>, dp5: Double, dop853: Double, label: String) {
    let start = system.initialState
    measureSteps("DP5.\(label)") {
        AdaptiveIntegrator(
            system: system, method: DormandPrince54.self, state: start, absoluteTolerance: dp5, relativeTolerance: dp5)
    }
    measureSteps("DOP853.\(label)") {
        AdaptiveIntegrator(
            system: system, method: DOP853.self, state: start, absoluteTolerance: dop853, relativeTolerance: dop853)
    }
}
