/// A batch run: every sample time at once, recorded into a trajectory.
struct SampledRun: SceneStepperUse {
    let scene: PhysicsScene
    let times: [Double]
    /// Where a stepper takes over from an event queue; nil from the start.
    var resumed: HandOff? = nil
    var duration: Double { times.last ?? 0 }

    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        try record(&stepper)
    }

    func record<I: Integrator, V>(_ stepper: inout SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        var events: [ImpactEvent] = []
        if let resumed { try stepper.takeOver(resumed, events: &events) }
        let samples = try stepper.samples(at: times, stepLimit: times.last ?? 0, scene: scene, events: &events)
        return Trajectory(
            scene: scene, samples: samples, events: events, steps: stepper.integrator.steps,
            evaluations: stepper.integrator.evaluations, pairTests: stepper.pairTests)
    }

    func use(_ run: consuming EventDrivenScene, stepping: @escaping (SampledRun) throws -> Trajectory) throws
        -> Trajectory
    {
        var run = run
        var events: [ImpactEvent] = []
        let samples = try run.samples(at: times, events: &events)
        let head = Trajectory(scene: scene, samples: samples, events: events, steps: run.processed)
        guard run.handedOff else { return head }
        let rest = SampledRun(scene: scene, times: Array(times[samples.times.count...]), resumed: HandOff(run))
        return head.followed(by: try stepping(rest))
    }

    func use(_ run: consuming MoreauJeanScene) throws -> Trajectory {
        var run = run
        var events: [ImpactEvent] = []
        let samples = try run.samples(at: times, events: &events)
        return Trajectory(scene: scene, samples: samples, events: events, steps: run.steps)
    }
}
