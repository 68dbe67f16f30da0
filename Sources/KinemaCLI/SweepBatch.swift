@_spi(Engine) import Kinema

/// Springs of a sweep simulated together. `--spring` rows run by RK4 with the same step, samples
/// and duration share one 8-wide SIMD state, one spring per lane, so each RK4 step advances eight
/// springs. Each lane computes exactly what `Simulation.run` computes for its spring's scene alone
/// (the coefficients `SceneSystem` derives, its acceleration expression, RK4 and the same steps),
/// so a row's output does not depend on the rows it shared a batch with (a test compares the
/// bytes); the batch skips what a lone run adds around the steps (the scene, the stepper's
/// collision and energy checks).
enum SweepBatch {
    static let width = 8

    /// What rows must share to run together: the duration, RK4's step and the sample rate.
    struct Key: Equatable {
        let duration: Double
        let timeStep: Double
        let sampleRate: Double
    }

    /// One spring as a lane: per unit mass, as `SceneSystem` compiles the scene of
    /// `PhysicsScene.spring` (k and c summed from 0, the anchor as (k·at)/k).
    struct Lane {
        let negatedStiffness: Double
        let damping: Double
        let anchor: Double
        let position: Double
        let velocity: Double
        /// The fastest eigenvalue's magnitude |λ| of x'' = −(k/m)·x − (c/m)·x'.
        let fastestRate: Double

        init(_ spring: DampedSpring, from: Double, to: Double, velocity: Double) {
            let inverseMass = 1 / spring.mass, k = 0 + spring.stiffness, c = 0 + spring.damping
            negatedStiffness = -(k * inverseMass)
            damping = c * inverseMass
            anchor = k > 0 ? (0 + spring.stiffness * to) / k : 0
            (position, self.velocity) = (from, velocity)
            // λ = −c/2 ± √(c²/4 − k) per unit mass.
            let kPerMass = spring.stiffness / spring.mass, cPerMass = spring.damping / spring.mass
            let discriminant = cPerMass * cPerMass / 4 - kPerMass
            fastestRate = discriminant > 0 ? cPerMass / 2 + discriminant.squareRoot() : kPerMass.squareRoot()
        }
    }

    /// The row's batch key, or nil when it must run alone: anything but RK4 sampled with no other
    /// simulation flag, a run a lone run could refuse (steps over the budget, too many samples),
    /// or a step outside |λ|·h ≤ 2: well inside RK4's stability interval, so no lane can need the
    /// stability checks a lone run makes.
    static func key(_ lane: Lane, _ simulation: SimulationValues, duration: Double) -> Key? {
        guard simulation[.frameRate] == nil, simulation[.frameJitter] == nil, !simulation.isGiven(.seed),
            simulation[.maxStep] == nil,
            case .kinema(.rk4(let h))? = try? simulation.choice(),
            let budget = try? simulation.stepBudget()
        else { return nil }
        let rate = simulation[.sampleRate] ?? 60
        guard rate > 0, rate.isFinite, duration * rate <= 1_000_000,
            (duration / h).rounded(.up) + duration * rate + 128 < Double(budget),
            lane.fastestRate * h <= 2
        else { return nil }
        return Key(duration: duration, timeStep: h, sampleRate: rate)
    }

    /// Eight springs to anchors, one per lane, with `SceneSystem`'s acceleration expression for a
    /// scene without gravity, so every lane's arithmetic is a lone run's to the bit.
    struct Lanes: SecondOrderSystem {
        var negatedStiffness = SIMD8<Double>.zero
        var damping = SIMD8<Double>.zero
        var anchor = SIMD8<Double>.zero

        @inline(__always)
        func acceleration(position: SIMD8<Double>, velocity: SIMD8<Double>, time: Double) -> SIMD8<Double> {
            negatedStiffness * (position - anchor) - damping * velocity
        }
    }

    /// The samples of a batch: sample i of lane l at `i·width + l`.
    struct Samples {
        let times: [Double]
        let positions: [Double]
        let velocities: [Double]
        let steps: Int

        /// Lane `lane` of `positions` or `velocities`, one value per sample.
        func lane(_ lane: Int, of values: [Double]) -> [Double] {
            let n = times.count
            assert(lane < width && values.count >= n * width, "a lane of the batch's samples")
            return values.withUnsafeBufferPointer { all in
                [Double](unsafeUninitializedCapacity: n) { column, count in
                    for i in 0..<n { column[i] = all[i * width + lane] }
                    count = n
                }
            }
        }
    }

    /// The lanes' samples, run together; nil when a lane ends non-finite (the rows then run
    /// alone, where the failure is reported as theirs).
    /// - Precondition: at most `width` lanes, all with the batch key `key`.
    static func run(_ springs: [Lane], key: Key) throws -> Samples? {
        var lanes = Lanes(), start = PhaseState<SIMD8<Double>>.zero
        for (i, spring) in springs.enumerated() {
            lanes.negatedStiffness[i] = spring.negatedStiffness
            lanes.damping[i] = spring.damping
            lanes.anchor[i] = spring.anchor
            start.position[i] = spring.position
            start.velocity[i] = spring.velocity
        }
        let times = try Simulation.sampleTimes(duration: key.duration, rate: key.sampleRate), n = times.count
        var integrator = FixedStepIntegrator(system: lanes, method: RK4.self, state: start, timeStep: key.timeStep)
        var positions = [Double](repeating: 0, count: n * width), velocities = positions
        try positions.withUnsafeMutableBytes { x in
            try velocities.withUnsafeMutableBytes { v in
                for i in 0..<n {
                    // Steps land on each sample time (the last step to it shortened), as a lone run's do.
                    while integrator.time < times[i] { try integrator.advance(toward: times[i], reaching: times[i]) }
                    // Whole vectors stored: lane by lane was a tenth of the batch's time.
                    x.storeBytes(of: integrator.state.position, toByteOffset: i * width * 8, as: SIMD8<Double>.self)
                    v.storeBytes(of: integrator.state.velocity, toByteOffset: i * width * 8, as: SIMD8<Double>.self)
                }
            }
        }
        guard PhaseState.allLanesFinite(integrator.state) else { return nil }
        return Samples(
            times: times, positions: positions, velocities: velocities, steps: integrator.steps)
    }
}
