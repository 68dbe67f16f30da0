import Kinema

/// Runs Kinema scenes through GSL: the reference every Kinema integrator is checked against.
public enum GSLReference {
    /// Simulates `scene` with GSL's `method` from 0 to `duration`, sampled at `sampleRate`.
    /// - Throws: `KinemaError` for invalid settings, `GSLError` when GSL fails,
    ///   `SimulationError` for instability or too many events.
    public static func simulate(_ scene: Scene, method: GSLMethod, stepping: GSLIntegrator<Double>.Stepping,
                                duration: Double, sampleRate: Double = 60) throws -> Trajectory {
        func run<V: StateVector>(_: V.Type) throws -> Trajectory {
            let system = SceneSystem<V>(scene: scene)
            let converted: GSLIntegrator<V>.Stepping
            switch stepping {
            case .fixed(let h): converted = .fixed(timeStep: h)
            case .adaptive(let tolerance): converted = .adaptive(tolerance: tolerance)
            }
            var integrator = try GSLIntegrator(system: system, method: method, stepping: converted, state: system.initialState)
            return try Simulation(scene: scene).run(with: &integrator, named: "gsl-\(method.rawValue)",
                                                    duration: duration, sampleRate: sampleRate)
        }
        switch scene.coordinateCount {
        case 1: return try run(Double.self)
        case 2: return try run(SIMD2<Double>.self)
        case 3: return try run(SIMD3<Double>.self)
        case 4: return try run(SIMD4<Double>.self)
        case 5...8: return try run(SIMD8<Double>.self)
        default: return try run(SIMD16<Double>.self)
        }
    }
}
