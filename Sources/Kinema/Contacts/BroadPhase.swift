/// Sweep and prune on the first axis: the sphere pairs whose reaches (radius plus what the body
/// may move in a step) overlap. The order of the spheres is kept from one call to the next;
/// nearly sorted already, it re-sorts in linear time.
struct BroadPhase {
    private var order: [Int]
    /// Sphere pairs tested exactly, over every call.
    private(set) var tests = 0
    /// The stepper's reaches, kept so that each step reuses their storage.
    private var reaches: [Double] = []

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
        var tests = 0
        for i in order.indices {
            let a = order[i], high = coordinate(a, 0) + reach[a]
            var j = i + 1
            while j < order.count && low(order[j]) <= high {
                let b = order[j], both = reach[a] + reach[b]
                j += 1
                tests += 1
                var distanceSquared = 0.0, apart = false
                for axis in 0..<d {
                    let gap = coordinate(a, axis) - coordinate(b, axis)
                    if abs(gap) > both {
                        apart = true
                        break
                    }
                    distanceSquared += gap * gap
                }
                if !apart && distanceSquared < both * both { pairs.append((min(a, b), max(a, b))) }
            }
        }
        self.tests += tests
    }
}
