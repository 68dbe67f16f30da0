/// Stage 6 of the located contacts (`SceneStepper`): islands at rest go to sleep. After each step,
/// bodies joined by resting contacts between spheres or by springs (`Islands`) that have all been
/// still (slower than `ContactTolerances.stillness`, held by a contact) for
/// `ContactTolerances.timeToSleep` fall asleep: their velocities are set to exactly 0 and the
/// integrator steps a system where they are pinned (static). Nothing moves them, so every sample
/// gives their rest state exactly, and their contacts with each other, with planes and with static
/// bodies leave the force solve. An impact on a sleeping body, or on a body resting on one, wakes
/// its island before it is resolved; a restart (an app moving a body) wakes every island.
struct SleepingIslands {
    private var islands: Islands
    /// Resting contacts between sleeping (or static) bodies and planes, out of the solve until
    /// one of their bodies wakes.
    private var setAside: [RestingContact] = []

    init(bodies: Int) { islands = Islands(count: bodies) }

    /// After a step: puts to sleep the islands of `integrator`'s system still long enough, and
    /// restarts it pinning them. `scene` is the run's (nothing pinned). Returns whether any fell asleep.
    mutating func settle<I: Integrator, V>(_ integrator: inout I, scene: PhysicsScene) -> Bool
    where I.System == SceneSystem<V> {
        guard !integrator.system.resting.isEmpty else { return false }  // a body is calm only held
        let system = integrator.system, state = integrator.state, count = scene.bodies.count
        var v = (0..<count).map { system.vector(state.velocity, body: $0) }
        let pressing = system.resting.map { (body: $0.body, other: $0.partner(of: $0.body)) }
        let fell = islands.update(
            after: integrator.time - integrator.previousTime, pressing: pressing, velocities: &v,
            inverseMasses: system.inverseMasses, springs: scene.springs,
            isCalm: { speed, pressed in pressed && speed <= ContactTolerances.stillness })
        guard !fell.isEmpty else { return false }
        var still = state
        for b in fell { system.set(&still.velocity, body: b, to: .zero) }
        integrator.system = pinned(system.resting, scene: scene)
        integrator.restart(at: integrator.time, state: still)
        return true
    }

    /// Wakes the islands an impact of `body` on `collider` reaches: theirs, and those resting on
    /// or under them, so that its impulse passes through the bodies it would move.
    mutating func wake<I: Integrator, V>(
        for body: Int, _ collider: Collisions.Collider, in integrator: inout I, scene: PhysicsScene
    ) where I.System == SceneSystem<V> {
        guard islands.anyAsleep else { return }
        var reached = [body]
        if case .body(let o) = collider { reached.append(o) }
        for contact in integrator.system.resting + setAside where reached.contains(where: contact.involves) {
            reached.append(contact.body)
            if let o = contact.other { reached.append(o) }
        }
        var woke = false
        for b in reached where islands.wake(b) { woke = true }
        guard woke else { return }
        integrator.system = pinned(integrator.system.resting, scene: scene)
    }

    /// Wakes every island: `integrator` goes on with the scene's own `system` (its contacts to be
    /// found anew).
    mutating func wakeAll<I: Integrator, V>(_ integrator: inout I, system: SceneSystem<V>)
    where I.System == SceneSystem<V> {
        guard islands.anyAsleep else { return }
        islands.wakeAll()
        setAside = []
        integrator.system = system
    }

    /// The system of `scene` with the sleeping bodies pinned, holding the contacts of `resting` and
    /// of those set aside that still hold a body awake.
    private mutating func pinned<V>(_ resting: [RestingContact], scene: PhysicsScene) -> SceneSystem<V> {
        let asleep = scene.bodies.indices.map { !islands.awake[$0] }
        func still(_ b: Int) -> Bool { asleep[b] || scene.bodies[b].isStatic }
        var system = SceneSystem<V>(scene: islands.anyAsleep ? PhysicsScene(scene, pinning: asleep) : scene)
        let contacts = resting + setAside
        func stillOnEverySide(_ contact: RestingContact) -> Bool { contact.bodies.allSatisfy(still) }
        system.resting = contacts.filter { !stillOnEverySide($0) }
        setAside = contacts.filter(stillOnEverySide)
        return system
    }
}
