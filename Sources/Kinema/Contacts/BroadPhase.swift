/// Sweep and prune on the first axis: the sphere pairs whose reaches (radius plus what the body
/// may move in a step) overlap. The order of the spheres is kept from one call to the next;
/// nearly sorted already, it re-sorts in linear time.
struct BroadPhase {
    private var order: [Int]

    /// Over the bodies with a radius > 0.
    init(radii: [Double]) {
        order = radii.indices.filter { radii[$0] > 0 }
    }

    /// Replaces `pairs` with the pairs (lower index first) whose reaches overlap on every axis
    /// of `dimensions` and whose centres are closer than the sum of the reaches.
    mutating func pairs(
        positions x: [SIMD3<Double>], reach: [Double], dimensions d: Int, into pairs: inout [(Int, Int)]
    ) {
        pairs.removeAll(keepingCapacity: true)
        guard order.count > 1 else { return }
        func low(_ b: Int) -> Double { x[b].x - reach[b] }
        for i in 1..<order.count {  // insertion sort: the order changes little from call to call
            let body = order[i], key = low(body)
            var j = i
            while j > 0 && low(order[j - 1]) > key {
                order[j] = order[j - 1]
                j -= 1
            }
            order[j] = body
        }
        for i in order.indices {
            let a = order[i], high = x[a].x + reach[a]
            var j = i + 1
            while j < order.count && low(order[j]) <= high {
                let b = order[j], both = reach[a] + reach[b]
                j += 1
                let separation = x[a] - x[b]
                var apart = false
                for axis in 1..<max(d, 1) where abs(separation[axis]) > both { apart = true }
                if !apart && (separation * separation).sum() < both * both { pairs.append((min(a, b), max(a, b))) }
            }
        }
    }
}
