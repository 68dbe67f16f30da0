/// What to do with a scene's stepper once `Simulation` has built it: one switch over the methods
/// serves batch runs (`SampledRun`) and live simulators.
protocol SceneStepperUse {
    associatedtype Result
    /// The run's end where it is known up front, for the cost estimate (0 for a live scene: only
    /// a step far beyond the stability limit is refused up front).
    var duration: Double { get }
    /// Consuming, so that the stepper is moved in, not copied (through its generic value
    /// witnesses, a microsecond of a 2-s Adams run).
    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> Result
    where I.System == SceneSystem<V>
    /// The result of an event-driven run. Where the queue hands off, `stepping` runs a use
    /// `resumed` from the queue's state on a stepper.
    func use(_ run: consuming EventDrivenScene, stepping: @escaping (Self) throws -> Result) throws -> Result
    /// The result of a run by Moreau–Jean time stepping.
    func use(_ run: consuming MoreauJeanScene) throws -> Result
}

/// The state an event queue handed off at, for a stepper to go on from, and the impact it left
/// unresolved there.
struct HandOff {
    let time: Double
    let positions: [Double], velocities: [Double]
    let impact: (body: Int, collider: Collisions.Collider)?

    init(_ run: EventDrivenScene) {
        time = run.time
        (positions, velocities) = run.state(at: run.time)
        impact = run.pendingImpact
    }
}
