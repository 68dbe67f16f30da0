/// Bodies joined by pressing contacts or by springs, as islands (union–find), and which islands
/// sleep. A body is calm while a contact presses on it and it is slow: slower than the scene's
/// rest speed (the rest rule) in `MoreauJeanScene`, still (`ContactTolerances.stillness`) in the
/// stepper (`SleepingIslands`). An island all of whose bodies have been calm for
/// `ContactTolerances.timeToSleep` sleeps: its velocities are set to 0 and it is neither stepped
/// nor solved until an awake body reaches it (`wake`). Static bodies join no island: they pass
/// nothing on.
struct Islands {
    private(set) var awake: [Bool]
    /// How long each body has been calm.
    private var calm: [Double]
    /// The island each sleeping body slept with (an index into `sleeping`).
    private var sleptWith: [Int]
    private var sleeping: [[Int]] = []
    private var parent: [Int]

    init(count: Int) {
        awake = Array(repeating: true, count: count)
        calm = Array(repeating: 0, count: count)
        sleptWith = Array(repeating: -1, count: count)
        parent = Array(0..<count)
    }

    var anyAsleep: Bool { !sleeping.isEmpty }

    /// Wakes the island body `b` sleeps in; returns whether it slept.
    @discardableResult
    mutating func wake(_ b: Int) -> Bool {
        guard !awake[b] else { return false }
        let island = sleptWith[b]
        for body in sleeping[island] {
            awake[body] = true
            calm[body] = 0
            sleptWith[body] = -1
        }
        sleeping[island] = []
        if sleeping.allSatisfy(\.isEmpty) { sleeping = [] }
        return true
    }

    /// Wakes every body.
    mutating func wakeAll() {
        for b in awake.indices where !awake[b] { wake(b) }
    }

    /// After a step of `h`: the islands of the awake moving bodies, joined by the contacts that
    /// press (`pressing`: a body and the sphere across, nil for a plane) and by `springs` between
    /// bodies; each island whose bodies have all been calm (`isCalm` of a body's speed and
    /// whether a contact presses it) long enough goes to sleep, its velocities set to 0. Returns
    /// the bodies that fell asleep.
    @discardableResult
    mutating func update(
        after h: Double, pressing: [(body: Int, other: Int?)], velocities v: inout [SIMD3<Double>],
        inverseMasses w: UnsafeBufferPointer<Double>, springs: [SpringForce], isCalm: (Double, Bool) -> Bool
    ) -> [Int] {
        var pressed = [Bool](repeating: false, count: awake.count)
        for b in parent.indices { parent[b] = b }
        for (body, other) in pressing {
            pressed[body] = true
            if let o = other, w[o] > 0 {
                pressed[o] = true
                join(body, o)
            }
        }
        for spring in springs {
            guard case .bodies(let a, let b) = spring.ends, w[a] > 0, w[b] > 0 else { continue }
            join(a, b)
        }
        var quiet = [Double](repeating: .infinity, count: awake.count)
        for b in awake.indices where awake[b] && w[b] > 0 {
            let speed = (v[b] * v[b]).sum().squareRoot()
            calm[b] = isCalm(speed, pressed[b]) ? calm[b] + h : 0
            let root = find(b)
            quiet[root] = min(quiet[root], calm[b])
        }
        // A spring's force changes as its bodies creep: an island with one does not sleep.
        for spring in springs {
            switch spring.ends {
            case .anchor(let b, _) where w[b] > 0: quiet[find(b)] = 0
            case .bodies(let a, _) where w[a] > 0: quiet[find(a)] = 0
            default: break
            }
        }
        var islandOf: [Int: Int] = [:], fell: [Int] = []
        for b in awake.indices where awake[b] && w[b] > 0 && quiet[find(b)] >= ContactTolerances.timeToSleep {
            let root = find(b)
            let island = islandOf[root] ?? sleeping.count
            if island == sleeping.count {
                islandOf[root] = island
                sleeping.append([])
            }
            sleeping[island].append(b)
            awake[b] = false
            sleptWith[b] = island
            v[b] = .zero
            fell.append(b)
        }
        return fell
    }

    private mutating func find(_ b: Int) -> Int {
        var root = b
        while parent[root] != root { root = parent[root] }
        var node = b
        while parent[node] != root { (node, parent[node]) = (parent[node], root) }
        return root
    }

    private mutating func join(_ a: Int, _ b: Int) {
        let (ra, rb) = (find(a), find(b))
        if ra != rb { parent[ra] = rb }
    }
}
