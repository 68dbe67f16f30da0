extension KeyframeAnimation {
    /// The value at normalized time `t` (clamped to [0, 1]), as Core Animation interpolates it.
    /// - Complexity: O(log keyframes) for the segment search.
    public func value(at t: Double) -> [Double] {
        let t = min(max(t, 0), 1)
        if values.count == 1 { return values[0] }
        switch calculationMode {
        case .discrete:
            // keyTimes[i] ≤ t < keyTimes[i + 1] shows values[i]; t = 1 shows the last value.
            let i = segment(containing: t, in: keyTimes)
            return values[min(i, values.count - 1)]
        case .linear, .paced:
            let i = min(segment(containing: t, in: keyTimes), values.count - 2)
            let span = keyTimes[i + 1] - keyTimes[i]
            let u = span > 0 ? (t - keyTimes[i]) / span : 1
            let eased = calculationMode == .paced ? u : timingFunctions[i].value(at: u)
            return zip(values[i], values[i + 1]).map { $0 + eased * ($1 - $0) }
        case .cubic, .cubicPaced:
            let i = min(segment(containing: t, in: keyTimes), values.count - 2)
            let span = keyTimes[i + 1] - keyTimes[i]
            let u = span > 0 ? (t - keyTimes[i]) / span : 1
            return cubicValue(segment: i, at: u)
        }
    }

    /// The first component of `value(at:)`, without allocating: the scalar case, for error scans.
    public func scalarValue(at t: Double) -> Double {
        let t = min(max(t, 0), 1)
        guard values.count > 1, calculationMode == .linear || calculationMode == .paced else { return value(at: t)[0] }
        let i = min(segment(containing: t, in: keyTimes), values.count - 2)
        let span = keyTimes[i + 1] - keyTimes[i]
        let u = span > 0 ? (t - keyTimes[i]) / span : 1
        let eased = calculationMode == .paced ? u : timingFunctions[i].value(at: u)
        return values[i][0] + eased * (values[i + 1][0] - values[i][0])
    }

    /// The largest i with keys[i] ≤ t (0 when t is before every key).
    func segment(containing t: Double, in keys: [Double]) -> Int {
        var low = 0, high = keys.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if keys[middle] <= t { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Kochanek–Bartels Hermite segment i at u ∈ [0, 1]; end values are repeated as neighbours.
    func cubicValue(segment i: Int, at u: Double) -> [Double] {
        func parameter(_ array: [Double], _ j: Int) -> Double { array.isEmpty ? 0 : array[j] }
        let p0 = values[max(i - 1, 0)], p1 = values[i], p2 = values[i + 1], p3 = values[min(i + 2, values.count - 1)]
        let (t1, c1, b1) = (parameter(tensionValues, i), parameter(continuityValues, i), parameter(biasValues, i))
        let (t2, c2, b2) = (
            parameter(tensionValues, i + 1), parameter(continuityValues, i + 1), parameter(biasValues, i + 1)
        )
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        return (0..<p1.count).map { k in
            let outgoing =
                (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[k] - p0[k]) + (1 - t1) * (1 - b1) * (1 - c1) / 2
                * (p2[k] - p1[k])
            let incoming =
                (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[k] - p1[k]) + (1 - t2) * (1 - b2) * (1 + c2) / 2
                * (p3[k] - p2[k])
            return h00 * p1[k] + h10 * outgoing + h01 * p2[k] + h11 * incoming
        }
    }
}
