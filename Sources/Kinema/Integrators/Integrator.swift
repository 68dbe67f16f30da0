/// A stepper that owns the whole state of an integration: it advances one step at a time and
/// interpolates inside the last step, so the simulator can sample and locate events on it.
@_spi(Engine) public protocol Integrator {
    associatedtype System: SecondOrderSystem
    typealias State = PhaseState<System.Vector>

    /// The system being integrated (scenes change it when contacts start or end, then restart:
    /// what an integrator keeps of the old system, a derivative or an acceleration, is made again there).
    var system: System { get set }
    /// The time reached.
    var time: Double { get }
    /// The state at `time`.
    var state: State { get }
    /// Where the last step started.
    var previousTime: Double { get }
    /// Accepted steps so far.
    var steps: Int { get }
    /// Acceleration evaluations so far.
    var evaluations: Int { get }

    /// Takes one step, ending no later than `limit`.
    /// - Throws: `SimulationError.stepSizeUnderflow` when an adaptive method cannot meet its tolerance.
    mutating func advance(toward limit: Double) throws
    /// Takes steps, none ending later than `limit`, until `time ≥ target` (at least one step; the
    /// simulator's target is the next sample). Methods with cheap steps take several per call, so
    /// the per-call checks (finite state, energy) do not cost more than the steps; the default takes one.
    mutating func advance(toward limit: Double, reaching target: Double) throws
    /// The state at `t` in `[previousTime, time]`, from the method's dense output.
    func interpolate(at t: Double) -> State
    /// `interpolate(at:)` read in place, for a caller that holds the integrator in a variable (the
    /// simulator): a non-mutating call is handed a copy of the whole integrator (for Adams, its
    /// weights and states, a `memcpy` and a retain a sample). The default calls `interpolate(at:)`.
    mutating func interpolateInPlace(at t: Double) -> State
    /// Lanes `lanes` of the position at `t` (at most 3: one body), which the collision search
    /// evaluates many times; flat-storage integrators interpolate only those lanes.
    func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double>
    /// Computes what `interpolate` needs for the last step, for methods that build their dense
    /// output on demand (DOP853's three extra stages). `interpolate` is right without it, but then
    /// recomputes the dense output on every call (and does not count those evaluations).
    mutating func prepareInterpolation()
    /// Restarts from `state` at `time`, after a discontinuity (an impact).
    mutating func restart(at time: Double, state: State)
}

@_spi(Engine) extension Integrator {
    @inlinable
    public mutating func prepareInterpolation() {}

    @inlinable
    public mutating func advance(toward limit: Double, reaching target: Double) throws {
        try advance(toward: limit)
    }

    @inlinable
    public mutating func interpolateInPlace(at t: Double) -> State { interpolate(at: t) }

    /// A copy with the dense output built, for a read that cannot prepare it in place (the
    /// simulator prepares first; the copy's evaluations are not counted).
    @inlinable
    var prepared: Self {
        var copy = self
        copy.prepareInterpolation()
        return copy
    }

    @inlinable
    public func interpolatePosition(at t: Double, lanes: Range<Int>) -> SIMD3<Double> {
        let x = interpolate(at: t).position
        return SIMD3(gathering: lanes) { x[lane: $0] }
    }
}
