extension EventDrivenScene {
    /// Resolves the impact the queue handed off with (`pendingImpact`) as the stepper does
    /// (`Collisions.apply`: the bodies it reaches through their contacts in one impulse problem,
    /// the contacts that press held), and takes the state it leaves back into the queue: a ball on
    /// the floor hit from above slides on under the queue, not under a stepper for the rest of the
    /// run. Where the queue does not model that state either (the two now rest on each other), or
    /// hands the same impact off again at the same instant, it stays handed off, from the state
    /// after the impact.
    mutating func resolvePendingImpact(events: inout [ImpactEvent]) throws {
        guard let (body, collider) = pendingImpact,
            resolvedHandOff.map({ $0.time != time || $0.body != body || $0.collider != collider }) ?? true
        else { return }
        resolvedHandOff = (time, body, collider)
        var system = SceneSystem<FlatVector>(scene: scene)
        let (positions, velocities) = state(at: time)
        let arrived = PhaseState(position: FlatVector(positions), velocity: FlatVector(velocities))
        system.resting = try Collisions.initialContacts(system, arrived)
        let recorded = events.count
        let after = Collisions.apply(&system, arrived, body: body, collider: collider, time: time, events: &events)
        processed += events.count - recorded - 1  // the impact itself was counted
        try restart(at: time, positions: after.position.lanes, velocities: after.velocity.lanes)
    }
}
