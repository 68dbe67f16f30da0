/// The sampled result of a simulation: sample times, each body's position and velocity at them,
/// and the impacts on the way.
///
/// ```swift
/// let run = try Simulation(scene: scene).run(method: .dop853(tolerance: 1e-10), duration: 2)
/// let ball = try #require(scene.index(ofBody: "ball"))
/// let heights = run.positions(ofBody: ball).map(\.y)   // one per sample, at run.times
/// ```
public struct Trajectory: Sendable {
    /// The scene simulated, as it was at time 0.
    public let scene: PhysicsScene
    /// The sample times in seconds, increasing: 0, then every 1/sampleRate, and the duration.
    public internal(set) var times: [Double] = []
    /// Row-major: sample i, coordinate j at `i·coordinateCount + j`.
    @_spi(Engine) public internal(set) var positions: [Double] = []
    /// The velocities, laid out as `positions`.
    package internal(set) var velocities: [Double] = []
    /// Every impact of the run, in time order.
    public internal(set) var events: [ImpactEvent] = []
    /// Integrator steps taken.
    @_spi(Engine) public package(set) var steps = 0
    /// Evaluations of the scene's forces.
    @_spi(Engine) public package(set) var evaluations = 0
    /// Sphere pairs the broad phase passed on to the exact overlap test, over the run.
    @_spi(Engine) public package(set) var pairTests = 0

    package init(scene: PhysicsScene) { self.scene = scene }

    /// A run's samples, impacts and work at once (or a chunk's samples alone).
    package init(
        scene: PhysicsScene, samples: (times: [Double], positions: [Double], velocities: [Double]),
        events: [ImpactEvent] = [], steps: Int = 0, evaluations: Int = 0, pairTests: Int = 0
    ) {
        self.scene = scene
        (times, positions, velocities) = samples
        self.events = events
        self.steps = steps
        self.evaluations = evaluations
        self.pairTests = pairTests
    }

    @usableFromInline package var coordinateCount: Int { scene.coordinateCount }
    /// The number of samples.
    public var count: Int { times.count }

    /// Coordinate `coordinate` (body·dimensions + axis) of sample `sample`: a 1-D scene's body `coordinate`.
    public func position(atSample sample: Int, coordinate: Int = 0) -> Double {
        positions[sample * coordinateCount + coordinate]
    }
    /// Coordinate `coordinate` (body·dimensions + axis) of sample `sample`'s velocity.
    public func velocity(atSample sample: Int, coordinate: Int = 0) -> Double {
        velocities[sample * coordinateCount + coordinate]
    }

    /// Body `body`'s position at sample `sample` (zero past the scene's dimensions).
    public func position(atSample sample: Int, ofBody body: Int) -> SIMD3<Double> { vector(positions, body, sample) }

    /// Body `body`'s velocity at sample `sample` (zero past the scene's dimensions).
    public func velocity(atSample sample: Int, ofBody body: Int) -> SIMD3<Double> { vector(velocities, body, sample) }

    /// Body `body`'s position at every sample, one per entry of `times`.
    public func positions(ofBody body: Int) -> [SIMD3<Double>] { (0..<count).map { vector(positions, body, $0) } }

    /// Body `body`'s velocity at every sample, one per entry of `times`.
    public func velocities(ofBody body: Int) -> [SIMD3<Double>] { (0..<count).map { vector(velocities, body, $0) } }

    private func vector(_ lanes: [Double], _ body: Int, _ sample: Int) -> SIMD3<Double> {
        let d = scene.dimensions, start = sample * coordinateCount + body * d
        return SIMD3(lanes: lanes[start..<start + d])
    }

    package mutating func reserveCapacity(samples: Int) {
        times.reserveCapacity(samples)
        positions.reserveCapacity(samples * coordinateCount)
        velocities.reserveCapacity(samples * coordinateCount)
    }

    /// Inlinable, so GSL's loop in KinemaReference appends specialized for V (unspecialized, it
    /// would look up V's metadata on every sample).
    @_spi(Engine) @inlinable
    public mutating func append<V: StateVector>(time: Double, state: PhaseState<V>) {
        appendTime(time)
        for j in 0..<coordinateCount {
            appendCoordinate(position: state.position[lane: j], velocity: state.velocity[lane: j])
        }
    }

    @usableFromInline
    mutating func appendTime(_ time: Double) { times.append(time) }

    @usableFromInline
    mutating func appendCoordinate(position: Double, velocity: Double) {
        positions.append(position)
        velocities.append(velocity)
    }
}

extension Trajectory {
    /// This run's samples, impacts and work, then `tail`'s (a stepper's, going on from where an
    /// event queue handed off).
    func followed(by tail: Trajectory) -> Trajectory {
        var joined = self
        joined.times += tail.times
        joined.positions += tail.positions
        joined.velocities += tail.velocities
        joined.events += tail.events
        joined.steps += tail.steps
        joined.evaluations += tail.evaluations
        joined.pairTests += tail.pairTests
        return joined
    }
}
