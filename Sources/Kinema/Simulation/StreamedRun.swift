/// A batch run streamed: the sample times made a chunk at a time and each chunk's samples handed
/// on before the next is computed, so neither times nor samples are held for the whole run.
struct StreamedRun: SceneStepperUse {
    let scene: PhysicsScene
    /// The last sample time (the end of the run).
    let duration: Double
    let chunk: Int
    /// Replaces the array's contents with the next sample times, at most `chunk` of them, in
    /// order; leaves it empty when none are left.
    let nextTimes: (inout [Double]) -> Void
    let each: (Trajectory) throws -> Void
    /// Where a stepper takes over from an event queue, with the times of its chunk still to
    /// sample; nil from the start.
    var resumed: (state: HandOff, times: [Double])? = nil

    func use<I: Integrator, V>(_ stepper: consuming SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        try record(&stepper)
    }

    func record<I: Integrator, V>(_ stepper: inout SceneStepper<I, V>) throws -> Trajectory
    where I.System == SceneSystem<V> {
        var events: [ImpactEvent] = []
        var times: [Double] = []
        times.reserveCapacity(chunk + 1)
        if let resumed {
            try stepper.takeOver(resumed.state, events: &events)
            times = resumed.times
        }
        while true {
            if times.isEmpty { nextTimes(&times) }
            if times.isEmpty { break }
            try each(
                Trajectory(
                    scene: scene,
                    samples: try stepper.samples(at: times, stepLimit: duration, scene: scene, events: &events)))
            times.removeAll(keepingCapacity: true)
        }
        return Trajectory(
            scene: scene, samples: ([], [], []), events: events, steps: stepper.integrator.steps,
            evaluations: stepper.integrator.evaluations, pairTests: stepper.pairTests)
    }

    func use(_ run: consuming EventDrivenScene, stepping: @escaping (StreamedRun) throws -> Trajectory) throws
        -> Trajectory
    {
        var run = run
        var events: [ImpactEvent] = []
        var times: [Double] = []
        while true {
            nextTimes(&times)
            if times.isEmpty { break }
            let samples = try run.samples(at: times, events: &events)
            if !samples.times.isEmpty { try each(Trajectory(scene: scene, samples: samples)) }
            guard run.handedOff else { continue }
            var rest = self
            rest.resumed = (HandOff(run), Array(times[samples.times.count...]))
            let tail = try stepping(rest)
            return Trajectory(
                scene: scene, samples: ([], [], []), events: events + tail.events, steps: run.processed + tail.steps,
                evaluations: tail.evaluations, pairTests: tail.pairTests)
        }
        return Trajectory(scene: scene, samples: ([], [], []), events: events, steps: run.processed)
    }

    func use(_ run: consuming MoreauJeanScene) throws -> Trajectory {
        var run = run
        var events: [ImpactEvent] = []
        var times: [Double] = []
        while true {
            nextTimes(&times)
            if times.isEmpty { break }
            try each(Trajectory(scene: scene, samples: try run.samples(at: times, events: &events)))
        }
        return Trajectory(scene: scene, samples: ([], [], []), events: events, steps: run.steps)
    }
}
