/// What a stepped run searches for impacts in each step: the sphere pairs of the broad phase and
/// the body–plane pairs within reach, with the bookkeeping that keeps an impact's cost local. An
/// impact changes the motion of a few bodies; the pairs the last sweep found still hold for the
/// others up to the end of the step it swept (`holdsUntil`), so the steps up to there re-find only
/// the pairs of the bodies impacts changed (`changed`), and a dense box with a dozen impacts a
/// step does not sweep the scene a dozen times.
struct ImpactNeighbourhood {
    /// The colliding spheres, sorted on axis 0 from step to step.
    private var broadPhase: BroadPhase
    /// The sphere pairs of the last step (kept, so each step reuses the storage).
    private(set) var pairs: [(Int, Int)] = []
    /// The body–plane pairs to search, when the last sweep still holds (nil: every body and plane).
    var planePairs: [(body: Int, plane: Int)]? { reused ? nearAndChanged : nil }
    /// The end of the step whose sweep still holds for the bodies no impact has changed since
    /// (nil: none). Steps after an impact end there at the latest.
    private(set) var holdsUntil: Double?
    /// The bodies whose motion impacts changed since the last sweep, and those of them whose
    /// pairs have not been found since up to `holdsUntil`.
    private var changed: [Int] = []
    private var unswept: [Int] = []
    /// The bodies and planes within reach in the step the last sweep found, and those the steps
    /// up to `holdsUntil` search: these, and `changed` with every plane.
    private var nearPlanes: [(body: Int, plane: Int)] = []
    private var nearAndChanged: [(body: Int, plane: Int)] = []
    private var reused = false
    /// The bodies joined to each by a spring: a changed body's springs change its partners' motion.
    private let springPartners: [[Int]]

    /// Sphere pairs tested exactly (the broad phase's output), over the whole run.
    var tests: Int { broadPhase.tests }

    init(_ scene: PhysicsScene) {
        broadPhase = BroadPhase(radii: scene.contacts == nil ? [] : scene.bodies.map(\.radius))
        var partners = [[Int]](repeating: [], count: scene.bodies.count)
        for spring in scene.springs {
            guard case .bodies(let a, let b) = spring.ends else { continue }
            partners[a].append(b)
            partners[b].append(a)
        }
        springPartners = partners
    }

    /// Where the next step ends at the latest, after `time`.
    func stepLimit(after time: Double) -> Double {
        holdsUntil.map { $0 > time ? $0 : .infinity } ?? .infinity
    }

    /// Finds the pairs of the step of `h` that ended at `time` in state (`x`, `v`): those the
    /// last sweep found, the changed bodies' re-found, while it holds; else a sweep of the scene.
    mutating func find<V: StateVector>(at time: Double, step h: Double, x: V, v: V, layout: SceneLayout) {
        guard let until = holdsUntil, time <= until else {
            sweepAgain()
            reused = false
            broadPhase.pairs(
                at: x, velocity: v, within: h, radii: layout.radii, dimensions: layout.dimensions, into: &pairs)
            return
        }
        reused = true
        broadPhase.replacePairs(
            of: unswept, in: &pairs, at: x, velocity: v, within: h, radii: layout.radii,
            dimensions: layout.dimensions)
        // Found at the end of the span, their pairs hold over the rest of it, as the others' do.
        if time == until { unswept.removeAll(keepingCapacity: true) }
        nearAndChanged.removeAll(keepingCapacity: true)
        nearAndChanged.append(contentsOf: nearPlanes)
        for b in changed where layout.inverseMasses[b] > 0 {
            for p in layout.planeOffsets.indices { nearAndChanged.append((b, p)) }
        }
    }

    /// An impact at `time`, inside the step that ended at `stepEnd` in state (`x`, `v`) with
    /// `resting`: the step's pairs hold, for the bodies it leaves as they were, up to `stepEnd`.
    mutating func impact<V: StateVector>(
        at time: Double, stepEnd: Double, step h: Double, x: V, v: V, layout: SceneLayout,
        resting: [RestingContact]
    ) {
        guard holdsUntil == nil && stepEnd > time else { return }
        holdsUntil = stepEnd
        findNearPlanes(step: h, x: x, v: v, layout: layout, resting: resting)
    }

    /// Adds to `changed` the bodies an impact moved, sped up or slowed (`before` against
    /// `after`), or whose contacts it changed, and those joined to them by springs or contacts at
    /// rest. Past a quarter of the scene, the next step sweeps the whole scene instead.
    mutating func noteChanges<V: StateVector>(
        from before: PhaseState<V>, to after: PhaseState<V>, contacts contactsBefore: [RestingContact],
        resting: [RestingContact], dimensions d: Int
    ) {
        guard holdsUntil != nil else { return }
        let bodies = springPartners.count
        var touched: [Int] = []
        func note(_ b: Int) { if !touched.contains(b) { touched.append(b) } }
        func note(_ contact: RestingContact) {
            note(contact.body)
            if let o = contact.other { note(o) }
        }
        for b in 0..<bodies {
            for lane in b * d..<b * d + d
            where after.position[lane: lane] != before.position[lane: lane]
                || after.velocity[lane: lane] != before.velocity[lane: lane]
            {
                note(b)
                break
            }
        }
        for contact in resting where !contactsBefore.contains(contact) { note(contact) }
        for contact in contactsBefore where !resting.contains(contact) { note(contact) }
        var i = 0
        while i < touched.count && touched.count * 4 <= bodies {
            let b = touched[i]
            for o in springPartners[b] { note(o) }
            for contact in resting where contact.involves(b) { note(contact) }
            i += 1
        }
        for b in touched {
            if !changed.contains(b) { changed.append(b) }
            if !unswept.contains(b) { unswept.append(b) }
        }
        if changed.count * 4 > bodies { sweepAgain() }
    }

    /// Drops what the last sweep still held: the next step sweeps the scene.
    mutating func sweepAgain() {
        holdsUntil = nil
        changed.removeAll(keepingCapacity: true)
        unswept.removeAll(keepingCapacity: true)
    }

    /// The bodies and planes that may meet in the step of `h` just taken: those whose gap at its
    /// end is within what the body's speed, and gravity, cover in the step (the broad phase's
    /// reach), and the contacts at rest on planes.
    private mutating func findNearPlanes<V: StateVector>(
        step h: Double, x state: V, v velocity: V, layout: SceneLayout, resting: [RestingContact]
    ) {
        nearPlanes.removeAll(keepingCapacity: true)
        let d = layout.dimensions, normals = layout.planeNormals, offsets = layout.planeOffsets
        let radii = layout.radii, g = layout.gravity, pull = abs(g.x) + abs(g.y) + abs(g.z)
        var near = nearPlanes
        V.withLanes(of: state) { x in
            V.withLanes(of: velocity) { v in
                for b in 0..<radii.count where layout.inverseMasses[b] > 0 {
                    var position = SIMD3<Double>.zero, speed = 0.0
                    for axis in 0..<d {
                        position[axis] = x[b * d + axis]
                        speed += abs(v[b * d + axis])
                    }
                    let reach = ContactTolerances.reachFactor * h * (speed + h * pull)
                    for p in offsets.indices {
                        let gap = (position * normals[p]).sum() - offsets[p] - radii[b]
                        let scale = max(1, abs(offsets[p]) + radii[b])
                        if gap <= reach + ContactTolerances.touching * scale
                            || (!resting.isEmpty && resting.contains(.init(body: b, plane: p)))
                        {
                            near.append((b, p))
                        }
                    }
                }
            }
        }
        nearPlanes = near
    }
}
