extension EventDrivenScene {

    struct Event {
        enum Kind {
            /// An impact with a plane or another body; a crossing into another cell; a body
            /// sliding on a plane with friction coming to a stop there.
            case plane(Int), body, cell(Int), stop
            var isImpact: Bool {
                switch self {
                case .plane, .body: true
                case .cell, .stop: false
                }
            }
        }
        var time: Double
        var kind: Kind
        var body: Int
        /// The other body of a sphere pair, −1 otherwise.
        var other: Int
        /// The bodies' `changes` when the event was predicted: stale once either changed since.
        var bodyChanges = 0, otherChanges = 0
    }

    /// A binary min-heap of events by time.
    struct EventQueue {
        private var heap: [Event] = []
        var first: Event? { heap.first }

        mutating func insert(_ event: Event) {
            heap.append(event)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].time < heap[parent].time else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func removeFirst() {
            let last = heap.removeLast()
            guard !heap.isEmpty else { return }
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].time < heap[smallest].time { smallest = left }
                if right < heap.count && heap[right].time < heap[smallest].time { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }

    /// Cells at least a sphere diameter wide over the bodies' starting box; the outermost cells
    /// reach to infinity, so a body never leaves the grid.
    struct Grid {
        let origin: SIMD3<Double>, size: SIMD3<Double>
        let counts: SIMD3<Int>
        var cellCount: Int { counts.x * counts.y * counts.z }

        init(positions: [SIMD3<Double>], dimensions: Int, largestRadius: Double) {
            var low = positions.first ?? .zero, high = low
            for p in positions {
                low = pointwiseMin(low, p)
                high = pointwiseMax(high, p)
            }
            // About one body a cell: n^(1/d) cells an axis, none narrower than a diameter; one
            // cell where nothing collides with anything but planes.
            let perAxis = max(1, Int(Double.pow(Double(positions.count), 1 / Double(dimensions)).rounded(.up)))
            var counts = SIMD3<Int>(1, 1, 1), size = SIMD3<Double>(1, 1, 1)
            for axis in 0..<dimensions {
                // Counted as Doubles: bodies 1e308 apart make the extent infinite, and Int(∞) traps.
                let extent = high[axis] - low[axis]
                let byDiameter =
                    largestRadius > 0
                    ? (extent / (2 * largestRadius * (1 + ContactTolerances.touching))).rounded(.down) : 1
                guard extent.isFinite, byDiameter >= 2 else { continue }
                counts[axis] = Int(min(Double(perAxis), byDiameter))
                size[axis] = extent / Double(counts[axis])
            }
            (origin, self.size, self.counts) = (low, size, counts)
        }

        func index(_ c: SIMD3<Int>) -> Int { (c.z * counts.y + c.y) * counts.x + c.x }

        func coordinates(_ cell: Int) -> SIMD3<Int> {
            SIMD3(cell % counts.x, (cell / counts.x) % counts.y, cell / (counts.x * counts.y))
        }

        func cell(of p: SIMD3<Double>) -> Int {
            var c = SIMD3<Int>.zero
            for axis in 0..<3 where counts[axis] > 1 {
                let k = ((p[axis] - origin[axis]) / size[axis]).rounded(.down)
                c[axis] = k.isNaN ? 0 : Int(min(Double(counts[axis] - 1), max(0, k)))
            }
            return index(c)
        }

        /// The cell and its neighbours (3 × 3 × 3 at most).
        func neighbours(of cell: Int) -> [Int] {
            let c = coordinates(cell)
            var result: [Int] = []
            for dz in -1...1 {
                for dy in -1...1 {
                    for dx in -1...1 {
                        let n = c &+ SIMD3(dx, dy, dz)
                        guard (0..<3).allSatisfy({ n[$0] >= 0 && n[$0] < counts[$0] }) else { continue }
                        result.append(index(n))
                    }
                }
            }
            return result
        }

        /// When a body at `p` moving at `u` and accelerating at `a` leaves `cell` through an inner
        /// wall, and the cell it enters.
        func crossing(from p: SIMD3<Double>, velocity u: SIMD3<Double>, acceleration a: SIMD3<Double>, cell: Int)
            -> (Double, Int)?
        {
            let c = coordinates(cell)
            var best: (Double, Int)?
            for axis in 0..<3 where counts[axis] > 1 {
                let low = origin[axis] + Double(c[axis]) * size[axis]
                for step in stride(from: -1, through: 1, by: 2) {
                    let next = c[axis] + step
                    guard next >= 0 && next < counts[axis] else { continue }
                    // The gap to the wall, closing as the body moves towards it.
                    let gap = step < 0 ? p[axis] - low : low + size[axis] - p[axis], sign = Double(step)
                    guard
                        let s = ContactTime.crossing(gap: gap, rate: -sign * u[axis], acceleration: -sign * a[axis]),
                        best.map({ s < $0.0 }) ?? true
                    else { continue }
                    var n = c
                    n[axis] = next
                    best = (s, index(n))
                }
            }
            return best
        }
    }
}
