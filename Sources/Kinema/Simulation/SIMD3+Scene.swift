/// Scene vectors as scene files hold them: arrays of 1 to 3 components.
extension SIMD3 where Scalar == Double {
    /// `components` (at most 3), zero past them.
    package init(sceneComponents components: [Double]) { self.init(lanes: components[...]) }

    /// `lanes` (at most 3), zero past them: one body's lanes of a flat array of positions or
    /// velocities.
    package init(lanes: ArraySlice<Double>) {
        self = .zero
        for (i, x) in lanes.prefix(3).enumerated() { self[i] = x }
    }

    /// What `lane` gives for each of `lanes` (at most 3), zero past them: one body's lanes of a
    /// state, read without building the state.
    @inlinable
    package init(gathering lanes: Range<Int>, _ lane: (Int) -> Double) {
        // Built whole: stores to lanes picked at run time, read back as one vector, stalled on
        // store forwarding (a fifth of a dense box's run).
        let first = lanes.lowerBound, count = lanes.count
        self.init(count > 0 ? lane(first) : 0, count > 1 ? lane(first + 1) : 0, count > 2 ? lane(first + 2) : 0)
    }

    /// The first `dimensions` components.
    package func sceneComponents(_ dimensions: Int) -> [Double] { (0..<dimensions).map { self[$0] } }

    /// `(1.0, 2.0, 3.0)`, or its first `dimensions` components, for messages.
    package func sceneText(dimensions: Int = 3) -> String {
        "(" + sceneComponents(dimensions).map { "\($0)" }.joined(separator: ", ") + ")"
    }
}
