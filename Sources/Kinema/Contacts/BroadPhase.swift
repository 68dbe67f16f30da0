/// Sweep and prune on the first axis: the sphere pairs whose reaches (radius plus what the body
/// may move in a step) overlap. The order of the spheres is kept from one call to the next;
/// nearly sorted already, it re-sorts in linear time.
struct BroadPhase {
    private var order: [Int]
    /// Sphere pairs tested exactly, over every call.
    private(set) var tests = 0
    /// The stepper's reaches, kept so that each step reuses their storage.
    private var reaches: [Double] = []
    /// Per body, for `replacePairs`: whether its pairs are kept, to be replaced, or replaced.
    private var marks: [Mark] = []
    /// Each sphere's centre (x, y, z) and reach (w), in sweep order.
    private var packed: [SIMD4<Double>] = []
    private enum Mark { case kept, replaced, done }

    /// Over the bodies with a radius > 0.
    init(radii: [Double]) {
        order = radii.indices.filter { radii[$0] > 0 }
    }

    /// Replaces `pairs` with the pairs (lower index first) whose reaches overlap on every axis
    /// of `dimensions` and whose centres are closer than the sum of the reaches.
    mutating func pairs(
        positions x: [SIMD3<Double>], reach: [Double], dimensions d: Int, into pairs: inout [(Int, Int)]
    ) {
        sweep(reach: reach, dimensions: d, into: &pairs) { x[$0][$1] }
    }

    /// The pairs that may have touched in a step of `h` ending at positions `x` and velocities
    /// `v` (packed lanes): each sphere reaches its radius plus `ContactTolerances.reachFactor`
    /// times the distance its speed (summed over the axes) covers in the step.
    mutating func pairs<V: StateVector>(
        at x: V, velocity v: V, within h: Double, radii: [Double], dimensions d: Int, into pairs: inout [(Int, Int)]
    ) {
        guard order.count > 1 else { return pairs.removeAll(keepingCapacity: true) }
        if reaches.count != radii.count { reaches = Array(repeating: 0, count: radii.count) }
        V.withLanes(of: v) { v in
            for b in order {
                var speed = 0.0
                for axis in 0..<d { speed += abs(v[b * d + axis]) }
                self.reaches[b] = radii[b] + ContactTolerances.reachFactor * h * speed
            }
        }
        let reaches = self.reaches
        V.withLanes(of: x) { x in
            sweep(reach: reaches, dimensions: d, into: &pairs) { x[$0 * d + $1] }
        }
    }

    /// Replaces the pairs of `bodies` in `pairs` with theirs at the end of a step of `h`, as
    /// `pairs(at:velocity:within:…)` would find them, and keeps the others. Sound where the
    /// others were found at the end of a step that spans this one, and nothing has changed their
    /// motion since: a body reached, over that step, at least as far as over this one. An
    /// impact then costs a scan per body it changed, not a sweep of the scene.
    mutating func replacePairs<V: StateVector>(
        of bodies: [Int], in pairs: inout [(Int, Int)], at x: V, velocity v: V, within h: Double,
        radii: [Double], dimensions d: Int
    ) {
        if marks.count != radii.count { marks = Array(repeating: .kept, count: radii.count) }
        for b in bodies { marks[b] = .replaced }
        pairs.removeAll { marks[$0.0] != .kept || marks[$0.1] != .kept }
        var tests = 0
        V.withLanes(of: v) { v in
            V.withLanes(of: x) { x in
                func reach(_ b: Int) -> Double {
                    var speed = 0.0
                    for axis in 0..<d { speed += abs(v[b * d + axis]) }
                    return radii[b] + ContactTolerances.reachFactor * h * speed
                }
                for c in bodies where radii[c] > 0 && marks[c] == .replaced {
                    let reachC = reach(c)
                    for o in order where o != c && marks[o] != .done {
                        tests += 1
                        let both = reachC + reach(o)
                        var distanceSquared = 0.0, apart = false
                        for axis in 0..<d {
                            let gap = x[c * d + axis] - x[o * d + axis]
                            if abs(gap) > both {
                                apart = true
                                break
                            }
                            distanceSquared += gap * gap
                        }
                        if !apart && distanceSquared < both * both { pairs.append((min(c, o), max(c, o))) }
                    }
                    marks[c] = .done  // its pairs with the bodies after it are found once
                }
            }
        }
        for b in bodies { marks[b] = .kept }
        self.tests += tests
    }

    /// The sweep over coordinates read by `coordinate(body, axis)`.
    @inline(__always)
    private mutating func sweep(
        reach: [Double], dimensions d: Int, into pairs: inout [(Int, Int)], _ coordinate: (Int, Int) -> Double
    ) {
        pairs.removeAll(keepingCapacity: true)
        guard order.count > 1 else { return }
        func low(_ b: Int) -> Double { coordinate(b, 0) - reach[b] }
        for i in 1..<order.count {  // insertion sort: the order changes little from call to call
            let body = order[i], key = low(body)
            var j = i
            while j > 0 && low(order[j - 1]) > key {
                order[j] = order[j - 1]
                j -= 1
            }
            order[j] = body
        }
        // The centres and reaches in sweep order, side by side: the inner loop reads them in turn.
        packed.removeAll(keepingCapacity: true)
        for b in order {
            packed.append(SIMD4(coordinate(b, 0), d > 1 ? coordinate(b, 1) : 0, d > 2 ? coordinate(b, 2) : 0, reach[b]))
        }
        var tests = 0
        packed.withUnsafeBufferPointer { packed in
            for i in packed.indices {
                let a = packed[i], high = a.x + a.w
                var j = i + 1
                while j < packed.count && packed[j].x - packed[j].w <= high {
                    let b = packed[j], both = a.w + b.w
                    j += 1
                    tests += 1
                    var gap = a - b
                    gap.w = 0
                    let apart = abs(gap.y) > both || abs(gap.z) > both
                    if !apart && (gap * gap).sum() < both * both {
                        let (p, q) = (order[i], order[j - 1])
                        pairs.append((min(p, q), max(p, q)))
                    }
                }
            }
        }
        self.tests += tests
    }
}
